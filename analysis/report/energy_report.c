/*
 * energy.csv and the energy section of the summary (energy.h). Numbers in
 * the C locale's format, names through dt_csv_field. Must never compute
 * anything beyond unit conversion and ranking.
 */
#include "analysis/report/energy_report.h"

#include <inttypes.h>

#include "analysis/report/csv_writer.h"
#include "analysis/util.h"

#define TOP_OPS 5

int dt_energy_write_csv(const struct dt_energy *e, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "energy.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "kind,name,count,time_us,energy_mj,mean_power_w\n");
	for (size_t i = 0; i < e->n_rows; i++) {
		const struct dt_energy_row *r = &e->rows[i];
		dt_out_str(f, r->kind == DT_ENERGY_KERNEL ? "kernel," : "op,");
		dt_csv_field(f, r->name);
		dt_out_printf(f, ",%" PRIu64 ",%" PRIu64 ".%03" PRIu64 ",%.3f,%.3f\n",
				r->count, r->time_ns / 1000, r->time_ns % 1000,
				r->energy_mj, r->mean_power_w);
	}
	return dt_out_close(f);
}

void dt_energy_write_summary(FILE *f, const struct dt_energy *e)
{
	if (e->method == DT_ENERGY_NONE) {
		fputs("energy: no power samples (record with --power-ms N on a "
				"GPU whose driver has NVML)\n", f);
		return;
	}
	double span_s = (double)(e->last_ns - e->first_ns) / 1e9;
	fprintf(f, "energy: %.3f J over %.3f s of power samples (%zu samples, %s)\n",
			e->total_mj / 1000, span_s, e->n_samples,
			e->method == DT_ENERGY_COUNTER ? "NVML energy counter" :
			"NVML power x time");
	if (e->method == DT_ENERGY_POWER)
		fprintf(f, "power samples outside 3 sigma, dropped: %zu\n",
				e->outliers);
	double share = e->total_mj > 0 ? 100 * e->kernels_mj / e->total_mj : 0;
	/* Kernels reaching past the samples' span get energy the board's
	 * total (first to last sample) does not hold: never a share above
	 * 100 %, but why. */
	if (e->kernels_mj > e->total_mj)
		fprintf(f, "energy in kernels: %.3f J (more than the board's %.3f J "
				"between its first and last sample: %zu power sample%s "
				"too few to split it), in %.3f s of kernel time; "
				"outside any op: %.3f J\n", e->kernels_mj / 1000,
				e->total_mj / 1000, e->n_samples,
				e->n_samples == 1 ? " is" : "s are",
				(double)e->kernels_ns / 1e9, e->outside_op_mj / 1000);
	else
		fprintf(f, "energy in kernels: %.3f J (%.1f%% of the board's), in "
				"%.3f s of kernel time; outside any op: %.3f J\n",
				e->kernels_mj / 1000, share, (double)e->kernels_ns / 1e9,
				e->outside_op_mj / 1000);
	size_t shown = 0;
	for (size_t i = 0; i < e->n_rows; i++)
		shown += e->rows[i].kind == DT_ENERGY_OP;
	fprintf(f, "top ops by energy:%s\n", shown ? "" : " none");
	shown = 0;
	for (size_t i = 0; i < e->n_rows && shown < TOP_OPS; i++) {
		const struct dt_energy_row *r = &e->rows[i];
		if (r->kind != DT_ENERGY_OP)
			continue;
		fprintf(f, "  %s: %.3f mJ (%" PRIu64 " calls, %.3f ms, %.1f W)\n",
				r->name, r->energy_mj, r->count,
				(double)r->time_ns / 1e6, r->mean_power_w);
		shown++;
	}
}
