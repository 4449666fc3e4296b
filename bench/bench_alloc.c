/*
 * Benchmarks (a) and (b): ns per allocate+free pair, printed on one line.
 *   bench_alloc cuda N   cudaMalloc(64 KiB) + cudaFree pairs (on simgpu)
 *   bench_alloc libc N   malloc(64 KiB) + free pairs (for LTTng's libc wrapper)
 * run_bench.sh runs it bare, preloaded without a session and preloaded while a
 * session records, and divides the differences. Never part of the test suite.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_clock.h"

/* Below glibc's mmap threshold, so malloc+free make no system call. */
enum { ALLOC_BYTES = 64 << 10 };

static void cuda_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		void *p = NULL;
		if (cudaMalloc(&p, ALLOC_BYTES) != cudaSuccess || cudaFree(p) != cudaSuccess) {
			fprintf(stderr, "bench_alloc: cuda call failed\n");
			exit(1);
		}
	}
}

static void libc_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		void *volatile p = malloc(ALLOC_BYTES);
		if (!p) {
			fprintf(stderr, "bench_alloc: malloc failed\n");
			exit(1);
		}
		free(p);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "cuda") && strcmp(argv[1], "libc"))) {
		fprintf(stderr, "usage: bench_alloc cuda|libc ITERATIONS\n");
		return 1;
	}
	long n = atol(argv[2]);
	if (n <= 0) {
		fprintf(stderr, "bench_alloc: ITERATIONS must be positive\n");
		return 1;
	}
	void (*body)(long) = strcmp(argv[1], "cuda") == 0 ? cuda_pairs : libc_pairs;
	body(n / 10 + 1); /* warm-up: resolve symbols, start CUPTI, fault pages */
	printf("%.1f\n", bench_best_ns(body, n, 5));
	return 0;
}
