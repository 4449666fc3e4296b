/*
 * The simulated driver's CUDA graph entry points, with the prototypes
 * cuda.h maps the plain names to: cuGraphCreate, cuGraphAddKernelNode_v2
 * (cuGraphAddKernelNode), cuGraphAddMemcpyNode, cuGraphAddMemsetNode,
 * cuGraphAddHostNode, cuGraphClone, cuGraphGetNodes,
 * cuGraphInstantiateWithFlags (cuGraphInstantiate), cuGraphLaunch[_ptsz],
 * cuGraphExecDestroy, cuGraphDestroy, stream capture
 * (cuStreamBeginCapture_v2[_ptsz], cuStreamEndCapture[_ptsz]) and
 * cuLaunchHostFunc[_ptsz], which a capture turns into a host node; node
 * parameters and updates (cuGraphKernelNodeGetParams_v2 / SetParams_v2,
 * cuGraphExecKernelNodeSetParams_v2, cuGraphExecUpdate_v2,
 * cuGraphNodeGetType) and capture queries (cuStreamGetCaptureInfo_v3,
 * cuStreamIsCapturing, with _ptsz twins), child graph nodes
 * (cuGraphAddChildGraphNode, cuGraphChildGraphNodeGetGraph), and the
 * generic node API (cuGraphAddNode[_v2], cuGraphNodeSetParams,
 * cuGraphExecNodeSetParams: kernel, copy and set nodes and more, at the
 * end).
 * Semantics in core_graphs.c. This file must never read kernel parameters
 * nor accept an array memory type (the simulated device has no arrays).
 */
#include "simgpu/driver/driver_internal.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

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
	/* Parameters packed in extra are not kept (GetParams gives none). */
	return sim_cu_result(sim_graph_add_kernel_node(
		out, graph, deps, ndeps, func, grid, block, p->sharedMemBytes,
		p->kernelParams || p->extra, p->kernelParams));
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

enum { HOST = 0, DEVICE = 1, EITHER = -1 };

/*
 * One side of a CUDA_MEMCPY3D: its first byte (x + (z * height + y) *
 * pitch) and what memory it must be; -1 for arrays and bad types.
 */
static int memcpy3d_side(CUmemorytype type, const void *host, CUdeviceptr dev,
			 size_t x, size_t y, size_t z, size_t pitch,
			 size_t height, const void **start, int *want)
{
	const uint8_t *base;
	switch (type) {
	case CU_MEMORYTYPE_HOST:
		base = host, *want = HOST;
		break;
	case CU_MEMORYTYPE_DEVICE:
		base = DPTR(dev), *want = DEVICE;
		break;
	case CU_MEMORYTYPE_UNIFIED:
		base = DPTR(dev), *want = EITHER;
		break;
	default:
		return -1;
	}
	*start = base ? base + x + (z * height + y) * pitch : NULL;
	return 0;
}

/*
 * 1D and 2D copies (Depth 1; 0 is taken as 1); a 3D one, LODs and the
 * reserved pointers are CUDA_ERROR_INVALID_VALUE. The context is the
 * current one whatever ctx says (one context per device here).
 */
static CUresult copy_args_of(const CUDA_MEMCPY3D *c, struct sim_copy_args *a)
{
	if (!c || c->Depth > 1 || c->srcLOD || c->dstLOD || c->reserved0 ||
	    c->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	*a = (struct sim_copy_args){
		.spitch = c->srcPitch ? c->srcPitch : c->WidthInBytes,
		.dpitch = c->dstPitch ? c->dstPitch : c->WidthInBytes,
		.width = c->WidthInBytes,
		.height = c->Height ? c->Height : 1,
	};
	const void *src, *dst;
	if (memcpy3d_side(c->srcMemoryType, c->srcHost, c->srcDevice,
			  c->srcXInBytes, c->srcY, c->srcZ, a->spitch,
			  c->srcHeight, &src, &a->want_src) ||
	    memcpy3d_side(c->dstMemoryType, c->dstHost, c->dstDevice,
			  c->dstXInBytes, c->dstY, c->dstZ, a->dpitch,
			  c->dstHeight, &dst, &a->want_dst))
		return CUDA_ERROR_INVALID_VALUE;
	a->src = src;
	a->dst = (void *)dst;
	return CUDA_SUCCESS;
}

static CUresult add_memcpy_node(CUgraphNode *out, CUgraph graph,
				const CUgraphNode *deps, size_t ndeps,
				const CUDA_MEMCPY3D *c)
{
	struct sim_copy_args a;
	CUresult r = copy_args_of(c, &a);
	return r != CUDA_SUCCESS ? r
		: sim_cu_result(sim_graph_add_copy_node(out, graph, deps, ndeps, &a));
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			      const CUgraphNode *dependencies,
			      size_t numDependencies,
			      const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
	DRIVER_ENTER();
	(void)ctx;
	DRIVER_API_CALL(cuGraphAddMemcpyNode,
			add_memcpy_node(phGraphNode, hGraph, dependencies,
					numDependencies, copyParams));
}

/* Element sizes 1, 2 and 4 (cuda.h); dst aligned to the element. */
static CUresult set_args_of(const CUDA_MEMSET_NODE_PARAMS *p, struct sim_set_args *a)
{
	if (!p || (p->elementSize != 1 && p->elementSize != 2 &&
		   p->elementSize != 4) ||
	    p->dst % p->elementSize != 0 ||
	    (p->height > 1 && p->pitch % p->elementSize != 0))
		return CUDA_ERROR_INVALID_VALUE;
	*a = (struct sim_set_args){
		.dst = DPTR(p->dst), .value = p->value,
		.elem_size = p->elementSize, .width = p->width,
		.height = p->height,
		.pitch = p->height > 1 ? p->pitch : p->width * p->elementSize,
	};
	return CUDA_SUCCESS;
}

static CUresult add_memset_node(CUgraphNode *out, CUgraph graph,
				const CUgraphNode *deps, size_t ndeps,
				const CUDA_MEMSET_NODE_PARAMS *p)
{
	struct sim_set_args a;
	CUresult r = set_args_of(p, &a);
	return r != CUDA_SUCCESS ? r
		: sim_cu_result(sim_graph_add_set_node(out, graph, deps, ndeps, &a));
}

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			      const CUgraphNode *dependencies,
			      size_t numDependencies,
			      const CUDA_MEMSET_NODE_PARAMS *memsetParams,
			      CUcontext ctx)
{
	DRIVER_ENTER();
	(void)ctx;
	DRIVER_API_CALL(cuGraphAddMemsetNode,
			add_memset_node(phGraphNode, hGraph, dependencies,
					numDependencies, memsetParams));
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			    const CUgraphNode *dependencies,
			    size_t numDependencies,
			    const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddHostNode,
			!nodeParams ? CUDA_ERROR_INVALID_VALUE
				    : sim_cu_result(sim_graph_add_host_node(
					      phGraphNode, hGraph, dependencies,
					      numDependencies, nodeParams->fn,
					      nodeParams->userData)));
}

CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphClone,
			sim_cu_result(sim_graph_clone(phGraphClone,
						      originalGraph)));
}

CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphGetNodes,
			sim_cu_result(sim_graph_get_nodes(hGraph, nodes,
							  numNodes)));
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuLaunchHostFunc,
			sim_cu_result(sim_launch_host_func(hStream, 0, fn,
							   userData)));
}

CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuLaunchHostFunc_ptsz,
			sim_cu_result(sim_launch_host_func(hStream, 1, fn,
							   userData)));
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

/* ---- node parameters and updates ---- */

/* A CUDA_KERNEL_NODE_PARAMS_v2 as the core's view; NULL when malformed. */
static CUresult kernel_view(const CUDA_KERNEL_NODE_PARAMS_v2 *p,
			    struct sim_kernel_node *v, int *has_args)
{
	if (!p || (p->kernelParams && p->extra))
		return CUDA_ERROR_INVALID_VALUE;
	const void *func = p->func ? (const void *)p->func : (const void *)p->kern;
	if (!sim_function_of(func, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	*v = (struct sim_kernel_node){
		func, { p->gridDimX, p->gridDimY, p->gridDimZ },
		{ p->blockDimX, p->blockDimY, p->blockDimZ },
		p->sharedMemBytes, p->kernelParams };
	*has_args = p->kernelParams || p->extra;
	return CUDA_SUCCESS;
}

/* The kernel comes back as the CUfunction (or CUkernel) it was given as;
 * kernelParams point to the node's own copy of the values; extra NULL. */
static CUresult kernel_node_get(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS_v2 *p)
{
	struct sim_kernel_node v;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = sim_cu_result(sim_graph_kernel_node_get(node, &v));
	if (r != CUDA_SUCCESS)
		return r;
	memset(p, 0, sizeof(*p));
	if (sim_function_of(v.func, 1) == (CUfunction)v.func)
		p->func = (CUfunction)v.func;
	else
		p->kern = (CUkernel)v.func;
	p->gridDimX = v.grid.x, p->gridDimY = v.grid.y, p->gridDimZ = v.grid.z;
	p->blockDimX = v.block.x, p->blockDimY = v.block.y, p->blockDimZ = v.block.z;
	p->sharedMemBytes = v.shared_mem;
	p->kernelParams = v.params;
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode,
				       CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphKernelNodeGetParams_v2,
			kernel_node_get(hNode, nodeParams));
}

static CUresult kernel_node_set(CUgraphExec exec, CUgraphNode node,
				const CUDA_KERNEL_NODE_PARAMS_v2 *p)
{
	struct sim_kernel_node v;
	int has_args;
	CUresult r = kernel_view(p, &v, &has_args);
	if (r != CUDA_SUCCESS)
		return r;
	return sim_cu_result(exec ? sim_graph_exec_kernel_node_set(exec, node, &v, has_args)
				  : sim_graph_kernel_node_set(node, &v, has_args));
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode,
				       const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphKernelNodeSetParams_v2,
			kernel_node_set(NULL, hNode, nodeParams));
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
					   const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	DRIVER_ENTER();
	if (!hGraphExec)
		return CUDA_ERROR_INVALID_VALUE;
	DRIVER_API_CALL(cuGraphExecKernelNodeSetParams_v2,
			kernel_node_set(hGraphExec, hNode, nodeParams));
}

static CUresult exec_update(CUgraphExec exec, CUgraph graph,
			    CUgraphExecUpdateResultInfo *info)
{
	struct sim_update_result r;
	if (!info)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult result = sim_cu_result(sim_graph_exec_update(exec, graph, &r));
	info->result = (CUgraphExecUpdateResult)r.result;
	info->errorNode = r.error_node;
	info->errorFromNode = r.error_from_node;
	return result;
}

CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
			      CUgraphExecUpdateResultInfo *resultInfo)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphExecUpdate_v2,
			exec_update(hGraphExec, hGraph, resultInfo));
}

static CUresult node_get_type(CUgraphNode node, CUgraphNodeType *type)
{
	int t = 0;
	if (!type)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = sim_cu_result(sim_graph_node_type(node, &t));
	if (r == CUDA_SUCCESS)
		*type = (CUgraphNodeType)t;
	return r;
}

CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphNodeGetType, node_get_type(hNode, type));
}

/* ---- capture queries ---- */

static CUresult capture_info(CUstream stream, int per_thread, CUstreamCaptureStatus *status,
			     cuuint64_t *id, CUgraph *graph, const CUgraphNode **deps,
			     const CUgraphEdgeData **edges, size_t *ndeps)
{
	int st = 0;
	uint64_t capture_id = 0;
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = sim_cu_result(sim_stream_capture_info(stream, per_thread, &st,
							   &capture_id, graph, deps, ndeps));
	if (r != CUDA_SUCCESS)
		return r;
	*status = (CUstreamCaptureStatus)st;
	if (id && st == CU_STREAM_CAPTURE_STATUS_ACTIVE)
		*id = capture_id;
	if (edges)
		*edges = NULL; /* every edge a default one (cuda.h: NULL allowed) */
	return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
				   cuuint64_t *id_out, CUgraph *graph_out,
				   const CUgraphNode **dependencies_out,
				   const CUgraphEdgeData **edgeData_out,
				   size_t *numDependencies_out)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamGetCaptureInfo_v3,
			capture_info(hStream, 0, captureStatus_out, id_out, graph_out,
				     dependencies_out, edgeData_out, numDependencies_out));
}

CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream,
					CUstreamCaptureStatus *captureStatus_out,
					cuuint64_t *id_out, CUgraph *graph_out,
					const CUgraphNode **dependencies_out,
					const CUgraphEdgeData **edgeData_out,
					size_t *numDependencies_out)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamGetCaptureInfo_v3_ptsz,
			capture_info(hStream, 1, captureStatus_out, id_out, graph_out,
				     dependencies_out, edgeData_out, numDependencies_out));
}

CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamIsCapturing,
			capture_info(hStream, 0, captureStatus, NULL, NULL, NULL, NULL,
				     NULL));
}

CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuStreamIsCapturing_ptsz,
			capture_info(hStream, 1, captureStatus, NULL, NULL, NULL, NULL,
				     NULL));
}

/* ---- child graph nodes ---- */

CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				  const CUgraphNode *dependencies, size_t numDependencies,
				  CUgraph childGraph)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddChildGraphNode,
			sim_cu_result(sim_graph_add_child_node(phGraphNode, hGraph, dependencies,
							       numDependencies, childGraph)));
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphChildGraphNodeGetGraph,
			sim_cu_result(sim_graph_child_graph(hNode, phGraph)));
}

/* ---- the generic node API (CUDA 12.2 on) ---- */

/* One line on stderr, once, for a node type the generic API cannot make or
 * change here. */
static CUresult generic_not_supported(void)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;
	if (!atomic_flag_test_and_set(&said)) {
		static const char line[] = "simgpu: cuGraphAddNode / cuGraphNodeSetParams make "
			"and change kernel, memcpy, memset, host, child graph, memory alloc and "
			"free nodes here, with default edges (event, semaphore, batch memop and "
			"conditional nodes are not simulated): CUDA_ERROR_NOT_SUPPORTED\n";
		ssize_t ignored = write(2, line, sizeof(line) - 1);
		(void)ignored;
	}
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* CUDA_KERNEL_NODE_PARAMS_v3 as the v2 the typed calls take (the context
 * ignored: one per device here). */
static CUDA_KERNEL_NODE_PARAMS_v2 kernel_v2(const CUDA_KERNEL_NODE_PARAMS_v3 *k)
{
	return (CUDA_KERNEL_NODE_PARAMS_v2){
		.func = k->func, .gridDimX = k->gridDimX, .gridDimY = k->gridDimY,
		.gridDimZ = k->gridDimZ, .blockDimX = k->blockDimX, .blockDimY = k->blockDimY,
		.blockDimZ = k->blockDimZ, .sharedMemBytes = k->sharedMemBytes,
		.kernelParams = k->kernelParams, .extra = k->extra, .kern = k->kern,
	};
}

static CUDA_MEMSET_NODE_PARAMS memset_v1(const CUDA_MEMSET_NODE_PARAMS_v2 *m)
{
	return (CUDA_MEMSET_NODE_PARAMS){
		.dst = m->dst, .pitch = m->pitch, .value = m->value,
		.elementSize = m->elementSize, .width = m->width, .height = m->height,
	};
}

/*
 * cuGraphAddNode[_v2]: the node cuGraphAdd<Type>Node makes, for a kernel,
 * memcpy, memset, host, child graph (cloned; CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE
 * is not simulated), memory alloc (nodeParams->alloc.dptr set, as cuda.h
 * says) or memory free node; the reserved fields must be zero (cuda.h).
 * Edges other than default ones, and the other types: CUDA_ERROR_NOT_SUPPORTED
 * with one line on stderr, once.
 */
static CUresult add_generic_node(CUgraphNode *out, CUgraph graph, const CUgraphNode *deps,
				 const CUgraphEdgeData *edges, size_t ndeps,
				 CUgraphNodeParams *p)
{
	if (!out || !graph || !p || (ndeps && !deps) || p->reserved0[0] || p->reserved0[1] ||
	    p->reserved0[2] || p->reserved2)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; edges && i < ndeps; i++)
		if (edges[i].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || edges[i].from_port ||
		    edges[i].to_port)
			return generic_not_supported();
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_v2(&p->kernel);
		return add_kernel_node(out, graph, deps, ndeps, &k);
	}
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (p->memcpy.flags || p->memcpy.reserved)
			return CUDA_ERROR_INVALID_VALUE;
		return add_memcpy_node(out, graph, deps, ndeps, &p->memcpy.copyParams);
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		CUDA_MEMSET_NODE_PARAMS m = memset_v1(&p->memset);
		return add_memset_node(out, graph, deps, ndeps, &m);
	}
	case CU_GRAPH_NODE_TYPE_HOST:
		return !p->host.fn ? CUDA_ERROR_INVALID_VALUE
			: sim_cu_result(sim_graph_add_host_node(out, graph, deps, ndeps,
								p->host.fn, p->host.userData));
	case CU_GRAPH_NODE_TYPE_GRAPH:
		if (p->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
			return generic_not_supported();
		return sim_cu_result(sim_graph_add_child_node(out, graph, deps, ndeps,
							      p->graph.graph));
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
		CUDA_MEM_ALLOC_NODE_PARAMS a = {
			.poolProps = p->alloc.poolProps, .accessDescs = p->alloc.accessDescs,
			.accessDescCount = p->alloc.accessDescCount, .bytesize = p->alloc.bytesize,
		};
		CUresult r = driver_add_alloc_node(out, graph, deps, ndeps, &a);
		if (r == CUDA_SUCCESS)
			p->alloc.dptr = a.dptr;
		return r;
	}
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return sim_cu_result(sim_graph_add_mem_free_node(out, graph, deps, ndeps,
								 (uint64_t)p->free.dptr));
	default:
		return generic_not_supported();
	}
}

CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
			   const CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData,
			   size_t numDependencies, CUgraphNodeParams *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddNode_v2,
			add_generic_node(phGraphNode, hGraph, dependencies, dependencyData,
					 numDependencies, nodeParams));
}

/* CUDA 12.2's form: no edge data. */
CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			const CUgraphNode *dependencies, size_t numDependencies,
			CUgraphNodeParams *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddNode,
			add_generic_node(phGraphNode, hGraph, dependencies, NULL,
					 numDependencies, nodeParams));
}

/*
 * cuGraphNodeSetParams / cuGraphExecNodeSetParams (exec non-NULL): a
 * kernel node as cuGraph[Exec]KernelNodeSetParams_v2 changes it, a memcpy
 * or memset node takes new parameters (core_graphs.c,
 * sim_graph_copy_node_set); nodeParams->type must be the node's
 * (CUDA_ERROR_INVALID_VALUE otherwise, as for a node the call cannot
 * find). Memory alloc and free nodes: CUDA_ERROR_NOT_SUPPORTED, as cuda.h
 * says of every driver; host, child graph and the other types:
 * CUDA_ERROR_NOT_SUPPORTED with one line on stderr, once (a real driver
 * changes them).
 */
static CUresult set_generic_node(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *p)
{
	if (!node || !p || p->reserved0[0] || p->reserved0[1] || p->reserved0[2] ||
	    p->reserved2)
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		CUDA_KERNEL_NODE_PARAMS_v2 k = kernel_v2(&p->kernel);
		return kernel_node_set(exec, node, &k);
	}
	case CU_GRAPH_NODE_TYPE_MEMCPY: {
		if (p->memcpy.flags || p->memcpy.reserved)
			return CUDA_ERROR_INVALID_VALUE;
		struct sim_copy_args a;
		CUresult r = copy_args_of(&p->memcpy.copyParams, &a);
		return r != CUDA_SUCCESS ? r
			: sim_cu_result(sim_graph_copy_node_set(exec, node, &a, NULL));
	}
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		CUDA_MEMSET_NODE_PARAMS m = memset_v1(&p->memset);
		struct sim_set_args a;
		CUresult r = set_args_of(&m, &a);
		return r != CUDA_SUCCESS ? r
			: sim_cu_result(sim_graph_copy_node_set(exec, node, NULL, &a));
	}
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return generic_not_supported();
	}
}

CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphNodeSetParams, set_generic_node(NULL, hNode, nodeParams));
}

CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
				  CUgraphNodeParams *nodeParams)
{
	DRIVER_ENTER();
	if (!hGraphExec)
		return CUDA_ERROR_INVALID_VALUE;
	DRIVER_API_CALL(cuGraphExecNodeSetParams,
			set_generic_node(hGraphExec, hNode, nodeParams));
}
