/*
 * Kernel declarations and launches: cudaFuncGetParamInfo offsets as the
 * CUDA ABI lays them out, cudaFuncGetName, redefinition, and the errors a
 * launch returns for bad handles, geometry, arguments and streams (values
 * from driver_types.h). Ground truth: layouts computed by hand below.
 */
#include <string.h>

#include "tests/simgpu/simgpu.h"
#include "tests/simgpu/simgpu_test.h"

/* The per-thread-stream entry point, as -default-stream per-thread calls it. */
extern cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
					 void **args, size_t shared, cudaStream_t s);
extern cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
					    const void *func, void **args);

static char k_layout, k_simple, k_undeclared;

int main(void)
{
	simgpu_test_setup();
	/* char, pointer, int, short, 16-byte struct, char[3], 12-byte struct */
	size_t sizes[] = { 1, 8, 4, 2, 16, 3, 12 };
	size_t offsets[] = { 0, 8, 16, 20, 24, 40, 44 };
	simgpu_define_kernel(&k_layout, "layout_kernel", 7, sizes);
	for (size_t i = 0; i < 7; i++) {
		size_t off = 99, size = 99;
		CHECK_CUDA(cudaFuncGetParamInfo(&k_layout, i, &off, &size));
		CHECK_EQ_U64(off, offsets[i]);
		CHECK_EQ_U64(size, sizes[i]);
	}
	size_t off, size;
	CHECK_CUDA_IS(cudaFuncGetParamInfo(&k_layout, 7, &off, &size), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaFuncGetParamInfo(&k_undeclared, 0, &off, &size),
		      cudaErrorInvalidDeviceFunction);

	const char *name = NULL;
	CHECK_CUDA(cudaFuncGetName(&name, &k_layout));
	CHECK(strcmp(name, "layout_kernel") == 0);
	CHECK_CUDA_IS(cudaFuncGetName(NULL, &k_layout), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaFuncGetName(&name, &k_undeclared), cudaErrorInvalidDeviceFunction);

	/* Redefinition replaces; the old name string stays valid. */
	size_t one = 8;
	simgpu_define_kernel(&k_simple, "first_name", 1, &one);
	const char *old_name;
	CHECK_CUDA(cudaFuncGetName(&old_name, &k_simple));
	simgpu_define_kernel(&k_simple, "second_name", 1, &one);
	CHECK_CUDA(cudaFuncGetName(&name, &k_simple));
	CHECK(strcmp(name, "second_name") == 0 && strcmp(old_name, "first_name") == 0);

	void *ptr = NULL;
	void *args[] = { &ptr };
	dim3 g1 = D3(1, 1, 1), b32 = D3(32, 1, 1);
	CHECK_CUDA(cudaLaunchKernel(&k_simple, g1, b32, args, 0, 0));
	CHECK_CUDA_IS(cudaLaunchKernel(&k_undeclared, g1, b32, args, 0, 0),
		      cudaErrorInvalidDeviceFunction);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, D3(0, 1, 1), b32, args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, g1, D3(1, 0, 1), args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, g1, D3(1025, 1, 1), args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, g1, D3(33, 33, 1), args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, g1, D3(1, 1, 65), args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, D3(1, 65536, 1), b32, args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA(cudaLaunchKernel(&k_simple, D3(2147483647u, 65535, 1), D3(1024, 1, 1),
				    args, 0, 0));
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, g1, b32, NULL, 0, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaLaunchKernel(&k_simple, g1, b32, args, 0, (cudaStream_t)&ptr),
		      cudaErrorInvalidResourceHandle);
	/* Launch errors are not sticky: the last one is reported once. */
	CHECK_CUDA_IS(cudaPeekAtLastError(), cudaErrorInvalidResourceHandle);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaGetLastError());
	CHECK_CUDA(cudaLaunchKernel(&k_simple, g1, b32, args, 0, 0));

	cudaLaunchConfig_t config;
	memset(&config, 0, sizeof(config));
	config.gridDim = D3(4, 1, 1);
	config.blockDim = D3(128, 1, 1);
	CHECK_CUDA(cudaLaunchKernelExC(&config, &k_simple, args));
	CHECK_CUDA_IS(cudaLaunchKernelExC(NULL, &k_simple, args), cudaErrorInvalidValue);
	config.blockDim = D3(2048, 1, 1);
	CHECK_CUDA_IS(cudaLaunchKernelExC_ptsz(&config, &k_simple, args),
		      cudaErrorInvalidConfiguration);
	cudaGetLastError();
	return 0;
}
