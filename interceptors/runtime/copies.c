/*
 * Wrappers of the CUDA runtime's copy and set functions (plain, Async, 2D,
 * peer, and the _ptds/_ptsz twins) and of managed-memory prefetches. Each
 * forwards with the same arguments and returns the real result; when
 * recording it emits dnntrace_api:memcpy or :memset with a call id that
 * CUPTI's external correlation links to the GPU record, and the tensors
 * each pointer falls in. The bracket is core/wrapper.h's; each family
 * below is one prototype and one description, instantiated per twin.
 *
 * bytes is count, or width * height for the 2D variants. A prefetch moves
 * pages of one managed allocation and writes nothing: it is a memcpy
 * event whose dst and src are both the prefetched range (the analyzer
 * counts it as no write), kind HostToDevice towards a device, DeviceToHost
 * towards the host. Must never touch the memory being copied or set.
 */
#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_ptds.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cudaMemcpy_ptds, cudaMemcpy);
DNNTRACE_SAME_PROTOTYPE(cudaMemcpyAsync_ptsz, cudaMemcpyAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemcpy2D_ptds, cudaMemcpy2D);
DNNTRACE_SAME_PROTOTYPE(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemset_ptds, cudaMemset);
DNNTRACE_SAME_PROTOTYPE(cudaMemsetAsync_ptsz, cudaMemsetAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemset2D_ptds, cudaMemset2D);
DNNTRACE_SAME_PROTOTYPE(cudaMemset2DAsync_ptsz, cudaMemset2DAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync);

static bool memcpy_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, memcpy);
}

static bool memset_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, memset);
}

static void record_memcpy(const struct traced_call *call, enum dnntrace_api_id api,
			  enum cudaMemcpyKind kind, void *dst, const void *src, uint64_t bytes,
			  cudaStream_t stream, cudaError_t result)
{
	const int64_t tensors[2] = {tracer_tensor_of(dst), tracer_tensor_of(src)};

	DNNTRACE_EMIT(dnntrace_api, memcpy, call->call_id, api, (int)kind, dst, src,
			     bytes, stream, tensors, (int)result, call->start_ns);
	if (result == cudaSuccess)
		graph_capture_note(stream, (int)api, call->call_id);
}

static void record_memset(const struct traced_call *call, enum dnntrace_api_id api,
			  void *ptr, int value, uint64_t bytes, cudaStream_t stream,
			  cudaError_t result)
{
	int64_t tensor = tracer_tensor_of(ptr);

	DNNTRACE_EMIT(dnntrace_api, memset, call->call_id, api, ptr, value, bytes,
			     stream, tensor, (int)result, call->start_ns);
	if (result == cudaSuccess)
		graph_capture_note(stream, (int)api, call->call_id);
}

/* --- copies ----------------------------------------------------------- */

#define NOT_FOUND cudaErrorSharedObjectSymbolNotFound

/*
 * One prototype per family; the plain and Async forms differ only by a
 * trailing stream (stream_param, stream_arg), and the plain ones copy on
 * the legacy default stream (stream NULL).
 */
#define COPY_1D(name, stream_param, stream_arg, stream)                                    \
	DNNTRACE_TRACED_CALL(cudaError_t, name,                                             \
			     (void *dst, const void *src, size_t count,                     \
			      enum cudaMemcpyKind kind stream_param),                       \
			     (dst, src, count, kind stream_arg), NOT_FOUND, memcpy_enabled(),  \
			     record_memcpy(&call, api, kind, dst, src, count, stream, result))

#define COPY_2D(name, stream_param, stream_arg, stream)                                    \
	DNNTRACE_TRACED_CALL(cudaError_t, name,                                             \
			     (void *dst, size_t dpitch, const void *src, size_t spitch,     \
			      size_t width, size_t height, enum cudaMemcpyKind kind stream_param), \
			     (dst, dpitch, src, spitch, width, height, kind stream_arg),    \
			     NOT_FOUND, memcpy_enabled(),                                   \
			     record_memcpy(&call, api, kind, dst, src, (uint64_t)width * height, \
					   stream, result))

#define STREAM_PARAM , cudaStream_t stream
#define STREAM_ARG , stream

COPY_1D(cudaMemcpy, , , NULL)
COPY_1D(cudaMemcpy_ptds, , , NULL)
COPY_1D(cudaMemcpyAsync, STREAM_PARAM, STREAM_ARG, stream)
COPY_1D(cudaMemcpyAsync_ptsz, STREAM_PARAM, STREAM_ARG, stream)
COPY_2D(cudaMemcpy2D, , , NULL)
COPY_2D(cudaMemcpy2D_ptds, , , NULL)
COPY_2D(cudaMemcpy2DAsync, STREAM_PARAM, STREAM_ARG, stream)
COPY_2D(cudaMemcpy2DAsync_ptsz, STREAM_PARAM, STREAM_ARG, stream)

/* Devices share one unified address space: the tensors are found by address. */
DNNTRACE_TRACED_CALL(cudaError_t, cudaMemcpyPeerAsync,
		     (void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
		      cudaStream_t stream),
		     (dst, dstDevice, src, srcDevice, count, stream), NOT_FOUND, memcpy_enabled(),
		     record_memcpy(&call, api, cudaMemcpyDeviceToDevice, dst, src, count, stream,
				   result))

static enum cudaMemcpyKind prefetch_direction(struct cudaMemLocation location)
{
	return location.type == cudaMemLocationTypeDevice ? cudaMemcpyHostToDevice
							  : cudaMemcpyDeviceToHost;
}

#define PREFETCH(name)                                                                     \
	DNNTRACE_TRACED_CALL(cudaError_t, name,                                             \
			     (const void *devPtr, size_t count, struct cudaMemLocation location, \
			      unsigned int flags, cudaStream_t stream),                      \
			     (devPtr, count, location, flags, stream), NOT_FOUND, memcpy_enabled(), \
			     record_memcpy(&call, api, prefetch_direction(location), (void *)devPtr, \
					   devPtr, count, stream, result))

PREFETCH(cudaMemPrefetchAsync)
PREFETCH(cudaMemPrefetchAsync_ptsz)

/* --- sets ------------------------------------------------------------- */

#define SET_1D(name, stream_param, stream_arg, stream)                                     \
	DNNTRACE_TRACED_CALL(cudaError_t, name, (void *devPtr, int value, size_t count stream_param), \
			     (devPtr, value, count stream_arg), NOT_FOUND, memset_enabled(), \
			     record_memset(&call, api, devPtr, value, count, stream, result))

#define SET_2D(name, stream_param, stream_arg, stream)                                     \
	DNNTRACE_TRACED_CALL(cudaError_t, name,                                             \
			     (void *devPtr, size_t pitch, int value, size_t width,          \
			      size_t height stream_param),                                  \
			     (devPtr, pitch, value, width, height stream_arg), NOT_FOUND,   \
			     memset_enabled(),                                              \
			     record_memset(&call, api, devPtr, value, (uint64_t)width * height, \
					   stream, result))

SET_1D(cudaMemset, , , NULL)
SET_1D(cudaMemset_ptds, , , NULL)
SET_1D(cudaMemsetAsync, STREAM_PARAM, STREAM_ARG, stream)
SET_1D(cudaMemsetAsync_ptsz, STREAM_PARAM, STREAM_ARG, stream)
SET_2D(cudaMemset2D, , , NULL)
SET_2D(cudaMemset2D_ptds, , , NULL)
SET_2D(cudaMemset2DAsync, STREAM_PARAM, STREAM_ARG, stream)
SET_2D(cudaMemset2DAsync_ptsz, STREAM_PARAM, STREAM_ARG, stream)
