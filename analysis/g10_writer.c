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

static FILE *open_output(const char *dir, const char *file_name)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", dir, file_name) >=
			(int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "w");
}

static int close_output(FILE *f)
{
	int failed = ferror(f);
	if (fclose(f) != 0 || failed)
		return -1;
	return 0;
}

/* G10's tensor line, trailing ", " included. */
static void print_tensor_line(FILE *f, const struct dt_group *g, size_t t)
{
	char buf[32];
	const struct dt_tensor *tensor = &g->tensors[t];
	fprintf(f, "tensor%" PRId64 ", Name: %s, Is global?: %d: Size in byte: %"
			PRIu64 ", \n", tensor->id,
			dt_tensor_display_name(tensor, buf, sizeof(buf)),
			g->results[t].global ? 1 : 0, tensor->bytes);
}

static double ns_to_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/*
 * Kernel name line: G10 prints op(arguments); a trace knows the kernel name
 * and, from the launch parameters, which tensors it received in parameter
 * order, so those tensor names stand in for the arguments.
 */
static int write_kernels(const struct dt_group *g, const char *dir)
{
	FILE *f = open_output(dir, "kernels.config");
	if (!f)
		return -1;
	for (size_t k = 0; k < g->win_count; k++) {
		const struct dt_kernel *kernel = &g->kernels[g->win_first + k];
		const struct dt_touch *touches = &g->touches[kernel->touches_at];
		fprintf(f, "Kernel ID: %zu, Name: %s(", k, kernel->name);
		for (uint32_t i = 0; i < kernel->n_touches; i++) {
			char buf[32];
			fprintf(f, "%s%s", i ? ", " : "", dt_tensor_display_name(
					&g->tensors[touches[i].tensor], buf,
					sizeof(buf)));
		}
		fputs(")\nInput Tensors:\n", f);
		for (uint32_t i = 0; i < kernel->n_touches; i++)
			if (touches[i].roles & DT_ROLE_READ)
				print_tensor_line(f, g, touches[i].tensor);
		fputs("Output Tensors:\n", f);
		for (uint32_t i = 0; i < kernel->n_touches; i++)
			if (touches[i].roles & DT_ROLE_WRITE)
				print_tensor_line(f, g, touches[i].tensor);
		fputs(KERNEL_RULE "\n", f);
	}
	return close_output(f);
}

static int write_tensors(const struct dt_group *g, const char *dir)
{
	FILE *f = open_output(dir, "tensors.config");
	if (!f)
		return -1;
	for (size_t t = 0; t < g->n_tensors; t++)
		if (g->results[t].in_g10)
			print_tensor_line(f, g, t);
	return close_output(f);
}

static int write_liveness(const struct dt_group *g, const char *dir)
{
	FILE *f = open_output(dir, "liveness_analysis.config");
	if (!f)
		return -1;
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor_result *r = &g->results[t];
		if (!r->in_g10)
			continue;
		fputs(TENSOR_RULE "\n", f);
		print_tensor_line(f, g, t);
		if (r->global)
			fputs("This tensor is Global!\n", f);
		else
			fprintf(f, "Liveness: Birth: %" PRId64 ", Death: %" PRId64
					".\n", r->birth, r->death);
		fputs(HALF_RULE "\n", f);
		print_tensor_line(f, g, t);
		fputs("Inactive Periods:\n", f);
		for (size_t i = 0; i < r->n_periods; i++) {
			const struct dt_period *p = &g->periods[r->periods_at + i];
			fprintf(f, "Period %zu: %" PRId64 "--------%" PRId64 "\n"
					"Estimated Time:%gus\n", i, p->start,
					p->end, ns_to_us(p->estimated_ns));
		}
		fputs(TENSOR_RULE "\n", f);
	}
	return close_output(f);
}

static int write_period_log(const struct dt_group *g, const char *dir,
		const char *name)
{
	char file_name[PATH_MAX];
	snprintf(file_name, sizeof(file_name), "%s_TensorPeriodLog.py", name);
	FILE *f = open_output(dir, file_name);
	if (!f)
		return -1;
	fputs("sd_size = [", f);
	for (size_t i = 0; i < g->n_periods; i++)
		fprintf(f, "%" PRIu64 ", ", g->tensors[g->periods[i].tensor].bytes);
	fputs("]\nsd_time = [", f);
	for (size_t i = 0; i < g->n_periods; i++)
		fprintf(f, "%g, ", ns_to_us(g->periods[i].estimated_ns));
	fputs("]\n# ", f);
	for (size_t i = 0; i < g->n_periods; i++)
		fprintf(f, "%" PRId64 " ", g->periods[i].start);
	return close_output(f);
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
	FILE *f = open_output(dir, file_name);
	if (!f)
		return -1;
	fputs("active = [", f);
	for (size_t k = 0; k < g->win_count; k++)
		fprintf(f, "%" PRIu64 ",", g->active_bytes[k]);
	fputs("]\nactive_breakdown = [", f);
	for (size_t k = 0; k < g->win_count; k++) {
		uint64_t parts[3];
		breakdown(g, k, parts);
		fprintf(f, "(%" PRIu64 ",%" PRIu64 ",%" PRIu64 "),", parts[0],
				parts[1], parts[2]);
	}
	fputs("]\ntotal = [", f);
	for (size_t k = 0; k < g->win_count; k++)
		fprintf(f, "%" PRIu64 ",", g->g10_total_bytes[k]);
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
	return close_output(f);
}

int dt_write_g10_files(const struct dt_group *g, const char *dir,
		const char *name)
{
	if (write_kernels(g, dir) || write_tensors(g, dir) ||
	    write_liveness(g, dir) || write_period_log(g, dir, name) ||
	    write_memory_log(g, dir, name))
		return -1;
	return 0;
}
