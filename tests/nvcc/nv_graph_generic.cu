// nv_graph_generic: kernels, copies and sets that enter CUDA graphs through
// the generic node API, with ground truth for each graph kernel's tensors
// at each launch (the model: nv_graph_updates.cu, whose typed calls these
// are the generic twins of):
//  1. cudaGraphAddNode: a one-node graph, scale(z); launched;
//  2. cudaGraphNodeSetParams re-points the graph's node to x: the exec
//     instantiated before keeps z;
//  3. cudaGraphExecNodeSetParams re-points the exec's node to y;
//  4. a second exec of the graph (its node on x since 2);
//  5. cudaGraphAddNode of a memset node (into v) and a memcpy node (x into
//     u), each followed by a generic kernel node scale on what it wrote:
//     the nodes write v and u at every launch, so the kernels read them;
//     then cudaGraphExecNodeSetParams re-points the exec's memcpy to write
//     w, and its kernel after it to scale(w);
//  6. the driver's own generic calls, taken with
//     cudaGetDriverEntryPointByVersion as a library would: cuGraphAddNode
//     (CUDA 12.2's, version 12020) adds scale(c), cuGraphAddNode_v2 (12030)
//     scale(y) after it, each with the kernel's CUfunction
//     (cudaGetFuncBySymbol); cuGraphNodeSetParams re-points the first to
//     z before instantiation, cuGraphExecNodeSetParams the exec's second to
//     x after it.
// One stream, so GPU order is submission order; simgpu_next_kernel_ns
// times the first kernel of each launch, the others take the cost model,
// 2000 ns + 10 ns x blocks.
//
//   nv_graph_generic TRUTH_DIR
#include "tests/nvcc/nv_graph_common.h"

// scale(x) as a generic kernel node, and as the driver's.
static struct cudaGraphNodeParams scale_node(node_args *a, float *x)
{
	return generic_kernel_params((void *)scale, a, x, NULL);
}

static CUgraphNodeParams driver_scale_node(node_args *a, float *x, CUfunction f)
{
	return driver_kernel_params(f, a, x, NULL);
}

// A 1-D device-to-device copy of N floats.
static struct cudaGraphNodeParams copy_node(float *dst, const float *src)
{
	struct cudaGraphNodeParams p = {};
	p.type = cudaGraphNodeTypeMemcpy;
	p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr((void *)src, N * sizeof(float), N, 1);
	p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(dst, N * sizeof(float), N, 1);
	p.memcpy.copyParams.extent = make_cudaExtent(N * sizeof(float), 1, 1);
	p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
	return p;
}

static void launch_two(struct truth *truth, cudaGraphExec_t exec, cudaStream_t s,
		       const float *first, const float *second, uint64_t ns)
{
	nv_next_kernel_ns(ns);
	NV_CHECK(cudaGraphLaunch(exec, s));
	const void *k_first[] = {first}, *k_second[] = {second};
	const struct truth_graph_kernel kernels[] = {
		{SCALE, ns, k_first, 1, NULL, 0},
		{SCALE, MODELLED_NS, k_second, 1, NULL, 0},
	};
	truth_graph_launch(truth, "cudaGraphLaunch", kernels, 2);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph_generic TRUTH_DIR\n");
		return 2;
	}
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	float *c = nv_alloc<float>(truth, N, "c", 1);
	float *x = nv_alloc<float>(truth, N, "x", 1);
	float *y = nv_alloc<float>(truth, N, "y", 1);
	float *z = nv_alloc<float>(truth, N, "z", 1);
	float *w = nv_alloc<float>(truth, N, "w", 1);
	float *u = nv_alloc<float>(truth, N, "u", 1);
	float *v = nv_alloc<float>(truth, N, "v", 1);
	float *host = (float *)calloc(N, sizeof(float));
	if (!host)
		return 1;
	nv_upload(truth, x, host, sizeof(float) * N);
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// 1. cudaGraphAddNode: scale(z)
	cudaGraph_t one;
	NV_CHECK(cudaGraphCreate(&one, 0));
	node_args args;
	struct cudaGraphNodeParams p = scale_node(&args, z);
	cudaGraphNode_t node;
	NV_CHECK(cudaGraphAddNode(&node, one, NULL, NULL, 0, &p));
	cudaGraphExec_t one_exec;
	NV_CHECK(cudaGraphInstantiate(&one_exec, one, 0));
	launch_scale_graph(truth, one_exec, s, z, 601000);

	// 2. the graph's node now on x: the exec still runs scale(z)
	p = scale_node(&args, x);
	NV_CHECK(cudaGraphNodeSetParams(node, &p));
	launch_scale_graph(truth, one_exec, s, z, 602000);

	// 3. the exec's node on y
	p = scale_node(&args, y);
	NV_CHECK(cudaGraphExecNodeSetParams(one_exec, node, &p));
	launch_scale_graph(truth, one_exec, s, y, 603000);

	// 4. a second exec of the graph: its node on x
	cudaGraphExec_t second_exec;
	NV_CHECK(cudaGraphInstantiate(&second_exec, one, 0));
	launch_scale_graph(truth, second_exec, s, x, 604000);

	// 5. memset(v) -> scale(v), memcpy(x -> u) -> scale(u), all generic
	cudaGraph_t copies;
	NV_CHECK(cudaGraphCreate(&copies, 0));
	struct cudaGraphNodeParams set = {};
	set.type = cudaGraphNodeTypeMemset;
	set.memset.dst = v;
	set.memset.value = 0;
	set.memset.elementSize = 4;
	set.memset.width = N;
	set.memset.height = 1;
	cudaGraphNode_t set_node, copy, scale_v, scale_u;
	NV_CHECK(cudaGraphAddNode(&set_node, copies, NULL, NULL, 0, &set));
	struct cudaGraphNodeParams copy_params = copy_node(u, x);
	NV_CHECK(cudaGraphAddNode(&copy, copies, NULL, NULL, 0, &copy_params));
	node_args args_v, args_u;
	p = scale_node(&args_v, v);
	NV_CHECK(cudaGraphAddNode(&scale_v, copies, &set_node, NULL, 1, &p));
	p = scale_node(&args_u, u);
	NV_CHECK(cudaGraphAddNode(&scale_u, copies, &copy, NULL, 1, &p));
	cudaGraphExec_t copies_exec;
	NV_CHECK(cudaGraphInstantiate(&copies_exec, copies, 0));
	truth_host_write(truth, v);
	truth_host_write(truth, u);
	launch_two(truth, copies_exec, s, v, u, 605000);
	// the exec's copy now writes w, and the kernel after it scales w
	copy_params = copy_node(w, x);
	NV_CHECK(cudaGraphExecNodeSetParams(copies_exec, copy, &copy_params));
	p = scale_node(&args_u, w);
	NV_CHECK(cudaGraphExecNodeSetParams(copies_exec, scale_u, &p));
	truth_host_write(truth, w);
	launch_two(truth, copies_exec, s, v, w, 606000);

	// 6. the driver's generic calls
	PFN_cuGraphAddNode_v12020 add_node_12020 =
		(PFN_cuGraphAddNode_v12020)driver_entry("cuGraphAddNode", 12020);
	PFN_cuGraphAddNode_v12030 add_node_v2 =
		(PFN_cuGraphAddNode_v12030)driver_entry("cuGraphAddNode", 12030);
	PFN_cuGraphNodeSetParams_v12020 node_set =
		(PFN_cuGraphNodeSetParams_v12020)driver_entry("cuGraphNodeSetParams", 12020);
	PFN_cuGraphExecNodeSetParams_v12020 exec_node_set =
		(PFN_cuGraphExecNodeSetParams_v12020)driver_entry("cuGraphExecNodeSetParams",
								   12020);
	cudaFunction_t function;
	NV_CHECK(cudaGetFuncBySymbol(&function, (const void *)scale));
	CUfunction f = (CUfunction)function;
	cudaGraph_t driven;
	NV_CHECK(cudaGraphCreate(&driven, 0));
	node_args args_first, args_second;
	CUgraphNodeParams d = driver_scale_node(&args_first, c, f);
	CUgraphNode first, second;
	cu_check(add_node_12020(&first, driven, NULL, 0, &d), "cuGraphAddNode");
	d = driver_scale_node(&args_second, y, f);
	cu_check(add_node_v2(&second, driven, &first, NULL, 1, &d), "cuGraphAddNode_v2");
	d = driver_scale_node(&args_first, z, f);
	cu_check(node_set(first, &d), "cuGraphNodeSetParams");
	cudaGraphExec_t driven_exec;
	NV_CHECK(cudaGraphInstantiate(&driven_exec, driven, 0));
	launch_two(truth, driven_exec, s, z, y, 607000);
	d = driver_scale_node(&args_second, x, f);
	cu_check(exec_node_set(driven_exec, second, &d), "cuGraphExecNodeSetParams");
	launch_two(truth, driven_exec, s, z, x, 608000);

	nv_next_kernel_ns(609000);
	scale<<<BLOCKS, 256, 0, s>>>(c, N);
	const void *k_c[] = {c};
	nv_kernel(truth, SCALE, k_c, 1, 609000);
	NV_CHECK(cudaStreamSynchronize(s));
	printf("3 graphs made with the generic node API, 8 graph launches after node and exec "
	       "parameter changes\n");

	cudaGraphExec_t execs[] = {one_exec, second_exec, copies_exec, driven_exec};
	for (cudaGraphExec_t e : execs)
		NV_CHECK(cudaGraphExecDestroy(e));
	cudaGraph_t graphs[] = {one, copies, driven};
	for (cudaGraph_t g : graphs)
		NV_CHECK(cudaGraphDestroy(g));
	NV_CHECK(cudaStreamDestroy(s));
	float *tensors[] = {c, x, y, z, w, u, v};
	for (float *t : tensors)
		nv_free(truth, t);
	free(host);
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
