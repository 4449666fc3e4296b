/*
 * The simulated runtime's graph memory entry points: memory nodes
 * (cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode,
 * cudaGraphMemAllocNodeGetParams, cudaGraphMemFreeNodeGetParams) and the
 * device's graph memory (cudaDeviceGraphMemTrim,
 * cudaDeviceGet/SetGraphMemAttribute), each through the driver entry
 * point cuGetProcAddress gave (cudart_driver.c) inside a frame. It must
 * never dereference a graph handle: they belong to the driver.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <stdint.h>
#include <string.h>

static cudaError_t add_alloc_node(cudaGraphNode_t *node, cudaGraph_t graph,
				  const cudaGraphNode_t *deps, size_t ndeps,
				  struct cudaMemAllocNodeParams *p)
{
	ENTER();
	if (!node || !graph || !p || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	CUDA_MEM_ALLOC_NODE_PARAMS d;
	memset(&d, 0, sizeof(d));
	d.poolProps.allocType = (CUmemAllocationType)p->poolProps.allocType;
	d.poolProps.handleTypes = (CUmemAllocationHandleType)p->poolProps.handleTypes;
	d.poolProps.location.type = (CUmemLocationType)p->poolProps.location.type;
	d.poolProps.location.id = p->poolProps.location.id;
	d.accessDescs = (const CUmemAccessDesc *)p->accessDescs;
	d.accessDescCount = p->accessDescCount;
	d.bytesize = p->bytesize;
	cudaError_t err = cudart_error(cudart_drv.graph_add_mem_alloc_node(node, graph, deps,
									  ndeps, &d));
	if (err == cudaSuccess)
		p->dptr = (void *)(uintptr_t)d.dptr;
	return sim_return(err);
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies,
				     struct cudaMemAllocNodeParams *nodeParams)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddMemAllocNode_v11040), 0,
		     add_alloc_node(pGraphNode, graph, pDependencies, numDependencies,
				    nodeParams));
}

static cudaError_t add_free_node(cudaGraphNode_t *node, cudaGraph_t graph,
				 const cudaGraphNode_t *deps, size_t ndeps, void *dptr)
{
	ENTER();
	if (!node || !graph || (ndeps && !deps))
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.graph_add_mem_free_node(
		node, graph, deps, ndeps, (CUdeviceptr)(uintptr_t)dptr)));
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				    const cudaGraphNode_t *pDependencies,
				    size_t numDependencies, void *dptr)
{
	RUNTIME_CALL(RT_CBID(cudaGraphAddMemFreeNode_v11040), 0,
		     add_free_node(pGraphNode, graph, pDependencies, numDependencies, dptr));
}

static cudaError_t alloc_node_params(cudaGraphNode_t node, struct cudaMemAllocNodeParams *out)
{
	ENTER();
	if (!node || !out)
		return sim_return(cudaErrorInvalidValue);
	CUDA_MEM_ALLOC_NODE_PARAMS d;
	cudaError_t err = cudart_error(cudart_drv.graph_mem_alloc_node_get_params(node, &d));
	if (err == cudaSuccess) {
		memset(out, 0, sizeof(*out));
		out->poolProps.allocType = (enum cudaMemAllocationType)d.poolProps.allocType;
		out->poolProps.location.type = (enum cudaMemLocationType)d.poolProps.location.type;
		out->poolProps.location.id = d.poolProps.location.id;
		out->bytesize = d.bytesize;
		out->dptr = (void *)(uintptr_t)d.dptr;
	}
	return sim_return(err);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
					   struct cudaMemAllocNodeParams *params_out)
{
	RUNTIME_CALL(RT_CBID(cudaGraphMemAllocNodeGetParams_v11040), 0,
		     alloc_node_params(node, params_out));
}

static cudaError_t free_node_params(cudaGraphNode_t node, void *dptr_out)
{
	ENTER();
	if (!node || !dptr_out)
		return sim_return(cudaErrorInvalidValue);
	CUdeviceptr d = 0;
	cudaError_t err = cudart_error(cudart_drv.graph_mem_free_node_get_params(node, &d));
	if (err == cudaSuccess)
		*(void **)dptr_out = (void *)(uintptr_t)d;
	return sim_return(err);
}

/* cuda_runtime_api.h: dptr_out points to where the address is written. */
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
	RUNTIME_CALL(RT_CBID(cudaGraphMemFreeNodeGetParams_v11040), 0,
		     free_node_params(node, dptr_out));
}

static cudaError_t trim(int device)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.device_graph_mem_trim(device)));
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
	RUNTIME_CALL(RT_CBID(cudaDeviceGraphMemTrim_v11040), 0, trim(device));
}

static cudaError_t graph_mem_attribute(int device, enum cudaGraphMemAttributeType attr,
				       void *value, int set)
{
	ENTER();
	if (!value)
		return sim_return(cudaErrorInvalidValue);
	CUresult r = set ? cudart_drv.device_set_graph_mem_attribute(
				   device, (CUgraphMem_attribute)attr, value)
			 : cudart_drv.device_get_graph_mem_attribute(
				   device, (CUgraphMem_attribute)attr, value);
	return sim_return(cudart_error(r));
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
					   void *value)
{
	RUNTIME_CALL(RT_CBID(cudaDeviceGetGraphMemAttribute_v11040), 0,
		     graph_mem_attribute(device, attr, value, 0));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
					   void *value)
{
	RUNTIME_CALL(RT_CBID(cudaDeviceSetGraphMemAttribute_v11040), 0,
		     graph_mem_attribute(device, attr, value, 1));
}
