/*
 * GPU time written (gpu_time_report.c): gpu_time.csv and the summary's
 * GPU time lines, from derive/gpu_time.h. Must never compute them.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_GPU_TIME_REPORT_H
#define DNNTRACE_ANALYSIS_REPORT_GPU_TIME_REPORT_H

#include <stdio.h>

#include "analysis/derive/gpu_time.h"

/* dir/gpu_time.csv: kind,name,count,device_us,share. 0, or -1 (errno). */
int dt_gpu_time_write_csv(const struct dt_group *g, const char *dir);
/* The summary section (summary.c calls it). */
void dt_gpu_time_write_summary(FILE *f, const struct dt_group *g);

#endif
