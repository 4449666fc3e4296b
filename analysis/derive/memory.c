/*
 * One group's memory report computed (memory.h): the swaps, then the
 * categories (which need the swapped peak). Must never write: report/
 * memory_report.c does.
 */
#include "analysis/derive/memory.h"

#include <stdlib.h>

#include "analysis/util.h"

struct dt_memory_report *dt_memory_report_new(const struct dt_group *g,
		const struct dt_process *p, const struct dt_category_rules *rules,
		double link_gbps)
{
	struct dt_memory_report *r = dt_xcalloc(1, sizeof(*r));
	dt_swap_compute(&r->swap, g, link_gbps);
	dt_categories_compute(&r->categories, g, p, rules, &r->swap);
	return r;
}

void dt_memory_report_free(struct dt_memory_report *r)
{
	if (!r)
		return;
	dt_swap_free(&r->swap);
	dt_categories_free(&r->categories);
	free(r);
}
