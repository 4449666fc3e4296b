/*
 * The simulated runtime's CUDA graph entry points: cudaGraphCreate,
 * cudaGraphAddKernelNode, cudaGraphInstantiate[WithFlags],
 * cudaGraphLaunch[_ptsz], cudaGraphExecDestroy, cudaGraphDestroy and
 * cudaStreamBeginCapture / cudaStreamEndCapture[_ptsz], each through the
 * driver entry point cuGetProcAddress gave (cudart_driver.c) inside a
 * frame, so CUPTI sees one call with its driver call nested. Like the
 * launches, it checks what only the runtime checks (host function, launch
 * geometry) before calling the driver. It must never dereference a graph
 * handle: they belong to the driver.
 */
#include "tests/simgpu/cudart_internal.h"

static cudaError_t graph_create(cudaGraph_t *graph, unsigned int flags)
{
	ENTER();
	if (!graph)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.graph_create(graph, flags)));
}

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
	RUNTIME_CALL(RT_CBID(cudaGraphCreate_v10000), 0,
		     graph_create(pGraph, flags));
}

/* The host function (or kernel handle) becomes the driver's CUfunction. */
static cudaError_t add_kernel_node(cudaGraphNode_t *node, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   const struct cudaKernelNodeParams *p)
{
	ENTER();
	if (!node || !graph || !p || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	CUfunction f = cudart_priv.function_of(p->func, 0);
	if (!f)
		return sim_return(cudaErrorInvalidDeviceFunction);
	cudaError_t err = sim_check_launch_geometry(p->gridDim, p->blockDim,
						    p->sharedMemBytes);
	if (err != cudaSuccess)
		return sim_return(err);
	CUDA_KERNEL_NODE_PARAMS_v2 params = {
		.func = f,
		.gridDimX = p->gridDim.x, .gridDimY = p->gridDim.y,
		.gridDimZ = p->gridDim.z, .blockDimX = p->blockDim.x,
		.blockDimY = p->blockDim.y, .blockDimZ = p->blockDim.z,
		.sharedMemBytes = p->sharedMemBytes,
		.kernelParams = p->kernelParams, .extra = p->extra,
	};
	return sim_return(cudart_error(cudart_drv.graph_add_kernel_node(
		node, graph, deps, ndeps, &params)));
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaKernelNodeParams *pNodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddKernelNode_v10000), 0,
		     add_kernel_node(pGraphNode, graph, pDependencies,
				     numDependencies, pNodeParams));
}

static cudaError_t instantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
			       unsigned long long flags)
{
	ENTER();
	if (!exec || !graph)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(
		cudart_drv.graph_instantiate(exec, graph, flags)));
}

/* CUDA 12's cudaGraphInstantiate takes flags, like ...WithFlags. */
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
				 unsigned long long flags)
{
	RUNTIME_CALL(RT_CBID(cudaGraphInstantiate_v12000), 0,
		     instantiate(pGraphExec, graph, flags));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
					  cudaGraph_t graph,
					  unsigned long long flags)
{
	RUNTIME_CALL(RT_CBID(cudaGraphInstantiateWithFlags_v11040), 0,
		     instantiate(pGraphExec, graph, flags));
}

static cudaError_t graph_launch(cudaGraphExec_t exec, cudaStream_t stream,
				int per_thread)
{
	ENTER();
	if (!exec)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(
		cudart_driver_for(per_thread)->graph_launch(exec, stream)));
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	RUNTIME_CALL(RT_CBID(cudaGraphLaunch_v10000), 1,
		     graph_launch(graphExec, stream, 0));
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	RUNTIME_CALL(RT_CBID(cudaGraphLaunch_ptsz_v10000), 1,
		     graph_launch(graphExec, stream, 1));
}

static cudaError_t exec_destroy(cudaGraphExec_t exec)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.graph_exec_destroy(exec)));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
	RUNTIME_CALL(RT_CBID(cudaGraphExecDestroy_v10000), 0,
		     exec_destroy(graphExec));
}

static cudaError_t graph_destroy(cudaGraph_t graph)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.graph_destroy(graph)));
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	RUNTIME_CALL(RT_CBID(cudaGraphDestroy_v10000), 0, graph_destroy(graph));
}

/* ---- stream capture: kernel launches become nodes (core_graphs.c) ---- */

static cudaError_t begin_capture(cudaStream_t stream,
				 enum cudaStreamCaptureMode mode, int per_thread)
{
	ENTER();
	return sim_return(cudart_error(cudart_driver_for(per_thread)
		->stream_begin_capture(stream, (CUstreamCaptureMode)mode)));
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode)
{
	RUNTIME_CALL(RT_CBID(cudaStreamBeginCapture_v10000), 0,
		     begin_capture(stream, mode, 0));
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					enum cudaStreamCaptureMode mode)
{
	RUNTIME_CALL(RT_CBID(cudaStreamBeginCapture_ptsz_v10000), 0,
		     begin_capture(stream, mode, 1));
}

static cudaError_t end_capture(cudaStream_t stream, cudaGraph_t *graph,
			       int per_thread)
{
	ENTER();
	if (!graph)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(
		cudart_driver_for(per_thread)->stream_end_capture(stream, graph)));
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	RUNTIME_CALL(RT_CBID(cudaStreamEndCapture_v10000), 0,
		     end_capture(stream, pGraph, 0));
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
	RUNTIME_CALL(RT_CBID(cudaStreamEndCapture_ptsz_v10000), 0,
		     end_capture(stream, pGraph, 1));
}
