// nv_graph: a CUDA graph captured from <<<>>> launches on a stream
// (cudaStreamBeginCapture / EndCapture), instantiated and launched twice
// between ordinary <<<>>> launches. The truth lists each graph kernel's
// tensors (step_a: x; step_b: x, y), which the trace knows from the
// launches the capture turned into nodes; simgpu_next_kernel_ns times the
// first kernel of a graph launch, the others take the cost model, 2000 ns
// + 10 ns x blocks.
//
//   nv_graph TRUTH_DIR
#include "tests/nvcc/nv_common.h"

__global__ void prepare(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 1.0f;
}

__global__ void step_a(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

__global__ void step_b(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] + 1.0f;
}

enum { N = 4096, B_BLOCKS = N / 128 };

static void launch_graph(struct truth *truth, cudaGraphExec_t exec, cudaStream_t s, uint64_t first,
			 const float *x, const float *y)
{
	const void *a_ptrs[] = {x}, *b_ptrs[] = {x, y};
	const struct truth_graph_kernel kernels[] = {
		{"_Z6step_aPfi", first, a_ptrs, 1, NULL, 0},
		{"_Z6step_bPKfPfi", 2000 + 10 * (uint64_t)B_BLOCKS, b_ptrs, 2, NULL, 0},
	};
	nv_next_kernel_ns(first);
	NV_CHECK(cudaGraphLaunch(exec, s));
	truth_graph_launch(truth, "cudaGraphLaunch", kernels, 2);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph TRUTH_DIR\n");
		return 2;
	}
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	float *x = nv_alloc<float>(truth, N, "x", 1);
	float *y = nv_alloc<float>(truth, N, "y", 1);
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	cudaGraph_t graph;
	NV_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	step_a<<<N / 256, 256, 0, s>>>(x, N);
	step_b<<<B_BLOCKS, 128, 0, s>>>(x, y, N);
	NV_CHECK(cudaStreamEndCapture(s, &graph));
	cudaGraphExec_t exec;
	NV_CHECK(cudaGraphInstantiate(&exec, graph, 0));

	nv_next_kernel_ns(301000);
	prepare<<<N / 256, 256, 0, s>>>(x, N);
	const void *k[] = {x};
	nv_kernel(truth, "_Z7preparePfi", k, 1, 301000);
	launch_graph(truth, exec, s, 302000, x, y);
	nv_next_kernel_ns(303000);
	prepare<<<N / 256, 256, 0, s>>>(y, N);
	const void *k2[] = {y};
	nv_kernel(truth, "_Z7preparePfi", k2, 1, 303000);
	launch_graph(truth, exec, s, 304000, x, y);
	NV_CHECK(cudaStreamSynchronize(s));
	printf("graph of 2 captured kernels launched twice\n");

	NV_CHECK(cudaGraphExecDestroy(exec));
	NV_CHECK(cudaGraphDestroy(graph));
	NV_CHECK(cudaStreamDestroy(s));
	nv_free(truth, x);
	nv_free(truth, y);
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
