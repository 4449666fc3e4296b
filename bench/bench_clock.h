/*
 * Timing helpers shared by the benchmark programs: a monotonic ns clock and
 * "best of R rounds" so one preempted round on a 2-core machine does not
 * decide a figure. Benchmarks only; never linked into the tracer.
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Runs body(iterations) `rounds` times; returns the best ns per iteration. */
static inline double bench_best_ns(void (*body)(long), long iterations, int rounds)
{
	double best = 0;
	for (int r = 0; r < rounds; r++) {
		uint64_t t0 = bench_now_ns();
		body(iterations);
		double per = (double)(bench_now_ns() - t0) / (double)iterations;
		if (r == 0 || per < best)
			best = per;
	}
	return best;
}

#endif
