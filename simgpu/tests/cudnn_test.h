/*
 * Helpers for the simulated cuDNN's tests (simgpu/tests/test_cudnn_*.c):
 * status assertions and a CUPTI collector of kernel records (name, start,
 * end, stream). Header-only, for tests; never for the library.
 */
#ifndef SIMGPU_CUDNN_TEST_H
#define SIMGPU_CUDNN_TEST_H

#include <cudnn.h>
#include <cupti.h>
#include <string.h>

#include "simgpu/tests/simgpu_test.h"

#define CHECK_DNN_IS(call, want)                                           \
	do {                                                               \
		cudnnStatus_t got_ = (call);                               \
		if (got_ != (want)) {                                      \
			fprintf(stderr, "%s:%d: %s returned %s (%d), expected %s\n", \
				__FILE__, __LINE__, #call,                 \
				cudnnGetErrorString(got_), (int)got_, #want); \
			exit(1);                                           \
		}                                                          \
	} while (0)

#define CHECK_DNN(call) CHECK_DNN_IS(call, CUDNN_STATUS_SUCCESS)

/* The kernel records delivered so far, in order. */
struct test_kernel {
	char name[96];
	unsigned long long start, end;
	uint32_t stream;
};
static struct test_kernel test_kernels[256];
static int test_n_kernels;

static void CUPTIAPI test_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*size = 64 * 1024;
	*max_records = 0;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI test_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
					   size_t size, size_t valid)
{
	(void)ctx, (void)stream, (void)size;
	CUpti_Activity *r = NULL;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
		if (r->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
			continue;
		const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
		CHECK(test_n_kernels < 256);
		struct test_kernel *t = &test_kernels[test_n_kernels++];
		snprintf(t->name, sizeof t->name, "%s", k->name);
		t->start = k->start;
		t->end = k->end;
		t->stream = k->streamId;
	}
	free(buffer);
}

static inline void test_start_cupti(void)
{
	CHECK(cuptiActivityRegisterCallbacks(test_buffer_requested, test_buffer_completed) ==
	      CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
}

/* Delivers every record so far; returns how many kernels there are now. */
static inline int test_flush(void)
{
	CHECK(cudaDeviceSynchronize() == cudaSuccess);
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	return test_n_kernels;
}

#endif
