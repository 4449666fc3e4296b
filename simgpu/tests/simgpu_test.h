/*
 * Tiny assertion helpers for the simgpu tests: CHECK prints the failed
 * condition with its line and exits 1; CHECK_CUDA also names the error.
 * Header-only, for simgpu/tests/test_*.c; never for the libraries.
 */
#ifndef SIMGPU_TEST_H
#define SIMGPU_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
			exit(1);                                           \
		}                                                          \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                 \
	do {                                                               \
		unsigned long long a_ = (unsigned long long)(a);           \
		unsigned long long b_ = (unsigned long long)(b);           \
		if (a_ != b_) {                                            \
			fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
				__FILE__, __LINE__, #a, a_, #b, b_);       \
			exit(1);                                           \
		}                                                          \
	} while (0)

/* Expects a CUDA call to return exactly `want`. */
#define CHECK_CUDA_IS(call, want)                                          \
	do {                                                               \
		cudaError_t got_ = (call);                                 \
		if (got_ != (want)) {                                      \
			fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s\n", \
				__FILE__, __LINE__, #call,                 \
				cudaGetErrorName(got_), (int)got_, #want); \
			exit(1);                                           \
		}                                                          \
	} while (0)

#define CHECK_CUDA(call) CHECK_CUDA_IS(call, cudaSuccess)

/* dim3 is a plain struct in C. */
#define D3(x, y, z) ((dim3){ (x), (y), (z) })

/* Simulated time runs without real waiting in tests (README.md). */
static inline void simgpu_test_setup(void)
{
	setenv("SIMGPU_TIME_SCALE", "0", 1);
}

#endif
