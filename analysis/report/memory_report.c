/*
 * One group's memory report written (memory_report.h): its CSV files
 * (memory_csv.c) and its three summary lines. Must never compute anything
 * itself: derive/memory.c does.
 */
#include "analysis/report/memory_report.h"

#include <inttypes.h>

#include "analysis/report/memory_csv.h"

int dt_memory_report_write(const struct dt_memory_report *r,
		const struct dt_group *g, const char *dir)
{
	if (dt_categories_write_csv(&r->categories, &r->swap, g, dir) != 0)
		return -1;
	return dt_swap_write_csv(&r->swap, g, dir);
}

void dt_memory_report_summary(FILE *f, const struct dt_memory_report *r,
		const struct dt_group *g)
{
	if (g->win_count == 0)
		return;
	const struct dt_categories *c = &r->categories;
	const char *unit = g->granularity == DT_GRANULARITY_OP ? "op" : "kernel";
	fputs("memory by category at the peak (bytes):", f);
	bool any = false;
	for (size_t i = 0; i < c->n; i++) {
		if (!c->at_peak[i])
			continue;
		fprintf(f, "%s %s %" PRIu64, any ? "," : "", c->names[i],
				c->at_peak[i]);
		any = true;
	}
	fputs(any ? "\n" : " none\n", f);
	if (c->n_samples)
		fprintf(f, "untrackable: %" PRIu64 " bytes at the peak (device "
				"memory in use minus traced tensors; %zu sample%s, "
				"max %" PRIu64 ")\n", c->untrackable_at_peak,
				c->n_samples, c->n_samples == 1 ? "" : "s",
				c->untrackable_max);
	else
		fputs("untrackable: unknown (no device memory samples in the "
				"trace)\n", f);
	if (c->n_overtraced)
		fprintf(f, "inconsistent: traced tensors exceed the device memory "
				"in use at %zu of %zu samples, by up to %" PRIu64
				" bytes (a free the trace missed, or a wrong size)\n",
				c->n_overtraced, c->n_samples, c->overtraced_max);
	fprintf(f, "swap (link %g GB/s each way): %zu of %zu inactive periods "
			"feasible; peak with every feasible swap: %" PRIu64
			" bytes at %s %zu (traced: %" PRIu64 ")\n",
			r->swap.link_gbps, r->swap.n_feasible, g->n_periods,
			r->swap.peak_bytes, unit, r->swap.peak_kernel, g->peak_bytes);
}
