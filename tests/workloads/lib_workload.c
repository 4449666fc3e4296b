/*
 * lib_workload: helpers of the cuDNN/cuBLAS workloads (see lib_workload.h).
 * Must never swallow a failed status: a workload that goes wrong exits 1.
 */
#include "tests/workloads/lib_workload.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

void wl_check_status(int status, int success, const char *library,
		     const char *call, const char *file, int line)
{
	if (status == success)
		return;
	fprintf(stderr, "%s:%d: %s failed: %s status %d\n", file, line, call, library, status);
	exit(1);
}

struct wl_dims wl_shape(const char *dtype, int rank, const int64_t *dims)
{
	struct wl_dims shape;
	size_t used = (size_t)snprintf(shape.text, sizeof(shape.text), "%s[", dtype);
	for (int i = 0; i < rank && used < sizeof(shape.text); i++)
		used += (size_t)snprintf(shape.text + used, sizeof(shape.text) - used,
					 "%s%" PRId64, i ? ", " : "", dims[i]);
	if (used < sizeof(shape.text))
		snprintf(shape.text + used, sizeof(shape.text) - used, "]");
	return shape;
}

struct wl_dims wl_shape4(const char *dtype, int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t dims[4] = {a, b, c, d};
	return wl_shape(dtype, 4, dims);
}

struct wl_dims wl_shape2(const char *dtype, int64_t rows, int64_t cols)
{
	int64_t dims[2] = {rows, cols};
	return wl_shape(dtype, 2, dims);
}

void wl_fill_device(struct truth *truth, void *dst, const void *src, size_t bytes,
		    cudaStream_t stream)
{
	if (src)
		WL_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
	else
		WL_CHECK(cudaMemsetAsync(dst, 0, bytes, stream));
	truth_host_write(truth, dst);
}

uint64_t wl_next_library_kernel(void)
{
	static unsigned calls;
	uint64_t duration_ns = 100000 + 1000 * (uint64_t)((calls++ * 11) % 29);
	simgpu_next_kernel_ns(duration_ns);
	return duration_ns;
}

void wl_library_kernel(struct truth *truth, const char *api, const char *kernel_name,
		       uint64_t duration_ns, const struct truth_arg *args, size_t n_args)
{
	truth_library_call(truth, api, &kernel_name, &duration_ns, 1, args, n_args);
}
