/*
 * The CUDA 12 variant's CUPTI (build/simgpu12/lib/libcupti.so.12) writes
 * the records of CUDA 12.8's CUPTI: cuptiGetVersion says 26, kernels are
 * CUpti_ActivityKernel9 (208 bytes, not Kernel10's 216), copies
 * CUpti_ActivityMemcpy6 (CUDA 12.8 introduced it), sets Memset4. The test
 * walks its buffers itself, record by record, with the 12.8 sizes, so a
 * record of any other size breaks the walk; and it reads copies also
 * through CUpti_ActivityMemcpy5, as a tracer that knows only 12.0's layout
 * does. Ground truth: the names, durations, sizes and external ids this
 * test gives its own work. Never linked against the CUDA 13 libraries.
 */
#include <cupti.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

/* CUPTI_API_VERSION in CUDA 12.8's cupti_version.h ("v26 : CUDA Toolkit 12.8"). */
#define CUDA_12_8_CUPTI_API_VERSION 26

#define MAX_RECORDS 64
static CUpti_ActivityKernel9 kernels[MAX_RECORDS];
static CUpti_ActivityMemcpy6 copies[MAX_RECORDS];
static CUpti_ActivityMemcpy5 copies_as_5[MAX_RECORDS];
static CUpti_ActivityMemset4 sets[MAX_RECORDS];
static CUpti_ActivityExternalCorrelation externals[MAX_RECORDS];
static int n_kernels, n_copies, n_sets, n_externals, n_api;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CUPTI time = CLOCK_MONOTONIC, so records compare with now_ns(). */
static uint64_t CUPTIAPI monotonic_clock(void)
{
	return now_ns();
}

static size_t cupti_12_8_record_size(CUpti_ActivityKind kind)
{
	switch (kind) {
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return sizeof(CUpti_ActivityKernel9);
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return sizeof(CUpti_ActivityMemcpy6);
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return sizeof(CUpti_ActivityMemset4);
	case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
		return sizeof(CUpti_ActivityExternalCorrelation);
	case CUPTI_ACTIVITY_KIND_RUNTIME:
		return sizeof(CUpti_ActivityAPI);
	default:
		return 0;
	}
}

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max)
{
	*size = 1 << 16, *max = 0;
	*buffer = aligned_alloc(8, *size);
}

/*
 * Each record must start where the last one ends by CUDA 12.8's sizes, and
 * the buffer's valid bytes must end exactly after the last; CUPTI's own
 * cuptiActivityGetNextRecord must agree with that walk.
 */
static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buffer,
			       size_t size, size_t valid)
{
	(void)c, (void)s, (void)size;
	uint8_t *expected = buffer;
	CUpti_Activity *r = NULL;
	CUptiResult res;
	while ((res = cuptiActivityGetNextRecord(buffer, valid, &r)) == CUPTI_SUCCESS) {
		CHECK((uint8_t *)r == expected);
		size_t n = cupti_12_8_record_size(r->kind);
		CHECK(n != 0);
		CHECK((size_t)((uint8_t *)r - buffer) + n <= valid);
		CHECK(n_kernels < MAX_RECORDS && n_copies < MAX_RECORDS &&
		      n_sets < MAX_RECORDS && n_externals < MAX_RECORDS);
		switch (r->kind) {
		case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
			memcpy(&kernels[n_kernels++], r, n);
			break;
		case CUPTI_ACTIVITY_KIND_MEMCPY:
			memcpy(&copies_as_5[n_copies], r, sizeof(CUpti_ActivityMemcpy5));
			memcpy(&copies[n_copies++], r, n);
			break;
		case CUPTI_ACTIVITY_KIND_MEMSET:
			memcpy(&sets[n_sets++], r, n);
			break;
		case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
			memcpy(&externals[n_externals++], r, n);
			break;
		default:
			n_api++;
			break;
		}
		expected = (uint8_t *)r + n;
	}
	CHECK(res == CUPTI_ERROR_MAX_LIMIT_REACHED);
	CHECK(expected == buffer + valid);
	free(buffer);
}

static uint32_t correlation_of(uint64_t external_id)
{
	for (int i = 0; i < n_externals; i++)
		if (externals[i].externalId == external_id) {
			CHECK(externals[i].externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
			return externals[i].correlationId;
		}
	fprintf(stderr, "no external correlation record for %llu\n",
		(unsigned long long)external_id);
	exit(1);
}

static void push(uint64_t id)
{
	CHECK(cuptiActivityPushExternalCorrelationId(
		      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id) == CUPTI_SUCCESS);
}

static void pop(void)
{
	CHECK(cuptiActivityPopExternalCorrelationId(
		      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, NULL) == CUPTI_SUCCESS);
}

int main(void)
{
	simgpu_test_setup();
	uint32_t version = 0;
	CHECK(cuptiGetVersion(&version) == CUPTI_SUCCESS);
	CHECK_EQ_U64(version, CUDA_12_8_CUPTI_API_VERSION);

	CHECK(cuptiActivityRegisterCallbacks(requested, completed) == CUPTI_SUCCESS);
	CHECK(cuptiActivityRegisterTimestampCallback(monotonic_clock) == CUPTI_SUCCESS);
	CUpti_ActivityKind kinds[] = {
		CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
		CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
		CUPTI_ACTIVITY_KIND_RUNTIME,
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		CHECK(cuptiActivityEnable(kinds[i]) == CUPTI_SUCCESS);

	static char kernel_first, kernel_second;
	simgpu_define_kernel(&kernel_first, "k12_first", 0, NULL);
	simgpu_define_kernel(&kernel_second, "k12_second", 0, NULL);
	void *d;
	static char host[4096];
	CHECK_CUDA(cudaMalloc(&d, sizeof(host)));

	uint64_t before = now_ns();
	push(101);
	simgpu_next_kernel_ns(5000);
	CHECK_CUDA(cudaLaunchKernel(&kernel_first, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	pop();
	push(102);
	CHECK_CUDA(cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice));
	pop();
	push(103);
	CHECK_CUDA(cudaMemsetAsync(d, 7, 300, 0));
	pop();
	push(104);
	simgpu_next_kernel_ns(7000);
	CHECK_CUDA(cudaLaunchKernel(&kernel_second, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	pop();
	CHECK_CUDA(cudaDeviceSynchronize());
	uint64_t after = now_ns();
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);

	CHECK_EQ_U64(n_kernels, 2);
	CHECK_EQ_U64(n_copies, 1);
	CHECK_EQ_U64(n_sets, 1);
	CHECK_EQ_U64(n_externals, 4);
	CHECK_EQ_U64(n_api, 5); /* cudaMalloc and the four calls */

	const char *names[2] = { "k12_first", "k12_second" };
	uint64_t durations[2] = { 5000, 7000 };
	uint64_t ids[2] = { 101, 104 };
	for (int i = 0; i < 2; i++) {
		const CUpti_ActivityKernel9 *k = &kernels[i];
		CHECK(strcmp(k->name, names[i]) == 0);
		CHECK_EQ_U64(k->end - k->start, durations[i]);
		/* With SIMGPU_TIME_SCALE=0 the device may run ahead of the host:
		 * only the first kernel (an idle stream) starts before `after`;
		 * the second's place is checked against the set below. */
		CHECK(k->start >= before && (i > 0 || k->start <= after));
		CHECK_EQ_U64(k->correlationId, correlation_of(ids[i]));
		CHECK(k->gridX == 1 && k->blockX == 1 && k->clusterX == 1);
	}
	CHECK(kernels[1].start >= kernels[0].end);

	const CUpti_ActivityMemcpy6 *copy = &copies[0];
	CHECK(copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
	CHECK_EQ_U64(copy->bytes, sizeof(host));
	CHECK(copy->start >= kernels[0].end && copy->start <= after);
	CHECK(copy->end > copy->start);
	CHECK_EQ_U64(copy->correlationId, correlation_of(102));
	CHECK_EQ_U64(copy->copyCount, 1);
	/* A reader of the CUDA 12.0 layout decodes the same values. */
	const CUpti_ActivityMemcpy5 *as_5 = &copies_as_5[0];
	CHECK(as_5->copyKind == copy->copyKind && as_5->bytes == copy->bytes &&
	      as_5->start == copy->start && as_5->end == copy->end &&
	      as_5->deviceId == copy->deviceId && as_5->contextId == copy->contextId &&
	      as_5->streamId == copy->streamId &&
	      as_5->correlationId == copy->correlationId);

	const CUpti_ActivityMemset4 *set = &sets[0];
	CHECK_EQ_U64(set->value, 7);
	CHECK_EQ_U64(set->bytes, 300);
	CHECK(set->start >= copy->end && set->end <= kernels[1].start);
	CHECK_EQ_U64(set->correlationId, correlation_of(103));

	CHECK(correlation_of(101) < correlation_of(102) &&
	      correlation_of(102) < correlation_of(103) &&
	      correlation_of(103) < correlation_of(104));
	CHECK_CUDA(cudaFree(d));
	printf("test_cupti12_records: ok\n");
	return 0;
}
