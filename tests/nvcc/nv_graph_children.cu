// nv_graph_children: CUDA graphs with child graph nodes
// (cudaGraphAddChildGraphNode), with ground truth for each graph kernel's
// tensors at each launch. An H200 (CUDA 13.0) runs a child graph's kernels
// under node ids no CUPTI callback names (analysis/model/graph_nodes.c,
// "Child graphs"); the analysis must still give each one its tensors where
// one node of its exec can be its own:
//  - one:    parent {child {step(a)} -> step(b)}: the child's kernel and the
//            parent's own have the same name; launched twice;
//  - two:    parent {step(c) -> child {left(d) -> right(e)}};
//  - nested: parent {child {child {deep(f)} -> left(a)}}.
// With the argument same-kernel, also twins: parent {child {twin(b),
// twin(c)}}, two nodes of the same kernel on different tensors, launched
// twice: no trace says which record is which node, so the analysis must
// leave both unknown and count them (its truth then differs on purpose:
// tests/e2e/test_nvcc_graph_children.sh checks that). Each child graph is
// destroyed once added (the node keeps its own copy). One stream, so GPU
// order is submission order; on simgpu a child graph runs flattened where
// its node is, simgpu_next_kernel_ns times the first kernel of each launch,
// the others take the cost model, 2000 ns + 10 ns x blocks.
//
//   nv_graph_children TRUTH_DIR [same-kernel]
#include <string.h>

#include "tests/nvcc/nv_common.h"

__global__ void step(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += 1.0f;
}

__global__ void left(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 0.5f;
}

__global__ void right(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

__global__ void deep(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] -= 1.0f;
}

__global__ void twin(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = -x[i];
}

enum { N = 4096, BLOCKS = N / 256 };
static const uint64_t MODELLED_NS = 2000 + 10 * (uint64_t)BLOCKS;

// A kernel node func(x) in graph after deps (its arguments copied by the call).
static cudaGraphNode_t add_kernel(cudaGraph_t graph, void (*func)(float *, int), float *x,
				  const cudaGraphNode_t *deps, size_t n_deps)
{
	int n = N;
	void *params[2] = {&x, &n};
	struct cudaKernelNodeParams p = {};
	p.func = (void *)func;
	p.gridDim = dim3(BLOCKS, 1, 1);
	p.blockDim = dim3(256, 1, 1);
	p.kernelParams = params;
	cudaGraphNode_t node;
	NV_CHECK(cudaGraphAddKernelNode(&node, graph, deps, n_deps, &p));
	return node;
}

// child added to graph after deps, then destroyed: the node has its own copy.
static cudaGraphNode_t add_child(cudaGraph_t graph, cudaGraph_t child,
				 const cudaGraphNode_t *deps, size_t n_deps)
{
	cudaGraphNode_t node;
	NV_CHECK(cudaGraphAddChildGraphNode(&node, graph, deps, n_deps, child));
	NV_CHECK(cudaGraphDestroy(child));
	return node;
}

static cudaGraph_t new_graph(void)
{
	cudaGraph_t graph;
	NV_CHECK(cudaGraphCreate(&graph, 0));
	return graph;
}

// graph instantiated, then destroyed: the exec is a copy.
static cudaGraphExec_t instantiate(cudaGraph_t graph)
{
	cudaGraphExec_t exec;
	NV_CHECK(cudaGraphInstantiate(&exec, graph, 0));
	NV_CHECK(cudaGraphDestroy(graph));
	return exec;
}

// One launch of exec, whose kernels in order are names[i] on tensors[i].
static void launch(struct truth *truth, cudaGraphExec_t exec, cudaStream_t s, uint64_t first_ns,
		   const char *const *names, const float *const *tensors, size_t n)
{
	struct truth_graph_kernel kernels[3];
	for (size_t k = 0; k < n; k++)
		kernels[k] = {names[k], k == 0 ? first_ns : MODELLED_NS,
			      (const void *const *)&tensors[k], 1, NULL, 0};
	nv_next_kernel_ns(first_ns);
	NV_CHECK(cudaGraphLaunch(exec, s));
	truth_graph_launch(truth, "cudaGraphLaunch", kernels, n);
}

int main(int argc, char **argv)
{
	bool same_kernel = argc == 3 && strcmp(argv[2], "same-kernel") == 0;
	if (argc != 2 && !same_kernel) {
		fprintf(stderr, "usage: nv_graph_children TRUTH_DIR [same-kernel]\n");
		return 2;
	}
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	float *a = nv_alloc<float>(truth, N, "a", 1);
	float *b = nv_alloc<float>(truth, N, "b", 1);
	float *c = nv_alloc<float>(truth, N, "c", 1);
	float *d = nv_alloc<float>(truth, N, "d", 1);
	float *e = nv_alloc<float>(truth, N, "e", 1);
	float *f = nv_alloc<float>(truth, N, "f", 1);
	float *host = (float *)calloc(N, sizeof(float));
	if (!host)
		return 1;
	float *tensors[] = {a, b, c, d, e, f};
	for (float *t : tensors)
		nv_upload(truth, t, host, sizeof(float) * N);
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// one: parent {child {step(a)} -> step(b)}
	cudaGraph_t inner = new_graph(), parent = new_graph();
	add_kernel(inner, step, a, NULL, 0);
	cudaGraphNode_t child = add_child(parent, inner, NULL, 0);
	add_kernel(parent, step, b, &child, 1);
	cudaGraphExec_t one = instantiate(parent);

	// two: parent {step(c) -> child {left(d) -> right(e)}}
	inner = new_graph(), parent = new_graph();
	cudaGraphNode_t first = add_kernel(inner, left, d, NULL, 0);
	add_kernel(inner, right, e, &first, 1);
	first = add_kernel(parent, step, c, NULL, 0);
	add_child(parent, inner, &first, 1);
	cudaGraphExec_t two = instantiate(parent);

	// nested: parent {child {child {deep(f)} -> left(a)}}
	cudaGraph_t innermost = new_graph(), middle = new_graph();
	parent = new_graph();
	add_kernel(innermost, deep, f, NULL, 0);
	child = add_child(middle, innermost, NULL, 0);
	add_kernel(middle, left, a, &child, 1);
	add_child(parent, middle, NULL, 0);
	cudaGraphExec_t nested = instantiate(parent);

	// twins: parent {child {twin(b), twin(c)}}
	cudaGraphExec_t twins = NULL;
	if (same_kernel) {
		inner = new_graph(), parent = new_graph();
		add_kernel(inner, twin, b, NULL, 0);
		add_kernel(inner, twin, c, NULL, 0);
		add_child(parent, inner, NULL, 0);
		twins = instantiate(parent);
	}

	static const char *const STEP = "_Z4stepPfi", *const LEFT = "_Z4leftPfi",
		*const RIGHT = "_Z5rightPfi", *const DEEP = "_Z4deepPfi", *const TWIN = "_Z4twinPfi";
	const char *const steps[] = {STEP, STEP}, *const step_left_right[] = {STEP, LEFT, RIGHT};
	const char *const deep_left[] = {DEEP, LEFT}, *const twin_twin[] = {TWIN, TWIN};
	const float *const one_t[] = {a, b}, *const two_t[] = {c, d, e};
	const float *const nested_t[] = {f, a}, *const twin_t[] = {b, c};
	launch(truth, one, s, 601000, steps, one_t, 2);
	launch(truth, two, s, 602000, step_left_right, two_t, 3);
	if (twins)
		launch(truth, twins, s, 603000, twin_twin, twin_t, 2);
	launch(truth, nested, s, 604000, deep_left, nested_t, 2);
	launch(truth, one, s, 605000, steps, one_t, 2);
	if (twins)
		launch(truth, twins, s, 606000, twin_twin, twin_t, 2);
	NV_CHECK(cudaStreamSynchronize(s));
	printf("%d graphs with child graph nodes, %d launches\n", twins ? 4 : 3, twins ? 6 : 4);

	cudaGraphExec_t execs[] = {one, two, nested, twins};
	for (cudaGraphExec_t x : execs)
		if (x)
			NV_CHECK(cudaGraphExecDestroy(x));
	NV_CHECK(cudaStreamDestroy(s));
	for (float *t : tensors)
		nv_free(truth, t);
	free(host);
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
