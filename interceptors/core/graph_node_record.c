/*
 * Graph-node events shared by the runtime and driver wrappers (see
 * graph_node_record.h). Must never change a result, read through a pointer
 * the caller did not hand the wrapper, allocate, lock or make a system call.
 */
#include "interceptors/core/graph_node_record.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/core/cupti_session.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_api.h"

_Static_assert(cudaSuccess == 0 && CUDA_SUCCESS == 0,
	       "graph node results: success is 0 in both APIs");

bool graph_generic_event_enabled(enum graph_generic_event event)
{
	switch (event) {
	case GRAPH_GENERIC_NODE:
		return lttng_ust_tracepoint_enabled(dnntrace_api, graph_node);
	case GRAPH_GENERIC_MEM_NODE:
		return lttng_ust_tracepoint_enabled(dnntrace_api, graph_mem_node);
	default:
		return false;
	}
}

void graph_copy_node_record(const struct traced_call *call, enum dnntrace_api_id api,
			    const void *exec, const void *node, const void *dst, const void *src,
			    bool has_src, int result)
{
	int64_t tensors[2];
	unsigned n = 0;
	uint64_t node_id = 0;
	if (result == 0) {
		tensors[n++] = tracer_tensor_of(dst);
		if (has_src)
			tensors[n++] = tracer_tensor_of(src);
		cupti_session_graph_node_id(node, &node_id);
	}
	DNNTRACE_EMIT(dnntrace_api, graph_node, call->call_id, api, exec, node_id, 0, tensors, n,
		      result, call->start_ns);
}

void graph_node_enable_record(const struct traced_call *call, enum dnntrace_api_id api,
			      const void *exec, const void *node, unsigned int enabled, int result)
{
	uint64_t node_id = 0;
	if (result == 0)
		cupti_session_graph_node_id(node, &node_id);
	DNNTRACE_EMIT(dnntrace_api, graph_node_enable, call->call_id, api, exec, node_id,
		      enabled != 0, result, call->start_ns);
}
