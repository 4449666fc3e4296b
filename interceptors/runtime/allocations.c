/*
 * Wrappers of the CUDA runtime's allocation and free functions. Each
 * forwards to the real function with the same arguments and returns its
 * result unchanged; when recording, it also keeps the live-allocation map
 * and emits dnntrace_api:alloc / dnntrace_api:free.
 *
 * Device, managed and stream-ordered allocations are tensors (ids 0, 1, ...);
 * pinned host memory is traced with tensor_id -1 and never enters the map.
 * A successful allocation that returns NULL (size 0) creates no tensor.
 * A free is traced with the tensor it ends, or -1 for an unknown pointer;
 * cudaFree(NULL) and friends only forward (it is how programs create the
 * context, not a free). Must never read through a NULL out-pointer.
 */
#include <errno.h>

#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_ptds.h"
#include "interceptors/core/mem_info.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cudaMallocAsync_ptsz, cudaMallocAsync);
DNNTRACE_SAME_PROTOTYPE(cudaFreeAsync_ptsz, cudaFreeAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync);

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

static void *allocated(cudaError_t result, void **out)
{
	return result == cudaSuccess && out ? *out : NULL;
}

static void record_alloc(enum dnntrace_api_id api, enum dnntrace_mem_kind kind,
			 cudaStream_t stream, void *ptr, uint64_t requested_bytes,
			 uint64_t bytes, cudaError_t result)
{
	int64_t tensor_id = -1;
	int device = -1;

	/*
	 * The device is read for failed allocations too: which device ran out
	 * is what a reader of the trace wants. Only here, not per call, so a
	 * cudaSetDevice or cuCtxSetCurrent in between can never leave it stale.
	 */
	if (kind != DNNTRACE_MEM_PINNED_HOST)
		device = tracer_current_device();
	if (result == cudaSuccess && kind != DNNTRACE_MEM_PINNED_HOST) {
		if (ptr) {
			tensor_id = tracer_next_tensor_id();
			struct tensor_map_entry entry = {
				.base = (uintptr_t)ptr, .size = bytes,
				.tensor_id = tensor_id, .kind = kind,
			};
			/* Out of memory for a map node: the tensor is still traced. */
			(void)tensor_map_insert(&tracer_tensors, &entry, NULL);
		}
	}
	lttng_ust_tracepoint(dnntrace_api, alloc, api, kind, device, stream, ptr,
			     requested_bytes, bytes, tensor_id, (int)result);	if (tensor_id >= 0)
		mem_info_after_alloc(device);
}

/* Before the real free: once it returns, another thread may get the address. */
static bool forget_tensor(void *ptr, struct tensor_map_entry *entry)
{
	return tensor_map_remove(&tracer_tensors, (uintptr_t)ptr, entry);
}

static void record_free(enum dnntrace_api_id api, enum dnntrace_mem_kind kind,
			cudaStream_t stream, void *ptr, bool known,
			const struct tensor_map_entry *entry, cudaError_t result)
{
	/* A failed free leaves the allocation alive: put it back. */
	if (known && result != cudaSuccess)
		(void)tensor_map_insert(&tracer_tensors, entry, NULL);
	lttng_ust_tracepoint(dnntrace_api, free, api, known ? entry->kind : (int)kind,
			     stream, ptr, known ? entry->tensor_id : -1, (int)result);
}

/* --- allocations ------------------------------------------------------ */

DNNTRACE_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	__typeof__(&cudaMalloc) real = REAL(cudaMalloc);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(devPtr, size);
	cudaError_t result = real(devPtr, size);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cudaMalloc, DNNTRACE_MEM_DEVICE, NULL,
		     allocated(result, devPtr), size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	__typeof__(&cudaMallocManaged) real = REAL(cudaMallocManaged);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(devPtr, size, flags);
	cudaError_t result = real(devPtr, size, flags);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cudaMallocManaged, DNNTRACE_MEM_MANAGED, NULL,
		     allocated(result, devPtr), size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
					    size_t height)
{
	__typeof__(&cudaMallocPitch) real = REAL(cudaMallocPitch);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(devPtr, pitch, width, height);
	cudaError_t result = real(devPtr, pitch, width, height);
	int saved_errno = errno;
	uint64_t bytes = result == cudaSuccess && pitch ? (uint64_t)*pitch * height : 0;
	record_alloc(DNNTRACE_API_cudaMallocPitch, DNNTRACE_MEM_DEVICE, NULL,
		     allocated(result, devPtr), (uint64_t)width * height, bytes, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
					 struct cudaExtent extent)
{
	__typeof__(&cudaMalloc3D) real = REAL(cudaMalloc3D);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(pitchedDevPtr, extent);
	cudaError_t result = real(pitchedDevPtr, extent);
	int saved_errno = errno;
	bool ok = result == cudaSuccess && pitchedDevPtr;
	/* For linear memory extent.width is in bytes; each row takes pitch bytes. */
	uint64_t rows = (uint64_t)extent.height * extent.depth;
	record_alloc(DNNTRACE_API_cudaMalloc3D, DNNTRACE_MEM_DEVICE, NULL,
		     ok ? pitchedDevPtr->ptr : NULL, (uint64_t)extent.width * rows,
		     ok ? (uint64_t)pitchedDevPtr->pitch * rows : 0, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

static cudaError_t malloc_async(enum dnntrace_api_id api, __typeof__(&cudaMallocAsync) real,
				void **devPtr, size_t size, cudaStream_t stream)
{
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(devPtr, size, stream);
	cudaError_t result = real(devPtr, size, stream);
	int saved_errno = errno;
	record_alloc(api, DNNTRACE_MEM_STREAM_ORDERED, stream, allocated(result, devPtr),
		     size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	return malloc_async(DNNTRACE_API_cudaMallocAsync, REAL(cudaMallocAsync), devPtr, size,
			    hStream);
}

DNNTRACE_EXPORT cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size,
						 cudaStream_t hStream)
{
	return malloc_async(DNNTRACE_API_cudaMallocAsync_ptsz, REAL(cudaMallocAsync_ptsz),
			    devPtr, size, hStream);
}

static cudaError_t malloc_from_pool(enum dnntrace_api_id api,
				    __typeof__(&cudaMallocFromPoolAsync) real, void **ptr,
				    size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(ptr, size, memPool, stream);
	cudaError_t result = real(ptr, size, memPool, stream);
	int saved_errno = errno;
	record_alloc(api, DNNTRACE_MEM_STREAM_ORDERED, stream, allocated(result, ptr), size,
		     size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
						    cudaMemPool_t memPool, cudaStream_t stream)
{
	return malloc_from_pool(DNNTRACE_API_cudaMallocFromPoolAsync,
				REAL(cudaMallocFromPoolAsync), ptr, size, memPool, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
							 cudaMemPool_t memPool,
							 cudaStream_t stream)
{
	return malloc_from_pool(DNNTRACE_API_cudaMallocFromPoolAsync_ptsz,
				REAL(cudaMallocFromPoolAsync_ptsz), ptr, size, memPool, stream);
}

DNNTRACE_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	__typeof__(&cudaMallocHost) real = REAL(cudaMallocHost);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(ptr, size);
	cudaError_t result = real(ptr, size);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cudaMallocHost, DNNTRACE_MEM_PINNED_HOST, NULL,
		     allocated(result, ptr), size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	__typeof__(&cudaHostAlloc) real = REAL(cudaHostAlloc);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(alloc_enabled()))
		return real(pHost, size, flags);
	cudaError_t result = real(pHost, size, flags);
	int saved_errno = errno;
	record_alloc(DNNTRACE_API_cudaHostAlloc, DNNTRACE_MEM_PINNED_HOST, NULL,
		     allocated(result, pHost), size, size, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

/* --- frees ------------------------------------------------------------ */

DNNTRACE_EXPORT cudaError_t cudaFree(void *devPtr)
{
	__typeof__(&cudaFree) real = REAL(cudaFree);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!devPtr || !tracer_enter(free_enabled()))
		return real(devPtr);
	struct tensor_map_entry entry;
	bool known = forget_tensor(devPtr, &entry);
	cudaError_t result = real(devPtr);
	int saved_errno = errno;
	record_free(DNNTRACE_API_cudaFree, DNNTRACE_MEM_DEVICE, NULL, devPtr, known, &entry,
		    result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

static cudaError_t free_async(enum dnntrace_api_id api, __typeof__(&cudaFreeAsync) real,
			      void *devPtr, cudaStream_t stream)
{
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!devPtr || !tracer_enter(free_enabled()))
		return real(devPtr, stream);
	struct tensor_map_entry entry;
	bool known = forget_tensor(devPtr, &entry);
	cudaError_t result = real(devPtr, stream);
	int saved_errno = errno;
	record_free(api, DNNTRACE_MEM_STREAM_ORDERED, stream, devPtr, known, &entry, result);
	tracer_leave();
	errno = saved_errno;
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	return free_async(DNNTRACE_API_cudaFreeAsync, REAL(cudaFreeAsync), devPtr, hStream);
}

DNNTRACE_EXPORT cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	return free_async(DNNTRACE_API_cudaFreeAsync_ptsz, REAL(cudaFreeAsync_ptsz), devPtr,
			  hStream);
}

DNNTRACE_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
	__typeof__(&cudaFreeHost) real = REAL(cudaFreeHost);
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!ptr || !tracer_enter(free_enabled()))
		return real(ptr);
	cudaError_t result = real(ptr);
	int saved_errno = errno;
	lttng_ust_tracepoint(dnntrace_api, free, DNNTRACE_API_cudaFreeHost,
			     DNNTRACE_MEM_PINNED_HOST, NULL, ptr, -1, (int)result);
	tracer_leave();
	errno = saved_errno;
	return result;
}
