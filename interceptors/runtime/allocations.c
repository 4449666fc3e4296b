/*
 * Wrappers of the CUDA runtime's allocation and free functions. Each
 * forwards to the real function with the same arguments and returns its
 * result unchanged; when recording, it also keeps the live-allocation map
 * and emits dnntrace_api:alloc / dnntrace_api:free through the recording
 * path it shares with the driver (core/allocation_record.h). The bracket
 * is core/wrapper.h's; each wrapper says what it allocated or frees.
 *
 * Device, managed and stream-ordered allocations are tensors (ids 0, 1, ...);
 * pinned host memory is traced with tensor_id -1 and never enters the map.
 * A successful allocation that returns NULL (size 0) creates no tensor.
 * A free is traced with the tensor it ends, or -1 for an unknown pointer;
 * cudaFree(NULL) and friends only forward (it is how programs create the
 * context, not a free). Must never read through a NULL out-pointer.
 */
#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_ptds.h"
#include "interceptors/core/allocation_record.h"
#include "interceptors/core/wrapper.h"

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
 * call, so a cudaSetDevice in between can never leave it stale.
 */
static void record_alloc(enum dnntrace_api_id api, enum dnntrace_mem_kind kind,
			 cudaStream_t stream, void *ptr, uint64_t requested_bytes,
			 uint64_t bytes, cudaError_t result)
{
	int device = kind == DNNTRACE_MEM_PINNED_HOST ? -1 : tracer_current_device();

	allocation_record_alloc(api, kind, device, stream, ptr, requested_bytes, bytes,
				(int)result);
}

/* --- allocations ------------------------------------------------------ */

/* An allocation of size bytes of kind, handed back through out. */
#define ALLOC(name, params, args, out, kind, stream)                                         \
	DNNTRACE_RECORDED_CALL(cudaError_t, name, params, args, NOT_FOUND,                    \
			       allocation_alloc_enabled(),                                    \
			       record_alloc(api, kind, stream, allocated(result, out), size,   \
					    size, result))

ALLOC(cudaMalloc, (void **devPtr, size_t size), (devPtr, size), devPtr, DNNTRACE_MEM_DEVICE,
      NULL)
ALLOC(cudaMallocManaged, (void **devPtr, size_t size, unsigned int flags),
      (devPtr, size, flags), devPtr, DNNTRACE_MEM_MANAGED, NULL)
ALLOC(cudaMallocHost, (void **ptr, size_t size), (ptr, size), ptr, DNNTRACE_MEM_PINNED_HOST,
      NULL)
ALLOC(cudaHostAlloc, (void **pHost, size_t size, unsigned int flags), (pHost, size, flags),
      pHost, DNNTRACE_MEM_PINNED_HOST, NULL)

#define ALLOC_ASYNC(name)                                                                  \
	ALLOC(name, (void **devPtr, size_t size, cudaStream_t hStream),                    \
	      (devPtr, size, hStream), devPtr, DNNTRACE_MEM_STREAM_ORDERED, hStream)
#define ALLOC_FROM_POOL(name)                                                              \
	ALLOC(name, (void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream),  \
	      (ptr, size, memPool, stream), ptr, DNNTRACE_MEM_STREAM_ORDERED, stream)

ALLOC_ASYNC(cudaMallocAsync)
ALLOC_ASYNC(cudaMallocAsync_ptsz)
ALLOC_FROM_POOL(cudaMallocFromPoolAsync)
ALLOC_FROM_POOL(cudaMallocFromPoolAsync_ptsz)

/* Each row takes pitch bytes: requested width * height, allocated pitch * height. */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaMallocPitch,
		       (void **devPtr, size_t *pitch, size_t width, size_t height),
		       (devPtr, pitch, width, height), NOT_FOUND, allocation_alloc_enabled(),
		       record_alloc(api, DNNTRACE_MEM_DEVICE, NULL, allocated(result, devPtr),
				    (uint64_t)width * height,
				    result == cudaSuccess && pitch ? (uint64_t)*pitch * height : 0,
				    result))

/* For linear memory extent.width is in bytes; each of height * depth rows takes pitch bytes. */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaMalloc3D,
		       (struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent),
		       (pitchedDevPtr, extent), NOT_FOUND, allocation_alloc_enabled(),
		       bool ok = result == cudaSuccess && pitchedDevPtr;
		       uint64_t rows = (uint64_t)extent.height * extent.depth;
		       record_alloc(api, DNNTRACE_MEM_DEVICE, NULL, ok ? pitchedDevPtr->ptr : NULL,
				    (uint64_t)extent.width * rows,
				    ok ? (uint64_t)pitchedDevPtr->pitch * rows : 0, result))

/* --- frees ------------------------------------------------------------ */

/* A free of a possible tensor: forgotten before the real free, put back if it fails. */
#define FREE(name, params, args, kind, stream)                                             \
	DNNTRACE_FREE_CALL(cudaError_t, name, params, args, NOT_FOUND,                        \
			   devPtr && allocation_free_enabled(),                               \
			   struct tensor_map_entry entry;                                     \
			   bool known = allocation_forget(devPtr, &entry),                    \
			   allocation_record_free(api, kind, stream, devPtr, known, &entry,   \
						  (int)result))

FREE(cudaFree, (void *devPtr), (devPtr), DNNTRACE_MEM_DEVICE, NULL)
FREE(cudaFreeAsync, (void *devPtr, cudaStream_t hStream), (devPtr, hStream),
     DNNTRACE_MEM_STREAM_ORDERED, hStream)
FREE(cudaFreeAsync_ptsz, (void *devPtr, cudaStream_t hStream), (devPtr, hStream),
     DNNTRACE_MEM_STREAM_ORDERED, hStream)

/* Pinned host memory is never in the map: nothing to forget. */
DNNTRACE_RECORDED_CALL(cudaError_t, cudaFreeHost, (void *ptr), (ptr), NOT_FOUND,
		       ptr && allocation_free_enabled(),
		       allocation_record_free(api, DNNTRACE_MEM_PINNED_HOST, NULL, ptr, false,
					      NULL, (int)result))
