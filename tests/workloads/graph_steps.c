/*
 * graph_steps: CUDA graph launches between ordinary kernel launches, as a
 * framework replaying a captured training step does. One graph is built
 * node by node (A -> {B, C}: cudaGraphAddKernelNode with dependencies), a
 * second one captured from a stream (cudaStreamBeginCapture/EndCapture);
 * the first is instantiated with cudaGraphInstantiate, the second with the
 * driver's cuGraphInstantiateWithFlags reached through
 * cudaGetDriverEntryPointByVersion (as a framework on the driver API, or a
 * statically linked runtime, does); both are launched with cudaGraphLaunch and again with cuGraphLaunch,
 * reached through cudaGetDriverEntryPointByVersion. Every node's
 * parameters point into live tensors: the truth declares each graph
 * kernel's tensor (the one its node points into), as the ordinary launches
 * declare theirs. Everything runs on one stream, so
 * the GPU start order is the submission order and, inside a launch, the
 * simulator's topological order (simgpu/README.md "CUDA graphs":
 * Kahn, FIFO: A, B, C; the captured graph in capture order).
 *
 * Durations: simgpu_next_kernel_ns applies to an ordinary launch and to the
 * FIRST kernel of a graph launch; the other nodes take the documented cost
 * model, 2000 ns + 10 ns x blocks.
 *
 *   graph_steps TRUTH_DIR     writes the ground truth (truth.h) into TRUTH_DIR
 *
 * Its stdout must not depend on whether it is traced; it must never read
 * device memory back into anything it prints.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { ELEMENTS = 4096, BLOCK_THREADS = 128 };

/* Host-side kernel handles: only their addresses matter. */
static const char prepare_kernel, combine_kernel, update_kernel;
static const char node_a, node_b, node_c, captured_d, captured_e;

/* The cost model of a kernel that simgpu_next_kernel_ns did not time. */
static uint64_t modelled_ns(unsigned blocks)
{
	return 2000 + 10 * (uint64_t)blocks;
}

static void define_kernels(void)
{
	const size_t sizes[2] = {sizeof(void *), sizeof(int)};
	simgpu_define_kernel(&prepare_kernel, "prepare", 2, sizes);
	simgpu_define_kernel(&combine_kernel, "combine", 2, sizes);
	simgpu_define_kernel(&update_kernel, "update", 2, sizes);
	simgpu_define_kernel(&node_a, "graph_a", 2, sizes);
	simgpu_define_kernel(&node_b, "graph_b", 2, sizes);
	simgpu_define_kernel(&node_c, "graph_c", 2, sizes);
	simgpu_define_kernel(&captured_d, "captured_d", 2, sizes);
	simgpu_define_kernel(&captured_e, "captured_e", 2, sizes);
}

/* One kernel's arguments: a device pointer and a count; must outlive the
 * launch or the node that copies them. */
struct kernel_args {
	void *data;
	int count;
	void *params[2];
};

static void set_args(struct kernel_args *args, void *data)
{
	args->data = data;
	args->count = ELEMENTS;
	args->params[0] = &args->data;
	args->params[1] = &args->count;
}

/* A graph: its kernels in the order a launch runs them, with the blocks
 * each one runs (the first one is timed by simgpu_next_kernel_ns). */
struct graph {
	const char *names[3];
	unsigned blocks[3];
	const void *tensors[3];  /* the one tensor each node points into */
	size_t n;
	cudaGraphExec_t exec;
};

static struct truth *truth;

static void add_node(cudaGraph_t graph, cudaGraphNode_t *node, const void *func,
		     unsigned blocks, struct kernel_args *args,
		     const cudaGraphNode_t *deps, size_t n_deps)
{
	struct cudaKernelNodeParams params;
	memset(&params, 0, sizeof(params));
	params.func = (void *)func;
	params.gridDim = (dim3){blocks, 1, 1};
	params.blockDim = (dim3){BLOCK_THREADS, 1, 1};
	params.kernelParams = args->params;
	WL_CHECK(cudaGraphAddKernelNode(node, graph, deps, n_deps, &params));
}

/* A driver entry point, as CUDA 12.0 names it. */
static void *driver_entry_point(const char *symbol)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult status;
	WL_CHECK(cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault,
						  &status));
	if (status != cudaDriverEntryPointSuccess || !fn) {
		fprintf(stderr, "graph_steps: no %s entry point (%d)\n", symbol, (int)status);
		exit(1);
	}
	return fn;
}

typedef CUresult driver_graph_launch_fn(CUgraphExec, CUstream);
typedef CUresult driver_graph_instantiate_fn(CUgraphExec *, CUgraph, unsigned long long);

static driver_graph_launch_fn *driver_graph_launch(void)
{
	return (driver_graph_launch_fn *)driver_entry_point("cuGraphLaunch");
}

/* A -> {B, C}, built node by node; the nodes point into x, w and h. */
static void build_graph(struct graph *g, void *x, void *w, void *h)
{
	struct kernel_args args_a, args_b, args_c;
	set_args(&args_a, x);
	set_args(&args_b, w);
	set_args(&args_c, h);
	cudaGraph_t graph;
	cudaGraphNode_t a, b, c;
	WL_CHECK(cudaGraphCreate(&graph, 0));
	add_node(graph, &a, &node_a, 40, &args_a, NULL, 0);
	add_node(graph, &b, &node_b, 30, &args_b, &a, 1);
	add_node(graph, &c, &node_c, 70, &args_c, &a, 1);
	WL_CHECK(cudaGraphInstantiate(&g->exec, graph, 0));
	/* The exec is a copy: the graph can go at once. */
	WL_CHECK(cudaGraphDestroy(graph));
	*g = (struct graph){ .names = {"graph_a", "graph_b", "graph_c"},
			     .blocks = {40, 30, 70}, .tensors = {x, w, h}, .n = 3,
			     .exec = g->exec };
}

/* D then E captured from stream; they point into h and y. Nothing runs. */
static void capture_graph(struct graph *g, cudaStream_t stream, void *h, void *y)
{
	struct kernel_args args_d, args_e;
	set_args(&args_d, h);
	set_args(&args_e, y);
	cudaGraph_t graph;
	WL_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
	WL_CHECK(cudaLaunchKernel(&captured_d, (dim3){20, 1, 1},
				  (dim3){BLOCK_THREADS, 1, 1}, args_d.params, 0, stream));
	WL_CHECK(cudaLaunchKernel(&captured_e, (dim3){50, 1, 1},
				  (dim3){BLOCK_THREADS, 1, 1}, args_e.params, 0, stream));
	WL_CHECK(cudaStreamEndCapture(stream, &graph));
	driver_graph_instantiate_fn *instantiate = driver_entry_point("cuGraphInstantiateWithFlags");
	CUgraphExec exec = NULL;
	CUresult result = instantiate(&exec, (CUgraph)graph, 0);
	if (result != CUDA_SUCCESS) {
		fprintf(stderr, "graph_steps: cuGraphInstantiateWithFlags failed (%d)\n",
			(int)result);
		exit(1);
	}
	g->exec = (cudaGraphExec_t)exec;
	WL_CHECK(cudaGraphDestroy(graph));
	*g = (struct graph){ .names = {"captured_d", "captured_e"},
			     .blocks = {20, 50}, .tensors = {h, y}, .n = 2,
			     .exec = g->exec };
}


/* Launches g; api says how ("cudaGraphLaunch" or "cuGraphLaunch"). */
static void launch_graph(const struct graph *g, const char *api, cudaStream_t stream,
			 uint64_t first_ns)
{
	struct truth_graph_kernel kernels[3];
	for (size_t k = 0; k < g->n; k++)
		kernels[k] = (struct truth_graph_kernel){
			.name = g->names[k],
			.duration_ns = k == 0 ? first_ns : modelled_ns(g->blocks[k]),
			.ptrs = &g->tensors[k], .n_ptrs = 1 };
	simgpu_next_kernel_ns(first_ns);
	if (strcmp(api, "cuGraphLaunch") == 0) {
		CUresult result = driver_graph_launch()(g->exec, stream);
		if (result != CUDA_SUCCESS) {
			fprintf(stderr, "graph_steps: cuGraphLaunch failed (%d)\n", (int)result);
			exit(1);
		}
	} else {
		WL_CHECK(cudaGraphLaunch(g->exec, stream));
	}
	/* Each kernel touches the tensor its node points into. */
	truth_graph_launch(truth, api, kernels, g->n);
}

static void launch(const void *func, const char *name, cudaStream_t stream,
		   void *data, uint64_t ns)
{
	struct kernel_args args;
	set_args(&args, data);
	const void *touched[1] = {data};
	wl_launch(truth, func, name, args.params, stream, ns, touched, 1);
}

static void *tensor_from_host(const float *host, const char *name, int global)
{
	void *ptr = wl_alloc(truth, ELEMENTS * sizeof(float), name, global);
	WL_CHECK(cudaMemcpy(ptr, host, ELEMENTS * sizeof(float), cudaMemcpyHostToDevice));
	truth_host_write(truth, ptr);
	return ptr;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: graph_steps TRUTH_DIR\n");
		return 2;
	}
	truth = truth_new();
	truth_exact_roles(truth);
	define_kernels();
	float *host = calloc(ELEMENTS, sizeof(float));
	if (!host) {
		fprintf(stderr, "graph_steps: out of memory\n");
		return 1;
	}

	cudaStream_t stream;
	WL_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	/* Graph nodes point into these four: they outlive every launch, so
	 * they exist before the first kernel and after the last (global). */
	void *w = tensor_from_host(host, "weight", 1);
	void *x = tensor_from_host(host, "input", 1);
	void *h = wl_alloc(truth, ELEMENTS * sizeof(float), "hidden", 1);
	void *y = wl_alloc(truth, ELEMENTS * sizeof(float), "output", 1);

	struct graph built, captured;
	build_graph(&built, x, w, h);
	capture_graph(&captured, stream, h, y);

	/* Durations >= 100 us, all different: order and sums are unambiguous. */
	launch(&prepare_kernel, "prepare", stream, x, 101000);
	launch_graph(&built, "cudaGraphLaunch", stream, 102000);
	launch(&combine_kernel, "combine", stream, h, 103000);
	void *scratch = wl_alloc(truth, ELEMENTS * sizeof(float), "scratch", 0);
	launch(&combine_kernel, "combine", stream, scratch, 104000);
	launch_graph(&captured, "cudaGraphLaunch", stream, 105000);
	launch(&update_kernel, "update", stream, scratch, 106000);
	wl_free(truth, scratch);
	launch_graph(&built, "cuGraphLaunch", stream, 107000);
	launch(&update_kernel, "update", stream, y, 108000);
	launch_graph(&captured, "cuGraphLaunch", stream, 109000);
	launch(&update_kernel, "update", stream, w, 110000);
	WL_CHECK(cudaStreamSynchronize(stream));
	printf("graph_steps: 4 graph launches (3 + 2 nodes), 7 ordinary launches\n");

	WL_CHECK(cudaGraphExecDestroy(built.exec));
	WL_CHECK(cudaGraphExecDestroy(captured.exec));
	wl_free(truth, y);
	wl_free(truth, h);
	wl_free(truth, x);
	wl_write_truth(truth, argv[1]);
	WL_CHECK(cudaStreamDestroy(stream));
	free(host);
	truth_delete(truth);
	return 0;
}
