/*
 * child_graphs: CUDA graphs with child graph nodes
 * (cudaGraphAddChildGraphNode), whose kernels a real GPU runs under node
 * ids no CUPTI callback names (simgpu/README.md "CUDA graphs", as an H200
 * showed). Every node points into a tensor of its own choosing; the truth
 * declares, at each launch, the tensor each kernel's node points into:
 *  - one:    parent {child {step(a)} -> step(b)}: the child's kernel and
 *            the parent's own have the same name; launched twice;
 *  - two:    parent {step(c) -> child {left(d) -> right(e)}};
 *  - nested: parent {child {child {deep(f)} -> left(a)}};
 *  - with the argument same-kernel, also twins: parent {child {twin(b),
 *    twin(c)}}, two nodes of the same kernel on different tensors, launched
 *    twice: nothing in a trace tells which record is which node, so an
 *    analysis must leave both unknown (and count them), never guess.
 *  - with the argument disabled, also: parent {child {step(a)} -> step(b)}
 *    instantiated twice, parent kept; in exec switched step(b) is
 *    disabled (cudaGraphNodeSetEnabled) for one launch, enabled for the
 *    next (cudaGraphNodeGetEnabled checked each time); in exec off it is
 *    disabled for its one launch: a disabled launch runs only the child's
 *    step(a), and b is not touched there. The disabled node's clone is
 *    then a node no record carries, of the child's kernel's name: an
 *    analysis that took it for a candidate would leave the launch of off
 *    unknown.
 * Each child graph is destroyed once added (the node keeps its own copy).
 * One stream, so GPU order is submission order and, inside a launch, the
 * simulator's topological order with a child graph flattened where its
 * node is. simgpu_next_kernel_ns times the first kernel of each launch,
 * the others take the cost model, 2000 ns + 10 ns x blocks.
 *
 *   child_graphs TRUTH_DIR [same-kernel | disabled]
 *
 * Its stdout must not depend on whether it is traced; it must never read
 * device memory back into anything it prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { ELEMENTS = 1024, BLOCK_THREADS = 128, BLOCKS = 8 };

/* Host-side kernel handles: only their addresses matter. */
static const char step_kernel, left_kernel, right_kernel, deep_kernel, twin_kernel;

static struct truth *truth;

static void define_kernels(void)
{
	const size_t sizes[2] = {sizeof(void *), sizeof(int)};
	simgpu_define_kernel(&step_kernel, "step", 2, sizes);
	simgpu_define_kernel(&left_kernel, "left", 2, sizes);
	simgpu_define_kernel(&right_kernel, "right", 2, sizes);
	simgpu_define_kernel(&deep_kernel, "deep", 2, sizes);
	simgpu_define_kernel(&twin_kernel, "twin", 2, sizes);
}

/* A node's arguments: a device pointer and a count; they must outlive the
 * call that copies them. */
struct kernel_args {
	void *data;
	int count;
	void *params[2];
};

static cudaGraphNode_t add_kernel(cudaGraph_t graph, const void *func, void *data,
				  const cudaGraphNode_t *deps, size_t n_deps)
{
	struct kernel_args args = {data, ELEMENTS, {NULL, NULL}};
	args.params[0] = &args.data;
	args.params[1] = &args.count;
	struct cudaKernelNodeParams params;
	memset(&params, 0, sizeof(params));
	params.func = (void *)func;
	params.gridDim = (dim3){BLOCKS, 1, 1};
	params.blockDim = (dim3){BLOCK_THREADS, 1, 1};
	params.kernelParams = args.params;
	cudaGraphNode_t node;
	WL_CHECK(cudaGraphAddKernelNode(&node, graph, deps, n_deps, &params));
	return node;
}

/* child added to graph (after deps), then destroyed: the node has a copy. */
static cudaGraphNode_t add_child(cudaGraph_t graph, cudaGraph_t child,
				 const cudaGraphNode_t *deps, size_t n_deps)
{
	cudaGraphNode_t node;
	WL_CHECK(cudaGraphAddChildGraphNode(&node, graph, deps, n_deps, child));
	WL_CHECK(cudaGraphDestroy(child));
	return node;
}

static cudaGraph_t new_graph(void)
{
	cudaGraph_t graph;
	WL_CHECK(cudaGraphCreate(&graph, 0));
	return graph;
}

/* graph instantiated, then destroyed: the exec is a copy. */
static cudaGraphExec_t instantiate(cudaGraph_t graph)
{
	cudaGraphExec_t exec;
	WL_CHECK(cudaGraphInstantiate(&exec, graph, 0));
	WL_CHECK(cudaGraphDestroy(graph));
	return exec;
}

/* One launch of exec, whose kernels in order are names[i] on tensors[i],
 * the first timed first_ns. */
static void launch(cudaGraphExec_t exec, cudaStream_t stream, uint64_t first_ns,
		   const char *const *names, void *const *tensors, size_t n)
{
	struct truth_graph_kernel kernels[4];
	for (size_t k = 0; k < n; k++)
		kernels[k] = (struct truth_graph_kernel){
			.name = names[k],
			.duration_ns = k == 0 ? first_ns : 2000 + 10 * (uint64_t)BLOCKS,
			.ptrs = (const void *const *)&tensors[k], .n_ptrs = 1};
	simgpu_next_kernel_ns(first_ns);
	WL_CHECK(cudaGraphLaunch(exec, stream));
	truth_graph_launch(truth, "cudaGraphLaunch", kernels, n);
}

/* exec's copy of node switched on or off, and the state read back */
static void set_enabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled)
{
	unsigned int now = !enabled;
	WL_CHECK(cudaGraphNodeSetEnabled(exec, node, enabled));
	WL_CHECK(cudaGraphNodeGetEnabled(exec, node, &now));
	if (now != enabled) {
		fprintf(stderr, "child_graphs: node reads %s after being %s\n",
			now ? "enabled" : "disabled", enabled ? "enabled" : "disabled");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int same_kernel = argc == 3 && strcmp(argv[2], "same-kernel") == 0;
	int disabled = argc == 3 && strcmp(argv[2], "disabled") == 0;
	if (argc != 2 && !same_kernel && !disabled) {
		fprintf(stderr, "usage: child_graphs TRUTH_DIR [same-kernel | disabled]\n");
		return 2;
	}
	truth = truth_new();
	truth_exact_roles(truth);
	define_kernels();
	cudaStream_t stream;
	WL_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	/* the nodes point into these: they outlive every launch (global) */
	static const char *const tensor_names[] = {"a", "b", "c", "d", "e", "f"};
	void *t[6];
	for (int i = 0; i < 6; i++)
		t[i] = wl_alloc(truth, ELEMENTS * sizeof(float), tensor_names[i], 1);
	void *a = t[0], *b = t[1], *c = t[2], *d = t[3], *e = t[4], *f = t[5];

	/* one: parent {child {step(a)} -> step(b)} */
	cudaGraph_t inner = new_graph(), parent = new_graph();
	add_kernel(inner, &step_kernel, a, NULL, 0);
	cudaGraphNode_t child = add_child(parent, inner, NULL, 0);
	add_kernel(parent, &step_kernel, b, &child, 1);
	cudaGraphExec_t one = instantiate(parent);

	/* two: parent {step(c) -> child {left(d) -> right(e)}} */
	inner = new_graph(), parent = new_graph();
	cudaGraphNode_t left = add_kernel(inner, &left_kernel, d, NULL, 0);
	add_kernel(inner, &right_kernel, e, &left, 1);
	cudaGraphNode_t first = add_kernel(parent, &step_kernel, c, NULL, 0);
	add_child(parent, inner, &first, 1);
	cudaGraphExec_t two = instantiate(parent);

	/* nested: parent {child {child {deep(f)} -> left(a)}} */
	cudaGraph_t innermost = new_graph(), middle = new_graph();
	parent = new_graph();
	add_kernel(innermost, &deep_kernel, f, NULL, 0);
	child = add_child(middle, innermost, NULL, 0);
	add_kernel(middle, &left_kernel, a, &child, 1);
	add_child(parent, middle, NULL, 0);
	cudaGraphExec_t nested = instantiate(parent);

	/* twins: parent {child {twin(b), twin(c)}} */
	cudaGraphExec_t twins = NULL;
	if (same_kernel) {
		inner = new_graph(), parent = new_graph();
		add_kernel(inner, &twin_kernel, b, NULL, 0);
		add_kernel(inner, &twin_kernel, c, NULL, 0);
		add_child(parent, inner, NULL, 0);
		twins = instantiate(parent);
	}

	/* switched and off: parent {child {step(a)} -> step(b)}, parent kept
	 * (cudaGraphNodeSetEnabled names the parent's node) */
	cudaGraphExec_t switched = NULL, off = NULL;
	cudaGraph_t switchable = NULL;
	cudaGraphNode_t own_step = NULL;
	if (disabled) {
		inner = new_graph(), switchable = new_graph();
		add_kernel(inner, &step_kernel, a, NULL, 0);
		child = add_child(switchable, inner, NULL, 0);
		own_step = add_kernel(switchable, &step_kernel, b, &child, 1);
		WL_CHECK(cudaGraphInstantiate(&switched, switchable, 0));
		WL_CHECK(cudaGraphInstantiate(&off, switchable, 0));
	}

	/* Durations >= 100 us, all different: order and sums are unambiguous. */
	static const char *const steps[] = {"step", "step"};
	static const char *const step_left_right[] = {"step", "left", "right"};
	static const char *const deep_left[] = {"deep", "left"};
	static const char *const twin_twin[] = {"twin", "twin"};
	void *const one_tensors[] = {a, b}, *const two_tensors[] = {c, d, e};
	void *const nested_tensors[] = {f, a}, *const twin_tensors[] = {b, c};
	launch(one, stream, 101000, steps, one_tensors, 2);
	launch(two, stream, 102000, step_left_right, two_tensors, 3);
	if (twins)
		launch(twins, stream, 103000, twin_twin, twin_tensors, 2);
	launch(nested, stream, 104000, deep_left, nested_tensors, 2);
	launch(one, stream, 105000, steps, one_tensors, 2);
	if (twins)
		launch(twins, stream, 106000, twin_twin, twin_tensors, 2);
	if (disabled) {
		static const char *const step_only[] = {"step"};
		void *const a_only[] = {a};
		set_enabled(switched, own_step, 0);
		launch(switched, stream, 107000, step_only, a_only, 1);
		set_enabled(switched, own_step, 1);
		launch(switched, stream, 108000, steps, one_tensors, 2);
		set_enabled(off, own_step, 0);
		launch(off, stream, 109000, step_only, a_only, 1);
		WL_CHECK(cudaGraphDestroy(switchable));
	}
	WL_CHECK(cudaStreamSynchronize(stream));
	printf("child_graphs: %d graphs with child graph nodes, %d launches\n",
	       twins || disabled ? 4 : 3, twins ? 6 : disabled ? 7 : 4);

	cudaGraphExec_t execs[] = {one, two, nested, twins, switched, off};
	for (int i = 0; i < 6; i++)
		if (execs[i])
			WL_CHECK(cudaGraphExecDestroy(execs[i]));
	for (int i = 5; i >= 0; i--)
		wl_free(truth, t[i]);
	wl_write_truth(truth, argv[1]);
	WL_CHECK(cudaStreamDestroy(stream));
	truth_delete(truth);
	return 0;
}
