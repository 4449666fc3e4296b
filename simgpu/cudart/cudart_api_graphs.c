/*
 * The simulated runtime's CUDA graph entry points: cudaGraphCreate,
 * cudaGraphAddKernelNode, cudaGraphAddMemcpyNode[1D],
 * cudaGraphAddMemsetNode, cudaGraphAddHostNode, cudaGraphClone,
 * cudaGraphGetNodes, cudaGraphInstantiate[WithFlags],
 * cudaGraphLaunch[_ptsz], cudaGraphExecDestroy, cudaGraphDestroy and
 * cudaStreamBeginCapture / cudaStreamEndCapture[_ptsz], node parameters
 * and updates (cudaGraphKernelNodeGetParams / SetParams,
 * cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate,
 * cudaGraphNodeGetType) and capture queries (cudaStreamGetCaptureInfo,
 * cudaStreamIsCapturing[_ptsz]), child graph nodes
 * (cudaGraphAddChildGraphNode, cudaGraphChildGraphNodeGetGraph), and the
 * generic node API (cudaGraphAddNode, cudaGraphNodeSetParams,
 * cudaGraphExecNodeSetParams), each through the
 * driver entry point cuGetProcAddress gave (cudart_driver.c) inside a
 * frame, so CUPTI sees one call with its driver call nested. Like the
 * launches, it checks what only the runtime checks (host function, launch
 * geometry, copy directions) before calling the driver. It must never
 * dereference a graph handle: they belong to the driver.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

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

/* cudaGraphAddNode and cudaGraphNodeSetParams are at the end ("the
 * generic node API"). */

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

/* The memory type a cudaMemcpyKind gives one side (as cudaMemcpy2D). */
static CUmemorytype side_type(enum cudaMemcpyKind kind, int is_src)
{
	if (kind == cudaMemcpyDefault)
		return CU_MEMORYTYPE_UNIFIED;
	int device = is_src ? (kind == cudaMemcpyDeviceToHost ||
			       kind == cudaMemcpyDeviceToDevice)
			    : (kind == cudaMemcpyHostToDevice ||
			       kind == cudaMemcpyDeviceToDevice);
	return device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
}

static void set_3d_side(CUmemorytype type, const void *p, CUmemorytype *t,
			const void **host, CUdeviceptr *dev)
{
	*t = type;
	if (type == CU_MEMORYTYPE_HOST)
		*host = p;
	else
		*dev = (CUdeviceptr)(uintptr_t)p;
}

/*
 * Pitched pointers only: arrays (srcArray / dstArray) are not simulated
 * and are cudaErrorInvalidValue. Positions of a pitched pointer are in
 * bytes (element size 1), as cuda_runtime_api.h says.
 */
static cudaError_t driver_memcpy3d(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *out)
{
	if (!p || p->srcArray || p->dstArray)
		return cudaErrorInvalidValue;
	if ((unsigned int)p->kind > cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	CUDA_MEMCPY3D c;
	memset(&c, 0, sizeof(c));
	const void *dst_host = NULL;
	set_3d_side(side_type(p->kind, 1), p->srcPtr.ptr, &c.srcMemoryType,
		    &c.srcHost, &c.srcDevice);
	set_3d_side(side_type(p->kind, 0), p->dstPtr.ptr, &c.dstMemoryType,
		    &dst_host, &c.dstDevice);
	c.dstHost = (void *)dst_host;
	c.srcXInBytes = p->srcPos.x, c.srcY = p->srcPos.y, c.srcZ = p->srcPos.z;
	c.dstXInBytes = p->dstPos.x, c.dstY = p->dstPos.y, c.dstZ = p->dstPos.z;
	c.srcPitch = p->srcPtr.pitch, c.srcHeight = p->srcPtr.ysize;
	c.dstPitch = p->dstPtr.pitch, c.dstHeight = p->dstPtr.ysize;
	c.WidthInBytes = p->extent.width;
	c.Height = p->extent.height;
	c.Depth = p->extent.depth;
	*out = c;
	return cudaSuccess;
}

static cudaError_t add_memcpy_node(cudaGraphNode_t *node, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   const struct cudaMemcpy3DParms *p)
{
	ENTER();
	if (!node || !graph || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	CUDA_MEMCPY3D c;
	cudaError_t err = driver_memcpy3d(p, &c);
	if (err != cudaSuccess)
		return sim_return(err);
	return sim_return(cudart_error(cudart_drv.graph_add_memcpy_node(
		node, graph, deps, ndeps, &c, NULL)));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemcpy3DParms *pCopyParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddMemcpyNode_v10000), 0,
		     add_memcpy_node(pGraphNode, graph, pDependencies,
				     numDependencies, pCopyParams));
}

static cudaError_t add_memcpy_node_1d(cudaGraphNode_t *node, cudaGraph_t graph,
				      const cudaGraphNode_t *deps, size_t ndeps,
				      void *dst, const void *src, size_t count,
				      enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p;
	memset(&p, 0, sizeof(p));
	p.srcPtr = (struct cudaPitchedPtr){ (void *)src, count, count, 1 };
	p.dstPtr = (struct cudaPitchedPtr){ dst, count, count, 1 };
	p.extent = (struct cudaExtent){ count, 1, 1 };
	p.kind = kind;
	return add_memcpy_node(node, graph, deps, ndeps, &p);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode,
				     cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies, void *dst,
				     const void *src, size_t count,
				     enum cudaMemcpyKind kind)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddMemcpyNode1D_v11010), 0,
		     add_memcpy_node_1d(pGraphNode, graph, pDependencies,
					numDependencies, dst, src, count,
					kind));
}

static cudaError_t add_memset_node(cudaGraphNode_t *node, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   const struct cudaMemsetParams *p)
{
	ENTER();
	if (!node || !graph || !p || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	CUDA_MEMSET_NODE_PARAMS params = {
		.dst = (CUdeviceptr)(uintptr_t)p->dst, .pitch = p->pitch,
		.value = p->value, .elementSize = p->elementSize,
		.width = p->width, .height = p->height,
	};
	return sim_return(cudart_error(cudart_drv.graph_add_memset_node(
		node, graph, deps, ndeps, &params, NULL)));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemsetParams *pMemsetParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddMemsetNode_v10000), 0,
		     add_memset_node(pGraphNode, graph, pDependencies,
				     numDependencies, pMemsetParams));
}

static cudaError_t add_host_node(cudaGraphNode_t *node, cudaGraph_t graph,
				 const cudaGraphNode_t *deps, size_t ndeps,
				 const struct cudaHostNodeParams *p)
{
	ENTER();
	if (!node || !graph || !p || !p->fn || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	CUDA_HOST_NODE_PARAMS params = { .fn = p->fn, .userData = p->userData };
	return sim_return(cudart_error(cudart_drv.graph_add_host_node(
		node, graph, deps, ndeps, &params)));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				 const cudaGraphNode_t *pDependencies,
				 size_t numDependencies,
				 const struct cudaHostNodeParams *pNodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddHostNode_v10000), 0,
		     add_host_node(pGraphNode, graph, pDependencies,
				   numDependencies, pNodeParams));
}

static cudaError_t graph_clone(cudaGraph_t *clone, cudaGraph_t graph)
{
	ENTER();
	if (!clone || !graph)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.graph_clone(clone, graph)));
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
	RUNTIME_CALL(RT_CBID(cudaGraphClone_v10000), 0,
		     graph_clone(pGraphClone, originalGraph));
}

static cudaError_t get_nodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			     size_t *num)
{
	ENTER();
	if (!graph || !num)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(
		cudart_drv.graph_get_nodes(graph, nodes, num)));
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			      size_t *numNodes)
{
	RUNTIME_CALL(RT_CBID(cudaGraphGetNodes_v10000), 0,
		     get_nodes(graph, nodes, numNodes));
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

/* ---- node parameters and updates ---- */

/* The runtime's kernel node parameters as the driver's; the host function
 * (or kernel handle) becomes its CUfunction. */
static cudaError_t driver_kernel_params(const struct cudaKernelNodeParams *p,
					CUDA_KERNEL_NODE_PARAMS_v2 *d)
{
	if (!p)
		return cudaErrorInvalidValue;
	CUfunction f = cudart_priv.function_of(p->func, 0);
	if (!f)
		return cudaErrorInvalidDeviceFunction;
	cudaError_t err = sim_check_launch_geometry(p->gridDim, p->blockDim,
						    p->sharedMemBytes);
	if (err != cudaSuccess)
		return err;
	*d = (CUDA_KERNEL_NODE_PARAMS_v2){
		.func = f,
		.gridDimX = p->gridDim.x, .gridDimY = p->gridDim.y,
		.gridDimZ = p->gridDim.z, .blockDimX = p->blockDim.x,
		.blockDimY = p->blockDim.y, .blockDimZ = p->blockDim.z,
		.sharedMemBytes = p->sharedMemBytes,
		.kernelParams = p->kernelParams, .extra = p->extra,
	};
	return cudaSuccess;
}

/*
 * func comes back as the driver's CUfunction of the kernel, not the host
 * function it was given as (assumed: cuda_runtime_api.h does not say
 * which); kernelParams point to the node's own copy of the values.
 */
static cudaError_t kernel_node_get(cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
	ENTER();
	if (!node || !p)
		return sim_return(cudaErrorInvalidValue);
	CUDA_KERNEL_NODE_PARAMS_v2 d;
	cudaError_t err = cudart_error(cudart_drv.graph_kernel_node_get_params(node, &d));
	if (err == cudaSuccess)
		*p = (struct cudaKernelNodeParams){
			.func = d.func ? (void *)d.func : (void *)d.kern,
			.gridDim = { d.gridDimX, d.gridDimY, d.gridDimZ },
			.blockDim = { d.blockDimX, d.blockDimY, d.blockDimZ },
			.sharedMemBytes = d.sharedMemBytes,
			.kernelParams = d.kernelParams,
			.extra = NULL,
		};
	return sim_return(err);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
					 struct cudaKernelNodeParams *pNodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphKernelNodeGetParams_v10000), 0,
		     kernel_node_get(node, pNodeParams));
}

static cudaError_t kernel_node_set(cudaGraphExec_t exec, cudaGraphNode_t node,
				   const struct cudaKernelNodeParams *p)
{
	ENTER();
	CUDA_KERNEL_NODE_PARAMS_v2 d;
	cudaError_t err = driver_kernel_params(p, &d);
	if (err != cudaSuccess)
		return sim_return(err);
	CUresult r = exec ? cudart_drv.graph_exec_kernel_node_set_params(exec, node, &d)
			  : cudart_drv.graph_kernel_node_set_params(node, &d);
	return sim_return(cudart_error(r));
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
					 const struct cudaKernelNodeParams *pNodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphKernelNodeSetParams_v10000), 0,
		     kernel_node_set(NULL, node, pNodeParams));
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
					     cudaGraphNode_t node,
					     const struct cudaKernelNodeParams *pNodeParams)
{
	if (!hGraphExec)
		return cudaErrorInvalidValue;
	RUNTIME_CALL(RT_CBID(cudaGraphExecKernelNodeSetParams_v10010), 0,
		     kernel_node_set(hGraphExec, node, pNodeParams));
}

static cudaError_t exec_update(cudaGraphExec_t exec, cudaGraph_t graph,
			       cudaGraphExecUpdateResultInfo *info)
{
	ENTER();
	if (!info)
		return sim_return(cudaErrorInvalidValue);
	CUgraphExecUpdateResultInfo d;
	memset(&d, 0, sizeof(d));
	cudaError_t err = cudart_error(cudart_drv.graph_exec_update(exec, graph, &d));
	/* The enum values are the driver's (cudaGraphExecUpdateResult). */
	info->result = (enum cudaGraphExecUpdateResult)d.result;
	info->errorNode = d.errorNode;
	info->errorFromNode = d.errorFromNode;
	return sim_return(err);
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
				cudaGraphExecUpdateResultInfo *resultInfo)
{
	RUNTIME_CALL(RT_CBID(cudaGraphExecUpdate_v10020), 0,
		     exec_update(hGraphExec, hGraph, resultInfo));
}

static cudaError_t node_get_type(cudaGraphNode_t node, enum cudaGraphNodeType *type)
{
	ENTER();
	if (!type)
		return sim_return(cudaErrorInvalidValue);
	CUgraphNodeType t;
	cudaError_t err = cudart_error(cudart_drv.graph_node_get_type(node, &t));
	if (err == cudaSuccess)
		*type = (enum cudaGraphNodeType)t;
	return sim_return(err);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
	RUNTIME_CALL(RT_CBID(cudaGraphNodeGetType_v10000), 0, node_get_type(node, pType));
}

/* ---- capture queries ---- */

static cudaError_t capture_info(cudaStream_t stream, int per_thread,
				enum cudaStreamCaptureStatus *status, unsigned long long *id,
				cudaGraph_t *graph, const cudaGraphNode_t **deps,
				const cudaGraphEdgeData **edges, size_t *ndeps)
{
	ENTER();
	if (!status)
		return sim_return(cudaErrorInvalidValue);
	CUstreamCaptureStatus st;
	cuuint64_t capture_id = 0;
	const CUgraphEdgeData *edge_data = NULL;
	cudaError_t err = cudart_error(cudart_driver_for(per_thread)->stream_get_capture_info(
		stream, &st, &capture_id, graph, deps, edges ? &edge_data : NULL, ndeps));
	if (err == cudaSuccess) {
		*status = (enum cudaStreamCaptureStatus)st;
		if (id && st == CU_STREAM_CAPTURE_STATUS_ACTIVE)
			*id = capture_id;
		if (edges)
			*edges = (const cudaGraphEdgeData *)edge_data;
	}
	return sim_return(err);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
				     enum cudaStreamCaptureStatus *captureStatus_out,
				     unsigned long long *id_out, cudaGraph_t *graph_out,
				     const cudaGraphNode_t **dependencies_out,
				     const cudaGraphEdgeData **edgeData_out,
				     size_t *numDependencies_out)
{
	RUNTIME_CALL(RT_CBID(cudaStreamGetCaptureInfo_v12030), 0,
		     capture_info(stream, 0, captureStatus_out, id_out, graph_out,
				  dependencies_out, edgeData_out, numDependencies_out));
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
					  enum cudaStreamCaptureStatus *captureStatus_out,
					  unsigned long long *id_out, cudaGraph_t *graph_out,
					  const cudaGraphNode_t **dependencies_out,
					  const cudaGraphEdgeData **edgeData_out,
					  size_t *numDependencies_out)
{
	RUNTIME_CALL(RT_CBID(cudaStreamGetCaptureInfo_ptsz_v12030), 0,
		     capture_info(stream, 1, captureStatus_out, id_out, graph_out,
				  dependencies_out, edgeData_out, numDependencies_out));
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *pCaptureStatus)
{
	RUNTIME_CALL(RT_CBID(cudaStreamIsCapturing_v10000), 0,
		     capture_info(stream, 0, pCaptureStatus, NULL, NULL, NULL, NULL, NULL));
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
				       enum cudaStreamCaptureStatus *pCaptureStatus)
{
	RUNTIME_CALL(RT_CBID(cudaStreamIsCapturing_ptsz_v10000), 0,
		     capture_info(stream, 1, pCaptureStatus, NULL, NULL, NULL, NULL, NULL));
}

/* ---- child graph nodes ---- */

static cudaError_t add_child_node(cudaGraphNode_t *node, cudaGraph_t graph,
				  const cudaGraphNode_t *deps, size_t ndeps, cudaGraph_t child)
{
	ENTER();
	if (!node || !graph || !child || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.graph_add_child_graph_node(
		node, graph, deps, ndeps, child)));
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				       const cudaGraphNode_t *pDependencies,
				       size_t numDependencies, cudaGraph_t childGraph)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddChildGraphNode_v10000), 0,
		     add_child_node(pGraphNode, graph, pDependencies, numDependencies,
				    childGraph));
}

static cudaError_t child_graph(cudaGraphNode_t node, cudaGraph_t *graph)
{
	ENTER();
	if (!node || !graph)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.graph_child_graph_node_get_graph(node, graph)));
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
	RUNTIME_CALL(RT_CBID(cudaGraphChildGraphNodeGetGraph_v10000), 0,
		     child_graph(node, pGraph));
}

/* ---- the generic node API (CUDA 12.2 on) ---- */

/*
 * cudaGraphNodeParams as the driver's CUgraphNodeParams, for the types the
 * runtime converts: kernel (the host function or kernel handle becomes its
 * CUfunction, the launch geometry checked as cudaGraphAddKernelNode does),
 * memcpy (as cudaGraphAddMemcpyNode), memset, host, child graph, memory
 * alloc and free. Any other type goes down as cudaErrorNotSupported (the
 * driver's answer for what simgpu does not simulate, driver/
 * cuda_api_graphs.c). The reserved fields are the caller's, checked by the
 * driver.
 */
static cudaError_t driver_node_params(const struct cudaGraphNodeParams *p,
				      CUgraphNodeParams *d)
{
	memset(d, 0, sizeof(*d));
	d->type = (CUgraphNodeType)p->type;
	memcpy(d->reserved0, p->reserved0, sizeof(d->reserved0));
	d->reserved2 = p->reserved2;
	switch (p->type) {
	case cudaGraphNodeTypeKernel: {
		struct cudaKernelNodeParams k = {
			.func = p->kernel.func, .gridDim = p->kernel.gridDim,
			.blockDim = p->kernel.blockDim,
			.sharedMemBytes = p->kernel.sharedMemBytes,
			.kernelParams = p->kernel.kernelParams, .extra = p->kernel.extra,
		};
		CUDA_KERNEL_NODE_PARAMS_v2 v2;
		cudaError_t err = driver_kernel_params(&k, &v2);
		if (err != cudaSuccess)
			return err;
		d->kernel = (CUDA_KERNEL_NODE_PARAMS_v3){
			.func = v2.func, .gridDimX = v2.gridDimX, .gridDimY = v2.gridDimY,
			.gridDimZ = v2.gridDimZ, .blockDimX = v2.blockDimX,
			.blockDimY = v2.blockDimY, .blockDimZ = v2.blockDimZ,
			.sharedMemBytes = v2.sharedMemBytes, .kernelParams = v2.kernelParams,
			.extra = v2.extra,
		};
		return cudaSuccess;
	}
	case cudaGraphNodeTypeMemcpy:
		if (p->memcpy.flags || p->memcpy.reserved[0] || p->memcpy.reserved[1] ||
		    p->memcpy.reserved[2])
			return cudaErrorInvalidValue;
		return driver_memcpy3d(&p->memcpy.copyParams, &d->memcpy.copyParams);
	case cudaGraphNodeTypeMemset:
		d->memset = (CUDA_MEMSET_NODE_PARAMS_v2){
			.dst = (CUdeviceptr)(uintptr_t)p->memset.dst, .pitch = p->memset.pitch,
			.value = p->memset.value, .elementSize = p->memset.elementSize,
			.width = p->memset.width, .height = p->memset.height,
		};
		return cudaSuccess;
	case cudaGraphNodeTypeHost:
		d->host = (CUDA_HOST_NODE_PARAMS_v2){ p->host.fn, p->host.userData };
		return cudaSuccess;
	case cudaGraphNodeTypeGraph:
		d->graph.graph = p->graph.graph;
		d->graph.ownership = (CUgraphChildGraphNodeOwnership)p->graph.ownership;
		return cudaSuccess;
	case cudaGraphNodeTypeMemAlloc: {
		const struct cudaMemPoolProps *pool = &p->alloc.poolProps;
		d->alloc.poolProps.allocType = (CUmemAllocationType)pool->allocType;
		d->alloc.poolProps.handleTypes = (CUmemAllocationHandleType)pool->handleTypes;
		d->alloc.poolProps.location.type = (CUmemLocationType)pool->location.type;
		d->alloc.poolProps.location.id = pool->location.id;
		d->alloc.accessDescs = (const CUmemAccessDesc *)p->alloc.accessDescs;
		d->alloc.accessDescCount = p->alloc.accessDescCount;
		d->alloc.bytesize = p->alloc.bytesize;
		return cudaSuccess;
	}
	case cudaGraphNodeTypeMemFree:
		d->free.dptr = (CUdeviceptr)(uintptr_t)p->free.dptr;
		return cudaSuccess;
	default:
		return cudaErrorNotSupported;
	}
}

_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData),
	       "the runtime's edge data is the driver's");

/*
 * cudaGraphAddNode through the driver's cuGraphAddNode_v2 (CUDA 12.3's
 * form, with edge data), as the real runtime does (seen on an H200, CUDA
 * 13.0: tests/gpu/probe_graph_callbacks.cu); an alloc node's address comes
 * back in nodeParams->alloc.dptr.
 */
static cudaError_t add_generic_node(cudaGraphNode_t *node, cudaGraph_t graph,
				    const cudaGraphNode_t *deps,
				    const cudaGraphEdgeData *edges, size_t ndeps,
				    struct cudaGraphNodeParams *p)
{
	ENTER();
	if (!node || !graph || !p || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	CUgraphNodeParams d;
	cudaError_t err = driver_node_params(p, &d);
	/* not supported: the driver says so for d's type, with its line */
	if (err != cudaSuccess && err != cudaErrorNotSupported)
		return sim_return(err);
	err = cudart_error(cudart_drv.graph_add_node(node, graph, deps,
						     (const CUgraphEdgeData *)edges, ndeps, &d));
	if (err == cudaSuccess && p->type == cudaGraphNodeTypeMemAlloc)
		p->alloc.dptr = (void *)(uintptr_t)d.alloc.dptr;
	return sim_return(err);
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
			     const cudaGraphNode_t *pDependencies,
			     const cudaGraphEdgeData *dependencyData, size_t numDependencies,
			     struct cudaGraphNodeParams *nodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddNode_v12030), 0,
		     add_generic_node(pGraphNode, graph, pDependencies, dependencyData,
				      numDependencies, nodeParams));
}

/*
 * cudaGraphNodeSetParams / cudaGraphExecNodeSetParams (exec non-NULL)
 * through cuGraphNodeSetParams / cuGraphExecNodeSetParams, as the real
 * runtime does (seen on the H200): kernel, memcpy and memset nodes change;
 * memory alloc and free nodes are cudaErrorNotSupported (cuda_runtime_api.h);
 * the driver's answer for the other types (driver/cuda_api_graphs.c).
 */
static cudaError_t set_generic_node(cudaGraphExec_t exec, cudaGraphNode_t node,
				    struct cudaGraphNodeParams *p)
{
	ENTER();
	if (!node || !p)
		return sim_return(cudaErrorInvalidValue);
	CUgraphNodeParams d;
	cudaError_t err = driver_node_params(p, &d);
	if (err != cudaSuccess && err != cudaErrorNotSupported)
		return sim_return(err);
	CUresult r = exec ? cudart_drv.graph_exec_node_set_params(exec, node, &d)
			  : cudart_drv.graph_node_set_params(node, &d);
	return sim_return(cudart_error(r));
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphNodeSetParams_v12020), 0,
		     set_generic_node(NULL, node, nodeParams));
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
				       struct cudaGraphNodeParams *nodeParams)
{
	if (!graphExec)
		return cudaErrorInvalidValue;
	RUNTIME_CALL(RT_CBID(cudaGraphExecNodeSetParams_v12020), 0,
		     set_generic_node(graphExec, node, nodeParams));
}
