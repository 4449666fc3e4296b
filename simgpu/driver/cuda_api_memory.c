/*
 * The simulated driver's allocation entry points: cuMemAlloc_v2,
 * cuMemAllocPitch_v2, cuMemAllocManaged, stream-ordered cuMemAllocAsync /
 * cuMemAllocFromPoolAsync / cuMemFreeAsync, cuMemFree_v2, pinned host
 * memory, pools and cuMemGetInfo_v2, over core_alloc.c. Each is reported
 * to CUPTI with its driver cbid. It must never write an out-pointer on
 * failure.
 */
#include "simgpu/driver/driver_internal.h"

#include <stdlib.h>

#define PITCH_ALIGNMENT 512ULL

static CUresult mem_alloc(CUdeviceptr *dptr, size_t size, enum sim_mem_kind kind)
{
	DRIVER_ENTER();
	if (!dptr || size == 0)
		return CUDA_ERROR_INVALID_VALUE;
	void *p;
	cudaError_t err = sim_alloc_device(&p, size, kind);
	if (err == cudaSuccess)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return sim_cu_result(err);
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	DRIVER_API_CALL(cuMemAlloc_v2, mem_alloc(dptr, bytesize, SIM_MEM_DEVICE));
}

static CUresult mem_alloc_managed(CUdeviceptr *dptr, size_t size,
				  unsigned int flags)
{
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
		return sim_driver_initialized() ? CUDA_ERROR_INVALID_VALUE
						: CUDA_ERROR_NOT_INITIALIZED;
	return mem_alloc(dptr, size, SIM_MEM_MANAGED);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
	DRIVER_API_CALL(cuMemAllocManaged, mem_alloc_managed(dptr, bytesize, flags));
}

/* The pitch is the width rounded up to 512 bytes (README.md). */
static CUresult mem_alloc_pitch(CUdeviceptr *dptr, size_t *pitch, size_t width,
				size_t height, unsigned int element_size)
{
	DRIVER_ENTER();
	if (!dptr || !pitch || !width || !height ||
	    (element_size != 4 && element_size != 8 && element_size != 16))
		return CUDA_ERROR_INVALID_VALUE;
	size_t p = (width + PITCH_ALIGNMENT - 1) / PITCH_ALIGNMENT * PITCH_ALIGNMENT;
	if (p < width || p > SIZE_MAX / height)
		return CUDA_ERROR_OUT_OF_MEMORY;
	void *block;
	cudaError_t err = sim_alloc_device(&block, p * height, SIM_MEM_DEVICE);
	if (err == cudaSuccess) {
		*dptr = (CUdeviceptr)(uintptr_t)block;
		*pitch = p;
	}
	return sim_cu_result(err);
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
			    size_t WidthInBytes, size_t Height,
			    unsigned int ElementSizeBytes)
{
	DRIVER_API_CALL(cuMemAllocPitch_v2,
			mem_alloc_pitch(dptr, pPitch, WidthInBytes, Height,
					ElementSizeBytes));
}

/* Freeing 0 is a no-op success (assumed, as cudaFree(NULL)). */
static CUresult mem_free(CUdeviceptr dptr)
{
	DRIVER_ENTER();
	if (!dptr)
		return CUDA_SUCCESS;
	return sim_cu_result(sim_free_device(DPTR(dptr)));
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	DRIVER_API_CALL(cuMemFree_v2, mem_free(dptr));
}

static CUresult mem_alloc_async(CUdeviceptr *dptr, size_t size,
				const void *pool, CUstream stream, int ptsz)
{
	DRIVER_ENTER();
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	void *p = NULL;
	cudaError_t err = sim_alloc_async(&p, size, pool, stream, ptsz);
	if (err == cudaSuccess)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return sim_cu_result(err);
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	DRIVER_API_CALL(cuMemAllocAsync,
			mem_alloc_async(dptr, bytesize, sim_default_pool(), hStream, 0));
}

CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	DRIVER_API_CALL(cuMemAllocAsync_ptsz,
			mem_alloc_async(dptr, bytesize, sim_default_pool(), hStream, 1));
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize,
				 CUmemoryPool pool, CUstream hStream)
{
	DRIVER_API_CALL(cuMemAllocFromPoolAsync,
			mem_alloc_async(dptr, bytesize, pool, hStream, 0));
}

CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
				      CUmemoryPool pool, CUstream hStream)
{
	DRIVER_API_CALL(cuMemAllocFromPoolAsync_ptsz,
			mem_alloc_async(dptr, bytesize, pool, hStream, 1));
}

static CUresult mem_free_async(CUdeviceptr dptr, CUstream stream, int ptsz)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_free_async(DPTR(dptr), stream, ptsz));
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	DRIVER_API_CALL(cuMemFreeAsync, mem_free_async(dptr, hStream, 0));
}

CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
	DRIVER_API_CALL(cuMemFreeAsync_ptsz, mem_free_async(dptr, hStream, 1));
}

/* Size 0: CUDA_ERROR_INVALID_VALUE (assumed; cudart answers NULL itself). */
static CUresult host_alloc(void **pp, size_t size, unsigned int flags)
{
	DRIVER_ENTER();
	unsigned int known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
			     CU_MEMHOSTALLOC_WRITECOMBINED;
	if (!pp || !size || (flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	return sim_cu_result(sim_alloc_pinned(pp, size, flags));
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	DRIVER_API_CALL(cuMemHostAlloc, host_alloc(pp, bytesize, Flags));
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	DRIVER_API_CALL(cuMemAllocHost_v2, host_alloc(pp, bytesize, 0));
}

static CUresult host_free(void *p)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_free_pinned(p));
}

CUresult cuMemFreeHost(void *p)
{
	DRIVER_API_CALL(cuMemFreeHost, host_free(p));
}

/*
 * Page-locking existing host memory: simulated pinned memory is ordinary
 * pages, so registration only keeps the ranges (sim_host_register, the
 * core's: copies from and to them are pinned), for the errors a real
 * driver gives (overlap: ALREADY_REGISTERED; unknown: NOT_REGISTERED).
 * Flags are accepted; a registered range is not a device allocation.
 */
CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
	(void)Flags;
	DRIVER_ENTER();
	if (!p || !bytesize)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&sim_lock);
	int r = sim_host_register(p, bytesize);
	pthread_mutex_unlock(&sim_lock);
	return r == 0 ? CUDA_SUCCESS : r > 0 ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED :
		CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemHostUnregister(void *p)
{
	DRIVER_ENTER();
	pthread_mutex_lock(&sim_lock);
	int r = sim_host_unregister(p);
	pthread_mutex_unlock(&sim_lock);
	return r == 0 ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
	DRIVER_ENTER();
	if (!free || !total)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&sim_lock);
	*total = sim_mem_capacity();
	*free = sim_mem_capacity() - sim_mem_used();
	pthread_mutex_unlock(&sim_lock);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
	DRIVER_ENTER();
	if (!pool_out)
		return CUDA_ERROR_INVALID_VALUE;
	if (dev < 0 || dev >= sim_device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	/* One pool for every simulated device: they share one memory. */
	*pool_out = sim_default_pool();
	return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
	DRIVER_ENTER();
	if (!pool || !poolProps ||
	    poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	if (poolProps->location.id < 0 ||
	    poolProps->location.id >= sim_device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	return sim_cu_result(sim_pool_create(pool));
}

CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_pool_destroy(pool));
}

/* CUmemPool_attribute and cudaMemPoolAttr share their values (1..8). */
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuMemPoolSetAttribute, sim_cu_result(
		sim_pool_set_attribute(pool, (enum cudaMemPoolAttr)attr, value)));
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuMemPoolGetAttribute, sim_cu_result(
		sim_pool_get_attribute(pool, (enum cudaMemPoolAttr)attr, value)));
}
