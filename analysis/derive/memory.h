/*
 * One group's memory report, computed (memory.c): categories and swaps
 * together, since the categories at the swapped peak need the swaps.
 * report/memory_report.h writes it.
 * Must never write: report/ does.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_MEMORY_H
#define DNNTRACE_ANALYSIS_DERIVE_MEMORY_H

#include "analysis/derive/categories.h"
#include "analysis/derive/group.h"
#include "analysis/derive/swap.h"
#include "analysis/model/model.h"

struct dt_memory_report {
	struct dt_swap swap;
	struct dt_categories categories;
};

/* p: the group's process in the model (its mem_info samples), or NULL. */
struct dt_memory_report *dt_memory_report_new(const struct dt_group *g,
		const struct dt_process *p, const struct dt_category_rules *rules,
		double link_gbps);
void dt_memory_report_free(struct dt_memory_report *r);

#endif
