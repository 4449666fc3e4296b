/*
 * lib_workload: what the workloads that call cuDNN and cuBLAS share: status
 * checks for both libraries, the G10 shape text of a tensor argument, host
 * writes kept in the ground truth, and "the next library call launches one
 * kernel of this name for exactly this long" recorded with the call's
 * arguments and their roles. The kernel names come from the simulated
 * libraries' documented contracts (simgpu/cudnn/README.md,
 * simgpu/cublas/README.md). Must never decide a role or a shape on a
 * workload's behalf: each workload states them for every call it makes.
 */
#ifndef LIB_WORKLOAD_H
#define LIB_WORKLOAD_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/workloads/truth.h"

#define WL_CUDNN(call) wl_check_status((int)(call), 0, "cuDNN", #call, __FILE__, __LINE__)
#define WL_CUBLAS(call) wl_check_status((int)(call), 0, "cuBLAS", #call, __FILE__, __LINE__)

void wl_check_status(int status, int success, const char *library,
		     const char *call, const char *file, int line);

/* Shape text as kernels.config prints it: "f32[8, 3, 8, 8]". */
struct wl_dims {
	char text[96];
};

struct wl_dims wl_shape(const char *dtype, int rank, const int64_t *dims);
struct wl_dims wl_shape4(const char *dtype, int64_t a, int64_t b, int64_t c, int64_t d);
struct wl_dims wl_shape2(const char *dtype, int64_t rows, int64_t cols);

/*
 * cudaMemcpyAsync host -> device (or cudaMemsetAsync when src is NULL) into
 * a tensor on stream, recorded in truth as a host write.
 */
void wl_fill_device(struct truth *truth, void *dst, const void *src, size_t bytes,
		    cudaStream_t stream);

/*
 * Chooses the duration of the kernel the next library call launches (>= 100
 * us, different from call to call, reproducible) and gives it to the
 * simulated GPU with simgpu_next_kernel_ns. Call right before the library
 * call; returns the duration for wl_library_kernel.
 */
uint64_t wl_next_library_kernel(void);

/* Records in truth the call to api that launched one kernel, kernel_name. */
void wl_library_kernel(struct truth *truth, const char *api, const char *kernel_name,
		       uint64_t duration_ns, const struct truth_arg *args, size_t n_args);

#endif
