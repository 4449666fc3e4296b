/*
 * Graph allocations of the simulated driver (libcuda.so.1): the memory of
 * CUDA graph memory nodes (cuGraphAddMemAllocNode, and cuMemAllocAsync
 * captured into a graph). Each allocation gets a fixed virtual address
 * when its node is created (a VMM reservation, core_vmm.c), which stays
 * the same for every launch; physical memory is mapped there when a launch
 * reaches the alloc node and unmapped when the allocation is freed (a free
 * node, cuMemFreeAsync, cuMemFree, or an auto-free-on-launch relaunch).
 * Also the graph memory attributes (used and reserved bytes, high
 * watermarks). Every function here is called with sim_lock held. It must
 * never let a copy reach a graph allocation that is not live (its range is
 * unmapped then).
 *
 * Assumed, not seen on a GPU: the physical memory of an allocation is
 * rounded up to the VMM granularity (2 MiB) and given back to the device
 * as soon as the allocation is freed, so "reserved" equals "used" and
 * cuDeviceGraphMemTrim has nothing to give back; a virtual address is
 * never handed to another allocation node (a real driver may let an
 * allocation after a free node of the same graph reuse the freed address,
 * as graphMemoryNodes remarks when it sees it).
 */
#include "simgpu/core/sim_internal.h"

#include <stdlib.h>

static struct sim_graph_alloc *graph_allocs;
static uint64_t used_bytes, used_high;

static uint64_t span_of(uint64_t size)
{
	uint64_t g = sim_vmm_granularity();
	return (size + g - 1) / g * g;
}

cudaError_t sim_graph_mem_reserve(uint64_t size, struct sim_graph_alloc **out)
{
	if (!size)
		return cudaErrorInvalidValue;
	struct sim_graph_alloc *a = calloc(1, sizeof(*a));
	if (!a)
		return cudaErrorMemoryAllocation;
	a->size = size;
	a->span = span_of(size);
	cudaError_t err = sim_vmm_reserve(a->span, 0, 0, &a->va);
	if (err != cudaSuccess) {
		free(a);
		return err;
	}
	a->next = graph_allocs;
	graph_allocs = a;
	*out = a;
	return cudaSuccess;
}

struct sim_graph_alloc *sim_graph_mem_at(const void *p)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	for (struct sim_graph_alloc *x = graph_allocs; x; x = x->next)
		if (a >= x->va && a < x->va + x->span)
			return x;
	return NULL;
}

cudaError_t sim_graph_mem_map(struct sim_graph_alloc *a)
{
	if (a->live)
		return cudaErrorInvalidValue;
	uint64_t handle;
	cudaError_t err = sim_vmm_create(a->span, &handle);
	if (err != cudaSuccess)
		return err;
	err = sim_vmm_map(a->va, a->span, 0, handle);
	if (err == cudaSuccess)
		err = sim_vmm_set_access(a->va, a->span, 1);
	if (err != cudaSuccess) {
		sim_vmm_unmap(a->va, a->span);
		sim_vmm_release(handle);
		return err;
	}
	/* released now: given back once unmapped (core_vmm.c) */
	sim_vmm_release(handle);
	a->live = 1;
	used_bytes += a->span;
	if (used_bytes > used_high)
		used_high = used_bytes;
	return cudaSuccess;
}

cudaError_t sim_graph_mem_unmap(struct sim_graph_alloc *a)
{
	if (!a->live)
		return cudaErrorInvalidValue;
	sim_vmm_unmap(a->va, a->span);
	a->live = 0;
	used_bytes -= a->span;
	return cudaSuccess;
}

int sim_graph_mem_free(const void *p, cudaError_t *err)
{
	struct sim_graph_alloc *a = sim_graph_mem_at(p);
	if (!a)
		return 0;
	/* Only the allocation's own address frees it (assumed, as for
	 * cuMemFree of an interior pointer). */
	*err = a->va == (uint64_t)(uintptr_t)p ? sim_graph_mem_unmap(a)
					       : cudaErrorInvalidValue;
	return 1;
}

/* The four CUgraphMem_attribute values; reserved memory is the used
 * memory here (see the top of this file). */
cudaError_t sim_graph_mem_get_attribute(int attr, uint64_t *value)
{
	switch (attr) {
	case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
		*value = used_bytes;
		return cudaSuccess;
	case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
		*value = used_high;
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

/* Only the high watermarks may be set, and only to 0 (cuda.h), which
 * resets them to the current value. */
cudaError_t sim_graph_mem_set_attribute(int attr, uint64_t value)
{
	if ((attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
	     attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) || value != 0)
		return cudaErrorInvalidValue;
	used_high = used_bytes;
	return cudaSuccess;
}
