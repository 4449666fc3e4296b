/*
 * simgpu's own cost per call, the baseline the tracer's benchmarks subtract:
 * cudaMalloc+cudaFree pairs, and cudaLaunchKernel without CUPTI and with
 * CUPTI writing a kernel, a RUNTIME API and an external-correlation record
 * per launch. Prints "name ns_per_call" lines (best of 5 rounds). A
 * measuring tool, not a test: it asserts nothing about speed.
 */
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "simgpu/simgpu.h"

static char kernel;
static size_t n_records;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max)
{
	*size = 1 << 20;
	*max = 0;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buffer,
			       size_t size, size_t valid)
{
	(void)c, (void)s, (void)size;
	CUpti_Activity *r = NULL;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
		n_records++;
	free(buffer);
}

static int fail(const char *what)
{
	fprintf(stderr, "bench_cost: %s failed\n", what);
	return 1;
}

/* Best of 5 rounds of n calls of one kind, in ns per call. */
static double measure(int what, long n)
{
	double best = 1e18;
	void *p = NULL;
	void *args[1] = { &p };
	for (int round = 0; round < 5; round++) {
		uint64_t t0 = now_ns();
		for (long i = 0; i < n; i++) {
			if (what == 0) {
				if (cudaMalloc(&p, 4096) || cudaFree(p))
					exit(fail("cudaMalloc/cudaFree"));
			} else if (cudaLaunchKernel(&kernel, (dim3){ 1, 1, 1 },
						    (dim3){ 32, 1, 1 }, args, 0, 0)) {
				exit(fail("cudaLaunchKernel"));
			}
		}
		double per = (double)(now_ns() - t0) / (double)n;
		if (per < best)
			best = per;
		if (what && cudaDeviceSynchronize())
			exit(fail("cudaDeviceSynchronize"));
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	if (n <= 0)
		return fail("argument (calls per round)");
	setenv("SIMGPU_TIME_SCALE", "0", 1);
	size_t sizes[1] = { 8 };
	simgpu_define_kernel(&kernel, "bench_kernel", 1, sizes);
	printf("malloc_free_pair %.1f\n", measure(0, n));
	printf("launch_no_cupti %.1f\n", measure(1, n));
	if (cuptiActivityRegisterCallbacks(requested, completed) ||
	    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ||
	    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) ||
	    cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1) ||
	    cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 1))
		return fail("CUPTI setup");
	printf("malloc_free_pair_cupti %.1f\n", measure(0, n));
	printf("launch_cupti_3_records %.1f\n", measure(1, n));
	if (cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED))
		return fail("flush");
	if (n_records != (size_t)n * 5 * 3)
		return fail("record count");
	return 0;
}
