/*
 * gpu_time.csv and the summary's GPU time lines (gpu_time_report.h).
 * Must never compute: derive/gpu_time.c does.
 */
#include "analysis/report/gpu_time_report.h"

#include <stdlib.h>

#include "analysis/report/csv_writer.h"

int dt_gpu_time_write_csv(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "gpu_time.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "kind,name,count,device_us,share\n");
	struct dt_gpu_time t;
	dt_gpu_time_compute(g, &t);
	if (t.valid) {
		size_t n_rows;
		struct dt_gpu_time_row *rows = dt_gpu_time_rows(g, &n_rows);
		for (size_t i = 0; i < n_rows; i++) {
			dt_out_str(f, rows[i].op ? "op," : "kernel,");
			dt_csv_field(f, rows[i].name);
			dt_out_printf(f, ",%llu,%.3f,%.6f\n",
					(unsigned long long)rows[i].count,
					(double)rows[i].ns / 1000.0, t.busy_ns ?
					(double)rows[i].ns / (double)t.busy_ns : 0.0);
		}
		free(rows);
	}
	return dt_out_close(f);
}

void dt_gpu_time_write_summary(FILE *f, const struct dt_group *g)
{
	struct dt_gpu_time t;
	dt_gpu_time_compute(g, &t);
	if (!t.valid) {
		fprintf(f, "GPU time: not computed (%s)\n",
				g->granularity != DT_GRANULARITY_KERNEL ?
				"use --granularity kernel" : g->kernel_times_missing ?
				"kernel times missing" : "no kernels");
		return;
	}
	double span = (double)t.span_ns;
	fprintf(f, "GPU span: %.3f us (first kernel start to last kernel end)\n",
			span / 1000.0);
	fprintf(f, "GPU busy: %.3f us (%.1f%%)\n", (double)t.busy_ns / 1000.0,
			span > 0 ? 100.0 * (double)t.busy_ns / span : 0.0);
	fprintf(f, "GPU idle: %.3f us (%.1f%%): waiting for the host %.3f us, "
			"waiting on other work %.3f us\n",
			(double)t.idle_ns / 1000.0,
			span > 0 ? 100.0 * (double)t.idle_ns / span : 0.0,
			(double)t.idle_host_ns / 1000.0,
			(double)t.idle_other_ns / 1000.0);
	fprintf(f, "stream overlap: %.3f us (two or more kernels at once)\n",
			(double)t.overlap_ns / 1000.0);
	if (t.n_delays)
		fprintf(f, "kernel launch delay: mean %.3f us, max %.3f us "
				"(%llu launches; kernel start - launch call end)\n",
				t.delay_mean_ns / 1000.0,
				(double)t.delay_max_ns / 1000.0,
				(unsigned long long)t.n_delays);
	else
		fputs("kernel launch delay: no kernel linked to a launch\n", f);
}
