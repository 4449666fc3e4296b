/*
 * The simulated driver's cuGraphNodeSetEnabled and cuGraphNodeGetEnabled:
 * an executable graph's kernel, memcpy or memset node switched off (it
 * runs nothing at later launches: no work, no record) and on again.
 * Semantics in core_graphs.c. It must never write an out-pointer on
 * failure.
 */
#include "simgpu/driver/driver_internal.h"

CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphNodeSetEnabled,
			sim_cu_result(sim_graph_node_set_enabled(hGraphExec, hNode,
								 isEnabled != 0)));
}

static CUresult get_enabled(CUgraphExec exec, CUgraphNode node, unsigned int *out)
{
	int enabled = 0;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = sim_cu_result(sim_graph_node_get_enabled(exec, node, &enabled));
	if (r == CUDA_SUCCESS)
		*out = (unsigned int)enabled;
	return r;
}

CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphNodeGetEnabled, get_enabled(hGraphExec, hNode, isEnabled));
}
