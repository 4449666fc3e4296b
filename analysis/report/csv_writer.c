/*
 * The CSV tables (csv_writer.h). Kernel names can hold commas and quotes
 * (C++ templates), so every free-text field goes through dt_csv_field.
 * Must never print a time or id in a locale-dependent way.
 */
#include "analysis/report/csv_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>

#include "analysis/model/api_names.h"
#include "analysis/derive/category.h"
#include "tracepoints/dnntrace_enums.h"

/* by enum dnntrace_mem_kind; only device kinds become tensors (vmm_mapped
 * among them), the others are listed so every value has its label */
static const char *const kind_names[] = {
	[DNNTRACE_MEM_DEVICE] = "device",
	[DNNTRACE_MEM_MANAGED] = "managed",
	[DNNTRACE_MEM_PINNED_HOST] = "pinned_host",
	[DNNTRACE_MEM_STREAM_ORDERED] = "stream_ordered",
	[DNNTRACE_MEM_VMM_MAPPED] = "vmm_mapped",
	[DNNTRACE_MEM_VMM_PHYSICAL] = "vmm_physical",
	[DNNTRACE_MEM_VMM_RESERVED] = "vmm_reserved",
};
#define N_KIND_NAMES (sizeof(kind_names) / sizeof(kind_names[0]))

void dt_csv_field(struct dt_out *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		dt_out_str(f, s);
		return;
	}
	dt_out_c(f, '"');
	for (; *s; s++) {
		if (*s == '"')
			dt_out_c(f, '"');
		dt_out_c(f, *s);
	}
	dt_out_c(f, '"');
}

/* Space-separated tensor ids of the kernel's touches having any of roles. */
static void print_ids(struct dt_out *f, const struct dt_group *g,
		const struct dt_kernel *k, uint8_t roles)
{
	bool first = true;
	for (uint32_t i = 0; i < k->n_touches; i++) {
		const struct dt_touch *touch = &g->touches[k->touches_at + i];
		if (!(touch->roles & roles))
			continue;
		if (!first)
			dt_out_c(f, ' ');
		dt_out_i64(f, g->tensors[touch->tensor].id);
		first = false;
	}
}

static int write_kernels(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "kernels.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "index,device,stream,start_ns,end_ns,duration_ns,name,api,inputs,"
			"outputs,touched,op\n");
	for (size_t i = 0; i < g->win_count; i++) {
		const struct dt_kernel *k = &g->kernels[g->win_first + i];
		const uint64_t fields[] = {i, k->device, k->stream, k->start,
			k->end, k->duration_ns};
		for (size_t j = 0; j < sizeof(fields) / sizeof(fields[0]); j++) {
			dt_out_u64(f, fields[j]);
			dt_out_c(f, ',');
		}
		dt_csv_field(f, k->name);
		dt_out_c(f, ',');
		/* a library call's kernels name the library entry point */
		if (k->source == DT_SOURCE_LAUNCH)
			dt_out_str(f, dt_launch_api_name(k->api));
		else if (k->source == DT_SOURCE_LIBRARY)
			dt_out_str(f, dt_lib_api_name(k->api));
		dt_out_c(f, ',');
		print_ids(f, g, k, DT_ROLE_READ);
		dt_out_c(f, ',');
		print_ids(f, g, k, DT_ROLE_WRITE);
		dt_out_c(f, ',');
		print_ids(f, g, k, DT_ROLE_READ | DT_ROLE_WRITE);
		dt_out_c(f, ',');
		if (k->op)   /* the innermost NVTX range at its call */
			dt_csv_field(f, k->op);
		dt_out_c(f, '\n');
	}
	return dt_out_close(f);
}

static void print_optional(struct dt_out *f, bool present, int64_t value)
{
	if (present)
		dt_out_i64(f, value);
}

static int write_tensors(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "tensors.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "id,name,bytes,device,kind,alloc_ns,free_ns,first_use,last_use,"
			"global,category,category_source,addr,stream\n");
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		const struct dt_tensor_result *r = &g->results[i];
		char buf[32];
		dt_out_i64(f, t->id);
		dt_out_c(f, ',');
		dt_csv_field(f, dt_tensor_display_name(t, buf, sizeof(buf)));
		dt_out_c(f, ',');
		dt_out_u64(f, t->bytes);
		dt_out_c(f, ',');
		dt_out_i64(f, t->device);
		dt_out_c(f, ',');
		dt_out_str(f, (size_t)t->kind < N_KIND_NAMES ?
				kind_names[t->kind] :
				"unknown");
		dt_out_c(f, ',');
		dt_out_u64(f, t->alloc_ns);
		dt_out_c(f, ',');
		if (t->free_ns != DT_NO_TIME)
			dt_out_u64(f, t->free_ns);
		dt_out_c(f, ',');
		print_optional(f, r->first_use >= 0, r->first_use);
		dt_out_c(f, ',');
		print_optional(f, r->last_use >= 0, r->last_use);
		dt_out_str(f, r->global ? ",1," : ",0,");
		dt_out_str(f, dt_category_name(r->category));
		dt_out_c(f, ',');
		dt_out_str(f, dt_category_source_name(r->category_source));
		dt_out_c(f, ',');
		if (t->ptr)          /* unknown in traces older than the address */
			dt_out_hex(f, t->ptr);
		dt_out_c(f, ',');
		dt_out_hex(f, t->stream);
		dt_out_c(f, '\n');
	}
	return dt_out_close(f);
}

static int write_periods(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "periods.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "tensor,period,start,end,estimated_us,looped\n");
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor_result *r = &g->results[t];
		for (size_t i = 0; i < r->n_periods; i++) {
			const struct dt_period *p = &g->periods[r->periods_at + i];
			dt_out_i64(f, g->tensors[t].id);
			dt_out_c(f, ',');
			dt_out_u64(f, i);
			dt_out_c(f, ',');
			dt_out_i64(f, p->start);
			dt_out_c(f, ',');
			dt_out_i64(f, p->end);
			dt_out_c(f, ',');
			/* exact: ns -> us with three decimals */
			dt_out_us3(f, p->estimated_ns);
			dt_out_str(f, p->looped ? ",1\n" : ",0\n");
		}
	}
	return dt_out_close(f);
}

static int write_memory(const struct dt_group *g, const char *dir)
{
	struct dt_out out, *f = &out;
	if (dt_out_open_in(f, dir, "memory.csv") != 0)
		return -1;
	DT_OUT_LIT(f, "index,live_bytes,active_bytes\n");
	for (size_t k = 0; k < g->win_count; k++) {
		dt_out_u64(f, k);
		dt_out_c(f, ',');
		dt_out_u64(f, g->live_bytes[k]);
		dt_out_c(f, ',');
		dt_out_u64(f, g->active_bytes[k]);
		dt_out_c(f, '\n');
	}
	return dt_out_close(f);
}

int dt_write_csv_files(const struct dt_group *g, const char *dir)
{
	if (write_kernels(g, dir) || write_tensors(g, dir) ||
	    write_periods(g, dir) || write_memory(g, dir))
		return -1;
	return 0;
}
