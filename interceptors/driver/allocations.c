/*
 * Wrappers of the CUDA driver's allocation and free entry points (cuda.h):
 * cuMemAlloc_v2 and friends, stream-ordered ones with their _ptsz twins,
 * pinned host memory (allocated, or the program's own registered), and
 * virtual memory management. Each forwards to the real function with the
 * same arguments and returns its result unchanged;
 * when recording it keeps the live-allocation map and emits
 * dnntrace_api:alloc / dnntrace_api:free through the recording path it
 * shares with the runtime wrappers (core/allocation_record.h). The bracket
 * is core/wrapper.h's; each wrapper says what it allocated or frees.
 *
 * Virtual memory management (PyTorch's expandable segments): a range mapped
 * with cuMemMap is the tensor (kind vmm_mapped, alloc at cuMemMap, free at
 * cuMemUnmap). The physical allocation (cuMemCreate/cuMemRelease, ptr = the
 * handle) and the reserved address range (cuMemAddressReserve/Free) are
 * traced with tensor_id -1: they hold no data a kernel can name.
 *
 * A cudaMalloc that libcudart implements with cuMemAlloc is ONE allocation:
 * the runtime wrapper is active on the thread (tracer_nesting), so the
 * driver wrapper only forwards. Must never read through a NULL out-pointer.
 */
#include <cuda.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/allocation_record.h"
#include "interceptors/core/wrapper.h"

DNNTRACE_SAME_PROTOTYPE(cuMemAllocAsync_ptsz, cuMemAllocAsync);
DNNTRACE_SAME_PROTOTYPE(cuMemAllocFromPoolAsync_ptsz, cuMemAllocFromPoolAsync);
DNNTRACE_SAME_PROTOTYPE(cuMemFreeAsync_ptsz, cuMemFreeAsync);
DNNTRACE_PROTOTYPE_IS(cuMemAlloc_v2, PFN_cuMemAlloc_v3020);
DNNTRACE_PROTOTYPE_IS(cuMemAllocHost_v2, PFN_cuMemAllocHost_v3020);
DNNTRACE_PROTOTYPE_IS(cuMemHostRegister_v2, PFN_cuMemHostRegister_v6050);
DNNTRACE_PROTOTYPE_IS(cuMemHostUnregister, PFN_cuMemHostUnregister_v4000);

#define NOT_FOUND CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND

/*
 * The current context's device; when no context is current (yet), the
 * runtime's current device if a runtime is loaded (it makes that device's
 * primary context current at its next call); else -1.
 */
static int current_device(void)
{
	__typeof__(&cuCtxGetDevice) get_device = REAL(cuCtxGetDevice);
	CUdevice device = -1;

	if (get_device && get_device(&device) == CUDA_SUCCESS)
		return device;
	return tracer_current_device();
}

static void *as_ptr(CUdeviceptr address)
{
	return (void *)(uintptr_t)address;
}

static void *device_ptr(CUresult result, const CUdeviceptr *out)
{
	return result == CUDA_SUCCESS && out ? as_ptr(*out) : NULL;
}

static void *host_ptr(CUresult result, void **out)
{
	return result == CUDA_SUCCESS && out ? *out : NULL;
}

/* A VMM physical allocation is traced with its handle as the pointer. */
static void *handle_as_ptr(CUmemGenericAllocationHandle handle)
{
	return (void *)(uintptr_t)handle;
}

/* An allocation of bytesize bytes (of the catalogue's kind). */
#define ALLOC(name, params, args, device, stream, ptr)                                       \
	DNNTRACE_RECORDED_CALL(CUresult, name, params, args, NOT_FOUND,                       \
			       allocation_alloc_enabled(),                                    \
			       allocation_record_alloc(api, device, stream, ptr, bytesize,    \
						       (int)result))

/* A free that records nothing before the real call (the memory is never a tensor). */
#define FREE_UNKNOWN(name, params, args, enabled)                                             \
	DNNTRACE_RECORDED_CALL(CUresult, name, params, args, NOT_FOUND, enabled,              \
			       allocation_record_free(api, NULL, false, NULL, (int)result))

/* --- device allocations ------------------------------------------------ */

#define ALLOC_ASYNC(name)                                                                  \
	ALLOC(name, (CUdeviceptr *dptr, size_t bytesize, CUstream hStream),                 \
	      (dptr, bytesize, hStream), current_device(), hStream, device_ptr(result, dptr))
#define ALLOC_FROM_POOL(name)                                                              \
	ALLOC(name, (CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream), \
	      (dptr, bytesize, pool, hStream), current_device(), hStream,                   \
	      device_ptr(result, dptr))

ALLOC(cuMemAlloc_v2, (CUdeviceptr *dptr, size_t bytesize), (dptr, bytesize),
      current_device(), NULL, device_ptr(result, dptr))
ALLOC(cuMemAllocManaged, (CUdeviceptr *dptr, size_t bytesize, unsigned int flags),
      (dptr, bytesize, flags), current_device(), NULL, device_ptr(result, dptr))
ALLOC_ASYNC(cuMemAllocAsync)
ALLOC_ASYNC(cuMemAllocAsync_ptsz)
ALLOC_FROM_POOL(cuMemAllocFromPoolAsync)
ALLOC_FROM_POOL(cuMemAllocFromPoolAsync_ptsz)

/* Each row takes pitch bytes: the allocation is pitch * Height. */
DNNTRACE_RECORDED_CALL(CUresult, cuMemAllocPitch_v2,
		       (CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
			unsigned int ElementSizeBytes),
		       (dptr, pPitch, WidthInBytes, Height, ElementSizeBytes), NOT_FOUND,
		       allocation_alloc_enabled(),
		       allocation_record_alloc(
			       api, current_device(), NULL, device_ptr(result, dptr),
			       result == CUDA_SUCCESS && pPitch ? (uint64_t)*pPitch * Height : 0,
			       (int)result))

/* --- device frees ------------------------------------------------------ */

/* Forgotten before the real free, put back if it fails. */
#define FREE(name, params, args, stream)                                                   \
	DNNTRACE_FREE_CALL(CUresult, name, params, args, NOT_FOUND,                           \
			   dptr && allocation_free_enabled(),                                 \
			   struct tensor_map_entry entry;                                     \
			   bool known = allocation_forget(as_ptr(dptr), &entry),              \
			   allocation_record_free(api, stream, known, &entry, (int)result))

FREE(cuMemFree_v2, (CUdeviceptr dptr), (dptr), NULL)
FREE(cuMemFreeAsync, (CUdeviceptr dptr, CUstream hStream), (dptr, hStream), hStream)
FREE(cuMemFreeAsync_ptsz, (CUdeviceptr dptr, CUstream hStream), (dptr, hStream), hStream)

/* --- pinned host memory (not tensors) ------------------------------------ */

ALLOC(cuMemHostAlloc, (void **pp, size_t bytesize, unsigned int Flags), (pp, bytesize, Flags),
      -1, NULL, host_ptr(result, pp))
ALLOC(cuMemAllocHost_v2, (void **pp, size_t bytesize), (pp, bytesize), -1, NULL,
      host_ptr(result, pp))
FREE_UNKNOWN(cuMemFreeHost, (void *p), (p), p && allocation_free_enabled())

/* The program's own memory pinned (ptr NULL when it failed; bytesize what was
 * asked) and unpinned: never read or written here. cuMemHostRegister's
 * v4000 ABI is not wrapped (cuGetProcAddress hands it back untouched). */
ALLOC(cuMemHostRegister_v2, (void *p, size_t bytesize, unsigned int Flags), (p, bytesize, Flags),
      -1, NULL, result == CUDA_SUCCESS ? p : NULL)
FREE_UNKNOWN(cuMemHostUnregister, (void *p), (p), p && allocation_free_enabled())

/* --- virtual memory management ------------------------------------------ */

DNNTRACE_RECORDED_CALL(CUresult, cuMemCreate,
		       (CUmemGenericAllocationHandle *handle, size_t size,
			const CUmemAllocationProp *prop, unsigned long long flags),
		       (handle, size, prop, flags), NOT_FOUND, allocation_alloc_enabled(),
		       int device = prop && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE ?
				    prop->location.id : -1;
		       void *ptr = result == CUDA_SUCCESS && handle ? handle_as_ptr(*handle) : NULL;
		       allocation_record_alloc(api, device, NULL, ptr, size, (int)result))

FREE_UNKNOWN(cuMemRelease, (CUmemGenericAllocationHandle handle), (handle),
	     allocation_free_enabled())

DNNTRACE_RECORDED_CALL(CUresult, cuMemAddressReserve,
		       (CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
			unsigned long long flags),
		       (ptr, size, alignment, addr, flags), NOT_FOUND, allocation_alloc_enabled(),
		       allocation_record_alloc(api, -1, NULL, device_ptr(result, ptr), size,
					       (int)result))

FREE_UNKNOWN(cuMemAddressFree, (CUdeviceptr ptr, size_t size), (ptr, size),
	     allocation_free_enabled())

/*
 * The device is the current context's: cuMemMap does not say which device
 * the physical memory is on, and asking (cuMemGetAllocationPropertiesFromHandle)
 * per map is not worth it for the single-device programs we trace.
 * Assumed, not tested on a real GPU: the mapping is on the current device.
 */
DNNTRACE_RECORDED_CALL(CUresult, cuMemMap,
		       (CUdeviceptr ptr, size_t size, size_t offset,
			CUmemGenericAllocationHandle handle, unsigned long long flags),
		       (ptr, size, offset, handle, flags), NOT_FOUND, allocation_alloc_enabled(),
		       allocation_record_alloc(api, current_device(), NULL, as_ptr(ptr), size,
					       (int)result))

enum { MAX_UNMAPPED_AT_ONCE = 64 };

/* The mapped ranges [ptr, ptr + size) covers, removed from the map in address order. */
static unsigned forget_mappings(CUdeviceptr ptr, size_t size,
				struct tensor_map_entry ended[MAX_UNMAPPED_AT_ONCE])
{
	unsigned n_ended = 0;
	uintptr_t at = (uintptr_t)ptr, end = (uintptr_t)ptr + size;

	while (at < end && n_ended < MAX_UNMAPPED_AT_ONCE &&
	       allocation_forget((const void *)at, &ended[n_ended])) {
		at = ended[n_ended].base + ended[n_ended].size;
		n_ended++;
	}
	return n_ended;
}

/*
 * cuMemUnmap takes whole mapped ranges, possibly several side by side: each
 * known one ends its tensor (one free event each, in address order). The
 * walk goes from mapping to adjacent mapping and stops at the first address
 * the map does not know (a range mapped while no session listened) or after
 * MAX_UNMAPPED_AT_ONCE; mappings past that stay in the map as stale
 * entries, dropped when their addresses are mapped again.
 */
DNNTRACE_FREE_CALL(CUresult, cuMemUnmap, (CUdeviceptr ptr, size_t size), (ptr, size), NOT_FOUND,
		   allocation_free_enabled(),
		   struct tensor_map_entry ended[MAX_UNMAPPED_AT_ONCE];
		   unsigned n_ended = forget_mappings(ptr, size, ended),
		   if (n_ended == 0)
			   allocation_record_free(api, NULL, false, NULL, (int)result);
		   for (unsigned i = 0; i < n_ended; i++)
			   allocation_record_free(api, NULL, true, &ended[i], (int)result))
