/*
 * The simulated runtime's cudaGraphNodeSetEnabled and
 * cudaGraphNodeGetEnabled, each through the driver entry point
 * cuGetProcAddress gave (cudart_driver.c) inside a frame, as the real
 * runtime calls the driver's twins. It must never dereference a graph
 * handle: they belong to the driver.
 */
#include "simgpu/cudart/cudart_internal.h"

static cudaError_t set_enabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.graph_node_set_enabled(exec, node, enabled)));
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
				    unsigned int isEnabled)
{
	RUNTIME_CALL(RT_CBID(cudaGraphNodeSetEnabled_v11060), 0,
		     set_enabled(hGraphExec, hNode, isEnabled));
}

static cudaError_t get_enabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int *enabled)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.graph_node_get_enabled(exec, node, enabled)));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
				    unsigned int *isEnabled)
{
	RUNTIME_CALL(RT_CBID(cudaGraphNodeGetEnabled_v11060), 0,
		     get_enabled(hGraphExec, hNode, isEnabled));
}
