/*
 * What the simulated cuBLAS/cuBLASLt tests share: status checks and the
 * kernels CUPTI recorded (name, duration), collected in the test's thread by
 * cuptiActivityFlushAll. Header-only, for simgpu/tests/test_cublas_*.c.
 */
#ifndef SIMGPU_CUBLAS_TEST_H
#define SIMGPU_CUBLAS_TEST_H

#include <cupti.h>
#include <stdint.h>
#include <string.h>

#include <cublasLt.h>
#include <cublas_api.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

#define CHECK_STATUS(call, want)                                                  \
	do {                                                                      \
		cublasStatus_t got_ = (call);                                     \
		if (got_ != (want)) {                                             \
			fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", \
				__FILE__, __LINE__, #call, (int)got_, #want, (int)(want)); \
			exit(1);                                                  \
		}                                                                 \
	} while (0)

#define CHECK_STR(a, b)                                                           \
	do {                                                                      \
		const char *a_ = (a), *b_ = (b);                                  \
		if (!a_ || strcmp(a_, b_) != 0) {                                 \
			fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_);  \
			exit(1);                                                  \
		}                                                                 \
	} while (0)

struct seen_kernel {
	char name[128];
	uint64_t duration;
	uint32_t correlation;
};
static struct seen_kernel seen[64];
static int n_seen;

static void CUPTIAPI test_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*max_records = 0;
	*size = 256 * 1024;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI test_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
					   size_t size, size_t valid)
{
	CUpti_Activity *r = NULL;
	(void)ctx, (void)stream, (void)size;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
		if (r->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
			continue;
		const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
		CHECK(n_seen < 64);
		snprintf(seen[n_seen].name, sizeof(seen[n_seen].name), "%s", k->name);
		seen[n_seen].duration = k->end - k->start;
		seen[n_seen].correlation = k->correlationId;
		n_seen++;
	}
	free(buffer);
}

static inline void kernels_start(void)
{
	simgpu_test_setup();
	CHECK(cuptiActivityRegisterCallbacks(test_buffer_requested, test_buffer_completed) ==
	      CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
}

/* Every kernel recorded since the last call: forget the old ones first. */
static inline void kernels_forget(void)
{
	n_seen = 0;
}

static inline void kernels_flush(void)
{
	CHECK_CUDA(cudaDeviceSynchronize());
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
}

/* README.md: 2000 ns + ceil(2*m*n*k*batch / (FLOP per ns)). */
static inline uint64_t expected_ns(uint64_t m, uint64_t n, uint64_t k, uint64_t batch,
				   uint64_t flop_per_ns)
{
	uint64_t flops = 2 * m * n * k * batch;
	return 2000 + (flops + flop_per_ns - 1) / flop_per_ns;
}

#define CHECK_KERNEL(i, want_name, want_ns)                                       \
	do {                                                                      \
		CHECK(n_seen > (i));                                              \
		CHECK_STR(seen[i].name, want_name);                               \
		CHECK_EQ_U64(seen[i].duration, want_ns);                          \
	} while (0)

#endif
