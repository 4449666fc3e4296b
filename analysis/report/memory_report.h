/*
 * One group's memory report, written (memory_report.c): categories.csv,
 * categories_time.csv and swap.csv (memory_csv.c), and its summary lines.
 * The report is computed in derive/memory.h.
 * Must never compute: derive/ does.
 */
#ifndef DNNTRACE_ANALYSIS_MEMORY_REPORT_H
#define DNNTRACE_ANALYSIS_MEMORY_REPORT_H

#include <stdio.h>

#include "analysis/derive/group.h"
#include "analysis/derive/memory.h"

/* categories.csv, categories_time.csv, swap.csv; 0 or -1 with errno. */
int dt_memory_report_write(const struct dt_memory_report *r,
		const struct dt_group *g, const char *dir);
void dt_memory_report_summary(FILE *f, const struct dt_memory_report *r,
		const struct dt_group *g);

#endif
