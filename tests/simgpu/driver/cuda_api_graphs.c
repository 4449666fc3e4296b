/*
 * The simulated driver's CUDA graph entry points, with the prototypes
 * cuda.h maps the plain names to: cuGraphCreate, cuGraphAddKernelNode_v2
 * (cuGraphAddKernelNode), cuGraphInstantiateWithFlags (cuGraphInstantiate),
 * cuGraphLaunch[_ptsz], cuGraphExecDestroy, cuGraphDestroy, and stream
 * capture of kernel launches (cuStreamBeginCapture_v2[_ptsz],
 * cuStreamEndCapture[_ptsz]). Semantics in core_graphs.c. Only kernel
 * nodes exist; this file must never read kernel parameters.
 */
#include "tests/simgpu/driver/driver_internal.h"

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphCreate,
			sim_cu_result(sim_graph_create(phGraph, flags)));
}

static CUresult add_kernel_node(CUgraphNode *out, CUgraph graph,
				const CUgraphNode *deps, size_t ndeps,
				const CUDA_KERNEL_NODE_PARAMS_v2 *p)
{
	if (!out || !graph || !p || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	/* The kernel comes as a CUfunction or, with func NULL, a CUkernel;
	 * parameters as an array or packed in extra, not both. */
	const void *func = p->func ? (const void *)p->func : (const void *)p->kern;
	if (p->kernelParams && p->extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(func, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	dim3 grid = { p->gridDimX, p->gridDimY, p->gridDimZ };
	dim3 block = { p->blockDimX, p->blockDimY, p->blockDimZ };
	return sim_cu_result(sim_graph_add_kernel_node(
		out, graph, deps, ndeps, func, grid, block, p->sharedMemBytes,
		p->kernelParams || p->extra));
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
				 const CUgraphNode *dependencies,
				 size_t numDependencies,
				 const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddKernelNode_v2,
			add_kernel_node(phGraphNode, hGraph, dependencies,
					numDependencies, nodeParams));
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph,
				     unsigned long long flags)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphInstantiateWithFlags,
			sim_cu_result(sim_graph_instantiate(phGraphExec, hGraph,
							    flags)));
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_graph_launch(hGraphExec, hStream, 0,
					      CBID(cuGraphLaunch)));
}

CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_graph_launch(hGraphExec, hStream, 1,
					      CBID(cuGraphLaunch_ptsz)));
}

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphExecDestroy,
			sim_cu_result(sim_graph_exec_destroy(hGraphExec)));
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphDestroy,
			sim_cu_result(sim_graph_destroy(hGraph)));
}

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamBeginCapture_v2,
			sim_cu_result(sim_stream_begin_capture(hStream, 0,
							       (int)mode)));
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamBeginCapture_v2_ptsz,
			sim_cu_result(sim_stream_begin_capture(hStream, 1,
							       (int)mode)));
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamEndCapture,
			sim_cu_result(sim_stream_end_capture(hStream, 0, phGraph)));
}

CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamEndCapture_ptsz,
			sim_cu_result(sim_stream_end_capture(hStream, 1, phGraph)));
}
