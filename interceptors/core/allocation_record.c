/*
 * The recording path shared by the runtime and driver allocation wrappers
 * (allocation_record.h). Must never call a real CUDA function except what
 * mem_info samples and what graph_capture.c asks of a stream-ordered
 * call's stream, and never emit for a call tracer_enter did not admit.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/core/allocation_record.h"
#include "interceptors/core/context_owner.h"
#include "interceptors/core/cupti_session.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/mem_info.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_api.h"
#include "tracepoints/memory_kinds.h"
#include "tracepoints/tensor_rule.h"

_Static_assert(cudaSuccess == 0 && CUDA_SUCCESS == 0,
	       "allocation_record reads result 0 as success for both APIs");

bool allocation_alloc_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, alloc) ||
	       lttng_ust_tracepoint_enabled(dnntrace_api, alloc_async);
}

bool allocation_free_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, free) ||
	       lttng_ust_tracepoint_enabled(dnntrace_api, free_async) ||
	       allocation_alloc_enabled();
}

/* A new tensor id, entered in the map. */
static int64_t new_tensor(enum dnntrace_mem_kind kind, int device, const void *ptr,
			  uint64_t bytes, bool graph_memory)
{
	int64_t tensor_id = tracer_next_tensor_id();
	/* Only what cuCtxDestroy frees has an owner: device and managed memory. */
	bool owned = kind == DNNTRACE_MEM_DEVICE || kind == DNNTRACE_MEM_MANAGED;
	struct tensor_map_entry entry = {
		.base = (uintptr_t)ptr, .size = bytes, .tensor_id = tensor_id, .kind = kind,
		.device = device, .graph_memory = graph_memory,
		.context = owned ? context_owner_current() : 0,
	};
	/* Out of memory for a map node: the tensor is still traced. */
	(void)tensor_map_insert(&tracer_tensors, &entry, NULL);
	return tensor_id;
}

void allocation_record_alloc(enum dnntrace_api_id api, int device, const void *stream,
			     const void *ptr, uint64_t bytes, int result)
{
	enum dnntrace_mem_kind kind = (enum dnntrace_mem_kind)dnntrace_api_mem_kind(api);
	int64_t tensor_id = -1;

	uint64_t node_id;
	/* Captured into a graph: an alloc node, whose memory each launch of
	 * the graph allocates (no memory is taken now). */
	if (result == 0 && kind == DNNTRACE_MEM_STREAM_ORDERED && ptr &&
	    graph_capture_last_node(stream, api, &node_id)) {
		tensor_id = new_tensor(kind, device, ptr, bytes, true);
		DNNTRACE_EMIT(dnntrace_api, graph_mem_node, 0, api, node_id, ptr, bytes,
				     tensor_id, 0, result, 0);
		return;
	}
	if (result == 0 && dnntrace_mem_kind_is_tensor(kind) && ptr)
		tensor_id = new_tensor(kind, device, ptr, bytes, false);
	if (kind == DNNTRACE_MEM_STREAM_ORDERED)
		DNNTRACE_EMIT(dnntrace_api, alloc_async, api, device, ptr, bytes, tensor_id,
				     result, stream);
	else
		DNNTRACE_EMIT(dnntrace_api, alloc, api, device, ptr, bytes, tensor_id,
				     result);
	if (tensor_id >= 0)
		mem_info_after_alloc(device);
}

/* Ends every tensor of context (on device, or any when -1): one free each. */
static void end_owned(enum dnntrace_api_id api, int device, uintptr_t context, int result)
{
	struct tensor_map_entry ended[64];
	size_t n;

	/* Assumed from the simulated GPU, not seen on a real one: pinned
	 * host memory survives a reset (cudaFreeHost still frees it). */
	do {
		n = tensor_map_take_context(&tracer_tensors, device, context,
					    DNNTRACE_MEM_PINNED_HOST, ended,
					    sizeof(ended) / sizeof(ended[0]));
		for (size_t i = 0; i < n; i++)
			DNNTRACE_EMIT(dnntrace_api, free, api, ended[i].tensor_id, result);
	} while (n == sizeof(ended) / sizeof(ended[0]));
}

void allocation_record_device_end(enum dnntrace_api_id api, int device, int result)
{
	if (result != 0 || device < 0)
		return;
	end_owned(api, device, 0, result);
}

void allocation_record_context_end(enum dnntrace_api_id api, uintptr_t context, int result)
{
	/* A context this table never saw created owns no tensor here. */
	if (result != 0 || !context_owner_remove(context))
		return;
	end_owned(api, -1, context, result);
}

void allocation_record_mem_node(uint64_t call_id, enum dnntrace_api_id api,
				const void *const *node, const void *ptr, uint64_t bytes,
				int device, bool is_free, int result, uint64_t start_ns)
{
	uint64_t node_id = 0;
	int64_t tensor_id = -1;
	if (result == 0) {
		tensor_id = is_free ? tracer_tensor_of(ptr)
				    : new_tensor(DNNTRACE_MEM_STREAM_ORDERED, device, ptr, bytes,
						 true);
		cupti_session_graph_node_id(node ? *node : NULL, &node_id);
	}
	DNNTRACE_EMIT(dnntrace_api, graph_mem_node, call_id, api, node_id, ptr, bytes,
			     tensor_id, is_free, result, start_ns);
}

bool allocation_forget(const void *ptr, struct tensor_map_entry *entry)
{
	return tensor_map_remove(&tracer_tensors, (uintptr_t)ptr, entry);
}

void allocation_record_free(enum dnntrace_api_id api, const void *stream, bool known,
			    const struct tensor_map_entry *entry, int result)
{
	int64_t tensor_id = known ? entry->tensor_id : -1;
	uint64_t node_id;

	/* A graph allocation keeps its address (and id) for every later
	 * launch: back into the map, whether or not this free worked. */
	if (known && (result != 0 || entry->graph_memory))
		(void)tensor_map_insert(&tracer_tensors, entry, NULL);
	/* Captured into a graph: a free node, which frees nothing now. */
	if (result == 0 && dnntrace_api_is_stream_ordered(api) && known &&
	    entry->graph_memory && graph_capture_last_node(stream, api, &node_id)) {
		DNNTRACE_EMIT(dnntrace_api, graph_mem_node, 0, api, node_id,
				     (const void *)entry->base, entry->size, tensor_id, 1, result, 0);
		return;
	}
	if (dnntrace_api_is_stream_ordered(api))
		DNNTRACE_EMIT(dnntrace_api, free_async, api, tensor_id, result, stream);
	else
		DNNTRACE_EMIT(dnntrace_api, free, api, tensor_id, result);
}
