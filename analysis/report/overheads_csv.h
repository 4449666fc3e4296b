/*
 * overheads.csv of one process (overheads_csv.c), from the rows
 * derive/overheads.c gathered. Must never compute overheads.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_OVERHEADS_CSV_H
#define DNNTRACE_ANALYSIS_REPORT_OVERHEADS_CSV_H

#include <stdint.h>

#include "analysis/derive/overheads.h"

/* Writes dir/overheads.csv for process vpid (header only when it has no
 * op). 0, or -1 with errno set. */
int dt_overheads_write(const struct dt_overheads *o, int64_t vpid,
		const char *dir);

#endif
