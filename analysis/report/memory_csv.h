/*
 * The memory report's CSV files (memory_csv.c): swap.csv, categories.csv
 * and categories_time.csv. Must never compute: derive/swap.c and
 * derive/categories.c do.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_MEMORY_CSV_H
#define DNNTRACE_ANALYSIS_REPORT_MEMORY_CSV_H

#include "analysis/derive/categories.h"
#include "analysis/derive/group.h"
#include "analysis/derive/swap.h"

/* 0, or -1 with errno set. */
int dt_swap_write_csv(const struct dt_swap *s, const struct dt_group *g,
		const char *dir);
/* categories.csv, and categories_time.csv with the swapped live bytes of
 * each kernel (column live_with_swaps) */
int dt_categories_write_csv(const struct dt_categories *c,
		const struct dt_swap *swap, const struct dt_group *g,
		const char *dir);

#endif
