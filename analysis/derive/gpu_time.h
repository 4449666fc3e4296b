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
 * Must never look at host overheads: that is overheads.c.
 */
#ifndef DNNTRACE_ANALYSIS_GPU_TIME_H
#define DNNTRACE_ANALYSIS_GPU_TIME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
/* dir/gpu_time.csv: kind,name,count,device_us,share. 0, or -1 (errno). */
int dt_gpu_time_write_csv(const struct dt_group *g, const char *dir);
/* The summary section (summary.c calls it). */
void dt_gpu_time_write_summary(FILE *f, const struct dt_group *g);

#endif
