/*
 * The simulated driver's virtual memory management entry points (what
 * PyTorch's expandable segments use): cuMemGetAllocationGranularity,
 * cuMemCreate / cuMemRelease, cuMemAddressReserve / cuMemAddressFree,
 * cuMemMap / cuMemUnmap and cuMemSetAccess, over core_vmm.c. Only pinned
 * device memory on device 0 is modelled. Each is reported to CUPTI with its
 * driver cbid. It must never write an out-pointer on failure.
 */
#include "simgpu/driver/driver_internal.h"

static int prop_is_device(const CUmemAllocationProp *prop)
{
	return prop && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED &&
	       prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	       prop->location.id == 0;
}

#define LOCKED(expr)                                                \
	({                                                          \
		pthread_mutex_lock(&sim_lock);                      \
		cudaError_t locked_ = (expr);                       \
		pthread_mutex_unlock(&sim_lock);                    \
		sim_cu_result(locked_);                             \
	})

CUresult cuMemGetAllocationGranularity(size_t *granularity,
				       const CUmemAllocationProp *prop,
				       CUmemAllocationGranularity_flags option)
{
	DRIVER_ENTER();
	if (!granularity || !prop_is_device(prop) ||
	    (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	     option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
		return CUDA_ERROR_INVALID_VALUE;
	*granularity = sim_vmm_granularity();
	return CUDA_SUCCESS;
}

static CUresult mem_create(CUmemGenericAllocationHandle *handle, size_t size,
			   const CUmemAllocationProp *prop,
			   unsigned long long flags)
{
	DRIVER_ENTER();
	if (!handle || flags || !prop_is_device(prop))
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t h;
	CUresult r = LOCKED(sim_vmm_create(size, &h));
	if (r == CUDA_SUCCESS)
		*handle = h;
	return r;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
		     const CUmemAllocationProp *prop, unsigned long long flags)
{
	DRIVER_API_CALL(cuMemCreate, mem_create(handle, size, prop, flags));
}

static CUresult mem_release(CUmemGenericAllocationHandle handle)
{
	DRIVER_ENTER();
	return LOCKED(sim_vmm_release(handle));
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
	DRIVER_API_CALL(cuMemRelease, mem_release(handle));
}

static CUresult address_reserve(CUdeviceptr *ptr, size_t size, size_t alignment,
				CUdeviceptr addr, unsigned long long flags)
{
	DRIVER_ENTER();
	if (!ptr || flags)
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t va;
	CUresult r = LOCKED(sim_vmm_reserve(size, alignment, addr, &va));
	if (r == CUDA_SUCCESS)
		*ptr = va;
	return r;
}

CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
			     CUdeviceptr addr, unsigned long long flags)
{
	DRIVER_API_CALL(cuMemAddressReserve,
			address_reserve(ptr, size, alignment, addr, flags));
}

static CUresult address_free(CUdeviceptr ptr, size_t size)
{
	DRIVER_ENTER();
	return LOCKED(sim_vmm_free(ptr, size));
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	DRIVER_API_CALL(cuMemAddressFree, address_free(ptr, size));
}

static CUresult mem_map(CUdeviceptr ptr, size_t size, size_t offset,
			CUmemGenericAllocationHandle handle,
			unsigned long long flags)
{
	DRIVER_ENTER();
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	return LOCKED(sim_vmm_map(ptr, size, offset, handle));
}

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
		  CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	DRIVER_API_CALL(cuMemMap, mem_map(ptr, size, offset, handle, flags));
}

/* Unmapping waits for the device, as freeing does (assumed). */
static CUresult mem_unmap(CUdeviceptr ptr, size_t size)
{
	DRIVER_ENTER();
	pthread_mutex_lock(&sim_lock);
	struct sim_instant end = sim_timeline_device_end();
	cudaError_t err = sim_vmm_unmap(ptr, size);
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess)
		sim_wait_device_time(end);
	return sim_cu_result(err);
}

CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	DRIVER_API_CALL(cuMemUnmap, mem_unmap(ptr, size));
}

static CUresult set_access(CUdeviceptr ptr, size_t size,
			   const CUmemAccessDesc *desc, size_t count)
{
	DRIVER_ENTER();
	if (!desc || count != 1 ||
	    desc->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    desc->location.id != 0)
		return CUDA_ERROR_INVALID_VALUE;
	int accessible = desc->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE;
	return LOCKED(sim_vmm_set_access(ptr, size, accessible));
}

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
			const CUmemAccessDesc *desc, size_t count)
{
	DRIVER_API_CALL(cuMemSetAccess, set_access(ptr, size, desc, count));
}
