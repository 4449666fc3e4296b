/*
 * G10 file formats (kernels.config, tensors.config, liveness_analysis.config,
 * <name>_TensorPeriodLog.py, <name>_NNMemConsumptionLog.py): same line
 * structure, separators and number formatting as G10 (iostream default for
 * doubles == printf %g). Must never change a separator: G10 users' scripts
 * exec() the .py files and grep the .config files.
 */
#include "analysis/g10_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#define KERNEL_RULE "____________________________________________________________________"
#define TENSOR_RULE "_____________________________________________________________________________"
#define HALF_RULE "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ "

/* G10's tensor line, trailing ", " included: formatted once per tensor,
 * since kernels.config repeats it for every use. */
struct tensor_lines {
	char **text;
	size_t *length;
};

static void format_tensor_lines(const struct dt_group *g, struct tensor_lines *lines)
{
	lines->text = dt_xcalloc(g->n_tensors, sizeof(char *));
	lines->length = dt_xcalloc(g->n_tensors, sizeof(size_t));
	for (size_t t = 0; t < g->n_tensors; t++) {
		char buf[32];
		const struct dt_tensor *tensor = &g->tensors[t];
		if (!g->results[t].in_g10)
			continue;
		int n = asprintf(&lines->text[t], "tensor%" PRId64 ", Name: %s, "
				"Is global?: %d: Size in byte: %" PRIu64 ", \n",
				tensor->id, dt_tensor_display_name(tensor, buf,
					sizeof(buf)), g->results[t].global ? 1 : 0,
				tensor->bytes);
		if (n < 0) {
			fputs("dnntrace-analyze: out of memory\n", stderr);
			exit(2);
		}
		lines->length[t] = (size_t)n;
	}
}

static void free_tensor_lines(const struct dt_group *g, struct tensor_lines *lines)
{
	for (size_t t = 0; t < g->n_tensors; t++)
		free(lines->text[t]);
	free(lines->text);
	free(lines->length);
}

static void print_tensor_line(FILE *f, const struct tensor_lines *lines, size_t t)
{
	fwrite_unlocked(lines->text[t], 1, lines->length[t], f);
}

/*
 * Kernel name line: G10 prints op(arguments); a trace knows the kernel name
 * and, from the launch parameters, which tensors it received in parameter
 * order, so those tensor names stand in for the arguments.
 */
static int write_kernels(const struct dt_group *g, const char *dir,
		const struct tensor_lines *lines)
{
	FILE *f = dt_open_output(dir, "kernels.config");
	if (!f)
		return -1;
	for (size_t k = 0; k < g->win_count; k++) {
		const struct dt_kernel *kernel = &g->kernels[g->win_first + k];
		const struct dt_touch *touches = &g->touches[kernel->touches_at];
		dt_put_str(f, "Kernel ID: ");
		dt_put_u64(f, k);
		dt_put_str(f, ", Name: ");
		dt_put_str(f, kernel->name);
		putc_unlocked('(', f);
		for (uint32_t i = 0; i < kernel->n_touches; i++) {
			char buf[32];
			if (i)
				dt_put_str(f, ", ");
			dt_put_str(f, dt_tensor_display_name(
					&g->tensors[touches[i].tensor], buf,
					sizeof(buf)));
		}
		fputs(")\nInput Tensors:\n", f);
		for (uint32_t i = 0; i < kernel->n_touches; i++)
			if (touches[i].roles & DT_ROLE_READ)
				print_tensor_line(f, lines, touches[i].tensor);
		fputs("Output Tensors:\n", f);
		for (uint32_t i = 0; i < kernel->n_touches; i++)
			if (touches[i].roles & DT_ROLE_WRITE)
				print_tensor_line(f, lines, touches[i].tensor);
		fputs(KERNEL_RULE "\n", f);
	}
	return dt_close_output(f);
}

static int write_tensors(const struct dt_group *g, const char *dir,
		const struct tensor_lines *lines)
{
	FILE *f = dt_open_output(dir, "tensors.config");
	if (!f)
		return -1;
	for (size_t t = 0; t < g->n_tensors; t++)
		if (g->results[t].in_g10)
			print_tensor_line(f, lines, t);
	return dt_close_output(f);
}

static int write_liveness(const struct dt_group *g, const char *dir,
		const struct tensor_lines *lines)
{
	FILE *f = dt_open_output(dir, "liveness_analysis.config");
	if (!f)
		return -1;
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor_result *r = &g->results[t];
		if (!r->in_g10)
			continue;
		fputs(TENSOR_RULE "\n", f);
		print_tensor_line(f, lines, t);
		if (r->global)
			fputs("This tensor is Global!\n", f);
		else
			fprintf(f, "Liveness: Birth: %" PRId64 ", Death: %" PRId64
					".\n", r->birth, r->death);
		fputs(HALF_RULE "\n", f);
		print_tensor_line(f, lines, t);
		fputs("Inactive Periods:\n", f);
		for (size_t i = 0; i < r->n_periods; i++) {
			const struct dt_period *p = &g->periods[r->periods_at + i];
			char us[32];
			dt_put_str(f, "Period ");
			dt_put_u64(f, i);
			dt_put_str(f, ": ");
			dt_put_i64(f, p->start);
			dt_put_str(f, "--------");
			dt_put_i64(f, p->end);
			dt_put_str(f, "\nEstimated Time:");
			dt_put_str(f, dt_format_us_g(p->estimated_ns, us));
			dt_put_str(f, "us\n");
		}
		fputs(TENSOR_RULE "\n", f);
	}
	return dt_close_output(f);
}

static int write_period_log(const struct dt_group *g, const char *dir,
		const char *name)
{
	char file_name[PATH_MAX];
	snprintf(file_name, sizeof(file_name), "%s_TensorPeriodLog.py", name);
	FILE *f = dt_open_output(dir, file_name);
	if (!f)
		return -1;
	fputs("sd_size = [", f);
	for (size_t i = 0; i < g->n_periods; i++)
	{
		dt_put_u64(f, g->tensors[g->periods[i].tensor].bytes);
		dt_put_str(f, ", ");
	}
	fputs("]\nsd_time = [", f);
	for (size_t i = 0; i < g->n_periods; i++)
	{
		char us[32];
		dt_put_str(f, dt_format_us_g(g->periods[i].estimated_ns, us));
		dt_put_str(f, ", ");
	}
	fputs("]\n# ", f);
	for (size_t i = 0; i < g->n_periods; i++)
	{
		dt_put_i64(f, g->periods[i].start);
		putc_unlocked(' ', f);
	}
	return dt_close_output(f);
}

/*
 * active_breakdown, as G10 computes it: for kernel 0, the bytes of its
 * outputs (G10 counts them as the input batch), then the bytes of its other
 * global and local tensors; for other kernels (0, global, local).
 */
static void breakdown(const struct dt_group *g, size_t k, uint64_t out[3])
{
	const struct dt_kernel *kernel = &g->kernels[g->win_first + k];
	out[0] = out[1] = out[2] = 0;
	for (uint32_t i = 0; i < kernel->n_touches; i++) {
		const struct dt_touch *touch = &g->touches[kernel->touches_at + i];
		uint64_t bytes = g->tensors[touch->tensor].bytes;
		if (k == 0 && (touch->roles & DT_ROLE_WRITE))
			out[0] += bytes;
		else if (g->results[touch->tensor].global)
			out[1] += bytes;
		else
			out[2] += bytes;
	}
}

static int write_memory_log(const struct dt_group *g, const char *dir,
		const char *name)
{
	char file_name[PATH_MAX];
	snprintf(file_name, sizeof(file_name), "%s_NNMemConsumptionLog.py", name);
	FILE *f = dt_open_output(dir, file_name);
	if (!f)
		return -1;
	fputs("active = [", f);
	for (size_t k = 0; k < g->win_count; k++) {
		dt_put_u64(f, g->active_bytes[k]);
		putc_unlocked(',', f);
	}
	fputs("]\nactive_breakdown = [", f);
	for (size_t k = 0; k < g->win_count; k++) {
		uint64_t parts[3];
		breakdown(g, k, parts);
		putc_unlocked('(', f);
		dt_put_u64(f, parts[0]);
		putc_unlocked(',', f);
		dt_put_u64(f, parts[1]);
		putc_unlocked(',', f);
		dt_put_u64(f, parts[2]);
		dt_put_str(f, "),");
	}
	fputs("]\ntotal = [", f);
	for (size_t k = 0; k < g->win_count; k++) {
		dt_put_u64(f, g->g10_total_bytes[k]);
		putc_unlocked(',', f);
	}
	/* G10 prints the size of its tensor 0 as input_size: here the
	 * lowest-id tensor of the files. */
	uint64_t input_size = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		if (g->results[t].in_g10) {
			input_size = g->tensors[t].bytes;
			break;
		}
	}
	fprintf(f, "]\nglobal_weight = %" PRIu64 "\ninput_size = %" PRIu64 "\n",
			g->global_bytes, input_size);
	return dt_close_output(f);
}

int dt_write_g10_files(const struct dt_group *g, const char *dir,
		const char *name, int which)
{
	struct tensor_lines lines;
	format_tensor_lines(g, &lines);
	int rc = 0;
	if ((which & DT_G10_KERNELS) && write_kernels(g, dir, &lines))
		rc = -1;
	else if ((which & DT_G10_OTHERS) && (write_tensors(g, dir, &lines) ||
			write_liveness(g, dir, &lines) ||
			write_period_log(g, dir, name) ||
			write_memory_log(g, dir, name)))
		rc = -1;
	free_tensor_lines(g, &lines);
	return rc;
}
