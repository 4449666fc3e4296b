/*
 * The floor of benchmarks (a) and (c): what the events the trace format
 * requires cost by themselves, with no tracer around them.
 *   bench_events pair N     dnntrace_api:alloc + dnntrace_api:free (one
 *                           cudaMalloc+cudaFree pair's events)
 *   bench_events launch N   one dnntrace_api:launch with 4 tensor ids (its
 *                           kernel's name and handle are in a function
 *                           event, once; its geometry in the GPU record)
 * Links the providers itself and must never run with libdnntrace.so
 * preloaded (the providers would be registered twice).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_clock.h"
#include "tracepoints/dnntrace_api.h"

static void pair_events(long n)
{
	for (long i = 0; i < n; i++) {
		void *ptr = (void *)(uintptr_t)(0x200000000000ull + ((uint64_t)i << 16));
		lttng_ust_tracepoint(dnntrace_api, alloc, DNNTRACE_API_cudaMalloc, 0, ptr, 65536, i,
				     0);
		lttng_ust_tracepoint(dnntrace_api, free, DNNTRACE_API_cudaFree, i, 0);
	}
}

static void launch_events(long n)
{
	int64_t tensors[4] = { 0, 1, 2, 3 };
	for (long i = 0; i < n; i++)
		lttng_ust_tracepoint(dnntrace_api, launch, (uint64_t)i + 1,
				     DNNTRACE_API_cudaLaunchKernel, (uint64_t)1, NULL, tensors, 4, 0,
				     (uint64_t)0);
}

int main(int argc, char **argv)
{
	void (*body)(long) = NULL;
	if (argc == 3 && strcmp(argv[1], "pair") == 0)
		body = pair_events;
	else if (argc == 3 && strcmp(argv[1], "launch") == 0)
		body = launch_events;
	long n = argc == 3 ? atol(argv[2]) : 0;
	if (!body || n <= 0) {
		fprintf(stderr, "usage: bench_events pair|launch ITERATIONS\n");
		return 1;
	}
	body(n / 10 + 1);
	printf("%.1f\n", bench_best_ns(body, n, 5));
	return 0;
}
