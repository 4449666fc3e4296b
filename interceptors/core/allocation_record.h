/*
 * The one recording path of every allocation and free wrapper, runtime and
 * driver alike: the live-tensor map kept in step, dnntrace_api:alloc and
 * :free (alloc_async and free_async for stream-ordered entry points)
 * emitted, device memory sampled after a new tensor. The kind of memory
 * is the entry point's (tracepoints/memory_kinds.h, from the catalogue);
 * which kinds are tensors is tracepoints/tensor_rule.h's rule, nowhere else.
 *
 * result is the real function's status as an int: cudaSuccess and
 * CUDA_SUCCESS are both 0 (checked in allocation_record.c). Must never be
 * called outside a recording wrapper (tracer_enter returned true), never
 * read through a pointer it is given, and never allocate but a map node.
 */
#ifndef DNNTRACE_ALLOCATION_RECORD_H
#define DNNTRACE_ALLOCATION_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "interceptors/core/tensor_map.h"
#include "tracepoints/dnntrace_enums.h"

/* Whether an allocation wrapper records (dnntrace_api:alloc listened to). */
bool allocation_alloc_enabled(void);

/* Whether a free wrapper records: the map must stay right whenever
 * allocations are recorded, even when frees are not listened to. */
bool allocation_free_enabled(void);

/*
 * After an allocation returned: ptr is what it handed back (NULL when it
 * failed or returned nothing), bytes its extent (pitch * rows for pitched
 * memory). A successful allocation of a tensor kind at a non-NULL ptr
 * becomes a new tensor of `bytes` in the map; every call, failed ones
 * included, is one alloc event. stream: a stream-ordered one's, else NULL.
 */
void allocation_record_alloc(enum dnntrace_api_id api, int device, const void *stream,
			     const void *ptr, uint64_t bytes, int result);

/*
 * After a successful reset of a device's primary context (cudaDeviceReset,
 * cuDevicePrimaryCtxReset, its last cuDevicePrimaryCtxRelease: every
 * allocation of that context, and the device's stream-ordered and mapped
 * ones, are gone): one dnntrace_api:free with this api for each such
 * tensor the map still holds, forgotten there. A context cuCtxCreate made
 * keeps its own.
 */
void allocation_record_device_end(enum dnntrace_api_id api, int device, int result);

/*
 * After a successful cuCtxDestroy of a context cuCtxCreate made: the same
 * for each device or managed tensor allocated while it was current (cuda.h:
 * stream-ordered and VMM memory belong to no context and stay).
 */
void allocation_record_context_end(enum dnntrace_api_id api, uintptr_t context, int result);

/*
 * A memory node added by hand (cudaGraphAddMemAllocNode/FreeNode and the
 * driver twins), runtime and driver alike: its dnntrace_api:graph_mem_node
 * event. node: where the real call put the new node's handle (may be
 * NULL). When the call worked (result 0), an alloc node's allocation at
 * ptr becomes a tensor of its own, entered in the map for good (its
 * address is the allocation's at every launch of the graph; frees put it
 * back), and a free node names the tensor at ptr. Captured allocations and
 * frees are handled in allocation_record_alloc/_free themselves.
 */
void allocation_record_mem_node(uint64_t call_id, enum dnntrace_api_id api,
				const void *const *node, const void *ptr, uint64_t bytes,
				int device, bool is_free, int result, uint64_t start_ns);

/* Before the real free: once it returns, another thread may get the address. */
bool allocation_forget(const void *ptr, struct tensor_map_entry *entry);

/*
 * After the real free: known and entry are allocation_forget's (known
 * false, entry NULL for memory that is never a tensor). A failed free
 * leaves the allocation alive: it goes back into the map. stream: a
 * stream-ordered one's, else NULL.
 */
void allocation_record_free(enum dnntrace_api_id api, const void *stream, bool known,
			    const struct tensor_map_entry *entry, int result);

#endif
