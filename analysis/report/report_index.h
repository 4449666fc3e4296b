/*
 * The index across the groups of one analysis (several processes, as the
 * ranks of torchrun, or several devices): each group's report directory
 * name, the table at the head of OUT/summary.txt, and OUT/index.csv. Must
 * never write a group's own files (report_files.c and the writers do).
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_INDEX_H
#define DNNTRACE_ANALYSIS_REPORT_INDEX_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/derive/group.h"

/* "pid<PID>-dev<D>": the group's report directory under OUT_DIR. -1 if it
 * does not fit. */
int dt_group_subdir(const struct dt_group *g, char *buf, size_t size);

/* One line per analyzed group (pid, device, kernels, tensors, peak bytes,
 * failed allocations, lost events, report directory) and their totals. */
void dt_write_report_index(FILE *f, const struct dt_group *groups, size_t n);

/* The same table as OUT_DIR/index.csv; -1 with errno on failure. */
int dt_write_index_csv(const char *out_dir, const struct dt_group *groups,
		size_t n);

#endif
