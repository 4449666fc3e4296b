/*
 * Wrappers of the driver's basic copies and sets: cuMemcpy, cuMemcpyAsync,
 * cuMemcpy{HtoD,DtoH,DtoD}[Async]_v2, cuMemsetD{8,16,32}_v2 and
 * cuMemsetD{8,16,32}Async, each with its _ptds/_ptsz twin. Each forwards
 * with the same arguments and returns the real result; when recording it
 * emits dnntrace_api:memcpy / :memset like the runtime wrappers, with a call
 * id that CUPTI's external correlation links to the GPU record. The bracket
 * is core/wrapper.h's; each family below is one prototype and one
 * description, instantiated per twin.
 *
 * direction is the cudaMemcpyKind the copy amounts to (HtoD 1, DtoH 2,
 * DtoD 3, cuMemcpy's unified addressing 4 = cudaMemcpyDefault); a set's
 * bytes is N times the element width. Must never touch the memory being
 * copied or set.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cuMemcpy_ptds, cuMemcpy);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyAsync_ptsz, cuMemcpyAsync);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemsetD8_v2_ptds, cuMemsetD8_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemsetD16_v2_ptds, cuMemsetD16_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemsetD32_v2_ptds, cuMemsetD32_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemsetD8Async_ptsz, cuMemsetD8Async);
DNNTRACE_SAME_PROTOTYPE(cuMemsetD16Async_ptsz, cuMemsetD16Async);
DNNTRACE_SAME_PROTOTYPE(cuMemsetD32Async_ptsz, cuMemsetD32Async);

static bool memcpy_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, memcpy);
}

static bool memset_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, memset);
}

/* A device address (CUdeviceptr) or a host pointer, as the event's pointer. */
#define ADDRESS(x) ((const void *)(uintptr_t)(x))

static void record_memcpy(const struct traced_call *call, enum dnntrace_api_id api,
			  enum cudaMemcpyKind direction, const void *dst, const void *src,
			  uint64_t bytes, CUstream stream, CUresult result)
{
	const int64_t tensors[2] = {tracer_tensor_of(dst), tracer_tensor_of(src)};

	DNNTRACE_EMIT(dnntrace_api, memcpy, call->call_id, api, (int)direction, dst, src,
			     bytes, stream, tensors, (int)result, call->start_ns);
	if (result == CUDA_SUCCESS)
		graph_capture_note(stream, (int)api, call->call_id);
}

static void record_memset(const struct traced_call *call, enum dnntrace_api_id api,
			  CUdeviceptr dst, unsigned value, uint64_t bytes, CUstream stream,
			  CUresult result)
{
	DNNTRACE_EMIT(dnntrace_api, memset, call->call_id, api, ADDRESS(dst), (int)value,
			     bytes, stream, tracer_tensor_of(ADDRESS(dst)), (int)result,
			     call->start_ns);
	if (result == CUDA_SUCCESS)
		graph_capture_note(stream, (int)api, call->call_id);
}

#define NOT_FOUND CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND

/*
 * The synchronous forms run on the legacy default stream (stream NULL); the
 * Async ones add a trailing stream (STREAM_PARAM, STREAM_ARG). The
 * synchronous twin is _ptds, the Async one _ptsz.
 */
#define STREAM_PARAM , CUstream hStream
#define STREAM_ARG , hStream

/* --- copies -------------------------------------------------------------- */

/* One prototype for every copy: the direction says which side is a device address. */
#define COPY(name, dst_type, src_type, direction, stream_param, stream_arg, stream)          \
	DNNTRACE_TRACED_CALL(CUresult, name,                                                \
			     (dst_type dst, src_type src, size_t ByteCount stream_param),   \
			     (dst, src, ByteCount stream_arg), NOT_FOUND, memcpy_enabled(),  \
			     record_memcpy(&call, api, direction, ADDRESS(dst), ADDRESS(src), \
					   ByteCount, stream, result))

#define COPY_SYNC(name, dst_type, src_type, direction)                                     \
	COPY(name, dst_type, src_type, direction, , , NULL)                                \
	COPY(name##_ptds, dst_type, src_type, direction, , , NULL)

#define COPY_ASYNC(name, dst_type, src_type, direction)                                    \
	COPY(name, dst_type, src_type, direction, STREAM_PARAM, STREAM_ARG, hStream)        \
	COPY(name##_ptsz, dst_type, src_type, direction, STREAM_PARAM, STREAM_ARG, hStream)

COPY_SYNC(cuMemcpy, CUdeviceptr, CUdeviceptr, cudaMemcpyDefault)
COPY_ASYNC(cuMemcpyAsync, CUdeviceptr, CUdeviceptr, cudaMemcpyDefault)
COPY_SYNC(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, cudaMemcpyDeviceToDevice)
COPY_ASYNC(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, cudaMemcpyDeviceToDevice)
COPY_SYNC(cuMemcpyHtoD_v2, CUdeviceptr, const void *, cudaMemcpyHostToDevice)
COPY_ASYNC(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, cudaMemcpyHostToDevice)
COPY_SYNC(cuMemcpyDtoH_v2, void *, CUdeviceptr, cudaMemcpyDeviceToHost)
COPY_ASYNC(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, cudaMemcpyDeviceToHost)

/* --- sets ---------------------------------------------------------------- */

/* The three element widths differ only in the value's type; bytes = N * width. */
#define SET(name, width, value_type, stream_param, stream_arg, stream)                       \
	DNNTRACE_TRACED_CALL(CUresult, name,                                                \
			     (CUdeviceptr dst, value_type value, size_t N stream_param),    \
			     (dst, value, N stream_arg), NOT_FOUND, memset_enabled(),       \
			     record_memset(&call, api, dst, value, (uint64_t)N * (width / 8), \
					   stream, result))

#define SET_WIDTH(width, value_type)                                                       \
	SET(cuMemsetD##width##_v2, width, value_type, , , NULL)                            \
	SET(cuMemsetD##width##_v2_ptds, width, value_type, , , NULL)                       \
	SET(cuMemsetD##width##Async, width, value_type, STREAM_PARAM, STREAM_ARG, hStream)  \
	SET(cuMemsetD##width##Async_ptsz, width, value_type, STREAM_PARAM, STREAM_ARG, hStream)

SET_WIDTH(8, unsigned char)
SET_WIDTH(16, unsigned short)
SET_WIDTH(32, unsigned int)
