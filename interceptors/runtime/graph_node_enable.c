/*
 * cudaGraphNodeSetEnabled: one dnntrace_api:graph_node_enable event (trace
 * format 8) with the exec, the CUPTI id of the graph's node passed (the
 * exec's copy of it is the one that stops or resumes running), the state
 * asked for and the result, so the analysis knows which of an exec's nodes
 * run no kernel at a launch (analysis/model/graph_nodes.c). Forwards with
 * the same arguments and returns the real result; must never change them.
 */

#include <cuda_runtime_api.h>

#include "interceptors/core/cupti_session.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_api.h"

static void record_enable(const struct traced_call *call, enum dnntrace_api_id api,
			  const void *exec, const void *node, unsigned int enabled,
			  cudaError_t result)
{
	uint64_t node_id = 0;
	if (result == cudaSuccess)
		cupti_session_graph_node_id(node, &node_id);
	DNNTRACE_EMIT(dnntrace_api, graph_node_enable, call->call_id, api, exec, node_id,
		      enabled != 0, (int)result, call->start_ns);
}

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphNodeSetEnabled,
	(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled),
	(hGraphExec, hNode, isEnabled), cudaErrorSharedObjectSymbolNotFound,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_node_enable),
	record_enable(&call, api, hGraphExec, hNode, isEnabled, result))
