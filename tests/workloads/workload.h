/*
 * workload: what the simulated-framework workloads share: CUDA error checks,
 * allocation and launch helpers that keep the ground truth (truth.h) in step
 * with what the program really does, and dnntrace_tag reached by dlsym so the
 * programs also run untraced. Must never decide anything a test checks: the
 * workload's own code does.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/workloads/truth.h"

#define WL_CHECK(call) wl_check((call), #call, __FILE__, __LINE__)

void wl_check(cudaError_t result, const char *call, const char *file, int line);

/* Names a tensor through dnntrace_tag when libdnntrace.so is loaded. */
void wl_tag(const void *device_ptr, const char *name);

/* cudaMalloc of one tensor, recorded in truth (NULL: not recorded) and tagged. */
void *wl_alloc(struct truth *truth, size_t bytes, const char *name, int global);

/* cudaFree of a tensor, recorded in truth (NULL: not recorded). */
void wl_free(struct truth *truth, void *device_ptr);

/*
 * Launches func (declared with simgpu_define_kernel) on stream with args, for
 * exactly duration_ns, and records in truth (NULL: not recorded) that it
 * touches the tensors containing tensor_ptrs. Call in GPU start order.
 */
void wl_launch(struct truth *truth, const void *func, const char *name,
	       void **args, cudaStream_t stream, uint64_t duration_ns,
	       const void *const *tensor_ptrs, size_t n_tensor_ptrs);

/* Writes truth into dir; exits 1 on failure. */
void wl_write_truth(const struct truth *truth, const char *dir);

#endif
