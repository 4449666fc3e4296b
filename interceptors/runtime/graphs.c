/*
 * Wrappers of the runtime's graph calls that give kernel nodes their
 * parameters or executable graphs their work: cudaGraphAddKernelNode,
 * cudaGraphKernelNodeSetParams, cudaGraphExecKernelNodeSetParams (one
 * dnntrace_api:graph_node event each, with the node's CUPTI id and the
 * live tensors its argument values point into, scanned like a launch's)
 * and cudaGraphExecUpdate (dnntrace_api:graph_exec_update, the new graph's
 * node ids in cuGraphGetNodes order); and cudaStreamBeginCapture[_ptsz],
 * which only tells graph_capture.c that captures happen, and
 * cudaGraphInstantiate[WithFlags|WithParams[_ptsz]], which tell
 * cupti_session.c which exec the clones CUPTI reports meanwhile belong to
 * (bookkeeping, whether or not a session listens); and the generic node
 * API, cudaGraphAddNode, cudaGraphNodeSetParams, cudaGraphExecNodeSetParams,
 * traced as the typed entry point of the node's type (at the end). Each
 * forwards with the same
 * arguments and returns the real result. Must never write to the
 * caller's parameter structs.
 */

#include <stdatomic.h>

#include <cuda_runtime_api.h>

#include "interceptors/core/allocation_record.h"
#include "interceptors/core/cupti_session.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/graph_node_record.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/wrapper.h"
#include "interceptors/runtime/cuda_ptds.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture);
DNNTRACE_SAME_PROTOTYPE(cudaGraphInstantiateWithParams_ptsz, cudaGraphInstantiateWithParams);

#define NOT_FOUND cudaErrorSharedObjectSymbolNotFound

static bool graph_node_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, graph_node);
}

/* The node's parameters, scanned like a launch's (p NULL: the real call
 * failed; an event all the same, with its result). */
static void record_node(const struct traced_call *call, enum dnntrace_api_id api,
			const void *exec, const void *node, const struct cudaKernelNodeParams *p,
			cudaError_t result)
{
	int64_t tensors[KERNEL_MAX_TENSORS];
	unsigned n_tensors = 0;
	uint64_t function_id = 0, node_id = 0;
	if (p && p->func && result == cudaSuccess) {
		const struct kernel_info *info = kernel_info_get(p->func);
		if (p->kernelParams)
			n_tensors = kernel_scan_tensors(info, p->kernelParams, &tracer_tensors,
							tensors);
		kernel_info_announce(info);
		function_id = info->function_id;
	}
	if (result == cudaSuccess)
		cupti_session_graph_node_id(node, &node_id);
	DNNTRACE_EMIT(dnntrace_api, graph_node, call->call_id, api, exec, node_id,
			     function_id, tensors, n_tensors, (int)result, call->start_ns);
}

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddKernelNode,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams),
	(pGraphNode, graph, pDependencies, numDependencies, pNodeParams), NOT_FOUND,
	graph_node_enabled(),
	record_node(&call, api, NULL, result == cudaSuccess && pGraphNode ? *pGraphNode : NULL,
		    pNodeParams, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphKernelNodeSetParams,
	(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams),
	(node, pNodeParams), NOT_FOUND, graph_node_enabled(),
	record_node(&call, api, NULL, node, pNodeParams, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphExecKernelNodeSetParams,
	(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
	 const struct cudaKernelNodeParams *pNodeParams),
	(hGraphExec, node, pNodeParams), NOT_FOUND, graph_node_enabled(),
	record_node(&call, api, hGraphExec, node, pNodeParams, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphExecUpdate,
	(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo),
	(hGraphExec, hGraph, resultInfo), NOT_FOUND,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_exec_update),
	graph_exec_update_record(call.call_id, api, hGraphExec, hGraph, (int)result,
				 call.start_ns))

#define BEGIN_CAPTURE(name)                                                                \
	DNNTRACE_BOOKKEEPING_CALL(cudaError_t, name,                                        \
		(cudaStream_t stream, enum cudaStreamCaptureMode mode), (stream, mode),       \
		NOT_FOUND, graph_capture_began(), (void)0)

BEGIN_CAPTURE(cudaStreamBeginCapture)
BEGIN_CAPTURE(cudaStreamBeginCapture_ptsz)

/* Instantiations: the clones CUPTI reports meanwhile are the exec's
 * (cupti_session_instantiate_begin). */
#define INSTANTIATE(name, last_param)                                                      \
	DNNTRACE_BOOKKEEPING_CALL(cudaError_t, name,                                        \
		(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, last_param),                 \
		(pGraphExec, graph, last), NOT_FOUND, cupti_session_instantiate_begin(),       \
		cupti_session_instantiate_end(result == cudaSuccess && pGraphExec ?            \
					      *pGraphExec : NULL))

INSTANTIATE(cudaGraphInstantiate, unsigned long long last)
INSTANTIATE(cudaGraphInstantiateWithFlags, unsigned long long last)
INSTANTIATE(cudaGraphInstantiateWithParams, cudaGraphInstantiateParams *last)
INSTANTIATE(cudaGraphInstantiateWithParams_ptsz, cudaGraphInstantiateParams *last)

/* A copy or set node (graph_copy_node_record): a source wherever there is
 * one (a memset's is NULL). */
static void record_copy_node(const struct traced_call *call, enum dnntrace_api_id api,
			     const void *exec, const void *node, const void *dst,
			     const void *src, cudaError_t result)
{
	graph_copy_node_record(call, api, exec, node, dst, src, src != NULL, (int)result);
}

#define ADDED(node_out) (result == cudaSuccess && (node_out) ? *(node_out) : NULL)

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddMemcpyNode,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams),
	(pGraphNode, graph, pDependencies, numDependencies, pCopyParams), NOT_FOUND,
	graph_node_enabled(),
	record_copy_node(&call, api, NULL, ADDED(pGraphNode),
			 pCopyParams ? pCopyParams->dstPtr.ptr : NULL,
			 pCopyParams ? pCopyParams->srcPtr.ptr : NULL, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddMemcpyNode1D,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 size_t numDependencies, void *dst, const void *src, size_t count,
	 enum cudaMemcpyKind kind),
	(pGraphNode, graph, pDependencies, numDependencies, dst, src, count, kind), NOT_FOUND,
	graph_node_enabled(), record_copy_node(&call, api, NULL, ADDED(pGraphNode), dst, src, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddMemsetNode,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 size_t numDependencies, const struct cudaMemsetParams *pMemsetParams),
	(pGraphNode, graph, pDependencies, numDependencies, pMemsetParams), NOT_FOUND,
	graph_node_enabled(),
	record_copy_node(&call, api, NULL, ADDED(pGraphNode),
			 pMemsetParams ? pMemsetParams->dst : NULL, NULL, result))

/* Memory nodes (format 5): an alloc node's allocation becomes a tensor
 * of its own for good (each launch of the graph allocates it anew); a free
 * node names the tensor it frees. allocation_record_mem_node does both, for
 * driver/graphs.c too. */
static void record_mem_node(const struct traced_call *call, enum dnntrace_api_id api,
			    const cudaGraphNode_t *node, const void *ptr, uint64_t bytes,
			    int device, bool is_free, cudaError_t result)
{
	allocation_record_mem_node(call->call_id, api, (const void *const *)node, ptr, bytes,
				   device, is_free, (int)result, call->start_ns);
}

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddMemAllocNode,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams),
	(pGraphNode, graph, pDependencies, numDependencies, nodeParams), NOT_FOUND,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_mem_node),
	record_mem_node(&call, api, pGraphNode,
			result == cudaSuccess && nodeParams ? nodeParams->dptr : NULL,
			nodeParams ? nodeParams->bytesize : 0,
			nodeParams ? nodeParams->poolProps.location.id : -1, false, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddMemFreeNode,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 size_t numDependencies, void *dptr),
	(pGraphNode, graph, pDependencies, numDependencies, dptr), NOT_FOUND,
	lttng_ust_tracepoint_enabled(dnntrace_api, graph_mem_node),
	record_mem_node(&call, api, pGraphNode, dptr, 0, -1, true, result))

/*
 * The generic node API (CUDA 12.2 on): cudaGraphAddNode,
 * cudaGraphNodeSetParams, cudaGraphExecNodeSetParams (ids 121-123, kind
 * GRAPH_ANY_NODE), traced as the typed entry point of the node's type is,
 * with the same events: a kernel node as cudaGraphAddKernelNode /
 * cudaGraphKernelNodeSetParams / cudaGraphExecKernelNodeSetParams
 * (graph_node, its function and tensors), a copy or set node as
 * cudaGraphAddMemcpyNode / cudaGraphAddMemsetNode (graph_node,
 * function_id 0, destination first; its parameter changes too, which the
 * typed API's are not), an alloc or free node as cudaGraphAddMemAllocNode /
 * cudaGraphAddMemFreeNode (graph_mem_node). Every other type (host, empty,
 * child graph, event, semaphore, batch memop, conditional nodes), a call
 * with no parameters, and a parameter change of a memory node (not
 * supported, cuda_runtime_api.h) are forwarded with no event: they name no
 * tensor (a child graph's kernels come as clones of its own nodes).
 * Seen on an H200 (CUDA 13.0, tests/gpu/probe_graph_callbacks.cu): the
 * real libcudart makes these with cuGraphAddNode_v2, cuGraphNodeSetParams
 * and cuGraphExecNodeSetParams, which driver/graphs.c wraps: nested, they
 * only forward, and the call is this one event.
 */
static enum graph_generic_event runtime_generic_event(const struct cudaGraphNodeParams *p,
						       bool adds)
{
	if (!p)
		return GRAPH_GENERIC_NONE;
	switch (p->type) {
	case cudaGraphNodeTypeKernel:
	case cudaGraphNodeTypeMemcpy:
	case cudaGraphNodeTypeMemset:
		return GRAPH_GENERIC_NODE;
	case cudaGraphNodeTypeMemAlloc:
	case cudaGraphNodeTypeMemFree:
		return adds ? GRAPH_GENERIC_MEM_NODE : GRAPH_GENERIC_NONE;
	default:
		return GRAPH_GENERIC_NONE;
	}
}

/* Whether a session listens for either event a generic call may make. */
static bool graph_node_enabled_any(void)
{
	return graph_node_enabled() || lttng_ust_tracepoint_enabled(dnntrace_api, graph_mem_node);
}

static bool generic_enabled(const struct cudaGraphNodeParams *p, bool adds)
{
	return graph_generic_event_enabled(runtime_generic_event(p, adds));
}

/* node: the node added or changed (NULL when an add failed). */
static void record_generic_node(const struct traced_call *call, enum dnntrace_api_id api,
				const void *exec, const cudaGraphNode_t *node,
				const struct cudaGraphNodeParams *p, cudaError_t result)
{
	const void *handle = result == cudaSuccess && node ? *node : NULL;
	switch (p->type) {
	case cudaGraphNodeTypeKernel: {
		const struct cudaKernelNodeParamsV2 *k = &p->kernel;
		const struct cudaKernelNodeParams typed = {
			.func = k->func, .gridDim = k->gridDim, .blockDim = k->blockDim,
			.sharedMemBytes = k->sharedMemBytes, .kernelParams = k->kernelParams,
			.extra = k->extra,
		};
		record_node(call, api, exec, handle, &typed, result);
		break;
	}
	case cudaGraphNodeTypeMemcpy:
		record_copy_node(call, api, exec, handle, p->memcpy.copyParams.dstPtr.ptr,
				 p->memcpy.copyParams.srcPtr.ptr, result);
		break;
	case cudaGraphNodeTypeMemset:
		record_copy_node(call, api, exec, handle, p->memset.dst, NULL, result);
		break;
	case cudaGraphNodeTypeMemAlloc:
		record_mem_node(call, api, node, result == cudaSuccess ? p->alloc.dptr : NULL,
				p->alloc.bytesize, p->alloc.poolProps.location.id, false, result);
		break;
	case cudaGraphNodeTypeMemFree:
		record_mem_node(call, api, node, p->free.dptr, 0, -1, true, result);
		break;
	default:
		break;
	}
}

/*
 * libcudart.so.12's cudaGraphAddNode is CUDA 12.2's: no edge data, five
 * arguments (its CUDA 12.3 form with edge data is cudaGraphAddNode_v2,
 * not wrapped), so a CUDA 12 program's call reaches this wrapper with its
 * nodeParams where numDependencies is, and no nodeParams at all. Only a
 * CUDA 13 runtime's call (cudaRuntimeGetVersion, of the runtime the real
 * functions come from) is read and traced here; a CUDA 12 runtime's is
 * forwarded as it came (every argument in its place: the sixth is ignored
 * by a five-argument callee), and the driver call it makes
 * (cuGraphAddNode[_v2], driver/graphs.c) is its event. Assumed, not seen:
 * that libcudart.so.12 makes it through the driver's generic call too.
 */
static bool runtime_has_edge_data(void)
{
	static atomic_int known; /* 0: not asked yet, 1: CUDA 13 on, 2: older */
	int answer = atomic_load_explicit(&known, memory_order_relaxed);
	if (answer)
		return answer == 1;
	__typeof__(&cudaRuntimeGetVersion) get_version = REAL(cudaRuntimeGetVersion);
	int version = 0;
	if (!get_version || get_version(&version) != cudaSuccess || version <= 0)
		return false; /* cannot say: forwarded, never misread */
	answer = version >= 13000 ? 1 : 2;
	atomic_store_explicit(&known, answer, memory_order_relaxed);
	return answer == 1;
}

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphAddNode,
	(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	 const cudaGraphEdgeData *dependencyData, size_t numDependencies,
	 struct cudaGraphNodeParams *nodeParams),
	(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams),
	NOT_FOUND, graph_node_enabled_any() && runtime_has_edge_data() &&
		   generic_enabled(nodeParams, true),
	record_generic_node(&call, api, NULL, pGraphNode, nodeParams, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphNodeSetParams,
	(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams), (node, nodeParams),
	NOT_FOUND, generic_enabled(nodeParams, false),
	record_generic_node(&call, api, NULL, &node, nodeParams, result))

DNNTRACE_TRACED_CALL(cudaError_t, cudaGraphExecNodeSetParams,
	(cudaGraphExec_t graphExec, cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams),
	(graphExec, node, nodeParams), NOT_FOUND, generic_enabled(nodeParams, false),
	record_generic_node(&call, api, graphExec, &node, nodeParams, result))
