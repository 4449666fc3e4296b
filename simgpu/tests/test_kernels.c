/*
 * Kernel declarations and launches: cudaFuncGetParamInfo offsets as the
 * CUDA ABI lays them out, cudaFuncGetName, redefinition, and the errors a
 * launch returns for bad handles, geometry, arguments and streams (values
 * from driver_types.h); nvcc 13's launch path: cudaKernel_t handles from
 * cudaGetKernel / __cudaGetKernel, accepted by cudaFuncGet* and
 * cudaLaunchKernel, launched by __cudaLaunchKernel[_ptsz] with the same
 * checks and CUPTI API records of cbids 505 / 506. Ground truth: layouts
 * computed by hand below.
 */
#include <cupti.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

#define CHECK_CUPTI_OK(call) CHECK((call) == CUPTI_SUCCESS)

/* The per-thread-stream entry point, as -default-stream per-thread calls it. */
extern cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
					 void **args, size_t shared, cudaStream_t s);
extern cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
					    const void *func, void **args);

/* What nvcc 13's generated code calls (crt/device_functions.h, C++ only there). */
extern cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func);
extern cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
				      void **args, size_t sharedMem, cudaStream_t stream);
extern cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
					   void **args, size_t sharedMem, cudaStream_t stream);

static char k_layout, k_simple, k_undeclared;

/* What CUPTI delivered: runtime API cbids and kernel names, in order. */
static unsigned api_cbids[64], n_api;
static const char *kernel_names[64];
static unsigned n_kernels;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*size = 64 * 1024;
	*max_records = 0;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
				      size_t size, size_t valid)
{
	CUpti_Activity *r = NULL;
	(void)ctx, (void)stream, (void)size;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
		if (r->kind == CUPTI_ACTIVITY_KIND_RUNTIME && n_api < 64)
			api_cbids[n_api++] = ((CUpti_ActivityAPI *)r)->cbid;
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && n_kernels < 64)
			kernel_names[n_kernels++] = ((CUpti_ActivityKernel10 *)r)->name;
	}
	free(buffer);
}

/*
 * The launch code nvcc 13 generates for kernel<<<grid, block, shmem, s>>>:
 * __cudaGetKernel once, then __cudaLaunchKernel with the handle.
 */
static void nvcc13_launches(void)
{
	size_t sizes[] = { 8, 4 };
	void *ptr = NULL;
	int n = 3;
	void *args[] = { &ptr, &n };
	dim3 g1 = D3(1, 1, 1), b32 = D3(32, 1, 1);
	static char k_handled;
	cudaKernel_t handle = NULL, again = NULL, undeclared = NULL;

	/* API records chosen per function must be chosen before the first
	 * CUDA call (cuInit): after it they change nothing, as on a real GPU
	 * (simgpu/cupti/cupti_activity.c). This runs first in main for that. */
	CHECK_CUPTI_OK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
	CHECK_CUPTI_OK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
	CHECK_CUPTI_OK(cuptiActivityEnableRuntimeApi(
		CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, 1));
	CHECK_CUPTI_OK(cuptiActivityEnableRuntimeApi(
		CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000, 1));
	CHECK_CUPTI_OK(cuptiActivityEnableRuntimeApi(
		CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1));

	simgpu_define_kernel(&k_handled, "handled_kernel", 2, sizes);
	CHECK_CUDA(__cudaGetKernel(&handle, &k_handled));
	CHECK(handle != NULL && (const void *)handle != (const void *)&k_handled);
	CHECK_CUDA(cudaGetKernel(&again, &k_handled));
	CHECK(again == handle);
	CHECK_CUDA_IS(__cudaGetKernel(&undeclared, &k_undeclared),
		      cudaErrorInvalidDeviceFunction);
	CHECK(undeclared == NULL);
	CHECK_CUDA_IS(__cudaGetKernel(NULL, &k_handled), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidValue);

	/* The handle cast to void * names the same kernel (\note_cudaKernel_t). */
	const char *name = NULL;
	CHECK_CUDA(cudaFuncGetName(&name, (const void *)handle));
	CHECK(strcmp(name, "handled_kernel") == 0);
	size_t off = 99, size = 99;
	CHECK_CUDA(cudaFuncGetParamInfo((const void *)handle, 1, &off, &size));
	CHECK_EQ_U64(off, 8);
	CHECK_EQ_U64(size, 4);
	CHECK_CUDA_IS(cudaFuncGetParamInfo((const void *)handle, 2, &off, &size),
		      cudaErrorInvalidValue);

	/* Redefinition keeps the handle valid and changes what it names. */
	simgpu_define_kernel(&k_handled, "handled_kernel_v2", 2, sizes);
	CHECK_CUDA(cudaGetKernel(&again, &k_handled));
	CHECK(again == handle);
	CHECK_CUDA(cudaFuncGetName(&name, (const void *)handle));
	CHECK(strcmp(name, "handled_kernel_v2") == 0);

	CHECK_CUDA(__cudaLaunchKernel(handle, g1, b32, args, 0, 0));
	CHECK_CUDA(__cudaLaunchKernel_ptsz(handle, D3(2, 1, 1), b32, args, 16, 0));
	CHECK_CUDA(cudaLaunchKernel((const void *)handle, g1, b32, args, 0, 0));
	/* The same checks as cudaLaunchKernel; failures get no records. */
	CHECK_CUDA_IS(__cudaLaunchKernel((cudaKernel_t)(void *)&k_handled, g1, b32, args, 0, 0),
		      cudaErrorInvalidDeviceFunction);
	CHECK_CUDA_IS(__cudaLaunchKernel(NULL, g1, b32, args, 0, 0),
		      cudaErrorInvalidDeviceFunction);
	CHECK_CUDA_IS(__cudaLaunchKernel(handle, D3(0, 1, 1), b32, args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(__cudaLaunchKernel_ptsz(handle, g1, D3(2048, 1, 1), args, 0, 0),
		      cudaErrorInvalidConfiguration);
	CHECK_CUDA_IS(__cudaLaunchKernel(handle, g1, b32, NULL, 0, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(__cudaLaunchKernel(handle, g1, b32, args, 1 << 20, 0),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(__cudaLaunchKernel_ptsz(handle, g1, b32, args, 0, (cudaStream_t)&ptr),
		      cudaErrorInvalidResourceHandle);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaGetLastError());

	CHECK_CUPTI_OK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
	CHECK_EQ_U64(n_api, 3);
	CHECK_EQ_U64(api_cbids[0], 505);
	CHECK_EQ_U64(api_cbids[1], 506);
	CHECK_EQ_U64(api_cbids[2], CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
	CHECK_EQ_U64(n_kernels, 3);
	for (unsigned i = 0; i < n_kernels; i++)
		CHECK(strcmp(kernel_names[i], "handled_kernel_v2") == 0);
	/* No records for main's later launches (the RUNTIME kind resets every
	 * function's switch, even after cuInit). */
	CHECK_CUPTI_OK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
	CHECK_CUPTI_OK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME));
}

int main(void)
{
	simgpu_test_setup();
	nvcc13_launches(); /* first: it chooses API records before cuInit */
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
