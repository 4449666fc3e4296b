/*
 * The CUDA 12 variant of simgpu (build/simgpu12/lib): a program linked
 * against it needs libcudart.so.12 and libcupti.so.12 (the version nodes
 * of those names), the runtime reports 12.8 and reaches the same simulated
 * driver, CUPTI attaches to it and writes kernel records. Ground truth:
 * the library names and the kernel this test launches.
 */
#include <cupti.h>
#include <link.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

static char kernel;
static int kernels_seen;

static int has_library(struct dl_phdr_info *info, size_t size, void *name)
{
	(void)size;
	const char *slash = strrchr(info->dlpi_name, '/');
	return strcmp(slash ? slash + 1 : info->dlpi_name, (const char *)name) == 0;
}

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max)
{
	*size = 1 << 16, *max = 0;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buffer,
			       size_t size, size_t valid)
{
	(void)c, (void)s, (void)size;
	CUpti_Activity *r = NULL;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
		    strcmp(((CUpti_ActivityKernel9 *)r)->name, "k12") == 0)
			kernels_seen++;
	free(buffer);
}

int main(void)
{
	simgpu_test_setup();
	CHECK(dl_iterate_phdr(has_library, "libcudart.so.12"));
	CHECK(dl_iterate_phdr(has_library, "libcupti.so.12"));
	CHECK(!dl_iterate_phdr(has_library, "libcudart.so.13"));
	int version = 0;
	CHECK_CUDA(cudaRuntimeGetVersion(&version));
	CHECK_EQ_U64(version, 12080);
	CHECK_CUDA(cudaDriverGetVersion(&version));
	CHECK_EQ_U64(version, 13000);
	CHECK(cuptiActivityRegisterCallbacks(requested, completed) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	simgpu_define_kernel(&kernel, "k12", 0, NULL);
	void *p;
	CHECK_CUDA(cudaMalloc(&p, 100));
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	CHECK_CUDA(cudaDeviceSynchronize());
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	CHECK_EQ_U64(kernels_seen, 1);
	CHECK(dl_iterate_phdr(has_library, "libcuda.so.1"));
	CHECK_CUDA(cudaFree(p));
	printf("test_driver_cuda12: ok\n");
	return 0;
}
