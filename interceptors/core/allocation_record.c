/*
 * The recording path shared by the runtime and driver allocation wrappers
 * (allocation_record.h). Must never call a real CUDA function except what
 * mem_info samples, and never emit for a call tracer_enter did not admit.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/core/allocation_record.h"
#include "interceptors/core/mem_info.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_api.h"
#include "tracepoints/tensor_rule.h"

_Static_assert(cudaSuccess == 0 && CUDA_SUCCESS == 0,
	       "allocation_record reads result 0 as success for both APIs");

bool allocation_alloc_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, alloc);
}

bool allocation_free_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, free) ||
	       lttng_ust_tracepoint_enabled(dnntrace_api, alloc);
}

/* A new tensor id, entered in the map. */
static int64_t new_tensor(enum dnntrace_mem_kind kind, const void *ptr, uint64_t bytes)
{
	int64_t tensor_id = tracer_next_tensor_id();
	struct tensor_map_entry entry = {
		.base = (uintptr_t)ptr, .size = bytes, .tensor_id = tensor_id, .kind = kind,
	};
	/* Out of memory for a map node: the tensor is still traced. */
	(void)tensor_map_insert(&tracer_tensors, &entry, NULL);
	return tensor_id;
}

void allocation_record_alloc(enum dnntrace_api_id api, enum dnntrace_mem_kind kind,
			     int device, const void *stream, const void *ptr,
			     uint64_t requested_bytes, uint64_t bytes, int result)
{
	int64_t tensor_id = -1;

	if (result == 0 && dnntrace_mem_kind_is_tensor(kind) && ptr)
		tensor_id = new_tensor(kind, ptr, bytes);
	lttng_ust_tracepoint(dnntrace_api, alloc, api, kind, device, stream, ptr,
			     requested_bytes, bytes, tensor_id, result);
	if (tensor_id >= 0)
		mem_info_after_alloc(device);
}

bool allocation_forget(const void *ptr, struct tensor_map_entry *entry)
{
	return tensor_map_remove(&tracer_tensors, (uintptr_t)ptr, entry);
}

void allocation_record_free(enum dnntrace_api_id api, enum dnntrace_mem_kind kind,
			    const void *stream, const void *ptr, bool known,
			    const struct tensor_map_entry *entry, int result)
{
	if (known && result != 0)
		(void)tensor_map_insert(&tracer_tensors, entry, NULL);
	lttng_ust_tracepoint(dnntrace_api, free, api, known ? entry->kind : (int)kind, stream,
			     ptr, known ? entry->tensor_id : -1, result);
}
