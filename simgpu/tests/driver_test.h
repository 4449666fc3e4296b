/*
 * Assertion helpers for the simulated driver's tests (simgpu/tests/test_driver_*.c):
 * CHECK_CU expects an exact CUresult and names both on failure. Header-only,
 * for the tests; never for the libraries.
 */
#ifndef SIMGPU_DRIVER_TEST_H
#define SIMGPU_DRIVER_TEST_H

#include <cuda.h>

#include "simgpu/tests/simgpu_test.h"

#define CHECK_CU_IS(call, want)                                            \
	do {                                                               \
		CUresult got_ = (call);                                    \
		if (got_ != (want)) {                                      \
			const char *name_ = NULL;                          \
			cuGetErrorName(got_, &name_);                      \
			fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s\n", \
				__FILE__, __LINE__, #call,                 \
				name_ ? name_ : "?", (int)got_, #want);    \
			exit(1);                                           \
		}                                                          \
	} while (0)

#define CHECK_CU(call) CHECK_CU_IS(call, CUDA_SUCCESS)

#endif
