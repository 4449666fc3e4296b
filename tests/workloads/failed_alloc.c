/*
 * failed_alloc: asks for more device memory than the GPU has (run it with
 * SIMGPU_MEM_BYTES well below FAILED_ALLOC_BYTES), checks the call fails with
 * cudaErrorMemoryAllocation, and carries on: a failed allocation must create
 * no tensor and shift no tensor id.
 *
 *   failed_alloc TRUTH_DIR   writes the ground truth (truth.h) and
 *                            failed.csv: requested_bytes,result
 *
 * Its stdout must not depend on whether it is traced.
 */
#include <stdio.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

#define FAILED_ALLOC_BYTES (1ull << 40) /* 1 TiB: more than any GPU here */

static const char fill_kernel, scale_kernel;

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: failed_alloc TRUTH_DIR\n");
		return 2;
	}
	struct truth *truth = truth_new();
	size_t sizes[2] = {sizeof(void *), sizeof(void *)};
	simgpu_define_kernel(&fill_kernel, "failed_alloc_fill", 1, sizes);
	simgpu_define_kernel(&scale_kernel, "failed_alloc_scale", 2, sizes);

	void *before = wl_alloc(truth, 1 << 20, "before", 0);
	void *args_before[1] = {&before};
	const void *ptrs_before[1] = {before};
	wl_launch(truth, &fill_kernel, "failed_alloc_fill", args_before, 0, 200000,
		  ptrs_before, 1);

	void *huge = NULL;
	cudaError_t result = cudaMalloc(&huge, FAILED_ALLOC_BYTES);
	if (result != cudaErrorMemoryAllocation) {
		fprintf(stderr, "failed_alloc: cudaMalloc(1 TiB) gave %s, not cudaErrorMemoryAllocation\n",
			cudaGetErrorName(result));
		return 1;
	}
	/* Reset the last-error state, as a framework handling the failure does. */
	(void)cudaGetLastError();

	void *after = wl_alloc(truth, 2 << 20, "after", 0);
	void *args_both[2] = {&after, &before};
	const void *ptrs_both[2] = {after, before};
	wl_launch(truth, &scale_kernel, "failed_alloc_scale", args_both, 0, 300000,
		  ptrs_both, 2);
	/* Both tensors are local: "before" dies before the last kernel, "after"
	 * is born after the first. */
	wl_free(truth, before);
	void *args_after[1] = {&after};
	const void *ptrs_after[1] = {after};
	wl_launch(truth, &fill_kernel, "failed_alloc_fill", args_after, 0, 400000,
		  ptrs_after, 1);
	WL_CHECK(cudaDeviceSynchronize());
	wl_free(truth, after);

	wl_write_truth(truth, argv[1]);
	char path[4096];
	snprintf(path, sizeof(path), "%s/failed.csv", argv[1]);
	FILE *failed = fopen(path, "w");
	if (!failed || fprintf(failed, "requested_bytes,result\n%llu,%d\n",
			       FAILED_ALLOC_BYTES, (int)result) < 0 || fclose(failed) != 0) {
		perror(path);
		return 1;
	}
	truth_delete(truth);
	printf("failed_alloc: 1 TiB allocation refused as expected; 2 tensors, 3 kernels\n");
	return 0;
}
