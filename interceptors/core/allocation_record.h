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
 * After a successful device reset (cudaDeviceReset: every allocation of the
 * device's primary context is gone): one dnntrace_api:free with this api for
 * each tensor of the device the map still holds, forgotten there.
 */
void allocation_record_device_end(enum dnntrace_api_id api, int device, int result);

/*
 * A graph allocation (an alloc node added by hand) at ptr: a new tensor id
 * for it, entered in the map for good (its address is the allocation's at
 * every launch of the graph; frees put it back). The caller emits the
 * graph_mem_node event. Captured allocations are handled in
 * allocation_record_alloc itself.
 */
int64_t allocation_record_graph_alloc(int device, const void *ptr, uint64_t bytes);

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
