/*
 * cudaGraphNodeSetEnabled: one dnntrace_api:graph_node_enable event (trace
 * format 8) with the exec, the CUPTI id of the graph's node passed (the
 * exec's copy of it is the one that stops or resumes running), the state
 * asked for and the result, so the analysis knows which of an exec's nodes
 * run no kernel at a launch (analysis/model/graph_nodes.c), recorded as
 * for the driver's (core/graph_node_record.c). Forwards with the same
 * arguments and returns the real result; must never change them.
 */

#include <cuda_runtime_api.h>

#include "interceptors/core/graph_node_record.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphNodeSetEnabled,
	(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled),
	(hGraphExec, hNode, isEnabled), cudaErrorSharedObjectSymbolNotFound,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_node_enable),
	graph_node_enable_record(&call, api, hGraphExec, hNode, isEnabled, (int)result))
