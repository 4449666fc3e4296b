/*
 * workload: helpers shared by the workloads (see workload.h). Must never
 * swallow a CUDA error: a workload that goes wrong exits non-zero.
 */
#include "tests/workloads/workload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "simgpu/simgpu.h"

void wl_check(cudaError_t result, const char *call, const char *file, int line)
{
	if (result == cudaSuccess)
		return;
	fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, call,
		cudaGetErrorName(result), (int)result);
	exit(1);
}

void wl_tag(const void *device_ptr, const char *name)
{
	typedef void tag_fn(const void *, const char *);
	static tag_fn *tag;
	static int looked_up;
	if (!looked_up) {
		/* Casting dlsym's void * to a function pointer is what POSIX requires. */
		*(void **)&tag = dlsym(RTLD_DEFAULT, "dnntrace_tag");
		looked_up = 1;
	}
	if (tag)
		tag(device_ptr, name);
}

void *wl_alloc(struct truth *truth, size_t bytes, const char *name, int global)
{
	void *ptr = NULL;
	WL_CHECK(cudaMalloc(&ptr, bytes));
	if (truth)
		truth_alloc(truth, ptr, bytes, name, global);
	wl_tag(ptr, name);
	return ptr;
}

void wl_free(struct truth *truth, void *device_ptr)
{
	WL_CHECK(cudaFree(device_ptr));
	if (truth)
		truth_free(truth, device_ptr);
}

void wl_launch(struct truth *truth, const void *func, const char *name,
	       void **args, cudaStream_t stream, uint64_t duration_ns,
	       const void *const *tensor_ptrs, size_t n_tensor_ptrs)
{
	dim3 grid = {1, 1, 1}, block = {128, 1, 1};
	simgpu_next_kernel_ns(duration_ns);
	WL_CHECK(cudaLaunchKernel(func, grid, block, args, 0, stream));
	if (truth)
		truth_kernel(truth, name, tensor_ptrs, n_tensor_ptrs, duration_ns);
}

void wl_write_truth(const struct truth *truth, const char *dir)
{
	if (truth_write(truth, dir) != 0)
		exit(1);
}
