/*
 * Graph memory nodes on the simulated driver alone: an alloc node's
 * address is fixed when it is added (GetParams, every launch), memory is
 * live between its alloc and free nodes (a memset and a copy in between
 * move exactly the bytes put there; after the launch a set on it fails),
 * an allocation a graph does not free stays live after the launch (the
 * graph memory attributes count it) and the next launch fails with
 * CUDA_ERROR_INVALID_VALUE until cuMemFreeAsync / cuMemFree frees it;
 * AUTO_FREE_ON_LAUNCH frees it instead; one exec at a time; no clone;
 * free node errors; cuMemAllocAsync / cuMemFreeAsync captured become
 * alloc and free nodes. Ground truth: the graphs and bytes built here.
 */
#include <string.h>

#include "simgpu/tests/driver_test.h"

enum { SIZE = 1000, MIB2 = 2 << 20 };

static uint64_t used_now(void)
{
	cuuint64_t v = 0;
	CHECK_CU(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v));
	return v;
}

static CUDA_MEM_ALLOC_NODE_PARAMS alloc_params(size_t size)
{
	CUDA_MEM_ALLOC_NODE_PARAMS p;
	memset(&p, 0, sizeof(p));
	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.poolProps.location.id = 0;
	p.bytesize = size;
	return p;
}

static CUDA_MEMCPY3D to_host(void *dst, CUdeviceptr src, size_t bytes)
{
	CUDA_MEMCPY3D c;
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = src;
	c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = dst;
	c.WidthInBytes = bytes, c.Height = 1, c.Depth = 1;
	return c;
}

static void explicit_nodes(CUstream s)
{
	static unsigned char host[SIZE];
	CUgraph g;
	CHECK_CU(cuGraphCreate(&g, 0));
	CUDA_MEM_ALLOC_NODE_PARAMS pa = alloc_params(SIZE), pb = alloc_params(SIZE);
	CUgraphNode alloc_a, alloc_b, set, copy, free_a, bad;
	CHECK_CU(cuGraphAddMemAllocNode(&alloc_a, g, NULL, 0, &pa));
	CHECK(pa.dptr != 0);
	CHECK_CU(cuGraphAddMemAllocNode(&alloc_b, g, &alloc_a, 1, &pb));
	CHECK(pb.dptr != 0 && pb.dptr != pa.dptr);
	CUDA_MEMSET_NODE_PARAMS mp = { .dst = pa.dptr, .value = 0x11, .elementSize = 1,
				       .width = SIZE, .height = 1 };
	CHECK_CU(cuGraphAddMemsetNode(&set, g, &alloc_b, 1, &mp, NULL));
	CUDA_MEMCPY3D cp = to_host(host, pa.dptr, SIZE);
	CHECK_CU(cuGraphAddMemcpyNode(&copy, g, &set, 1, &cp, NULL));
	CHECK_CU(cuGraphAddMemFreeNode(&free_a, g, &copy, 1, pa.dptr));
	/* free node errors: twice in one graph, not an alloc node's address */
	CHECK_CU_IS(cuGraphAddMemFreeNode(&bad, g, &copy, 1, pa.dptr), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphAddMemFreeNode(&bad, g, NULL, 0, pa.dptr + 8), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphAddMemFreeNode(&bad, g, NULL, 0, 0x1234), CUDA_ERROR_INVALID_VALUE);
	CUDA_MEM_ALLOC_NODE_PARAMS got;
	CHECK_CU(cuGraphMemAllocNodeGetParams(alloc_a, &got));
	CHECK(got.dptr == pa.dptr && got.bytesize == SIZE);
	CUdeviceptr freed = 0;
	CHECK_CU(cuGraphMemFreeNodeGetParams(free_a, &freed));
	CHECK(freed == pa.dptr);
	CHECK_CU_IS(cuGraphMemFreeNodeGetParams(alloc_a, &freed), CUDA_ERROR_INVALID_VALUE);
	CUgraphNodeType type;
	CHECK_CU(cuGraphNodeGetType(alloc_a, &type));
	CHECK_EQ_U64(type, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
	CHECK_CU(cuGraphNodeGetType(free_a, &type));
	CHECK_EQ_U64(type, CU_GRAPH_NODE_TYPE_MEM_FREE);
	CUgraph clone;
	CHECK_CU_IS(cuGraphClone(&clone, g), CUDA_ERROR_NOT_SUPPORTED);

	/* nothing is allocated until a launch reaches the alloc node */
	CHECK_EQ_U64(used_now(), 0);
	CHECK_CU_IS(cuMemsetD8(pa.dptr, 1, 1), CUDA_ERROR_INVALID_VALUE);
	CUgraphExec exec, second;
	CHECK_CU(cuGraphInstantiate(&exec, g, 0));
	CHECK_CU_IS(cuGraphInstantiate(&second, g, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuGraphLaunch(exec, s));
	CHECK_CU(cuStreamSynchronize(s));
	for (int i = 0; i < SIZE; i++)
		CHECK_EQ_U64(host[i], 0x11);
	/* a freed by its node, b left live */
	CHECK_EQ_U64(used_now(), MIB2);
	CHECK_CU_IS(cuMemsetD8(pa.dptr, 1, 1), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemsetD8(pb.dptr, 7, SIZE));
	CHECK_CU_IS(cuGraphLaunch(exec, s), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemFreeAsync(pb.dptr, s));
	CHECK_EQ_U64(used_now(), 0);
	memset(host, 0, sizeof(host));
	CHECK_CU(cuGraphLaunch(exec, s)); /* same addresses again */
	CHECK_EQ_U64(host[SIZE - 1], 0x11);
	CHECK_CU(cuMemsetD8(pb.dptr, 7, SIZE));
	CHECK_CU(cuMemFree(pb.dptr));
	CHECK_CU_IS(cuMemFree(pb.dptr), CUDA_ERROR_INVALID_VALUE);
	cuuint64_t high = 0, zero = 0, one = 1;
	CHECK_CU(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &high));
	CHECK_EQ_U64(high, 2 * MIB2);
	CHECK_CU(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
	CHECK_CU(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &high));
	CHECK_EQ_U64(high, 0);
	CHECK_CU_IS(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &one),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &zero),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuDeviceGetGraphMemAttribute(5, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &high),
		    CUDA_ERROR_INVALID_DEVICE);
	CHECK_CU(cuDeviceGraphMemTrim(0));
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphInstantiate(&second, g, 0)); /* the first is gone */
	CHECK_CU(cuGraphExecDestroy(second));

	/* AUTO_FREE_ON_LAUNCH: the live allocation is freed by the relaunch */
	CHECK_CU(cuGraphInstantiateWithFlags(&exec, g,
					     CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
	CHECK_CU(cuGraphLaunch(exec, s));
	CHECK_CU(cuGraphLaunch(exec, s));
	CHECK_EQ_U64(used_now(), MIB2);
	CHECK_CU(cuMemFree(pb.dptr));
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphDestroy(g));
}

static void captured(CUstream s)
{
	static unsigned char host[SIZE];
	CUdeviceptr p = 0;
	CUgraph g;
	CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_CU(cuMemAllocAsync(&p, SIZE, s));
	CHECK(p != 0);
	CHECK_EQ_U64(used_now(), 0);
	CHECK_CU(cuMemsetD8Async(p, 0x5a, SIZE, s));
	CHECK_CU(cuMemcpyDtoHAsync(host, p, SIZE, s));
	CHECK_CU(cuMemFreeAsync(p, s));
	CHECK_CU(cuStreamEndCapture(s, &g));
	size_t n = 0;
	CHECK_CU(cuGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 4);
	CUgraphNode nodes[4];
	CHECK_CU(cuGraphGetNodes(g, nodes, &n));
	static const CUgraphNodeType want[4] = { CU_GRAPH_NODE_TYPE_MEM_ALLOC,
						 CU_GRAPH_NODE_TYPE_MEMSET,
						 CU_GRAPH_NODE_TYPE_MEMCPY,
						 CU_GRAPH_NODE_TYPE_MEM_FREE };
	for (int i = 0; i < 4; i++) {
		CUgraphNodeType type;
		CHECK_CU(cuGraphNodeGetType(nodes[i], &type));
		CHECK_EQ_U64(type, want[i]);
	}
	CUDA_MEM_ALLOC_NODE_PARAMS got;
	CHECK_CU(cuGraphMemAllocNodeGetParams(nodes[0], &got));
	CHECK(got.dptr == p && got.bytesize == SIZE);
	CUgraphExec exec;
	CHECK_CU(cuGraphInstantiate(&exec, g, 0));
	for (int launch = 0; launch < 3; launch++) {
		memset(host, 0, sizeof(host));
		CHECK_CU(cuGraphLaunch(exec, s));
		CHECK_EQ_U64(host[0], 0x5a);
		CHECK_EQ_U64(host[SIZE - 1], 0x5a);
		CHECK_EQ_U64(used_now(), 0);
	}
	/* an ordinary block cannot be freed into a capture */
	CUdeviceptr block;
	CHECK_CU(cuMemAlloc(&block, 64));
	CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_CU_IS(cuMemFreeAsync(block, s), CUDA_ERROR_INVALID_VALUE);
	CUgraph empty;
	CHECK_CU(cuStreamEndCapture(s, &empty));
	CHECK_CU(cuGraphDestroy(empty));
	CHECK_CU(cuMemFree(block));
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphDestroy(g));
}

int main(void)
{
	CHECK_CU(cuInit(0));
	CUdevice dev;
	CUcontext ctx;
	CHECK_CU(cuDeviceGet(&dev, 0));
	CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
	CHECK_CU(cuCtxSetCurrent(ctx));
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	explicit_nodes(s);
	captured(s);
	CHECK_CU(cuStreamDestroy(s));
	puts("test_driver_graph_memory: ok");
	return 0;
}
