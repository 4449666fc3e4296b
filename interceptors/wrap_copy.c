/*
 * Wrappers of the CUDA runtime's copy and set functions (plain, Async, 2D,
 * and the _ptds/_ptsz twins). Each forwards with the same arguments and
 * returns the real result; when recording it emits dnntrace_api:memcpy or
 * :memset with a call id that CUPTI's external correlation links to the
 * GPU record, and the tensors each pointer falls in.
 *
 * bytes is count, or width * height for the 2D variants. Must never touch
 * the memory being copied or set.
 */
#include <cuda_runtime_api.h>

#include "interceptors/cuda_ptds.h"
#include "interceptors/real_functions.h"
#include "interceptors/traced_call.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cudaMemcpy_ptds, cudaMemcpy);
DNNTRACE_SAME_PROTOTYPE(cudaMemcpyAsync_ptsz, cudaMemcpyAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemcpy2D_ptds, cudaMemcpy2D);
DNNTRACE_SAME_PROTOTYPE(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemset_ptds, cudaMemset);
DNNTRACE_SAME_PROTOTYPE(cudaMemsetAsync_ptsz, cudaMemsetAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMemset2D_ptds, cudaMemset2D);
DNNTRACE_SAME_PROTOTYPE(cudaMemset2DAsync_ptsz, cudaMemset2DAsync);

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

	lttng_ust_tracepoint(dnntrace_api, memcpy, call->call_id, api, (int)kind, dst, src,
			     bytes, stream, tensors, (int)result, call->start_ns);
}

static void record_memset(const struct traced_call *call, enum dnntrace_api_id api,
			  void *ptr, int value, uint64_t bytes, cudaStream_t stream,
			  cudaError_t result)
{
	int64_t tensor = tracer_tensor_of(ptr);

	lttng_ust_tracepoint(dnntrace_api, memset, call->call_id, api, ptr, value, bytes,
			     stream, tensor, (int)result, call->start_ns);
}

/* --- copies ----------------------------------------------------------- */

static cudaError_t copy(enum dnntrace_api_id api, __typeof__(&cudaMemcpy) real, void *dst,
			const void *src, size_t count, enum cudaMemcpyKind kind)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, count, kind);
	traced_call_begin(&call);
	cudaError_t result = real(dst, src, count, kind);
	traced_call_end(&call);
	record_memcpy(&call, api, kind, dst, src, count, NULL, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t copy_async(enum dnntrace_api_id api, __typeof__(&cudaMemcpyAsync) real,
			      void *dst, const void *src, size_t count,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, count, kind, stream);
	traced_call_begin(&call);
	cudaError_t result = real(dst, src, count, kind, stream);
	traced_call_end(&call);
	record_memcpy(&call, api, kind, dst, src, count, stream, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t copy_2d(enum dnntrace_api_id api, __typeof__(&cudaMemcpy2D) real,
			   void *dst, size_t dpitch, const void *src, size_t spitch,
			   size_t width, size_t height, enum cudaMemcpyKind kind)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, dpitch, src, spitch, width, height, kind);
	traced_call_begin(&call);
	cudaError_t result = real(dst, dpitch, src, spitch, width, height, kind);
	traced_call_end(&call);
	record_memcpy(&call, api, kind, dst, src, (uint64_t)width * height, NULL, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t copy_2d_async(enum dnntrace_api_id api,
				 __typeof__(&cudaMemcpy2DAsync) real, void *dst, size_t dpitch,
				 const void *src, size_t spitch, size_t width, size_t height,
				 enum cudaMemcpyKind kind, cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, dpitch, src, spitch, width, height, kind, stream);
	traced_call_begin(&call);
	cudaError_t result = real(dst, dpitch, src, spitch, width, height, kind, stream);
	traced_call_end(&call);
	record_memcpy(&call, api, kind, dst, src, (uint64_t)width * height, stream, result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
				       enum cudaMemcpyKind kind)
{
	return copy(DNNTRACE_API_cudaMemcpy, REAL(cudaMemcpy), dst, src, count, kind);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
					    enum cudaMemcpyKind kind)
{
	return copy(DNNTRACE_API_cudaMemcpy_ptds, REAL(cudaMemcpy_ptds), dst, src, count, kind);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
					    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return copy_async(DNNTRACE_API_cudaMemcpyAsync, REAL(cudaMemcpyAsync), dst, src, count,
			  kind, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
						 enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return copy_async(DNNTRACE_API_cudaMemcpyAsync_ptsz, REAL(cudaMemcpyAsync_ptsz), dst,
			  src, count, kind, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
					 size_t spitch, size_t width, size_t height,
					 enum cudaMemcpyKind kind)
{
	return copy_2d(DNNTRACE_API_cudaMemcpy2D, REAL(cudaMemcpy2D), dst, dpitch, src, spitch,
		       width, height, kind);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
					      size_t spitch, size_t width, size_t height,
					      enum cudaMemcpyKind kind)
{
	return copy_2d(DNNTRACE_API_cudaMemcpy2D_ptds, REAL(cudaMemcpy2D_ptds), dst, dpitch,
		       src, spitch, width, height, kind);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
					      size_t spitch, size_t width, size_t height,
					      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return copy_2d_async(DNNTRACE_API_cudaMemcpy2DAsync, REAL(cudaMemcpy2DAsync), dst,
			     dpitch, src, spitch, width, height, kind, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
						   size_t spitch, size_t width, size_t height,
						   enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return copy_2d_async(DNNTRACE_API_cudaMemcpy2DAsync_ptsz, REAL(cudaMemcpy2DAsync_ptsz),
			     dst, dpitch, src, spitch, width, height, kind, stream);
}

/* --- sets ------------------------------------------------------------- */

static cudaError_t set(enum dnntrace_api_id api, __typeof__(&cudaMemset) real, void *ptr,
		       int value, size_t count)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memset_enabled()))
		return real(ptr, value, count);
	traced_call_begin(&call);
	cudaError_t result = real(ptr, value, count);
	traced_call_end(&call);
	record_memset(&call, api, ptr, value, count, NULL, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t set_async(enum dnntrace_api_id api, __typeof__(&cudaMemsetAsync) real,
			     void *ptr, int value, size_t count, cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memset_enabled()))
		return real(ptr, value, count, stream);
	traced_call_begin(&call);
	cudaError_t result = real(ptr, value, count, stream);
	traced_call_end(&call);
	record_memset(&call, api, ptr, value, count, stream, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t set_2d(enum dnntrace_api_id api, __typeof__(&cudaMemset2D) real,
			  void *ptr, size_t pitch, int value, size_t width, size_t height)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memset_enabled()))
		return real(ptr, pitch, value, width, height);
	traced_call_begin(&call);
	cudaError_t result = real(ptr, pitch, value, width, height);
	traced_call_end(&call);
	record_memset(&call, api, ptr, value, (uint64_t)width * height, NULL, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t set_2d_async(enum dnntrace_api_id api, __typeof__(&cudaMemset2DAsync) real,
				void *ptr, size_t pitch, int value, size_t width, size_t height,
				cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(memset_enabled()))
		return real(ptr, pitch, value, width, height, stream);
	traced_call_begin(&call);
	cudaError_t result = real(ptr, pitch, value, width, height, stream);
	traced_call_end(&call);
	record_memset(&call, api, ptr, value, (uint64_t)width * height, stream, result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return set(DNNTRACE_API_cudaMemset, REAL(cudaMemset), devPtr, value, count);
}

DNNTRACE_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return set(DNNTRACE_API_cudaMemset_ptds, REAL(cudaMemset_ptds), devPtr, value, count);
}

DNNTRACE_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
					    cudaStream_t stream)
{
	return set_async(DNNTRACE_API_cudaMemsetAsync, REAL(cudaMemsetAsync), devPtr, value,
			 count, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
						 cudaStream_t stream)
{
	return set_async(DNNTRACE_API_cudaMemsetAsync_ptsz, REAL(cudaMemsetAsync_ptsz), devPtr,
			 value, count, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
					 size_t height)
{
	return set_2d(DNNTRACE_API_cudaMemset2D, REAL(cudaMemset2D), devPtr, pitch, value,
		      width, height);
}

DNNTRACE_EXPORT cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value,
					      size_t width, size_t height)
{
	return set_2d(DNNTRACE_API_cudaMemset2D_ptds, REAL(cudaMemset2D_ptds), devPtr, pitch,
		      value, width, height);
}

DNNTRACE_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
					      size_t width, size_t height, cudaStream_t stream)
{
	return set_2d_async(DNNTRACE_API_cudaMemset2DAsync, REAL(cudaMemset2DAsync), devPtr,
			    pitch, value, width, height, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
						   size_t width, size_t height,
						   cudaStream_t stream)
{
	return set_2d_async(DNNTRACE_API_cudaMemset2DAsync_ptsz, REAL(cudaMemset2DAsync_ptsz),
			    devPtr, pitch, value, width, height, stream);
}
