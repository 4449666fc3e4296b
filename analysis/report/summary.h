/*
 * The human summary of one analyzed group (stdout and summary.txt): kernels,
 * tensors, failed allocations, pinned host memory, peak memory and where,
 * the five tensors idle longest in byte-seconds, lost events. Must never
 * hide lost events: an incomplete analysis says so.
 */
#ifndef DNNTRACE_ANALYSIS_SUMMARY_H
#define DNNTRACE_ANALYSIS_SUMMARY_H

#include <stdio.h>

#include "analysis/derive/group.h"

struct dt_request;

/* req: what the user asked (the window named in the kernels line), or
 * NULL for a group analyzed without a request (tests). */
void dt_write_summary(FILE *f, const struct dt_group *g,
		const struct dt_request *req);

/* The summary's last line: which dnntrace wrote the report. */
void dt_write_summary_version(FILE *f);

#endif
