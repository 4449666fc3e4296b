// nv_graph_memory: CUDA graph memory nodes with ground truth for each
// graph allocation's lifetimes and each kernel's tensors:
//  - graph A, built by hand: alloc a -> fill(a) -> add(a, x) -> free a;
//    launched 3 times: a is born and freed at every launch;
//  - graph B, captured: cudaMallocAsync b, fill(b), add(b, x),
//    cudaFreeAsync b; launched 2 times;
//  - graph C, built by hand: alloc c -> fill(c), no free node: c outlives
//    each launch, an ordinary fill<<<>>>(c) uses it, then cudaFreeAsync
//    (after the first launch) or cudaFree (after the second) ends it.
// One stream, so GPU order is submission order. Writes TRUTH_DIR/expected:
//   x ADDR                   the ordinary tensor x
//   lifetimes ADDR N         the graph allocation at ADDR lives N times
//   kernel NAME SYM...       in GPU order, the tensors it touches: x, or
//                            ADDR#K (the K-th lifetime, from 0, of ADDR)
// tests/e2e/check_graph_memory.py compares the analysis with it
// (nv_graph_common.h writes it).
//
//   nv_graph_memory TRUTH_DIR
#include "tests/nvcc/nv_graph_common.h"

enum { BYTES = N * sizeof(float) };

static cudaMemAllocNodeParams alloc_params(void)
{
	cudaMemAllocNodeParams p = {};
	p.bytesize = BYTES;
	p.poolProps.allocType = cudaMemAllocationTypePinned;
	p.poolProps.location.type = cudaMemLocationTypeDevice;
	p.poolProps.location.id = 0;
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph_memory TRUTH_DIR\n");
		return 2;
	}
	float *x;
	NV_CHECK(cudaMalloc((void **)&x, BYTES));
	NV_CHECK(cudaMemset(x, 0, BYTES));
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// A: alloc a -> fill(a) -> add(a, x) -> free a
	cudaGraph_t ga;
	cudaGraphNode_t n_alloc, n_fill, n_add, n_free;
	NV_CHECK(cudaGraphCreate(&ga, 0));
	cudaMemAllocNodeParams pa = alloc_params();
	NV_CHECK(cudaGraphAddMemAllocNode(&n_alloc, ga, NULL, 0, &pa));
	float *a = (float *)pa.dptr;
	node_args fa, aa;
	cudaKernelNodeParams k = typed_kernel_params((void *)fill, &fa, a, NULL);
	NV_CHECK(cudaGraphAddKernelNode(&n_fill, ga, &n_alloc, 1, &k));
	k = typed_kernel_params((void *)add, &aa, a, x);
	NV_CHECK(cudaGraphAddKernelNode(&n_add, ga, &n_fill, 1, &k));
	NV_CHECK(cudaGraphAddMemFreeNode(&n_free, ga, &n_add, 1, a));
	cudaGraphExec_t ea;
	NV_CHECK(cudaGraphInstantiate(&ea, ga, 0));
	for (int i = 0; i < 3; i++) {
		NV_CHECK(cudaGraphLaunch(ea, s));
		expect_kernel(FILL, lifetime(a, i));
		expect_kernel(ADD, lifetime(a, i), "x");
	}

	// B: captured cudaMallocAsync / cudaFreeAsync
	cudaGraph_t gb;
	float *b = NULL;
	NV_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	NV_CHECK(cudaMallocAsync((void **)&b, BYTES, s));
	fill<<<BLOCKS, 256, 0, s>>>(b, N);
	add<<<BLOCKS, 256, 0, s>>>(b, x, N);
	NV_CHECK(cudaFreeAsync(b, s));
	NV_CHECK(cudaStreamEndCapture(s, &gb));
	cudaGraphExec_t eb;
	NV_CHECK(cudaGraphInstantiate(&eb, gb, 0));
	for (int i = 0; i < 2; i++) {
		NV_CHECK(cudaGraphLaunch(eb, s));
		expect_kernel(FILL, lifetime(b, i));
		expect_kernel(ADD, lifetime(b, i), "x");
	}

	// C: alloc c -> fill(c), freed outside the graph
	cudaGraph_t gc;
	cudaGraphNode_t c_alloc, c_fill;
	NV_CHECK(cudaGraphCreate(&gc, 0));
	cudaMemAllocNodeParams pc = alloc_params();
	NV_CHECK(cudaGraphAddMemAllocNode(&c_alloc, gc, NULL, 0, &pc));
	float *c = (float *)pc.dptr;
	node_args fc;
	k = typed_kernel_params((void *)fill, &fc, c, NULL);
	NV_CHECK(cudaGraphAddKernelNode(&c_fill, gc, &c_alloc, 1, &k));
	cudaGraphExec_t ec;
	NV_CHECK(cudaGraphInstantiate(&ec, gc, 0));
	NV_CHECK(cudaGraphLaunch(ec, s));
	expect_kernel(FILL, lifetime(c, 0));
	add<<<BLOCKS, 256, 0, s>>>(c, x, N);
	expect_kernel(ADD, lifetime(c, 0), "x");
	NV_CHECK(cudaFreeAsync(c, s));
	NV_CHECK(cudaGraphLaunch(ec, s));
	expect_kernel(FILL, lifetime(c, 1));
	add<<<BLOCKS, 256, 0, s>>>(c, x, N);
	expect_kernel(ADD, lifetime(c, 1), "x");
	NV_CHECK(cudaStreamSynchronize(s));
	NV_CHECK(cudaFree(c));
	// relaunching while c is live would fail: it is freed, so this works
	NV_CHECK(cudaGraphLaunch(ec, s));
	expect_kernel(FILL, lifetime(c, 2));
	NV_CHECK(cudaStreamSynchronize(s));
	NV_CHECK(cudaFree(c));

	if (write_memory_expected(argv[1], x, {{a, 3}, {b, 2}, {c, 3}}) != 0)
		return 1;
	printf("3 graphs with memory nodes, 8 launches\n");
	NV_CHECK(cudaGraphExecDestroy(ea));
	NV_CHECK(cudaGraphExecDestroy(eb));
	NV_CHECK(cudaGraphExecDestroy(ec));
	NV_CHECK(cudaGraphDestroy(ga));
	NV_CHECK(cudaGraphDestroy(gb));
	NV_CHECK(cudaGraphDestroy(gc));
	NV_CHECK(cudaStreamDestroy(s));
	NV_CHECK(cudaFree(x));
	return 0;
}
