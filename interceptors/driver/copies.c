/*
 * Wrappers of the driver's basic copies and sets: cuMemcpy, cuMemcpyAsync,
 * cuMemcpy{HtoD,DtoH,DtoD}[Async]_v2, cuMemsetD{8,16,32}_v2 and
 * cuMemsetD{8,16,32}Async, each with its _ptds/_ptsz twin. Each forwards
 * with the same arguments and returns the real result; when recording it
 * emits dnntrace_api:memcpy / :memset like the runtime wrappers, with a call
 * id that CUPTI's external correlation links to the GPU record.
 *
 * direction is the cudaMemcpyKind the copy amounts to (HtoD 1, DtoH 2,
 * DtoD 3, cuMemcpy's unified addressing 4 = cudaMemcpyDefault); a set's
 * bytes is N times the element width. Must never touch the memory being
 * copied or set.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"
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
/* cuMemcpy and cuMemcpyDtoD_v2 share one helper; cuMemcpyAsync and DtoDAsync another. */
DNNTRACE_SAME_PROTOTYPE(cuMemcpy, cuMemcpyDtoD_v2);
DNNTRACE_SAME_PROTOTYPE(cuMemcpyAsync, cuMemcpyDtoDAsync_v2);

static bool memcpy_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, memcpy);
}

static bool memset_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, memset);
}

static void *as_ptr(CUdeviceptr address)
{
	return (void *)(uintptr_t)address;
}

static void record_memcpy(const struct traced_call *call, enum dnntrace_api_id api,
			  enum cudaMemcpyKind direction, const void *dst, const void *src,
			  uint64_t bytes, CUstream stream, CUresult result)
{
	const int64_t tensors[2] = {tracer_tensor_of(dst), tracer_tensor_of(src)};

	lttng_ust_tracepoint(dnntrace_api, memcpy, call->call_id, api, (int)direction, dst, src,
			     bytes, stream, tensors, (int)result, call->start_ns);
}

/* --- copies -------------------------------------------------------------- */

/* Device (or unified) address to device address: cuMemcpy, cuMemcpyDtoD_v2. */
static CUresult copy_dd(enum dnntrace_api_id api, __typeof__(&cuMemcpy) real,
			enum cudaMemcpyKind direction, CUdeviceptr dst, CUdeviceptr src,
			size_t bytes)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, bytes);
	traced_call_begin(&call);
	CUresult result = real(dst, src, bytes);
	traced_call_end(&call);
	record_memcpy(&call, api, direction, as_ptr(dst), as_ptr(src), bytes, NULL, result);
	traced_call_leave(&call);
	return result;
}

static CUresult copy_dd_async(enum dnntrace_api_id api, __typeof__(&cuMemcpyAsync) real,
			      enum cudaMemcpyKind direction, CUdeviceptr dst, CUdeviceptr src,
			      size_t bytes, CUstream stream)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, bytes, stream);
	traced_call_begin(&call);
	CUresult result = real(dst, src, bytes, stream);
	traced_call_end(&call);
	record_memcpy(&call, api, direction, as_ptr(dst), as_ptr(src), bytes, stream, result);
	traced_call_leave(&call);
	return result;
}

static CUresult copy_hd(enum dnntrace_api_id api, __typeof__(&cuMemcpyHtoD_v2) real,
			CUdeviceptr dst, const void *src, size_t bytes)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, bytes);
	traced_call_begin(&call);
	CUresult result = real(dst, src, bytes);
	traced_call_end(&call);
	record_memcpy(&call, api, cudaMemcpyHostToDevice, as_ptr(dst), src, bytes, NULL, result);
	traced_call_leave(&call);
	return result;
}

static CUresult copy_hd_async(enum dnntrace_api_id api,
			      __typeof__(&cuMemcpyHtoDAsync_v2) real, CUdeviceptr dst,
			      const void *src, size_t bytes, CUstream stream)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, bytes, stream);
	traced_call_begin(&call);
	CUresult result = real(dst, src, bytes, stream);
	traced_call_end(&call);
	record_memcpy(&call, api, cudaMemcpyHostToDevice, as_ptr(dst), src, bytes, stream,
		      result);
	traced_call_leave(&call);
	return result;
}

static CUresult copy_dh(enum dnntrace_api_id api, __typeof__(&cuMemcpyDtoH_v2) real,
			void *dst, CUdeviceptr src, size_t bytes)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, bytes);
	traced_call_begin(&call);
	CUresult result = real(dst, src, bytes);
	traced_call_end(&call);
	record_memcpy(&call, api, cudaMemcpyDeviceToHost, dst, as_ptr(src), bytes, NULL, result);
	traced_call_leave(&call);
	return result;
}

static CUresult copy_dh_async(enum dnntrace_api_id api,
			      __typeof__(&cuMemcpyDtoHAsync_v2) real, void *dst,
			      CUdeviceptr src, size_t bytes, CUstream stream)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(memcpy_enabled()))
		return real(dst, src, bytes, stream);
	traced_call_begin(&call);
	CUresult result = real(dst, src, bytes, stream);
	traced_call_end(&call);
	record_memcpy(&call, api, cudaMemcpyDeviceToHost, dst, as_ptr(src), bytes, stream,
		      result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	return copy_dd(DNNTRACE_API_cuMemcpy, REAL(cuMemcpy), cudaMemcpyDefault, dst, src,
		       ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	return copy_dd(DNNTRACE_API_cuMemcpy_ptds, REAL(cuMemcpy_ptds), cudaMemcpyDefault, dst,
		       src, ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
				       CUstream hStream)
{
	return copy_dd_async(DNNTRACE_API_cuMemcpyAsync, REAL(cuMemcpyAsync), cudaMemcpyDefault,
			     dst, src, ByteCount, hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
					    CUstream hStream)
{
	return copy_dd_async(DNNTRACE_API_cuMemcpyAsync_ptsz, REAL(cuMemcpyAsync_ptsz),
			     cudaMemcpyDefault, dst, src, ByteCount, hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
					 size_t ByteCount)
{
	return copy_dd(DNNTRACE_API_cuMemcpyDtoD_v2, REAL(cuMemcpyDtoD_v2),
		       cudaMemcpyDeviceToDevice, dstDevice, srcDevice, ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
					      size_t ByteCount)
{
	return copy_dd(DNNTRACE_API_cuMemcpyDtoD_v2_ptds, REAL(cuMemcpyDtoD_v2_ptds),
		       cudaMemcpyDeviceToDevice, dstDevice, srcDevice, ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
					      size_t ByteCount, CUstream hStream)
{
	return copy_dd_async(DNNTRACE_API_cuMemcpyDtoDAsync_v2, REAL(cuMemcpyDtoDAsync_v2),
			     cudaMemcpyDeviceToDevice, dstDevice, srcDevice, ByteCount, hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice,
						   CUdeviceptr srcDevice, size_t ByteCount,
						   CUstream hStream)
{
	return copy_dd_async(DNNTRACE_API_cuMemcpyDtoDAsync_v2_ptsz,
			     REAL(cuMemcpyDtoDAsync_v2_ptsz), cudaMemcpyDeviceToDevice,
			     dstDevice, srcDevice, ByteCount, hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost,
					 size_t ByteCount)
{
	return copy_hd(DNNTRACE_API_cuMemcpyHtoD_v2, REAL(cuMemcpyHtoD_v2), dstDevice, srcHost,
		       ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost,
					      size_t ByteCount)
{
	return copy_hd(DNNTRACE_API_cuMemcpyHtoD_v2_ptds, REAL(cuMemcpyHtoD_v2_ptds), dstDevice,
		       srcHost, ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
					      size_t ByteCount, CUstream hStream)
{
	return copy_hd_async(DNNTRACE_API_cuMemcpyHtoDAsync_v2, REAL(cuMemcpyHtoDAsync_v2),
			     dstDevice, srcHost, ByteCount, hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
						   size_t ByteCount, CUstream hStream)
{
	return copy_hd_async(DNNTRACE_API_cuMemcpyHtoDAsync_v2_ptsz,
			     REAL(cuMemcpyHtoDAsync_v2_ptsz), dstDevice, srcHost, ByteCount,
			     hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	return copy_dh(DNNTRACE_API_cuMemcpyDtoH_v2, REAL(cuMemcpyDtoH_v2), dstHost, srcDevice,
		       ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice,
					      size_t ByteCount)
{
	return copy_dh(DNNTRACE_API_cuMemcpyDtoH_v2_ptds, REAL(cuMemcpyDtoH_v2_ptds), dstHost,
		       srcDevice, ByteCount);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice,
					      size_t ByteCount, CUstream hStream)
{
	return copy_dh_async(DNNTRACE_API_cuMemcpyDtoHAsync_v2, REAL(cuMemcpyDtoHAsync_v2),
			     dstHost, srcDevice, ByteCount, hStream);
}

DNNTRACE_EXPORT CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
						   size_t ByteCount, CUstream hStream)
{
	return copy_dh_async(DNNTRACE_API_cuMemcpyDtoHAsync_v2_ptsz,
			     REAL(cuMemcpyDtoHAsync_v2_ptsz), dstHost, srcDevice, ByteCount,
			     hStream);
}

/* --- sets ---------------------------------------------------------------- */

static void record_memset(const struct traced_call *call, enum dnntrace_api_id api,
			  CUdeviceptr dst, unsigned value, uint64_t bytes, CUstream stream,
			  CUresult result)
{
	lttng_ust_tracepoint(dnntrace_api, memset, call->call_id, api, as_ptr(dst), (int)value,
			     bytes, stream, tracer_tensor_of(as_ptr(dst)), (int)result,
			     call->start_ns);
}

/*
 * One synchronous and one stream-ordered helper per element width: the
 * three widths differ only in the value's type, and bytes = N * width.
 */
#define DEFINE_SET_HELPERS(width, value_type)                                                  \
	static CUresult set_d##width(enum dnntrace_api_id api,                                 \
				     __typeof__(&cuMemsetD##width##_v2) real, CUdeviceptr dst, \
				     value_type value, size_t n)                               \
	{                                                                                      \
		struct traced_call call;                                                       \
		if (!real)                                                                     \
			return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;                      \
		if (!tracer_enter(memset_enabled()))                                           \
			return real(dst, value, n);                                            \
		traced_call_begin(&call);                                                      \
		CUresult result = real(dst, value, n);                                         \
		traced_call_end(&call);                                                        \
		record_memset(&call, api, dst, value, (uint64_t)n * (width / 8), NULL, result); \
		traced_call_leave(&call);                                                      \
		return result;                                                                 \
	}                                                                                      \
	static CUresult set_d##width##_async(enum dnntrace_api_id api,                         \
					     __typeof__(&cuMemsetD##width##Async) real,        \
					     CUdeviceptr dst, value_type value, size_t n,      \
					     CUstream stream)                                  \
	{                                                                                      \
		struct traced_call call;                                                       \
		if (!real)                                                                     \
			return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;                      \
		if (!tracer_enter(memset_enabled()))                                           \
			return real(dst, value, n, stream);                                    \
		traced_call_begin(&call);                                                      \
		CUresult result = real(dst, value, n, stream);                                 \
		traced_call_end(&call);                                                        \
		record_memset(&call, api, dst, value, (uint64_t)n * (width / 8), stream,       \
			      result);                                                         \
		traced_call_leave(&call);                                                      \
		return result;                                                                 \
	}

DEFINE_SET_HELPERS(8, unsigned char)
DEFINE_SET_HELPERS(16, unsigned short)
DEFINE_SET_HELPERS(32, unsigned int)

DNNTRACE_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return set_d8(DNNTRACE_API_cuMemsetD8_v2, REAL(cuMemsetD8_v2), dstDevice, uc, N);
}

DNNTRACE_EXPORT CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return set_d8(DNNTRACE_API_cuMemsetD8_v2_ptds, REAL(cuMemsetD8_v2_ptds), dstDevice, uc, N);
}

DNNTRACE_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return set_d16(DNNTRACE_API_cuMemsetD16_v2, REAL(cuMemsetD16_v2), dstDevice, us, N);
}

DNNTRACE_EXPORT CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return set_d16(DNNTRACE_API_cuMemsetD16_v2_ptds, REAL(cuMemsetD16_v2_ptds), dstDevice, us,
		       N);
}

DNNTRACE_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return set_d32(DNNTRACE_API_cuMemsetD32_v2, REAL(cuMemsetD32_v2), dstDevice, ui, N);
}

DNNTRACE_EXPORT CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return set_d32(DNNTRACE_API_cuMemsetD32_v2_ptds, REAL(cuMemsetD32_v2_ptds), dstDevice, ui,
		       N);
}

DNNTRACE_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
					 CUstream hStream)
{
	return set_d8_async(DNNTRACE_API_cuMemsetD8Async, REAL(cuMemsetD8Async), dstDevice, uc,
			    N, hStream);
}

DNNTRACE_EXPORT CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N,
					      CUstream hStream)
{
	return set_d8_async(DNNTRACE_API_cuMemsetD8Async_ptsz, REAL(cuMemsetD8Async_ptsz),
			    dstDevice, uc, N, hStream);
}

DNNTRACE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
					  CUstream hStream)
{
	return set_d16_async(DNNTRACE_API_cuMemsetD16Async, REAL(cuMemsetD16Async), dstDevice,
			     us, N, hStream);
}

DNNTRACE_EXPORT CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us,
					       size_t N, CUstream hStream)
{
	return set_d16_async(DNNTRACE_API_cuMemsetD16Async_ptsz, REAL(cuMemsetD16Async_ptsz),
			     dstDevice, us, N, hStream);
}

DNNTRACE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
					  CUstream hStream)
{
	return set_d32_async(DNNTRACE_API_cuMemsetD32Async, REAL(cuMemsetD32Async), dstDevice,
			     ui, N, hStream);
}

DNNTRACE_EXPORT CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui,
					       size_t N, CUstream hStream)
{
	return set_d32_async(DNNTRACE_API_cuMemsetD32Async_ptsz, REAL(cuMemsetD32Async_ptsz),
			     dstDevice, ui, N, hStream);
}
