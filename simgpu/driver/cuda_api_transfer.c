/*
 * The simulated driver's copy and set entry points: cuMemcpy (unified
 * addressing), cuMemcpyHtoD/DtoH/DtoD_v2, their Async forms, cuMemcpy2D_v2
 * and cuMemcpy2DAsync_v2 (host, device and unified memory types), and
 * cuMemsetD8/D16/D32 (+Async, 2D 8-bit), each with its per-thread (_ptds /
 * _ptsz) twin, over core_transfer.c. It must never accept an array memory
 * type: the simulated device has no arrays.
 */
#include "simgpu/driver/driver_internal.h"

#include <string.h>

enum { HOST = 0, DEVICE = 1, EITHER = -1 };

static CUresult copy(CUdeviceptr dst, int want_dst, const void *src,
		     int want_src, size_t n, CUstream stream, int ptd,
		     int is_async, int cbid)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_memcpy2d(DPTR(dst), n, src, n, n, 1, want_src,
					  want_dst, stream, ptd, is_async, cbid));
}

#define HOSTP(p) ((CUdeviceptr)(uintptr_t)(p))

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	return copy(dst, EITHER, DPTR(src), EITHER, ByteCount, NULL, 0, 0,
		    CBID(cuMemcpy));
}

CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	return copy(dst, EITHER, DPTR(src), EITHER, ByteCount, NULL, 1, 0,
		    CBID(cuMemcpy_ptds));
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
		       CUstream hStream)
{
	return copy(dst, EITHER, DPTR(src), EITHER, ByteCount, hStream, 0, 1,
		    CBID(cuMemcpyAsync));
}

CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
			    CUstream hStream)
{
	return copy(dst, EITHER, DPTR(src), EITHER, ByteCount, hStream, 1, 1,
		    CBID(cuMemcpyAsync_ptsz));
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost,
			 size_t ByteCount)
{
	return copy(dstDevice, DEVICE, srcHost, HOST, ByteCount, NULL, 0, 0,
		    CBID(cuMemcpyHtoD_v2));
}

CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost,
			      size_t ByteCount)
{
	return copy(dstDevice, DEVICE, srcHost, HOST, ByteCount, NULL, 1, 0,
		    CBID(cuMemcpyHtoD_v2_ptds));
}

CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	return copy(HOSTP(dstHost), HOST, DPTR(srcDevice), DEVICE, ByteCount,
		    NULL, 0, 0, CBID(cuMemcpyDtoH_v2));
}

CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice,
			      size_t ByteCount)
{
	return copy(HOSTP(dstHost), HOST, DPTR(srcDevice), DEVICE, ByteCount,
		    NULL, 1, 0, CBID(cuMemcpyDtoH_v2_ptds));
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			 size_t ByteCount)
{
	return copy(dstDevice, DEVICE, DPTR(srcDevice), DEVICE, ByteCount, NULL,
		    0, 0, CBID(cuMemcpyDtoD_v2));
}

CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			      size_t ByteCount)
{
	return copy(dstDevice, DEVICE, DPTR(srcDevice), DEVICE, ByteCount, NULL,
		    1, 0, CBID(cuMemcpyDtoD_v2_ptds));
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
			      size_t ByteCount, CUstream hStream)
{
	return copy(dstDevice, DEVICE, srcHost, HOST, ByteCount, hStream, 0, 1,
		    CBID(cuMemcpyHtoDAsync_v2));
}

CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
				   size_t ByteCount, CUstream hStream)
{
	return copy(dstDevice, DEVICE, srcHost, HOST, ByteCount, hStream, 1, 1,
		    CBID(cuMemcpyHtoDAsync_v2_ptsz));
}

CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice,
			      size_t ByteCount, CUstream hStream)
{
	return copy(HOSTP(dstHost), HOST, DPTR(srcDevice), DEVICE, ByteCount,
		    hStream, 0, 1, CBID(cuMemcpyDtoHAsync_v2));
}

CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
				   size_t ByteCount, CUstream hStream)
{
	return copy(HOSTP(dstHost), HOST, DPTR(srcDevice), DEVICE, ByteCount,
		    hStream, 1, 1, CBID(cuMemcpyDtoHAsync_v2_ptsz));
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			      size_t ByteCount, CUstream hStream)
{
	return copy(dstDevice, DEVICE, DPTR(srcDevice), DEVICE, ByteCount,
		    hStream, 0, 1, CBID(cuMemcpyDtoDAsync_v2));
}

CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
				   size_t ByteCount, CUstream hStream)
{
	return copy(dstDevice, DEVICE, DPTR(srcDevice), DEVICE, ByteCount,
		    hStream, 1, 1, CBID(cuMemcpyDtoDAsync_v2_ptsz));
}

/* One side of a CUDA_MEMCPY2D: its first byte, pitch and what it must be.
   An array side (cuda_api_arrays.c) uses the array's own rows and must
   hold the whole rectangle. */
static CUresult memcpy2d_side(CUmemorytype type, const void *host, CUdeviceptr dev,
			      CUarray array, size_t x, size_t y, size_t pitch,
			      size_t width, size_t height, const void **start,
			      size_t *pitch_out, int *want)
{
	const uint8_t *base;
	*pitch_out = pitch;
	switch (type) {
	case CU_MEMORYTYPE_HOST:
		base = host, *want = HOST;
		break;
	case CU_MEMORYTYPE_DEVICE:
		base = DPTR(dev), *want = DEVICE;
		break;
	case CU_MEMORYTYPE_UNIFIED:
		base = DPTR(dev), *want = EITHER;
		break;
	case CU_MEMORYTYPE_ARRAY: {
		void *mem;
		size_t row_bytes, rows;
		if (!sim_array_region(array, &mem, &row_bytes, &rows))
			return CUDA_ERROR_INVALID_VALUE; /* not an array (assumed) */
		if (x > row_bytes || width > row_bytes - x || y > rows || height > rows - y)
			return CUDA_ERROR_INVALID_VALUE;
		base = mem, *want = DEVICE, *pitch_out = row_bytes;
		break;
	}
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	*start = base ? base + y * *pitch_out + x : NULL;
	return CUDA_SUCCESS;
}

static CUresult copy_2d(const CUDA_MEMCPY2D *c, CUstream stream, int ptd,
			int is_async, int cbid)
{
	DRIVER_ENTER();
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	const void *src, *dst;
	int want_src, want_dst;
	size_t spitch, dpitch;
	CUresult r = memcpy2d_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray,
				   c->srcXInBytes, c->srcY, c->srcPitch, c->WidthInBytes,
				   c->Height, &src, &spitch, &want_src);
	if (r == CUDA_SUCCESS)
		r = memcpy2d_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray,
				  c->dstXInBytes, c->dstY, c->dstPitch, c->WidthInBytes,
				  c->Height, &dst, &dpitch, &want_dst);
	if (r != CUDA_SUCCESS)
		return r;
	if (!spitch)
		spitch = c->WidthInBytes;
	if (!dpitch)
		dpitch = c->WidthInBytes;
	return sim_cu_result(sim_memcpy2d((void *)dst, dpitch, src, spitch,
					  c->WidthInBytes, c->Height, want_src,
					  want_dst, stream, ptd, is_async, cbid));
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
	return copy_2d(pCopy, NULL, 0, 0, CBID(cuMemcpy2D_v2));
}

CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	return copy_2d(pCopy, NULL, 1, 0, CBID(cuMemcpy2D_v2_ptds));
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	return copy_2d(pCopy, hStream, 0, 1, CBID(cuMemcpy2DAsync_v2));
}

CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	return copy_2d(pCopy, hStream, 1, 1, CBID(cuMemcpy2DAsync_v2_ptsz));
}

/* ---- sets ---- */

static CUresult set(CUdeviceptr dst, size_t pitch, unsigned int value,
		    size_t elem_size, size_t width, size_t height,
		    CUstream stream, int ptd, int is_async, int cbid)
{
	DRIVER_ENTER();
	if (dst % elem_size != 0 || (height > 1 && pitch % elem_size != 0))
		return CUDA_ERROR_INVALID_VALUE;
	return sim_cu_result(sim_memset2d(DPTR(dst), pitch, value, elem_size,
					  width, height, stream, ptd, is_async,
					  cbid));
}

CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return set(dstDevice, N, uc, 1, N, 1, NULL, 0, 0, CBID(cuMemsetD8_v2));
}

CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return set(dstDevice, N, uc, 1, N, 1, NULL, 1, 0,
		   CBID(cuMemsetD8_v2_ptds));
}

CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return set(dstDevice, 2 * N, us, 2, N, 1, NULL, 0, 0,
		   CBID(cuMemsetD16_v2));
}

CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return set(dstDevice, 2 * N, us, 2, N, 1, NULL, 1, 0,
		   CBID(cuMemsetD16_v2_ptds));
}

CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return set(dstDevice, 4 * N, ui, 4, N, 1, NULL, 0, 0,
		   CBID(cuMemsetD32_v2));
}

CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return set(dstDevice, 4 * N, ui, 4, N, 1, NULL, 1, 0,
		   CBID(cuMemsetD32_v2_ptds));
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
			 CUstream hStream)
{
	return set(dstDevice, N, uc, 1, N, 1, hStream, 0, 1,
		   CBID(cuMemsetD8Async));
}

CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc,
			      size_t N, CUstream hStream)
{
	return set(dstDevice, N, uc, 1, N, 1, hStream, 1, 1,
		   CBID(cuMemsetD8Async_ptsz));
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
			  CUstream hStream)
{
	return set(dstDevice, 2 * N, us, 2, N, 1, hStream, 0, 1,
		   CBID(cuMemsetD16Async));
}

CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us,
			       size_t N, CUstream hStream)
{
	return set(dstDevice, 2 * N, us, 2, N, 1, hStream, 1, 1,
		   CBID(cuMemsetD16Async_ptsz));
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
			  CUstream hStream)
{
	return set(dstDevice, 4 * N, ui, 4, N, 1, hStream, 0, 1,
		   CBID(cuMemsetD32Async));
}

CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui,
			       size_t N, CUstream hStream)
{
	return set(dstDevice, 4 * N, ui, 4, N, 1, hStream, 1, 1,
		   CBID(cuMemsetD32Async_ptsz));
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch,
			 unsigned char uc, size_t Width, size_t Height)
{
	return set(dstDevice, dstPitch, uc, 1, Width, Height, NULL, 0, 0,
		   CBID(cuMemsetD2D8_v2));
}

CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch,
			      unsigned char uc, size_t Width, size_t Height)
{
	return set(dstDevice, dstPitch, uc, 1, Width, Height, NULL, 1, 0,
		   CBID(cuMemsetD2D8_v2_ptds));
}

CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
			   unsigned char uc, size_t Width, size_t Height,
			   CUstream hStream)
{
	return set(dstDevice, dstPitch, uc, 1, Width, Height, hStream, 0, 1,
		   CBID(cuMemsetD2D8Async));
}

CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
				unsigned char uc, size_t Width, size_t Height,
				CUstream hStream)
{
	return set(dstDevice, dstPitch, uc, 1, Width, Height, hStream, 1, 1,
		   CBID(cuMemsetD2D8Async_ptsz));
}
