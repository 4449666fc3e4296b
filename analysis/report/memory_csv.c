/*
 * The memory report's CSV files (memory_csv.h): swap.csv, categories.csv,
 * categories_time.csv. Must never compute: derive/ does.
 */
#include "analysis/report/memory_csv.h"

#include <inttypes.h>

#include "analysis/report/csv_writer.h"

#define UNTRACKABLE "Untrackable"

int dt_swap_write_csv(const struct dt_swap *s, const struct dt_group *g,
		const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "swap.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "tensor,period,size_bytes,period_start_kernel,period_end_kernel,"
			"looped,idle_us,transfer_us,feasible\n");
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor_result *r = &g->results[t];
		for (size_t i = 0; i < r->n_periods; i++) {
			size_t p = r->periods_at + i;
			const struct dt_period *period = &g->periods[p];
			uint64_t bytes = g->tensors[t].bytes;
			dt_out_i64(f, g->tensors[t].id);
			dt_out_c(f, ',');
			dt_out_u64(f, i);
			dt_out_c(f, ',');
			dt_out_u64(f, bytes);
			dt_out_c(f, ',');
			dt_out_i64(f, period->start);
			dt_out_c(f, ',');
			dt_out_i64(f, period->end);
			dt_out_str(f, period->looped ? ",1," : ",0,");
			/* ns as microseconds with 3 decimals, exactly */
			dt_out_us3(f, period->estimated_ns);
			/* out and back: 2 * bytes / (GB/s) ns */
			dt_out_printf(f, ",%.3f,%d\n", 2.0 * (double)bytes /
					s->link_gbps / 1000.0, s->feasible[p]);
		}
	}
	return dt_out_close(f);
}

int dt_categories_write_csv(const struct dt_categories *c,
		const struct dt_swap *swap, const struct dt_group *g,
		const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "categories.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "category,peak_bytes,mean_bytes,max_bytes,swapped_peak_bytes\n");
	for (size_t i = 0; i < c->n; i++)
		dt_out_printf(f, "%s,%" PRIu64 ",%.1f,%" PRIu64 ",%" PRIu64 "\n",
				c->names[i], c->at_peak[i], c->mean[i], c->max[i],
				c->at_swapped_peak[i]);
	if (c->n_samples)
		dt_out_printf(f, UNTRACKABLE ",%" PRIu64 ",%.1f,%" PRIu64 ",%" PRIu64 "\n",
				c->untrackable_at_peak, c->untrackable_mean,
				c->untrackable_max, c->untrackable_at_swapped_peak);
	else
		DT_OUT_LIT(f, UNTRACKABLE ",,,,\n");
	if (dt_out_close(f) != 0)
		return -1;

	if (dt_out_open_in(f, dir, "categories_time.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "index,time_us");
	for (size_t i = 0; i < c->n; i++) {
		dt_out_c(f, ',');
		dt_out_str(f, c->names[i]);
	}
	DT_OUT_LIT(f, "," UNTRACKABLE ",live_with_swaps\n");
	const struct dt_kernel *window = &g->kernels[g->win_first];
	uint64_t origin = g->win_count ? window[0].start : 0;
	for (size_t k = 0; k < g->win_count; k++) {
		uint64_t ns = window[k].start > origin ? window[k].start - origin : 0;
		dt_out_u64(f, k);
		dt_out_c(f, ',');
		dt_out_us3(f, ns);   /* µs with 3 decimals, no printf */
		for (size_t i = 0; i < c->n; i++) {
			dt_out_c(f, ',');
			dt_out_u64(f, c->per_kernel[k * c->n + i]);
		}
		dt_out_c(f, ',');
		if (c->untrackable_at_kernel[k] >= 0)
			dt_out_i64(f, c->untrackable_at_kernel[k]);
		dt_out_c(f, ',');
		dt_out_u64(f, swap->live_bytes[k]);
		dt_out_c(f, '\n');
	}
	return dt_out_close(f);
}
