// nv_graph_generic_memory: CUDA graph memory nodes made with the generic
// node API, with ground truth for each graph allocation's lifetimes and
// each kernel's tensors (the model: nv_graph_memory.cu, whose graph A this
// is, made the generic way):
//  - graph A, cudaGraphAddNode for every node: alloc a -> fill(a) ->
//    add(a, x) -> free a; launched 2 times: a is born and freed at every
//    launch;
//  - graph D, the driver's generic calls taken with
//    cudaGetDriverEntryPointByVersion: alloc d (cuGraphAddNode_v2) ->
//    fill(d) (cuGraphAddNode_v2, the kernel's CUfunction) -> free d
//    (cuGraphAddNode, CUDA 12.2's); launched 2 times.
// One stream, so GPU order is submission order. Writes TRUTH_DIR/expected
// in nv_graph_memory's format (nv_graph_common.h), which
// tests/e2e/check_graph_memory.py compares the analysis with.
//
//   nv_graph_generic_memory TRUTH_DIR
#include "tests/nvcc/nv_graph_common.h"

enum { BYTES = N * sizeof(float) };

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph_generic_memory TRUTH_DIR\n");
		return 2;
	}
	float *x;
	NV_CHECK(cudaMalloc((void **)&x, BYTES));
	NV_CHECK(cudaMemset(x, 0, BYTES));
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// A: alloc a -> fill(a) -> add(a, x) -> free a, all cudaGraphAddNode
	cudaGraph_t ga;
	cudaGraphNode_t n_alloc, n_fill, n_add, n_free;
	NV_CHECK(cudaGraphCreate(&ga, 0));
	cudaGraphNodeParams pa = {};
	pa.type = cudaGraphNodeTypeMemAlloc;
	pa.alloc.bytesize = BYTES;
	pa.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
	pa.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
	pa.alloc.poolProps.location.id = 0;
	NV_CHECK(cudaGraphAddNode(&n_alloc, ga, NULL, NULL, 0, &pa));
	float *a = (float *)pa.alloc.dptr;
	node_args fa, aa;
	cudaGraphNodeParams k = generic_kernel_params((void *)fill, &fa, a, NULL);
	NV_CHECK(cudaGraphAddNode(&n_fill, ga, &n_alloc, NULL, 1, &k));
	k = generic_kernel_params((void *)add, &aa, a, x);
	NV_CHECK(cudaGraphAddNode(&n_add, ga, &n_fill, NULL, 1, &k));
	cudaGraphNodeParams pf = {};
	pf.type = cudaGraphNodeTypeMemFree;
	pf.free.dptr = a;
	NV_CHECK(cudaGraphAddNode(&n_free, ga, &n_add, NULL, 1, &pf));
	cudaGraphExec_t ea;
	NV_CHECK(cudaGraphInstantiate(&ea, ga, 0));
	for (int i = 0; i < 2; i++) {
		NV_CHECK(cudaGraphLaunch(ea, s));
		expect_kernel(FILL, lifetime(a, i));
		expect_kernel(ADD, lifetime(a, i), "x");
	}

	// D: the driver's generic calls: alloc d -> fill(d) -> free d
	PFN_cuGraphAddNode_v12020 add_node_12020 =
		(PFN_cuGraphAddNode_v12020)driver_entry("cuGraphAddNode", 12020);
	PFN_cuGraphAddNode_v12030 add_node_v2 =
		(PFN_cuGraphAddNode_v12030)driver_entry("cuGraphAddNode", 12030);
	cudaFunction_t fill_function;
	NV_CHECK(cudaGetFuncBySymbol(&fill_function, (const void *)fill));
	cudaGraph_t gd;
	NV_CHECK(cudaGraphCreate(&gd, 0));
	CUgraphNode d_alloc, d_fill, d_free;
	CUgraphNodeParams pd = {};
	pd.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
	pd.alloc.bytesize = BYTES;
	pd.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	pd.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	pd.alloc.poolProps.location.id = 0;
	cu_check(add_node_v2(&d_alloc, gd, NULL, NULL, 0, &pd), "cuGraphAddNode_v2 (alloc)");
	float *d = (float *)(uintptr_t)pd.alloc.dptr;
	node_args fd;
	CUgraphNodeParams kd = driver_kernel_params((CUfunction)fill_function, &fd, d, NULL);
	cu_check(add_node_v2(&d_fill, gd, &d_alloc, NULL, 1, &kd), "cuGraphAddNode_v2 (kernel)");
	CUgraphNodeParams pdf = {};
	pdf.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
	pdf.free.dptr = (CUdeviceptr)(uintptr_t)d;
	cu_check(add_node_12020(&d_free, gd, &d_fill, 1, &pdf), "cuGraphAddNode (free)");
	cudaGraphExec_t ed;
	NV_CHECK(cudaGraphInstantiate(&ed, gd, 0));
	for (int i = 0; i < 2; i++) {
		NV_CHECK(cudaGraphLaunch(ed, s));
		expect_kernel(FILL, lifetime(d, i));
	}
	NV_CHECK(cudaStreamSynchronize(s));

	if (write_memory_expected(argv[1], x, {{a, 2}, {d, 2}}) != 0)
		return 1;
	printf("2 graphs with memory nodes made with the generic node API, 4 launches\n");
	NV_CHECK(cudaGraphExecDestroy(ea));
	NV_CHECK(cudaGraphExecDestroy(ed));
	NV_CHECK(cudaGraphDestroy(ga));
	NV_CHECK(cudaGraphDestroy(gd));
	NV_CHECK(cudaStreamDestroy(s));
	NV_CHECK(cudaFree(x));
	return 0;
}
