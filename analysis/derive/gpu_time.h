/*
 * GPU time of one analyzed group (its window of kernels), in the meaning
 * of HTA's temporal breakdown: the span from the first kernel's start to
 * the last one's end is busy (some kernel runs) or idle; idle is split
 * into waiting for the host (before the next kernel's call returned) and
 * waiting on other work (after it: launch latency, dependencies between
 * streams); stream overlap is the time two or more kernels run at once;
 * kernel launch delay = kernel start - its launch call's end. Device time
 * per op and per kernel name goes to gpu_time.csv with its share of the
 * busy time. Kernel granularity only: an op of --granularity op spans
 * gaps, so nothing here is computed from ops. Copies and sets are not
 * counted (the group holds kernels only).
 * report/gpu_time_report.c writes them.
 * Must never look at host overheads (that is overheads.c), nor write.
 */
#ifndef DNNTRACE_ANALYSIS_GPU_TIME_H
#define DNNTRACE_ANALYSIS_GPU_TIME_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "analysis/derive/group.h"

struct dt_gpu_time {
	bool valid;                  /* kernel granularity, kernel times known,
	                              * at least one kernel */
	uint64_t span_ns, busy_ns, idle_ns;
	uint64_t idle_host_ns, idle_other_ns;
	uint64_t overlap_ns;
	uint64_t n_delays;           /* kernels linked to a launch call */
	double delay_mean_ns;
	int64_t delay_max_ns;
};

void dt_gpu_time_compute(const struct dt_group *g, struct dt_gpu_time *out);
/* Device time per op (its NVTX range, else its library entry point) and
 * per kernel name over the window: ops first, then by time, longest
 * first, then by name. The caller frees the array (NULL when empty). */
struct dt_gpu_time_row {
	const char *name;
	bool op;
	uint64_t count, ns;
};
struct dt_gpu_time_row *dt_gpu_time_rows(const struct dt_group *g,
		size_t *n_rows);

#endif
