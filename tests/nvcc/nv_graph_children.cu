// nv_graph_children: kernels inside child graph nodes, with ground truth for
// each one's tensors at each launch. On an H200 (CUDA 13.0) a parent's
// instantiation flattens a child graph's kernels into the exec under node
// ids no CUPTI callback names (tests/gpu/README.md, third session), so
// this is what the analysis's child-graph rule (analysis/model/
// graph_nodes.c) must get right on a real GPU as on simgpu:
//  - A: parent = child(scale(x)) -> scale(y), launched twice;
//  - B: parent = child(scale(z) -> add(z, w)): two different kernels;
//  - C: nested: outer = child(middle) -> scale(z), middle =
//    child(scale(w)) -> add(w, x).
// Every node depends on the one before, on one stream: GPU order is the
// order above. simgpu_next_kernel_ns times the first kernel of each graph
// launch, the others take the cost model, 2000 ns + 10 ns x blocks.
//
//   nv_graph_children TRUTH_DIR
#include "tests/nvcc/nv_graph_common.h"

// Adds scale(a) (b NULL) or add(a, b) to g after dep (NULL: no dependency).
static cudaGraphNode_t add_kernel(cudaGraph_t g, cudaGraphNode_t dep, float *a, float *b)
{
	node_args args;
	struct cudaKernelNodeParams p =
		typed_kernel_params(b ? (void *)add : (void *)scale, &args, a, b);
	cudaGraphNode_t node;
	NV_CHECK(cudaGraphAddKernelNode(&node, g, dep ? &dep : NULL, dep ? 1 : 0, &p));
	return node;
}

static cudaGraphNode_t add_child(cudaGraph_t g, cudaGraph_t child)
{
	cudaGraphNode_t node;
	NV_CHECK(cudaGraphAddChildGraphNode(&node, g, NULL, 0, child));
	return node;
}

static cudaGraphExec_t instantiate(cudaGraph_t g)
{
	cudaGraphExec_t exec;
	NV_CHECK(cudaGraphInstantiate(&exec, g, 0));
	return exec;
}

static void launch(struct truth *truth, cudaGraphExec_t exec, cudaStream_t s, uint64_t first_ns,
		   const struct truth_graph_kernel *kernels, size_t n)
{
	nv_next_kernel_ns(first_ns);
	NV_CHECK(cudaGraphLaunch(exec, s));
	truth_graph_launch(truth, "cudaGraphLaunch", kernels, n);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph_children TRUTH_DIR\n");
		return 2;
	}
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	float *x = nv_alloc<float>(truth, N, "x", 1);
	float *y = nv_alloc<float>(truth, N, "y", 1);
	float *z = nv_alloc<float>(truth, N, "z", 1);
	float *w = nv_alloc<float>(truth, N, "w", 1);
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	const void *px[] = {x}, *py[] = {y}, *pz[] = {z}, *pw[] = {w};
	const void *pzw[] = {z, w}, *pwx[] = {w, x};

	// A: child(scale(x)) -> scale(y), twice, a <<<>>> launch between
	cudaGraph_t inner_a, parent_a;
	NV_CHECK(cudaGraphCreate(&inner_a, 0));
	add_kernel(inner_a, NULL, x, NULL);
	NV_CHECK(cudaGraphCreate(&parent_a, 0));
	add_kernel(parent_a, add_child(parent_a, inner_a), y, NULL);
	NV_CHECK(cudaGraphDestroy(inner_a)); // the child node holds its own copy
	cudaGraphExec_t exec_a = instantiate(parent_a);
	const struct truth_graph_kernel kernels_a[] = {
		{SCALE, 601000, px, 1, NULL, 0},
		{SCALE, MODELLED_NS, py, 1, NULL, 0},
	};
	launch(truth, exec_a, s, 601000, kernels_a, 2);
	nv_next_kernel_ns(602000);
	scale<<<BLOCKS, 256, 0, s>>>(z, N);
	nv_kernel(truth, SCALE, pz, 1, 602000);
	struct truth_graph_kernel again_a[] = {kernels_a[0], kernels_a[1]};
	again_a[0].duration_ns = 603000;
	launch(truth, exec_a, s, 603000, again_a, 2);

	// B: child(scale(z) -> add(z, w))
	cudaGraph_t inner_b, parent_b;
	NV_CHECK(cudaGraphCreate(&inner_b, 0));
	add_kernel(inner_b, add_kernel(inner_b, NULL, z, NULL), z, w);
	NV_CHECK(cudaGraphCreate(&parent_b, 0));
	add_child(parent_b, inner_b);
	cudaGraphExec_t exec_b = instantiate(parent_b);
	const struct truth_graph_kernel kernels_b[] = {
		{SCALE, 604000, pz, 1, NULL, 0},
		{ADD, MODELLED_NS, pzw, 2, NULL, 0},
	};
	launch(truth, exec_b, s, 604000, kernels_b, 2);

	// C: outer = child(middle) -> scale(z); middle = child(scale(w)) -> add(w, x)
	cudaGraph_t innermost, middle, outer;
	NV_CHECK(cudaGraphCreate(&innermost, 0));
	add_kernel(innermost, NULL, w, NULL);
	NV_CHECK(cudaGraphCreate(&middle, 0));
	add_kernel(middle, add_child(middle, innermost), w, x);
	NV_CHECK(cudaGraphCreate(&outer, 0));
	add_kernel(outer, add_child(outer, middle), z, NULL);
	cudaGraphExec_t exec_c = instantiate(outer);
	const struct truth_graph_kernel kernels_c[] = {
		{SCALE, 605000, pw, 1, NULL, 0},
		{ADD, MODELLED_NS, pwx, 2, NULL, 0},
		{SCALE, MODELLED_NS, pz, 1, NULL, 0},
	};
	launch(truth, exec_c, s, 605000, kernels_c, 3);
	NV_CHECK(cudaStreamSynchronize(s));
	printf("3 parents with child graphs (one nested), 4 graph launches\n");

	cudaGraphExec_t execs[] = {exec_a, exec_b, exec_c};
	for (cudaGraphExec_t e : execs)
		NV_CHECK(cudaGraphExecDestroy(e));
	cudaGraph_t graphs[] = {parent_a, inner_b, parent_b, innermost, middle, outer};
	for (cudaGraph_t g : graphs)
		NV_CHECK(cudaGraphDestroy(g));
	nv_free(truth, x);
	nv_free(truth, y);
	nv_free(truth, z);
	nv_free(truth, w);
	NV_CHECK(cudaStreamDestroy(s));
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
