/*
 * G10 file formats (kernels.config, tensors.config, liveness_analysis.config,
 * <name>_TensorPeriodLog.py, <name>_NNMemConsumptionLog.py): same line
 * structure, separators and number formatting as G10 (iostream default for
 * doubles == printf %g). Must never change a separator: G10 users' scripts
 * exec() the .py files and grep the .config files.
 */
#include "analysis/report/g10_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/api_names.h"
#include "analysis/report/out_buffer.h"
#include "tracepoints/dnntrace_enums.h"

#define KERNEL_RULE "____________________________________________________________________"
#define TENSOR_RULE "_____________________________________________________________________________"
#define HALF_RULE "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ "

static void print_g10_name(struct dt_out *f, const char *s);

/* G10's tensor line, "tensorN, Name: NAME, Is global?: G: Size in byte:
 * B, " and its newline unless a shape goes on after it. Formatted where
 * it is written (kernels.config repeats it for every use): a cache of
 * every line cost as much memory as the tensors themselves. */
static void print_tensor_line(struct dt_out *f, const struct dt_group *g,
		size_t t, bool newline)
{
	static const char global_0[] = ", Is global?: 0: Size in byte: ";
	static const char global_1[] = ", Is global?: 1: Size in byte: ";
	const struct dt_tensor *tensor = &g->tensors[t];
	/* the numbers, the fixed text and an untagged name ("t" and the
	 * id's digits, copied) fit in this room; a tag goes apart */
	char *p = dt_out_room(f, 128);
	memcpy(p, "tensor", 6);
	char *digits = p + 6;
	p = dt_fmt_i64(digits, tensor->id);
	size_t n_digits = (size_t)(p - digits);
	memcpy(p, ", Name: ", 8);
	p += 8;
	if (tensor->name) {
		dt_out_end(f, p);
		print_g10_name(f, tensor->name);
		p = dt_out_room(f, 64);
	} else {
		*p++ = 't';
		memmove(p, digits, n_digits);
		p += n_digits;
	}
	memcpy(p, g->results[t].global ? global_1 : global_0,
			sizeof(global_0) - 1);
	p = dt_fmt_i64(p + sizeof(global_0) - 1, (int64_t)tensor->bytes);
	memcpy(p, ", \n", 3);
	dt_out_end(f, p + (newline ? 3 : 2));
}

/* A tensor name in G10's line-and-comma files: one entry whatever it
 * holds. A newline, carriage return or comma would end the entry (or the
 * line), so they are escaped (\n, \r, \x2c), and so is the backslash. */
static void print_g10_name(struct dt_out *f, const char *s)
{
	if (!strpbrk(s, ",\r\n\\")) {
		dt_out_str(f, s);
		return;
	}
	for (; *s; s++) {
		switch (*s) {
		case '\n': DT_OUT_LIT(f, "\\n"); break;
		case '\r': DT_OUT_LIT(f, "\\r"); break;
		case ',': DT_OUT_LIT(f, "\\x2c"); break;
		case '\\': DT_OUT_LIT(f, "\\\\"); break;
		default: dt_out_c(f, *s);
		}
	}
}

/* Element types as G10 prints them (PyTorch's short dtype names). */
static const char *dtype_name(uint8_t dtype)
{
	static const char *const names[] = {
		[DNNTRACE_DTYPE_UNKNOWN] = "unknown", [DNNTRACE_DTYPE_F32] = "f32",
		[DNNTRACE_DTYPE_F64] = "f64", [DNNTRACE_DTYPE_F16] = "f16",
		[DNNTRACE_DTYPE_BF16] = "bf16", [DNNTRACE_DTYPE_I8] = "i8",
		[DNNTRACE_DTYPE_U8] = "u8", [DNNTRACE_DTYPE_I32] = "i32",
		[DNNTRACE_DTYPE_I64] = "i64", [DNNTRACE_DTYPE_F8E4M3] = "f8e4m3fn",
		[DNNTRACE_DTYPE_F8E5M2] = "f8e5m2", [DNNTRACE_DTYPE_BOOL] = "b8",
	};
	return dtype < sizeof(names) / sizeof(names[0]) ? names[dtype] : "unknown";
}

/* A tensor line of kernels.config: G10 goes on after the line's ", " with
 * `Dimensions: f32[64, 3, 224, 224]` where the shape is known (here: the
 * argument's shape as the library call passed it). */
static void print_kernel_tensor(struct dt_out *f, const struct dt_group *g,
		const struct dt_touch *touch)
{
	print_tensor_line(f, g, touch->tensor, touch->rank == 0);
	if (touch->rank == 0)
		return;
	DT_OUT_LIT(f, "Dimensions: ");
	dt_out_str(f, dtype_name(touch->dtype));
	dt_out_c(f, '[');
	for (uint8_t d = 0; d < touch->rank; d++) {
		if (d)
			DT_OUT_LIT(f, ", ");
		dt_out_i64(f, g->dims[touch->dims_at + d]);
	}
	DT_OUT_LIT(f, "]\n");
}

/*
 * Kernel name line: G10 prints op(arguments). A launched kernel prints its
 * name and, standing in for the arguments, the tensors it received, in
 * parameter order. A library call's kernel (or op) prints the entry point
 * and the kernel name(s) it ran: cudnnConvolutionForward(implicit_convolve_sgemm);
 * its arguments are the Input and Output lists below. A kernel whose call
 * ran inside an NVTX range prints that op first, the rest as its argument.
 */
static void print_kernel_name(struct dt_out *f, const struct dt_group *g,
		const struct dt_kernel *kernel)
{
	if (kernel->op) {
		/* the NVTX op, as G10 prints the framework's op, with the
		 * kernel as its argument: aten::relu(relu_kernel(t2, t4)) */
		const struct dt_kernel plain = {.name = kernel->name,
			.source = kernel->source, .api = kernel->api,
			.touches_at = kernel->touches_at,
			.n_touches = kernel->n_touches};
		dt_out_str(f, kernel->op);
		dt_out_c(f, '(');
		print_kernel_name(f, g, &plain);
		dt_out_c(f, ')');
		return;
	}
	if (kernel->source == DT_SOURCE_LIBRARY) {
		dt_out_str(f, dt_lib_api_name(kernel->api));
		dt_out_c(f, '(');
		dt_out_str(f, kernel->name);
		dt_out_c(f, ')');
		return;
	}
	const struct dt_touch *touches = &g->touches[kernel->touches_at];
	dt_out_str(f, kernel->name);
	dt_out_c(f, '(');
	for (uint32_t i = 0; i < kernel->n_touches; i++) {
		char buf[32];
		if (i)
			DT_OUT_LIT(f, ", ");
		print_g10_name(f, dt_tensor_display_name(
				&g->tensors[touches[i].tensor], buf, sizeof(buf)));
	}
	dt_out_c(f, ')');
}

static int write_kernels(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "kernels.config") != 0)
		return -1;
	for (size_t k = 0; k < g->win_count; k++) {
		const struct dt_kernel *kernel = &g->kernels[g->win_first + k];
		const struct dt_touch *touches = &g->touches[kernel->touches_at];
		DT_OUT_LIT(f, "Kernel ID: ");
		dt_out_u64(f, k);
		DT_OUT_LIT(f, ", Name: ");
		print_kernel_name(f, g, kernel);
		DT_OUT_LIT(f, "\nInput Tensors:\n");
		for (uint32_t i = 0; i < kernel->n_touches; i++)
			if (touches[i].roles & DT_ROLE_READ)
				print_kernel_tensor(f, g, &touches[i]);
		DT_OUT_LIT(f, "Output Tensors:\n");
		for (uint32_t i = 0; i < kernel->n_touches; i++)
			if (touches[i].roles & DT_ROLE_WRITE)
				print_kernel_tensor(f, g, &touches[i]);
		DT_OUT_LIT(f, KERNEL_RULE "\n");
	}
	return dt_out_close(f);
}

static int write_tensors(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "tensors.config") != 0)
		return -1;
	for (size_t t = 0; t < g->n_tensors; t++)
		if (g->results[t].in_g10)
			print_tensor_line(f, g, t, true);
	return dt_out_close(f);
}

static int write_liveness(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "liveness_analysis.config") != 0)
		return -1;
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor_result *r = &g->results[t];
		if (!r->in_g10)
			continue;
		DT_OUT_LIT(f, TENSOR_RULE "\n");
		print_tensor_line(f, g, t, true);
		if (r->global)
			DT_OUT_LIT(f, "This tensor is Global!\n");
		else
		{
			DT_OUT_LIT(f, "Liveness: Birth: ");
			dt_out_i64(f, r->birth);
			DT_OUT_LIT(f, ", Death: ");
			dt_out_i64(f, r->death);
			DT_OUT_LIT(f, ".\n");
		}
		DT_OUT_LIT(f, HALF_RULE "\n");
		print_tensor_line(f, g, t, true);
		DT_OUT_LIT(f, "Inactive Periods:\n");
		for (size_t i = 0; i < r->n_periods; i++) {
			const struct dt_period *p = &g->periods[r->periods_at + i];
			char us[32];
			DT_OUT_LIT(f, "Period ");
			dt_out_u64(f, i);
			DT_OUT_LIT(f, ": ");
			dt_out_i64(f, p->start);
			DT_OUT_LIT(f, "--------");
			dt_out_i64(f, p->end);
			DT_OUT_LIT(f, "\nEstimated Time:");
			dt_out_str(f, dt_format_us_g(p->estimated_ns, us));
			DT_OUT_LIT(f, "us\n");
		}
		DT_OUT_LIT(f, TENSOR_RULE "\n");
	}
	return dt_out_close(f);
}

static int write_period_log(const struct dt_group *g, const char *dir,
		const char *name)
{
	char file_name[PATH_MAX];
	snprintf(file_name, sizeof(file_name), "%s_TensorPeriodLog.py", name);
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, file_name) != 0)
		return -1;
	DT_OUT_LIT(f, "sd_size = [");
	for (size_t i = 0; i < g->n_periods; i++)
	{
		dt_out_u64(f, g->tensors[g->periods[i].tensor].bytes);
		DT_OUT_LIT(f, ", ");
	}
	DT_OUT_LIT(f, "]\nsd_time = [");
	for (size_t i = 0; i < g->n_periods; i++)
	{
		char us[32];
		dt_out_str(f, dt_format_us_g(g->periods[i].estimated_ns, us));
		DT_OUT_LIT(f, ", ");
	}
	DT_OUT_LIT(f, "]\n# ");
	for (size_t i = 0; i < g->n_periods; i++)
	{
		dt_out_i64(f, g->periods[i].start);
		dt_out_c(f, ' ');
	}
	return dt_out_close(f);
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
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, file_name) != 0)
		return -1;
	DT_OUT_LIT(f, "active = [");
	for (size_t k = 0; k < g->win_count; k++) {
		dt_out_u64(f, g->active_bytes[k]);
		dt_out_c(f, ',');
	}
	DT_OUT_LIT(f, "]\nactive_breakdown = [");
	for (size_t k = 0; k < g->win_count; k++) {
		uint64_t parts[3];
		breakdown(g, k, parts);
		dt_out_c(f, '(');
		dt_out_u64(f, parts[0]);
		dt_out_c(f, ',');
		dt_out_u64(f, parts[1]);
		dt_out_c(f, ',');
		dt_out_u64(f, parts[2]);
		DT_OUT_LIT(f, "),");
	}
	DT_OUT_LIT(f, "]\ntotal = [");
	for (size_t k = 0; k < g->win_count; k++) {
		dt_out_u64(f, g->g10_total_bytes[k]);
		dt_out_c(f, ',');
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
	DT_OUT_LIT(f, "]\nglobal_weight = ");
	dt_out_u64(f, g->global_bytes);
	DT_OUT_LIT(f, "\ninput_size = ");
	dt_out_u64(f, input_size);
	dt_out_c(f, '\n');
	return dt_out_close(f);
}

int dt_write_g10_files(const struct dt_group *g, const char *dir,
		const char *name, int which)
{
	if ((which & DT_G10_KERNELS) && write_kernels(g, dir))
		return -1;
	if ((which & DT_G10_TENSORS) && (write_tensors(g, dir) ||
			write_liveness(g, dir)))
		return -1;
	if ((which & DT_G10_LOGS) && (write_period_log(g, dir, name) ||
			write_memory_log(g, dir, name)))
		return -1;
	return 0;
}
