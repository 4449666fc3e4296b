/*
 * Wrappers of the CUDA driver's allocation and free entry points (cuda.h):
 * cuMemAlloc_v2 and friends, stream-ordered ones with their _ptsz twins,
 * pinned host memory, and virtual memory management. Each forwards to the
 * real function with the same arguments and returns its result unchanged;
 * when recording it keeps the live-allocation map and emits
 * dnntrace_api:alloc / dnntrace_api:free exactly as the runtime wrappers do.
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
#include <errno.h>

#include <cuda.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/mem_info.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cuMemAllocAsync_ptsz, cuMemAllocAsync);
DNNTRACE_SAME_PROTOTYPE(cuMemAllocFromPoolAsync_ptsz, cuMemAllocFromPoolAsync);
DNNTRACE_SAME_PROTOTYPE(cuMemFreeAsync_ptsz, cuMemFreeAsync);
DNNTRACE_PROTOTYPE_IS(cuMemAlloc_v2, PFN_cuMemAlloc_v3020);
DNNTRACE_PROTOTYPE_IS(cuMemAllocHost_v2, PFN_cuMemAllocHost_v3020);

static bool alloc_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, alloc);
}

/* A free must keep the map right whenever allocations are being recorded. */
static bool free_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, free) ||
	       lttng_ust_tracepoint_enabled(dnntrace_api, alloc);
}

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

static void *device_ptr(CUresult result, const CUdeviceptr *out)
{
	return result == CUDA_SUCCESS && out ? (void *)(uintptr_t)*out : NULL;
}

/* For a tensor kind: a new tensor id, entered in the map (ptr non-NULL). */
static int64_t new_tensor(enum dnntrace_mem_kind kind, void *ptr, uint64_t bytes)
{
	int64_t tensor_id = tracer_next_tensor_id();
	struct tensor_map_entry entry = {
		.base = (uintptr_t)ptr, .size = bytes, .tensor_id = tensor_id, .kind = kind,
	};
	/* Out of memory for a map node: the tensor is still traced. */
	(void)tensor_map_insert(&tracer_tensors, &entry, NULL);
	return tensor_id;
}

static void record_alloc(enum dnntrace_api_id api, enum dnntrace_mem_kind kind, int device,
			 CUstream stream, void *ptr, uint64_t requested_bytes, uint64_t bytes,
			 CUresult result)
{
	bool is_tensor = kind == DNNTRACE_MEM_DEVICE || kind == DNNTRACE_MEM_MANAGED ||
			 kind == DNNTRACE_MEM_STREAM_ORDERED || kind == DNNTRACE_MEM_VMM_MAPPED;
	int64_t tensor_id = -1;

	if (result == CUDA_SUCCESS && is_tensor && ptr)
		tensor_id = new_tensor(kind, ptr, bytes);
	lttng_ust_tracepoint(dnntrace_api, alloc, api, kind, device, stream, ptr,
			     requested_bytes, bytes, tensor_id, (int)result);	if (tensor_id >= 0)
		mem_info_after_alloc(device);
}

static void record_free(enum dnntrace_api_id api, enum dnntrace_mem_kind kind, CUstream stream,
			void *ptr, bool known, const struct tensor_map_entry *entry,
			CUresult result)
{
	/* A failed free leaves the allocation alive: put it back. */
	if (known && result != CUDA_SUCCESS)
		(void)tensor_map_insert(&tracer_tensors, entry, NULL);
	lttng_ust_tracepoint(dnntrace_api, free, api, known ? entry->kind : (int)kind, stream,
			     ptr, known ? entry->tensor_id : -1, (int)result);
}

/* --- device allocations ------------------------------------------------ */

DNNTRACE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	__typeof__(&cuMemAlloc_v2) real = REAL(cuMemAlloc_v2);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(dptr, bytesize);
	CUresult result = real(dptr, bytesize);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cuMemAlloc_v2, DNNTRACE_MEM_DEVICE, current_device(), NULL,
		     device_ptr(result, dptr), bytesize, bytesize, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
					    size_t WidthInBytes, size_t Height,
					    unsigned int ElementSizeBytes)
{
	__typeof__(&cuMemAllocPitch_v2) real = REAL(cuMemAllocPitch_v2);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(dptr, pPitch, WidthInBytes, Height, ElementSizeBytes);
	CUresult result = real(dptr, pPitch, WidthInBytes, Height, ElementSizeBytes);
	int saved_errno = errno;
	uint64_t bytes = result == CUDA_SUCCESS && pPitch ? (uint64_t)*pPitch * Height : 0;
	record_alloc(DNNTRACE_API_cuMemAllocPitch_v2, DNNTRACE_MEM_DEVICE, current_device(),
		     NULL, device_ptr(result, dptr), (uint64_t)WidthInBytes * Height, bytes,
		     result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
					   unsigned int flags)
{
	__typeof__(&cuMemAllocManaged) real = REAL(cuMemAllocManaged);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(dptr, bytesize, flags);
	CUresult result = real(dptr, bytesize, flags);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cuMemAllocManaged, DNNTRACE_MEM_MANAGED, current_device(),
		     NULL, device_ptr(result, dptr), bytesize, bytesize, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

static CUresult alloc_async(enum dnntrace_api_id api, __typeof__(&cuMemAllocAsync) real,
			    CUdeviceptr *dptr, size_t bytesize, CUstream stream)
{
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(dptr, bytesize, stream);
	CUresult result = real(dptr, bytesize, stream);
	int saved_errno = errno;
	record_alloc(api, DNNTRACE_MEM_STREAM_ORDERED, current_device(), stream,
		     device_ptr(result, dptr), bytesize, bytesize, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	return alloc_async(DNNTRACE_API_cuMemAllocAsync, REAL(cuMemAllocAsync), dptr, bytesize,
			   hStream);
}

DNNTRACE_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
					      CUstream hStream)
{
	return alloc_async(DNNTRACE_API_cuMemAllocAsync_ptsz, REAL(cuMemAllocAsync_ptsz), dptr,
			   bytesize, hStream);
}

static CUresult alloc_from_pool(enum dnntrace_api_id api,
				__typeof__(&cuMemAllocFromPoolAsync) real, CUdeviceptr *dptr,
				size_t bytesize, CUmemoryPool pool, CUstream stream)
{
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(dptr, bytesize, pool, stream);
	CUresult result = real(dptr, bytesize, pool, stream);
	int saved_errno = errno;
	record_alloc(api, DNNTRACE_MEM_STREAM_ORDERED, current_device(), stream,
		     device_ptr(result, dptr), bytesize, bytesize, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize,
						 CUmemoryPool pool, CUstream hStream)
{
	return alloc_from_pool(DNNTRACE_API_cuMemAllocFromPoolAsync,
			       REAL(cuMemAllocFromPoolAsync), dptr, bytesize, pool, hStream);
}

DNNTRACE_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
						      CUmemoryPool pool, CUstream hStream)
{
	return alloc_from_pool(DNNTRACE_API_cuMemAllocFromPoolAsync_ptsz,
			       REAL(cuMemAllocFromPoolAsync_ptsz), dptr, bytesize, pool,
			       hStream);
}

/* --- device frees ------------------------------------------------------ */

DNNTRACE_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	__typeof__(&cuMemFree_v2) real = REAL(cuMemFree_v2);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!dptr || !tracer_enter(free_enabled()))
		return real(dptr);
	struct tensor_map_entry entry;
	/* Before the real free: once it returns, another thread may get the address. */
	bool known = tensor_map_remove(&tracer_tensors, (uintptr_t)dptr, &entry);
	CUresult result = real(dptr);
	int saved_errno = errno;
	record_free(DNNTRACE_API_cuMemFree_v2, DNNTRACE_MEM_DEVICE, NULL, (void *)(uintptr_t)dptr,
		    known, &entry, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

static CUresult free_async(enum dnntrace_api_id api, __typeof__(&cuMemFreeAsync) real,
			   CUdeviceptr dptr, CUstream stream)
{
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!dptr || !tracer_enter(free_enabled()))
		return real(dptr, stream);
	struct tensor_map_entry entry;
	bool known = tensor_map_remove(&tracer_tensors, (uintptr_t)dptr, &entry);
	CUresult result = real(dptr, stream);
	int saved_errno = errno;
	record_free(api, DNNTRACE_MEM_STREAM_ORDERED, stream, (void *)(uintptr_t)dptr, known,
		    &entry, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	return free_async(DNNTRACE_API_cuMemFreeAsync, REAL(cuMemFreeAsync), dptr, hStream);
}

DNNTRACE_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
	return free_async(DNNTRACE_API_cuMemFreeAsync_ptsz, REAL(cuMemFreeAsync_ptsz), dptr,
			  hStream);
}

/* --- pinned host memory (not tensors) ------------------------------------ */

static void *host_ptr(CUresult result, void **out)
{
	return result == CUDA_SUCCESS && out ? *out : NULL;
}

DNNTRACE_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	__typeof__(&cuMemHostAlloc) real = REAL(cuMemHostAlloc);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(pp, bytesize, Flags);
	CUresult result = real(pp, bytesize, Flags);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cuMemHostAlloc, DNNTRACE_MEM_PINNED_HOST, -1, NULL,
		     host_ptr(result, pp), bytesize, bytesize, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	__typeof__(&cuMemAllocHost_v2) real = REAL(cuMemAllocHost_v2);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(pp, bytesize);
	CUresult result = real(pp, bytesize);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cuMemAllocHost_v2, DNNTRACE_MEM_PINNED_HOST, -1, NULL,
		     host_ptr(result, pp), bytesize, bytesize, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemFreeHost(void *p)
{
	__typeof__(&cuMemFreeHost) real = REAL(cuMemFreeHost);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!p || !tracer_enter(free_enabled()))
		return real(p);
	CUresult result = real(p);
	int saved_errno = errno;
	record_free(DNNTRACE_API_cuMemFreeHost, DNNTRACE_MEM_PINNED_HOST, NULL, p, false, NULL,
		    result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

/* --- virtual memory management ------------------------------------------ */

static void *handle_as_ptr(CUmemGenericAllocationHandle handle)
{
	return (void *)(uintptr_t)handle;
}

DNNTRACE_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
				     const CUmemAllocationProp *prop, unsigned long long flags)
{
	__typeof__(&cuMemCreate) real = REAL(cuMemCreate);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(handle, size, prop, flags);
	CUresult result = real(handle, size, prop, flags);
	int saved_errno = errno;
	int device = prop && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE ?
		     prop->location.id : -1;
	void *ptr = result == CUDA_SUCCESS && handle ? handle_as_ptr(*handle) : NULL;
	record_alloc(DNNTRACE_API_cuMemCreate, DNNTRACE_MEM_VMM_PHYSICAL, device, NULL, ptr, size,
		     size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
	__typeof__(&cuMemRelease) real = REAL(cuMemRelease);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(free_enabled()))
		return real(handle);
	CUresult result = real(handle);
	int saved_errno = errno;
	record_free(DNNTRACE_API_cuMemRelease, DNNTRACE_MEM_VMM_PHYSICAL, NULL,
		    handle_as_ptr(handle), false, NULL, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
					     CUdeviceptr addr, unsigned long long flags)
{
	__typeof__(&cuMemAddressReserve) real = REAL(cuMemAddressReserve);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(ptr, size, alignment, addr, flags);
	CUresult result = real(ptr, size, alignment, addr, flags);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cuMemAddressReserve, DNNTRACE_MEM_VMM_RESERVED, -1, NULL,
		     device_ptr(result, ptr), size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	__typeof__(&cuMemAddressFree) real = REAL(cuMemAddressFree);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(free_enabled()))
		return real(ptr, size);
	CUresult result = real(ptr, size);
	int saved_errno = errno;
	record_free(DNNTRACE_API_cuMemAddressFree, DNNTRACE_MEM_VMM_RESERVED, NULL,
		    (void *)(uintptr_t)ptr, false, NULL, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

/*
 * The device is the current context's: cuMemMap does not say which device
 * the physical memory is on, and asking (cuMemGetAllocationPropertiesFromHandle)
 * per map is not worth it for the single-device programs we trace.
 * Assumed, not tested on a real GPU: the mapping is on the current device.
 */
DNNTRACE_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
				  CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	__typeof__(&cuMemMap) real = REAL(cuMemMap);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(alloc_enabled()))
		return real(ptr, size, offset, handle, flags);
	CUresult result = real(ptr, size, offset, handle, flags);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cuMemMap, DNNTRACE_MEM_VMM_MAPPED, current_device(), NULL,
		     (void *)(uintptr_t)ptr, size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

enum { MAX_UNMAPPED_AT_ONCE = 64 };

/*
 * cuMemUnmap takes whole mapped ranges, possibly several side by side: each
 * known one ends its tensor (one free event each, in address order). The
 * walk goes from mapping to adjacent mapping and stops at the first address
 * the map does not know (a range mapped while no session listened) or after
 * MAX_UNMAPPED_AT_ONCE; mappings past that stay in the map as stale
 * entries, dropped when their addresses are mapped again.
 */
DNNTRACE_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	__typeof__(&cuMemUnmap) real = REAL(cuMemUnmap);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(free_enabled()))
		return real(ptr, size);
	struct tensor_map_entry ended[MAX_UNMAPPED_AT_ONCE];
	unsigned n_ended = 0;
	uintptr_t at = (uintptr_t)ptr, end = (uintptr_t)ptr + size;
	while (at < end && n_ended < MAX_UNMAPPED_AT_ONCE &&
	       tensor_map_remove(&tracer_tensors, at, &ended[n_ended])) {
		at = ended[n_ended].base + ended[n_ended].size;
		n_ended++;
	}
	CUresult result = real(ptr, size);
	int saved_errno = errno;
	if (n_ended == 0)
		record_free(DNNTRACE_API_cuMemUnmap, DNNTRACE_MEM_VMM_MAPPED, NULL,
			    (void *)(uintptr_t)ptr, false, NULL, result);
	for (unsigned i = 0; i < n_ended; i++)
		record_free(DNNTRACE_API_cuMemUnmap, DNNTRACE_MEM_VMM_MAPPED, NULL,
			    (void *)ended[i].base, true, &ended[i], result);
	tracer_leave();
	errno = saved_errno;
	return result;
}
