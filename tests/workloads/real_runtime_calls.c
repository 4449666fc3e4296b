/*
 * real_runtime_calls: calls the REAL CUDA 13 runtime, cuBLAS and cuDNN of the
 * toolkit make on a machine without a driver, and prints one `name result`
 * line per call (plus `version` lines). tests/e2e/test_real_libraries.sh
 * runs it untraced, preloaded and recorded: the lines must be identical, and
 * the trace must hold the failed calls with these results.
 *
 * Linked by SONAME (libcudart.so.13, libcublas.so.13, libcudnn.so.9), so
 * LD_LIBRARY_PATH picks the libraries. Must never print an address (they
 * differ between runs) nor depend on the tracer being there.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

static void report(const char *call, int result)
{
	printf("%s %d\n", call, result);
	fflush(stdout);
}

/* A host function standing in for a kernel: the runtime fails before using it. */
static void not_a_kernel(void)
{
}

static void runtime_calls(void)
{
	int version = 0;
	report("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&version));
	printf("version cudart %d\n", version);

	void *device = NULL;
	report("cudaMalloc", cudaMalloc(&device, 1 << 20));
	report("cudaMallocManaged", cudaMallocManaged(&device, 4096, cudaMemAttachGlobal));
	report("cudaMallocAsync", cudaMallocAsync(&device, 8192, 0));
	void *host = NULL;
	report("cudaMallocHost", cudaMallocHost(&host, 4096));

	char buffer[64] = {0};
	report("cudaMemcpy", cudaMemcpy(buffer + 32, buffer, 16, cudaMemcpyHostToHost));
	report("cudaMemset", cudaMemset(buffer, 0, sizeof(buffer)));
	/* the program's own memory pinned and unpinned (PyTorch's pin_memory of a
	 * tensor it already has) */
	report("cudaHostRegister", cudaHostRegister(buffer, sizeof(buffer), cudaHostRegisterDefault));
	report("cudaHostUnregister", cudaHostUnregister(buffer));

	dim3 grid = {1, 1, 1}, block = {32, 1, 1};
	void *args[1] = {&device};
	report("cudaLaunchKernel",
	       cudaLaunchKernel((const void *)not_a_kernel, grid, block, args, 0, 0));

	/* How PyTorch reaches the driver for expandable segments. */
	void *entry = NULL;
	enum cudaDriverEntryPointQueryResult status;
	report("cudaGetDriverEntryPointByVersion",
	       cudaGetDriverEntryPointByVersion("cuMemAlloc", &entry, 13000,
						cudaEnableDefault, &status));
	report("cudaFree", cudaFree(NULL));
	report("cudaGetLastError", cudaGetLastError());
}

static void cublas_calls(void)
{
	cublasHandle_t handle = NULL;
	cublasStatus_t created = cublasCreate(&handle);
	report("cublasCreate_v2", created);
	/* With no handle every GEMM answers CUBLAS_STATUS_NOT_INITIALIZED. */
	const float alpha = 1.0f, beta = 0.0f;
	report("cublasSgemm_v2", cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4,
					      &alpha, NULL, 4, NULL, 4, &beta, NULL, 4));
	report("cublasSetStream_v2", cublasSetStream(NULL, 0));
	if (created == CUBLAS_STATUS_SUCCESS)
		report("cublasDestroy_v2", cublasDestroy(handle));
}

static void cudnn_calls(void)
{
	printf("version cudnn %zu\n", cudnnGetVersion());
	cudnnHandle_t handle = NULL;
	cudnnStatus_t created = cudnnCreate(&handle);
	report("cudnnCreate", created);
	const float alpha = 1.0f, beta = 0.0f;
	report("cudnnConvolutionForward",
	       cudnnConvolutionForward(NULL, &alpha, NULL, NULL, NULL, NULL, NULL,
				       CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
				       NULL, 0, &beta, NULL, NULL));
	report("cudnnAddTensor", cudnnAddTensor(NULL, &alpha, NULL, NULL, &beta, NULL, NULL));
	if (created == CUDNN_STATUS_SUCCESS)
		report("cudnnDestroy", cudnnDestroy(handle));
}

/* Without a driver there is no libcuda.so.1 to load: say so, identically traced or not. */
static void driver_presence(void)
{
	void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	printf("dlopen libcuda.so.1 %s\n", driver ? "loaded" : "absent");
	if (driver)
		dlclose(driver);
}

int main(int argc, char **argv)
{
	if (argc != 1) {
		fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
		return 2;
	}
	runtime_calls();
	cublas_calls();
	cudnn_calls();
	driver_presence();
	return 0;
}
