/*
 * A graph kernel node made with cudaGraphAddNode by a program on a CUDA 12
 * runtime (simgpu's libcudart.so.12, whose cudaRuntimeGetVersion says
 * 12080), for tests/interceptors/test_graph_add_node_cuda12.sh: the
 * tracer must not read a CUDA 12 runtime's cudaGraphAddNode as CUDA 13's
 * (interceptors/runtime/graphs.c). The kernel, kernel_x (one pointer), is
 * declared to simgpu; its node points at x, a cudaMalloc'd tensor. Prints
 * one line per call with its result, and must never need a GPU of its own.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

typedef void (*define_kernel_fn)(const void *, const char *, size_t, const size_t *);

static void kernel_x(void) {}

int main(void)
{
	define_kernel_fn define = (define_kernel_fn)dlsym(RTLD_DEFAULT, "simgpu_define_kernel");
	if (!define) {
		fprintf(stderr, "graph_add_node12: needs the simulated runtime (simgpu)\n");
		return 2;
	}
	size_t one_pointer[1] = {8};
	define((const void *)kernel_x, "kernel_x", 1, one_pointer);
	void *x = NULL;
	printf("cudaMalloc %d\n", (int)cudaMalloc(&x, 4096));
	cudaGraph_t g;
	printf("cudaGraphCreate %d\n", (int)cudaGraphCreate(&g, 0));
	void *args[] = {&x};
	struct cudaGraphNodeParams p = {0};
	p.type = cudaGraphNodeTypeKernel;
	p.kernel.func = (void *)kernel_x;
	p.kernel.gridDim = (dim3){4, 1, 1};
	p.kernel.blockDim = (dim3){64, 1, 1};
	p.kernel.kernelParams = args;
	cudaGraphNode_t node;
	printf("cudaGraphAddNode %d\n", (int)cudaGraphAddNode(&node, g, NULL, NULL, 0, &p));
	cudaGraphExec_t exec;
	printf("cudaGraphInstantiate %d\n", (int)cudaGraphInstantiate(&exec, g, 0));
	printf("cudaGraphLaunch %d\n", (int)cudaGraphLaunch(exec, 0));
	printf("cudaDeviceSynchronize %d\n", (int)cudaDeviceSynchronize());
	printf("cudaGraphExecDestroy %d\n", (int)cudaGraphExecDestroy(exec));
	printf("cudaGraphDestroy %d\n", (int)cudaGraphDestroy(g));
	printf("cudaFree %d\n", (int)cudaFree(x));
	return 0;
}
