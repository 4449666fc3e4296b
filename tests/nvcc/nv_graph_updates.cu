// nv_graph_updates: every way this program's kernels enter CUDA graphs,
// with ground truth for each graph kernel's tensors at each launch:
//  - a graph captured from a stream: cublasSgemm (C = A B, roles known),
//    then add<<<>>>(x, y) and scale<<<>>>(w);
//  - a graph built by hand: one node, scale(z) (cudaGraphAddKernelNode);
//  - cudaGraphKernelNodeSetParams re-points the graph's node to x: the
//    exec instantiated before keeps z;
//  - cudaGraphExecKernelNodeSetParams re-points the exec's node to y;
//  - cudaGraphExecUpdate from a graph of the same shape, scale(w);
//  - cudaGraphClone of the hand-built graph (its node now on x),
//    instantiated and launched;
//  - a graph of a memset node (into v) and a memcpy node (x into u), each
//    followed by scale on what it wrote: the nodes write v and u at every
//    launch, so the kernels read them (input and output);
//  - a graph whose first node is a child graph (the one-node graph of
//    scale(z), which is destroyed at once: the node has its own copy),
//    then scale(y).
// w is used only inside graph replays: its inactive periods lie between
// them, never across one. One stream, so GPU order is submission order;
// simgpu_next_kernel_ns times the first kernel of each launch, the others
// take the cost model, 2000 ns + 10 ns x blocks.
//
//   nv_graph_updates TRUTH_DIR
#include <cublas_v2.h>
#include "tests/nvcc/nv_graph_common.h"

enum { M = 64, K = 32, NC = 16 };
static const char *const GEMM = "ampere_sgemm_128x64_nn";

// scale(x) as a typed kernel node.
static struct cudaKernelNodeParams scale_node(node_args *a, float *x)
{
	return typed_kernel_params((void *)scale, a, x, NULL);
}

// A one-node graph: scale(x).
static cudaGraph_t scale_graph(float *x, cudaGraphNode_t *node)
{
	cudaGraph_t g;
	node_args a;
	struct cudaKernelNodeParams p = scale_node(&a, x);
	NV_CHECK(cudaGraphCreate(&g, 0));
	NV_CHECK(cudaGraphAddKernelNode(node, g, NULL, 0, &p));
	return g;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph_updates TRUTH_DIR\n");
		return 2;
	}
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	float *a = nv_alloc<float>(truth, M * K, "A", 1);
	float *b = nv_alloc<float>(truth, K * NC, "B", 1);
	float *c = nv_alloc<float>(truth, M * NC, "C", 1);
	float *x = nv_alloc<float>(truth, N, "x", 1);
	float *y = nv_alloc<float>(truth, N, "y", 1);
	float *z = nv_alloc<float>(truth, N, "z", 1);
	float *w = nv_alloc<float>(truth, N, "w", 1);
	float *u = nv_alloc<float>(truth, N, "u", 1);
	float *v = nv_alloc<float>(truth, N, "v", 1);
	float *host = (float *)calloc(N, sizeof(float));
	if (!host)
		return 1;
	nv_upload(truth, a, host, sizeof(float) * M * K);
	nv_upload(truth, b, host, sizeof(float) * K * NC);
	nv_upload(truth, x, host, sizeof(float) * N);
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	cublasHandle_t handle;
	if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
	    cublasSetStream(handle, s) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "nv_graph_updates: cuBLAS setup failed\n");
		return 1;
	}

	// 1. captured: the GEMM, then add(x, y), then scale(w)
	cudaGraph_t captured;
	NV_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	const float one = 1, zero = 0;
	if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, NC, K, &one, a, M, b, K, &zero,
			c, M) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "nv_graph_updates: cublasSgemm failed\n");
		return 1;
	}
	add<<<BLOCKS, 256, 0, s>>>(x, y, N);
	scale<<<BLOCKS, 256, 0, s>>>(w, N);
	NV_CHECK(cudaStreamEndCapture(s, &captured));
	cudaGraphExec_t captured_exec;
	NV_CHECK(cudaGraphInstantiate(&captured_exec, captured, 0));
	const struct truth_arg gemm_args[] = {
		{a, TRUTH_READ, "f32[64, 32]"}, {b, TRUTH_READ, "f32[32, 16]"},
		{c, TRUTH_WRITE, "f32[64, 16]"},
	};
	const void *add_ptrs[] = {x, y}, *scale_w[] = {w};

	// 2. by hand: scale(z)
	cudaGraphNode_t node;
	cudaGraph_t built = scale_graph(z, &node);
	cudaGraphExec_t built_exec;
	NV_CHECK(cudaGraphInstantiate(&built_exec, built, 0));

	nv_next_kernel_ns(501000);
	scale<<<BLOCKS, 256, 0, s>>>(x, N);
	const void *k_x[] = {x};
	nv_kernel(truth, SCALE, k_x, 1, 501000);

	nv_next_kernel_ns(502000);
	NV_CHECK(cudaGraphLaunch(captured_exec, s));
	struct truth_graph_kernel step[] = {
		{GEMM, 502000, NULL, 0, gemm_args, 3},
		{ADD, MODELLED_NS, add_ptrs, 2, NULL, 0},
		{SCALE, MODELLED_NS, scale_w, 1, NULL, 0},
	};
	truth_graph_launch(truth, "cudaGraphLaunch", step, 3);

	launch_scale_graph(truth, built_exec, s, z, 503000);

	// 3. the graph's node now on x: the exec still runs scale(z)
	node_args args;
	struct cudaKernelNodeParams p = scale_node(&args, x);
	NV_CHECK(cudaGraphKernelNodeSetParams(node, &p));
	launch_scale_graph(truth, built_exec, s, z, 504000);

	// 4. the exec's node on y
	p = scale_node(&args, y);
	NV_CHECK(cudaGraphExecKernelNodeSetParams(built_exec, node, &p));
	launch_scale_graph(truth, built_exec, s, y, 505000);

	// 5. the exec updated from a graph of the same shape: scale(w)
	cudaGraphNode_t other_node;
	cudaGraph_t other = scale_graph(w, &other_node);
	cudaGraphExecUpdateResultInfo info;
	NV_CHECK(cudaGraphExecUpdate(built_exec, other, &info));
	if (info.result != cudaGraphExecUpdateSuccess) {
		fprintf(stderr, "nv_graph_updates: update result %d\n", (int)info.result);
		return 1;
	}
	launch_scale_graph(truth, built_exec, s, w, 506000);

	// 6. a clone of the hand-built graph (its node on x since 3)
	cudaGraph_t copy;
	NV_CHECK(cudaGraphClone(&copy, built));
	cudaGraphExec_t copy_exec;
	NV_CHECK(cudaGraphInstantiate(&copy_exec, copy, 0));
	launch_scale_graph(truth, copy_exec, s, x, 507000);

	// 7. memset(v) -> scale(v), memcpy(x -> u) -> scale(u)
	cudaGraph_t copies;
	NV_CHECK(cudaGraphCreate(&copies, 0));
	struct cudaMemsetParams set = {};
	set.dst = v;
	set.value = 0;
	set.elementSize = 4;
	set.width = N;
	set.height = 1;
	cudaGraphNode_t set_node, copy_node, scale_v, scale_u;
	NV_CHECK(cudaGraphAddMemsetNode(&set_node, copies, NULL, 0, &set));
	NV_CHECK(cudaGraphAddMemcpyNode1D(&copy_node, copies, NULL, 0, u, x, N * sizeof(float),
					  cudaMemcpyDeviceToDevice));
	node_args args_v, args_u;
	p = scale_node(&args_v, v);
	NV_CHECK(cudaGraphAddKernelNode(&scale_v, copies, &set_node, 1, &p));
	p = scale_node(&args_u, u);
	NV_CHECK(cudaGraphAddKernelNode(&scale_u, copies, &copy_node, 1, &p));
	cudaGraphExec_t copies_exec;
	NV_CHECK(cudaGraphInstantiate(&copies_exec, copies, 0));
	nv_next_kernel_ns(507500);
	NV_CHECK(cudaGraphLaunch(copies_exec, s));
	truth_host_write(truth, v);
	truth_host_write(truth, u);
	const void *k_v[] = {v}, *k_u[] = {u};
	const struct truth_graph_kernel copied[] = {
		{SCALE, 507500, k_v, 1, NULL, 0},
		{SCALE, MODELLED_NS, k_u, 1, NULL, 0},
	};
	truth_graph_launch(truth, "cudaGraphLaunch", copied, 2);

	// 8. a child graph node (scale(z)), then scale(y)
	cudaGraphNode_t inner_node, child_node, after_child;
	cudaGraph_t inner = scale_graph(z, &inner_node), parent;
	NV_CHECK(cudaGraphCreate(&parent, 0));
	NV_CHECK(cudaGraphAddChildGraphNode(&child_node, parent, NULL, 0, inner));
	NV_CHECK(cudaGraphDestroy(inner));
	node_args args_y;
	p = scale_node(&args_y, y);
	NV_CHECK(cudaGraphAddKernelNode(&after_child, parent, &child_node, 1, &p));
	cudaGraphExec_t parent_exec;
	NV_CHECK(cudaGraphInstantiate(&parent_exec, parent, 0));
	nv_next_kernel_ns(507700);
	NV_CHECK(cudaGraphLaunch(parent_exec, s));
	const void *k_z[] = {z}, *k_y2[] = {y};
	const struct truth_graph_kernel nested[] = {
		{SCALE, 507700, k_z, 1, NULL, 0},
		{SCALE, MODELLED_NS, k_y2, 1, NULL, 0},
	};
	truth_graph_launch(truth, "cudaGraphLaunch", nested, 2);

	nv_next_kernel_ns(508000);
	scale<<<BLOCKS, 256, 0, s>>>(y, N);
	const void *k_y[] = {y};
	nv_kernel(truth, SCALE, k_y, 1, 508000);

	nv_next_kernel_ns(509000);
	NV_CHECK(cudaGraphLaunch(captured_exec, s));
	step[0].duration_ns = 509000;
	truth_graph_launch(truth, "cudaGraphLaunch", step, 3);
	NV_CHECK(cudaStreamSynchronize(s));
	printf("5 graphs, 9 graph launches after node and exec updates\n");

	NV_CHECK(cudaGraphExecDestroy(captured_exec));
	NV_CHECK(cudaGraphExecDestroy(built_exec));
	NV_CHECK(cudaGraphExecDestroy(copy_exec));
	NV_CHECK(cudaGraphExecDestroy(copies_exec));
	NV_CHECK(cudaGraphExecDestroy(parent_exec));
	cudaGraph_t graphs[] = {captured, built, other, copy, copies, parent};
	for (cudaGraph_t g : graphs)
		NV_CHECK(cudaGraphDestroy(g));
	cublasDestroy(handle);
	NV_CHECK(cudaStreamDestroy(s));
	float *tensors[] = {a, b, c, x, y, z, w, u, v};
	for (float *t : tensors)
		nv_free(truth, t);
	free(host);
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
