/*
 * GPU busy/idle, idle split, stream overlap, launch delay and device time
 * per op and kernel (gpu_time.h), from the window's kernels: one sweep
 * over their start and end points sorted by time (ends before starts at
 * the same time, so back-to-back kernels neither overlap nor leave a
 * gap). An idle gap ends when a kernel starts; the host was the one being
 * waited for while that kernel's call had not yet returned (call_ns, the
 * call's event time; for a library call that is when the whole call
 * returned, so its gaps lean to the host).
 * Must never change the group, nor write: report/gpu_time_report.c does.
 */
#include "analysis/derive/gpu_time.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/model/api_names.h"
#include "analysis/util.h"
#include "tracepoints/dnntrace_enums.h"

struct point {
	uint64_t t;
	int delta;                   /* -1 an end, +1 a start */
	size_t kernel;
};

static int compare_points(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->delta != y->delta)
		return x->delta < y->delta ? -1 : 1;
	return x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

static bool usable(const struct dt_group *g)
{
	return g->granularity == DT_GRANULARITY_KERNEL &&
		!g->kernel_times_missing && g->win_count > 0;
}

void dt_gpu_time_compute(const struct dt_group *g, struct dt_gpu_time *out)
{
	memset(out, 0, sizeof(*out));
	if (!usable(g))
		return;
	out->valid = true;
	const struct dt_kernel *k = g->kernels + g->win_first;
	size_t n = g->win_count;
	struct point *points = dt_xmalloc(2 * n * sizeof(*points));
	uint64_t first = UINT64_MAX, last = 0;
	double delay_sum = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t end = k[i].end > k[i].start ? k[i].end : k[i].start;
		points[2 * i] = (struct point){k[i].start, +1, i};
		points[2 * i + 1] = (struct point){end, -1, i};
		if (k[i].start < first)
			first = k[i].start;
		if (end > last)
			last = end;
		/* a graph launch may return after its kernels (host nodes run
		 * inside it): its kernels have no launch delay of their own */
		if (k[i].source == DT_SOURCE_LAUNCH && k[i].call_ns != DT_NO_TIME &&
		    !dt_api_is_graph_launch(k[i].api)) {
			int64_t delay = (int64_t)(k[i].start - k[i].call_ns);
			if (out->n_delays == 0 || delay > out->delay_max_ns)
				out->delay_max_ns = delay;
			delay_sum += (double)delay;
			out->n_delays++;
		}
	}
	if (out->n_delays)
		out->delay_mean_ns = delay_sum / (double)out->n_delays;
	dt_sort(points, 2 * n, sizeof(*points), compare_points);
	int depth = 0;
	uint64_t prev = first;
	for (size_t i = 0; i < 2 * n; i++) {
		const struct point *pt = &points[i];
		uint64_t dt = pt->t - prev;
		if (depth >= 1)
			out->busy_ns += dt;
		if (depth >= 2)
			out->overlap_ns += dt;
		if (depth == 0 && dt > 0) {
			/* idle until this kernel starts: the host's while its
			 * call had not returned */
			uint64_t call = k[pt->kernel].call_ns;
			uint64_t host = 0;
			if (call != DT_NO_TIME && call > prev)
				host = (call < pt->t ? call : pt->t) - prev;
			out->idle_host_ns += host;
			out->idle_other_ns += dt - host;
		}
		depth += pt->delta;
		prev = pt->t;
	}
	free(points);
	out->span_ns = last - first;
	out->idle_ns = out->idle_host_ns + out->idle_other_ns;
}

static int compare_rows(const void *a, const void *b)
{
	const struct dt_gpu_time_row *x = a, *y = b;
	if (x->op != y->op)
		return x->op ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void add_row(struct dt_gpu_time_row **rows, size_t *n, size_t *cap,
		struct dt_u64map *index, const char *name, bool op, uint64_t ns)
{
	/* names are interned (kernel names, ranges) or static (library
	 * entry points): one pointer per name and kind */
	uint64_t key = (uint64_t)(uintptr_t)name ^ (op ? 1 : 0);
	uint64_t i;
	if (!dt_u64map_get(index, key, &i)) {
		i = *n;
		dt_u64map_put(index, key, i);
		*DT_PUSH_SLOT(*rows, *n, *cap) = (struct dt_gpu_time_row){name, op, 0, 0};
	}
	(*rows)[i].count++;
	(*rows)[i].ns += ns;
}

struct dt_gpu_time_row *dt_gpu_time_rows(const struct dt_group *g,
		size_t *n_rows)
{
	struct dt_gpu_time_row *rows = NULL;
	size_t cap_rows = 0;
	struct dt_u64map index = {0};
	*n_rows = 0;
	for (size_t i = 0; i < g->win_count; i++) {
		const struct dt_kernel *k = &g->kernels[g->win_first + i];
		uint64_t ns = k->end > k->start ? k->end - k->start : 0;
		const char *op = k->op ? k->op :
			k->source == DT_SOURCE_LIBRARY ?
			dt_lib_api_name(k->api) : NULL;
		if (op && op[0])
			add_row(&rows, n_rows, &cap_rows, &index, op, true, ns);
		add_row(&rows, n_rows, &cap_rows, &index,
				k->name ? k->name : "", false, ns);
	}
	dt_sort(rows, *n_rows, sizeof(*rows), compare_rows);
	dt_u64map_free(&index);
	return rows;
}
