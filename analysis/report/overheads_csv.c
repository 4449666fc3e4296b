/*
 * overheads.csv (overheads_csv.h): per op, the count and each of T1..T5's
 * mean and standard deviation in µs. Must never compute overheads:
 * derive/overheads.c does.
 */
#include "analysis/report/overheads_csv.h"

#include <math.h>

#include "analysis/report/csv_writer.h"

static void put_stat(struct dt_out *f, const struct dt_overhead_stat *s)
{
	if (s->n == 0) {
		DT_OUT_LIT(f, ",,");
		return;
	}
	double mean = s->sum / (double)s->n;
	double var = s->sum_sq / (double)s->n - mean * mean;
	dt_out_printf(f, ",%.3f,%.3f", mean / 1000.0,
			var > 0 ? sqrt(var) / 1000.0 : 0.0);
}

int dt_overheads_write(const struct dt_overheads *o, int64_t vpid,
		const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "overheads.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "op,count,t1_mean_us,t1_std_us,t2_mean_us,t2_std_us,t3_mean_us,"
			"t3_std_us,t4_mean_us,t4_std_us,t5_mean_us,t5_std_us\n");
	size_t n;
	const struct dt_overheads_row *rows = dt_overheads_rows(o, vpid, &n);
	for (size_t i = 0; i < n; i++) {
		const struct dt_overheads_row *row = &rows[i];
		if (row->count == 0)
			continue;   /* only ranges still open charged it */
		dt_csv_field(f, row->name);
		dt_out_c(f, ',');
		dt_out_u64(f, row->count);
		for (int t = 0; t < DT_N_T; t++)
			put_stat(f, &row->t[t]);
		dt_out_c(f, '\n');
	}
	return dt_out_close(f);
}
