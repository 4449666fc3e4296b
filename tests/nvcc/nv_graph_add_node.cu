// nv_graph_add_node: a kernel node made with the generic cudaGraphAddNode.
// fill(x) and fill(y) run as ordinary launches; then a graph made with
// cudaGraphAddNode runs fill(x); then fill(y) and fill(x) again: x must
// never be called idle (or swappable) across the graph kernel (see
// tests/e2e/test_graph_add_node.sh for what the trace knows of it
// on simgpu and on a real runtime). Conditional nodes are not
// simulated: cudaGraphConditionalHandleCreate and a conditional
// cudaGraphAddNode answer cudaErrorNotSupported on simgpu (printed; a real
// GPU answers cudaSuccess). Kernel order in GPU order (one stream):
//   0 fill(x)  1 fill(y)  2 graph: fill(x)  3 fill(y)  4 fill(x)
//
//   nv_graph_add_node
#include "tests/nvcc/nv_common.h"

__global__ void fill(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 1.0f;
}

enum { N = 4096, BLOCKS = N / 256 };

int main(void)
{
	float *x, *y;
	NV_CHECK(cudaMalloc((void **)&x, N * sizeof(float)));
	NV_CHECK(cudaMalloc((void **)&y, N * sizeof(float)));
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	fill<<<BLOCKS, 256, 0, s>>>(x, N);
	fill<<<BLOCKS, 256, 0, s>>>(y, N);

	cudaGraph_t g;
	NV_CHECK(cudaGraphCreate(&g, 0));
	int n = N;
	void *args[] = {&x, &n};
	struct cudaGraphNodeParams p = {};
	p.type = cudaGraphNodeTypeKernel;
	p.kernel.func = (void *)fill;
	p.kernel.gridDim = dim3(BLOCKS, 1, 1);
	p.kernel.blockDim = dim3(256, 1, 1);
	p.kernel.kernelParams = args;
	cudaGraphNode_t node;
	NV_CHECK(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p));
	cudaGraphExec_t exec;
	NV_CHECK(cudaGraphInstantiate(&exec, g, 0));
	NV_CHECK(cudaGraphLaunch(exec, s));
	fill<<<BLOCKS, 256, 0, s>>>(y, N);
	fill<<<BLOCKS, 256, 0, s>>>(x, N);
	NV_CHECK(cudaStreamSynchronize(s));

	cudaGraphConditionalHandle handle = 0;
	cudaError_t made = cudaGraphConditionalHandleCreate(&handle, g, 0, 0);
	struct cudaGraphNodeParams c = {};
	c.type = cudaGraphNodeTypeConditional;
	c.conditional.handle = handle;
	c.conditional.type = cudaGraphCondTypeIf;
	c.conditional.size = 1;
	cudaGraphNode_t cond;
	cudaError_t added = cudaGraphAddNode(&cond, g, NULL, NULL, 0, &c);
	printf("conditional handle: %s, conditional node: %s\n", cudaGetErrorName(made),
	       cudaGetErrorName(added));
	(void)cudaGetLastError();

	NV_CHECK(cudaGraphExecDestroy(exec));
	NV_CHECK(cudaGraphDestroy(g));
	NV_CHECK(cudaStreamDestroy(s));
	NV_CHECK(cudaFree(x));
	NV_CHECK(cudaFree(y));
	return 0;
}
