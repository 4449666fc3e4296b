/*
 * steps.csv (steps_csv.h): step,name,start_ns,end_ns,first_kernel,
 * last_kernel,kernels,peak_bytes; an unknown value (a step still open at
 * the end, a step with no kernel of the window) is an empty field, as in
 * tensors.csv. Must never compute.
 */
#include "analysis/report/steps_csv.h"

#include "analysis/report/csv_writer.h"
#include "analysis/report/out_buffer.h"

int dt_steps_write_csv(const struct dt_steps *s, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "steps.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "step,name,start_ns,end_ns,first_kernel,last_kernel,"
			"kernels,peak_bytes\n");
	for (size_t i = 0; s && i < s->n; i++) {
		const struct dt_step *st = &s->steps[i];
		dt_out_u64(f, st->number);
		DT_OUT_LIT(f, ",");
		dt_csv_field(f, st->name);
		DT_OUT_LIT(f, ",");
		dt_out_u64(f, st->start_ns);
		DT_OUT_LIT(f, ",");
		if (st->end_ns != DT_NO_TIME)
			dt_out_u64(f, st->end_ns);
		DT_OUT_LIT(f, ",");
		if (st->n_kernels) {
			dt_out_u64(f, st->first_kernel);
			DT_OUT_LIT(f, ",");
			dt_out_u64(f, st->last_kernel);
		} else {
			DT_OUT_LIT(f, ",");
		}
		DT_OUT_LIT(f, ",");
		dt_out_u64(f, st->n_kernels);
		DT_OUT_LIT(f, ",");
		if (st->n_kernels)
			dt_out_u64(f, st->peak_bytes);
		DT_OUT_LIT(f, "\n");
	}
	return dt_out_close(f);
}
