/*
 * Wrappers of the CUDA runtime's allocation and free functions. Each
 * forwards to the real function with the same arguments and returns its
 * result unchanged; when recording, it also keeps the live-allocation map
 * and emits dnntrace_api:alloc / dnntrace_api:free through the recording
 * path it shares with the driver (core/allocation_record.h). The bracket
 * is core/wrapper.h's; each wrapper says what it allocated or frees.
 *
 * Device, managed and stream-ordered allocations are tensors (ids 0, 1, ...);
 * pinned host memory is traced with tensor_id -1 and never enters the map,
 * whether the runtime allocated it (cudaMallocHost, cudaHostAlloc) or the
 * program pinned its own (cudaHostRegister / cudaHostUnregister: alloc and
 * free events of the same kind; the caller's memory is only passed on).
 * A successful allocation that returns NULL (size 0) creates no tensor.
 * A free is traced with the tensor it ends, or -1 for an unknown pointer;
 * cudaFree(NULL) and friends only forward (it is how programs create the
 * context, not a free). Must never read through a NULL out-pointer.
 */
#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_ptds.h"
#include "interceptors/core/allocation_record.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/memory_kinds.h"

DNNTRACE_SAME_PROTOTYPE(cudaMallocAsync_ptsz, cudaMallocAsync);
DNNTRACE_SAME_PROTOTYPE(cudaFreeAsync_ptsz, cudaFreeAsync);
DNNTRACE_SAME_PROTOTYPE(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync);

#define NOT_FOUND cudaErrorSharedObjectSymbolNotFound

static void *allocated(cudaError_t result, void **out)
{
	return result == cudaSuccess && out ? *out : NULL;
}

/*
 * The device is read for failed allocations too: which device ran out is
 * what a reader of the trace wants. Only once the call returned, not per
 * call, so a cudaSetDevice in between can never leave it stale. Pinned
 * host memory is on no device.
 */
static void record_alloc(enum dnntrace_api_id api, cudaStream_t stream, void *ptr,
			 uint64_t bytes, cudaError_t result)
{
	int device = dnntrace_api_mem_kind(api) == DNNTRACE_MEM_PINNED_HOST
		? -1 : tracer_current_device();

	allocation_record_alloc(api, device, stream, ptr, bytes, (int)result);
}

/* --- allocations ------------------------------------------------------ */

/* An allocation of size bytes (of the catalogue's kind), handed back through out. */
#define ALLOC(name, params, args, out, stream)                                               \
	DNNTRACE_RECORDED_CALL(cudaError_t, name, params, args, NOT_FOUND,                    \
			       allocation_alloc_enabled(),                                    \
			       record_alloc(api, stream, allocated(result, out), size, result))

ALLOC(cudaMalloc, (void **devPtr, size_t size), (devPtr, size), devPtr, NULL)
ALLOC(cudaMallocManaged, (void **devPtr, size_t size, unsigned int flags),
      (devPtr, size, flags), devPtr, NULL)
ALLOC(cudaMallocHost, (void **ptr, size_t size), (ptr, size), ptr, NULL)
ALLOC(cudaHostAlloc, (void **pHost, size_t size, unsigned int flags), (pHost, size, flags),
      pHost, NULL)

#define ALLOC_ASYNC(name)                                                                  \
	ALLOC(name, (void **devPtr, size_t size, cudaStream_t hStream),                    \
	      (devPtr, size, hStream), devPtr, hStream)
#define ALLOC_FROM_POOL(name)                                                              \
	ALLOC(name, (void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream),  \
	      (ptr, size, memPool, stream), ptr, stream)

ALLOC_ASYNC(cudaMallocAsync)
ALLOC_ASYNC(cudaMallocAsync_ptsz)
ALLOC_FROM_POOL(cudaMallocFromPoolAsync)
ALLOC_FROM_POOL(cudaMallocFromPoolAsync_ptsz)

/* Each row takes pitch bytes: the allocation is pitch * height. */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaMallocPitch,
		       (void **devPtr, size_t *pitch, size_t width, size_t height),
		       (devPtr, pitch, width, height), NOT_FOUND, allocation_alloc_enabled(),
		       record_alloc(api, NULL, allocated(result, devPtr),
				    result == cudaSuccess && pitch ? (uint64_t)*pitch * height : 0,
				    result))

/* For linear memory each of height * depth rows takes pitch bytes. */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaMalloc3D,
		       (struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent),
		       (pitchedDevPtr, extent), NOT_FOUND, allocation_alloc_enabled(),
		       bool ok = result == cudaSuccess && pitchedDevPtr;
		       uint64_t rows = (uint64_t)extent.height * extent.depth;
		       record_alloc(api, NULL, ok ? pitchedDevPtr->ptr : NULL,
				    ok ? (uint64_t)pitchedDevPtr->pitch * rows : 0, result))

/* --- frees ------------------------------------------------------------ */

/* A free of a possible tensor: forgotten before the real free, put back if it fails. */
#define FREE(name, params, args, stream)                                                   \
	DNNTRACE_FREE_CALL(cudaError_t, name, params, args, NOT_FOUND,                        \
			   devPtr && allocation_free_enabled(),                               \
			   struct tensor_map_entry entry;                                     \
			   bool known = allocation_forget(devPtr, &entry),                    \
			   allocation_record_free(api, stream, known, &entry, (int)result))

FREE(cudaFree, (void *devPtr), (devPtr), NULL)
FREE(cudaFreeAsync, (void *devPtr, cudaStream_t hStream), (devPtr, hStream), hStream)
FREE(cudaFreeAsync_ptsz, (void *devPtr, cudaStream_t hStream), (devPtr, hStream), hStream)

/* Pinned host memory is never in the map: nothing to forget. */
/* Every allocation of the current device's primary context ends: one free
 * event each (api cudaDeviceReset), so no tensor outlives its context. */
DNNTRACE_FREE_CALL(cudaError_t, cudaDeviceReset, (void), (), NOT_FOUND,
		   allocation_free_enabled(), int device = tracer_current_device(),
		   allocation_record_device_end(api, device, (int)result))

DNNTRACE_RECORDED_CALL(cudaError_t, cudaFreeHost, (void *ptr), (ptr), NOT_FOUND,
		       ptr && allocation_free_enabled(),
		       allocation_record_free(api, NULL, false, NULL, (int)result))

/* --- the program's own memory, pinned and unpinned ------------------------- */

/*
 * Registration pins size bytes at ptr for as long as they stay registered:
 * traced like an allocation of pinned host memory (ptr 0 when it failed,
 * bytes what was asked for), never read or written here.
 */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaHostRegister, (void *ptr, size_t size, unsigned int flags),
		       (ptr, size, flags), NOT_FOUND, allocation_alloc_enabled(),
		       record_alloc(api, NULL, result == cudaSuccess ? ptr : NULL, size, result))

/* Unpinned memory stays the program's: a free of pinned host memory, nothing
 * to forget (never in the map); unregistering NULL only forwards, as
 * cudaFreeHost(NULL) does. */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaHostUnregister, (void *ptr), (ptr), NOT_FOUND,
		       ptr && allocation_free_enabled(),
		       allocation_record_free(api, NULL, false, NULL, (int)result))
