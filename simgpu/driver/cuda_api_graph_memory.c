/*
 * The simulated driver's graph memory entry points: memory nodes
 * (cuGraphAddMemAllocNode, cuGraphAddMemFreeNode and their GetParams) and
 * the graph memory of the device (cuDeviceGraphMemTrim,
 * cuDeviceGet/SetGraphMemAttribute). Semantics in core_graphs.c and
 * core_graph_memory.c. It must never write an out-pointer on failure.
 */
#include "simgpu/driver/driver_internal.h"

#include <string.h>

/*
 * cuda.h: the pool must hold device memory (pinned allocation type, a
 * device location) and no handle types; peer access descriptors are
 * accepted and ignored (one device). Assumed beyond cuda.h's list: any
 * other pool property is CUDA_ERROR_INVALID_VALUE.
 */
CUresult driver_add_alloc_node(CUgraphNode *out, CUgraph graph, const CUgraphNode *deps,
			       size_t ndeps, CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	if (!out || !graph || !p || (ndeps && !deps) || !p->bytesize ||
	    p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    p->poolProps.handleTypes != CU_MEM_HANDLE_TYPE_NONE ||
	    (p->accessDescCount && !p->accessDescs))
		return CUDA_ERROR_INVALID_VALUE;
	if (p->poolProps.location.id < 0 || p->poolProps.location.id >= sim_device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	uint64_t va = 0;
	CUresult r = sim_cu_result(sim_graph_add_mem_alloc_node(out, graph, deps, ndeps,
								p->bytesize, &va));
	if (r == CUDA_SUCCESS)
		p->dptr = (CUdeviceptr)va;
	return r;
}

CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				const CUgraphNode *dependencies, size_t numDependencies,
				CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddMemAllocNode,
			driver_add_alloc_node(phGraphNode, hGraph, dependencies,
					      numDependencies, nodeParams));
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			       const CUgraphNode *dependencies, size_t numDependencies,
			       CUdeviceptr dptr)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphAddMemFreeNode,
			(numDependencies && !dependencies) ? CUDA_ERROR_INVALID_VALUE :
			sim_cu_result(sim_graph_add_mem_free_node(phGraphNode, hGraph,
								  dependencies,
								  numDependencies,
								  (uint64_t)dptr)));
}

/* The pool properties handed back are the ones every allocation has here
 * (device memory of device 0): the node keeps no others. */
static CUresult alloc_node_params(CUgraphNode node, CUDA_MEM_ALLOC_NODE_PARAMS *out)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t va = 0, size = 0;
	CUresult r = sim_cu_result(sim_graph_mem_node_get(node, 1, &va, &size));
	if (r != CUDA_SUCCESS)
		return r;
	memset(out, 0, sizeof(*out));
	out->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	out->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	out->poolProps.location.id = 0;
	out->bytesize = size;
	out->dptr = (CUdeviceptr)va;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphMemAllocNodeGetParams, alloc_node_params(hNode, params_out));
}

static CUresult free_node_params(CUgraphNode node, CUdeviceptr *out)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t va = 0;
	CUresult r = sim_cu_result(sim_graph_mem_node_get(node, 0, &va, NULL));
	if (r == CUDA_SUCCESS)
		*out = (CUdeviceptr)va;
	return r;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuGraphMemFreeNodeGetParams, free_node_params(hNode, dptr_out));
}

static int valid_device(CUdevice device)
{
	return device >= 0 && device < sim_device_count();
}

/* Nothing is cached (core_graph_memory.c): trimming gives nothing back. */
CUresult cuDeviceGraphMemTrim(CUdevice device)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuDeviceGraphMemTrim,
			valid_device(device) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE);
}

static CUresult get_attribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
	if (!valid_device(device))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t v = 0;
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_graph_mem_get_attribute((int)attr, &v);
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess)
		*(cuuint64_t *)value = v;
	return sim_cu_result(err);
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuDeviceGetGraphMemAttribute, get_attribute(device, attr, value));
}

static CUresult set_attribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
	if (!valid_device(device))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_graph_mem_set_attribute((int)attr, *(const cuuint64_t *)value);
	pthread_mutex_unlock(&sim_lock);
	return sim_cu_result(err);
}

CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void *value)
{
	DRIVER_ENTER();
	DRIVER_API_CALL(cuDeviceSetGraphMemAttribute, set_attribute(device, attr, value));
}
