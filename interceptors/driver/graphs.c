/*
 * The driver twins of runtime/graphs.c: cuGraphAddKernelNode_v2,
 * cuGraphKernelNodeSetParams_v2, cuGraphExecKernelNodeSetParams_v2
 * (dnntrace_api:graph_node: the node's CUPTI id and the live tensors its
 * kernelParams, or the buffer packed in extra, point into, with the
 * kernel's layout from cuFuncGetParamInfo; a node given a CUkernel in
 * kern is scanned word by word like a packed buffer only when its
 * parameters come packed: assumed rare), cuGraphExecUpdate_v2
 * (dnntrace_api:graph_exec_update), cuGraphAddMemcpyNode and
 * cuGraphAddMemsetNode (graph_node: the tensors written, then read) and
 * cuStreamBeginCapture_v2[_ptsz] and cuGraphInstantiateWithFlags,
 * cuGraphInstantiateWithParams[_ptsz] (bookkeeping only: the exec the
 * clones CUPTI reports during an instantiation belong to), and the generic
 * node API (cuGraphAddNode[_v2], cuGraphNodeSetParams,
 * cuGraphExecNodeSetParams: at the end). A runtime call the simulated libcudart implements
 * with these is one event: the runtime wrapper's. Must never write to the
 * caller's parameter structs.
 */
#include <stdint.h>

#include <cuda.h>

#include "interceptors/core/allocation_record.h"
#include "interceptors/core/cupti_session.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/graph_node_record.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/wrapper.h"
#include "interceptors/driver/cuda_driver_ptds.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cuStreamBeginCapture_v2_ptsz, cuStreamBeginCapture_v2);
DNNTRACE_SAME_PROTOTYPE(cuGraphInstantiateWithParams_ptsz, cuGraphInstantiateWithParams);

#define NOT_FOUND CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND

static bool graph_node_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, graph_node);
}

enum { MAX_EXTRA_PAIRS = 64 };

static const void *packed_buffer(void **extra, size_t *size)
{
	const void *buffer = NULL;
	const size_t *buffer_size = NULL;
	for (int i = 0; extra && i < 2 * MAX_EXTRA_PAIRS && extra[i] != CU_LAUNCH_PARAM_END;
	     i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			buffer = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			buffer_size = extra[i + 1];
	}
	if (!buffer || !buffer_size)
		return NULL;
	*size = *buffer_size;
	return buffer;
}

/* generic: the event of a generic node call, where function_id 0 must say
 * "a copy or set node" (tracepoints/README.md): a kernel whose function the
 * tracer could not learn then keeps no tensors (only its packed parameters,
 * scanned without a layout, could give it any). */
static void record_node(const struct traced_call *call, enum dnntrace_api_id api,
			const void *exec, const void *node, const CUDA_KERNEL_NODE_PARAMS *p,
			bool generic, CUresult result)
{
	int64_t tensors[KERNEL_MAX_TENSORS];
	unsigned n_tensors = 0;
	uint64_t function_id = 0, node_id = 0;
	size_t size = 0;
	const void *buffer;
	if (p && result == CUDA_SUCCESS) {
		const struct kernel_info *info =
			kernel_info_get_driver(p->func ? (const void *)p->func : (const void *)p->kern);
		if (p->kernelParams)
			n_tensors = kernel_scan_tensors(info, p->kernelParams, &tracer_tensors,
							tensors);
		else if ((buffer = packed_buffer(p->extra, &size)))
			n_tensors = kernel_scan_buffer(buffer, size, &tracer_tensors, tensors);
		kernel_info_announce(info);
		function_id = info->function_id;
		if (generic && !function_id)
			n_tensors = 0;
		cupti_session_graph_node_id(node, &node_id);
	}
	DNNTRACE_EMIT(dnntrace_api, graph_node, call->call_id, api, exec, node_id,
			     function_id, tensors, n_tensors, (int)result, call->start_ns);
}

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddKernelNode_v2,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams),
	(phGraphNode, hGraph, dependencies, numDependencies, nodeParams), NOT_FOUND,
	graph_node_enabled(),
	record_node(&call, api, NULL,
		    result == CUDA_SUCCESS && phGraphNode ? *phGraphNode : NULL, nodeParams,
		    false, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphKernelNodeSetParams_v2,
	(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams), (hNode, nodeParams),
	NOT_FOUND, graph_node_enabled(),
	record_node(&call, api, NULL, hNode, nodeParams, false, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphExecKernelNodeSetParams_v2,
	(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams),
	(hGraphExec, hNode, nodeParams), NOT_FOUND, graph_node_enabled(),
	record_node(&call, api, hGraphExec, hNode, nodeParams, false, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphExecUpdate_v2,
	(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo),
	(hGraphExec, hGraph, resultInfo), NOT_FOUND,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_exec_update),
	graph_exec_update_record(call.call_id, api, hGraphExec, hGraph, (int)result,
				 call.start_ns))

#define BEGIN_CAPTURE(name)                                                                \
	DNNTRACE_BOOKKEEPING_CALL(CUresult, name, (CUstream hStream, CUstreamCaptureMode mode), \
		(hStream, mode), NOT_FOUND, graph_capture_began(), (void)0)

BEGIN_CAPTURE(cuStreamBeginCapture_v2)
BEGIN_CAPTURE(cuStreamBeginCapture_v2_ptsz)

/* Instantiations: the clones CUPTI reports meanwhile are the exec's
 * (cupti_session_instantiate_begin). */
#define INSTANTIATE(name, last_param)                                                      \
	DNNTRACE_BOOKKEEPING_CALL(CUresult, name,                                           \
		(CUgraphExec *phGraphExec, CUgraph hGraph, last_param),                       \
		(phGraphExec, hGraph, last), NOT_FOUND, cupti_session_instantiate_begin(),     \
		cupti_session_instantiate_end(result == CUDA_SUCCESS && phGraphExec ?          \
					      *phGraphExec : NULL))

INSTANTIATE(cuGraphInstantiateWithFlags, unsigned long long last)
INSTANTIATE(cuGraphInstantiateWithParams, CUDA_GRAPH_INSTANTIATE_PARAMS *last)
INSTANTIATE(cuGraphInstantiateWithParams_ptsz, CUDA_GRAPH_INSTANTIATE_PARAMS *last)

#define DEVICE_PTR(p) ((const void *)(uintptr_t)(p))

/* One side of a CUDA_MEMCPY3D, where it is device or unified memory. */
static const void *copy_side(CUmemorytype type, CUdeviceptr device)
{
	return type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED ?
		DEVICE_PTR(device) : NULL;
}

#define ADDED(node_out) (result == CUDA_SUCCESS && (node_out) ? *(node_out) : NULL)

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddMemcpyNode,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx),
	(phGraphNode, hGraph, dependencies, numDependencies, copyParams, ctx), NOT_FOUND,
	graph_node_enabled(),
	graph_copy_node_record(&call, api, NULL, ADDED(phGraphNode),
		copyParams ? copy_side(copyParams->dstMemoryType, copyParams->dstDevice) : NULL,
		copyParams ? copy_side(copyParams->srcMemoryType, copyParams->srcDevice) : NULL,
		true, (int)result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddMemsetNode,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx),
	(phGraphNode, hGraph, dependencies, numDependencies, memsetParams, ctx), NOT_FOUND,
	graph_node_enabled(),
	graph_copy_node_record(&call, api, NULL, ADDED(phGraphNode),
			       memsetParams ? DEVICE_PTR(memsetParams->dst) : NULL, NULL, false,
			       (int)result))

/* Memory nodes (format 5), recorded by allocation_record_mem_node as for
 * the runtime's. */
static void record_mem_node(const struct traced_call *call, enum dnntrace_api_id api,
			    const CUgraphNode *node, const void *ptr, uint64_t bytes,
			    int device, bool is_free, CUresult result)
{
	allocation_record_mem_node(call->call_id, api, (const void *const *)node, ptr, bytes,
				   device, is_free, (int)result, call->start_ns);
}

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddMemAllocNode,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams),
	(phGraphNode, hGraph, dependencies, numDependencies, nodeParams), NOT_FOUND,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_mem_node),
	record_mem_node(&call, api, phGraphNode,
			result == CUDA_SUCCESS && nodeParams ? DEVICE_PTR(nodeParams->dptr) : NULL,
			nodeParams ? nodeParams->bytesize : 0,
			nodeParams ? nodeParams->poolProps.location.id : -1, false, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddMemFreeNode,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 size_t numDependencies, CUdeviceptr dptr),
	(phGraphNode, hGraph, dependencies, numDependencies, dptr), NOT_FOUND,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_mem_node),
	record_mem_node(&call, api, phGraphNode, DEVICE_PTR(dptr), 0, -1, true, result))

/*
 * The generic node API (CUDA 12.2 on): cuGraphAddNode (CUDA 12.2's, no
 * edge data), cuGraphAddNode_v2, cuGraphNodeSetParams,
 * cuGraphExecNodeSetParams (ids 124-127, kind GRAPH_ANY_NODE), traced as
 * the typed entry point of the node's type is: a kernel node as
 * cuGraphAddKernelNode_v2 & co. (CUDA_KERNEL_NODE_PARAMS_v3 has the v2
 * fields the scan reads), a copy or set node as cuGraphAddMemcpyNode /
 * cuGraphAddMemsetNode (its parameter changes too), an alloc or free node
 * as cuGraphAddMemAllocNode / cuGraphAddMemFreeNode. Every other type, a
 * call with no parameters, and a parameter change of a memory node (not
 * supported, cuda.h) are forwarded with no event, as in runtime/graphs.c.
 * The real libcudart's cudaGraphAddNode & co. call these (seen on an
 * H200): nested in the runtime wrapper, they only forward.
 */
DNNTRACE_PROTOTYPE_IS(cuGraphAddNode, PFN_cuGraphAddNode_v12020);
DNNTRACE_PROTOTYPE_IS(cuGraphAddNode_v2, PFN_cuGraphAddNode_v12030);
DNNTRACE_PROTOTYPE_IS(cuGraphNodeSetParams, PFN_cuGraphNodeSetParams_v12020);
DNNTRACE_PROTOTYPE_IS(cuGraphExecNodeSetParams, PFN_cuGraphExecNodeSetParams_v12020);

static enum graph_generic_event driver_generic_event(const CUgraphNodeParams *p, bool adds)
{
	if (!p)
		return GRAPH_GENERIC_NONE;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
	case CU_GRAPH_NODE_TYPE_MEMCPY:
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return GRAPH_GENERIC_NODE;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return adds ? GRAPH_GENERIC_MEM_NODE : GRAPH_GENERIC_NONE;
	default:
		return GRAPH_GENERIC_NONE;
	}
}

static bool generic_enabled(const CUgraphNodeParams *p, bool adds)
{
	return graph_generic_event_enabled(driver_generic_event(p, adds));
}

/* node: the node added or changed (NULL when an add failed). */
static void record_generic_node(const struct traced_call *call, enum dnntrace_api_id api,
				const void *exec, const CUgraphNode *node,
				const CUgraphNodeParams *p, CUresult result)
{
	const void *handle = result == CUDA_SUCCESS && node ? *node : NULL;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		const CUDA_KERNEL_NODE_PARAMS_v3 *k = &p->kernel;
		const CUDA_KERNEL_NODE_PARAMS typed = {
			.func = k->func, .gridDimX = k->gridDimX, .gridDimY = k->gridDimY,
			.gridDimZ = k->gridDimZ, .blockDimX = k->blockDimX,
			.blockDimY = k->blockDimY, .blockDimZ = k->blockDimZ,
			.sharedMemBytes = k->sharedMemBytes, .kernelParams = k->kernelParams,
			.extra = k->extra, .kern = k->kern, .ctx = k->ctx,
		};
		record_node(call, api, exec, handle, &typed, true, result);
		break;
	}
	case CU_GRAPH_NODE_TYPE_MEMCPY: {
		const CUDA_MEMCPY3D *c = &p->memcpy.copyParams;
		graph_copy_node_record(call, api, exec, handle,
				       copy_side(c->dstMemoryType, c->dstDevice),
				       copy_side(c->srcMemoryType, c->srcDevice), true,
				       (int)result);
		break;
	}
	case CU_GRAPH_NODE_TYPE_MEMSET:
		graph_copy_node_record(call, api, exec, handle, DEVICE_PTR(p->memset.dst), NULL,
				       false, (int)result);
		break;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		record_mem_node(call, api, node,
				result == CUDA_SUCCESS ? DEVICE_PTR(p->alloc.dptr) : NULL,
				p->alloc.bytesize, p->alloc.poolProps.location.id, false, result);
		break;
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		record_mem_node(call, api, node, DEVICE_PTR(p->free.dptr), 0, -1, true, result);
		break;
	default:
		break;
	}
}

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddNode,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 size_t numDependencies, CUgraphNodeParams *nodeParams),
	(phGraphNode, hGraph, dependencies, numDependencies, nodeParams), NOT_FOUND,
	generic_enabled(nodeParams, true),
	record_generic_node(&call, api, NULL, phGraphNode, nodeParams, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphAddNode_v2,
	(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
	 const CUgraphEdgeData *dependencyData, size_t numDependencies,
	 CUgraphNodeParams *nodeParams),
	(phGraphNode, hGraph, dependencies, dependencyData, numDependencies, nodeParams),
	NOT_FOUND, generic_enabled(nodeParams, true),
	record_generic_node(&call, api, NULL, phGraphNode, nodeParams, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphNodeSetParams,
	(CUgraphNode hNode, CUgraphNodeParams *nodeParams), (hNode, nodeParams), NOT_FOUND,
	generic_enabled(nodeParams, false),
	record_generic_node(&call, api, NULL, &hNode, nodeParams, result))

DNNTRACE_TRACED_CALL(CUresult, cuGraphExecNodeSetParams,
	(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams),
	(hGraphExec, hNode, nodeParams), NOT_FOUND, generic_enabled(nodeParams, false),
	record_generic_node(&call, api, hGraphExec, &hNode, nodeParams, result))
