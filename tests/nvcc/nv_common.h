/*
 * What the nvcc-compiled test programs (tests/nvcc/, .cu files) share: error
 * checks, and their ground truth (tests/workloads/truth.h) kept in step
 * with what each program really does. Kernel durations are set through
 * simgpu's simgpu_next_kernel_ns, found with dlsym so that the programs
 * also start on a real GPU (then nothing is timed). Must never decide
 * anything a test checks: each program's own code does.
 */
#ifndef NV_COMMON_H
#define NV_COMMON_H

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern "C" {
#include "tests/workloads/truth.h"
}

#define NV_CHECK(call) nv_check((call), #call, __FILE__, __LINE__)

static inline void nv_check(cudaError_t err, const char *call, const char *file, int line)
{
	if (err != cudaSuccess) {
		fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, cudaGetErrorName(err));
		exit(1);
	}
}

/* The next <<<>>> kernel on this thread runs exactly ns (on simgpu). */
static inline void nv_next_kernel_ns(unsigned long long ns)
{
	typedef void (*next_fn)(unsigned long long);
	static next_fn next = (next_fn)dlsym(RTLD_DEFAULT, "simgpu_next_kernel_ns");
	if (next)
		next(ns);
}

/* Names a tensor through dnntrace_tag when libdnntrace.so is loaded. */
static inline void nv_tag(const void *p, const char *name)
{
	typedef void (*tag_fn)(const void *, const char *);
	tag_fn tag = (tag_fn)dlsym(RTLD_DEFAULT, "dnntrace_tag");
	if (tag)
		tag(p, name);
}

/* cudaMalloc of one tensor, recorded in truth and tagged. */
template <typename T>
static inline T *nv_alloc(struct truth *truth, size_t count, const char *name, int global)
{
	T *p = NULL;
	NV_CHECK(cudaMalloc((void **)&p, count * sizeof(T)));
	truth_alloc(truth, p, count * sizeof(T), name, global);
	nv_tag(p, name);
	return p;
}

static inline void nv_free(struct truth *truth, void *p)
{
	NV_CHECK(cudaFree(p));
	truth_free(truth, p);
}

/* A host-to-device copy into a tensor, recorded as a host write. */
static inline void nv_upload(struct truth *truth, void *dev, const void *host, size_t bytes)
{
	NV_CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
	truth_host_write(truth, dev);
}

/* A <<<>>> launch that touched the tensors at ptrs (in that order). */
static inline void nv_kernel(struct truth *truth, const char *mangled,
			     const void *const *ptrs, size_t n, uint64_t ns)
{
	truth_kernel_api(truth, "__cudaLaunchKernel", mangled, ptrs, n, ns);
}

static inline void nv_write_truth(struct truth *truth, const char *dir)
{
	if (truth_write(truth, dir) != 0)
		exit(1);
}

#endif
