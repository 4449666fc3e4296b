/*
 * The analysis of a window of kernels (group.h): the window of an NVTX
 * range, and for a window (--kernels, --range, or every kernel) global
 * and local, G10's Birth/Death and inactive periods, memory per kernel,
 * the peak and the tensors' categories; and which window each group gets
 * for what the user asked (dt_groups_choose_windows). Must never build
 * or reorder kernels (group_build.c), read the trace, print or write
 * output.
 */
#include "analysis/derive/window.h"
#include "analysis/model/nvtx_ranges.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/derive/category.h"
#include "analysis/derive/live_bytes.h"
#include "analysis/request.h"

/* Byte sums: wide enough that no trace can overflow them (2^64 tensors
 * of 2^64 bytes), then saturated to what a report can print; the group
 * says when that happened (bytes_saturated). */
static uint64_t saturate_bytes(struct dt_group *g, __int128 v)
{
	if (v < 0)
		return 0;
	if (v > (__int128)UINT64_MAX) {
		g->bytes_saturated = true;
		return UINT64_MAX;
	}
	return (uint64_t)v;
}

static uint64_t add_bytes(struct dt_group *g, uint64_t a, uint64_t b)
{
	return saturate_bytes(g, (__int128)a + b);
}

/* Categories: the tag's prefix, else a WORKSPACE role in any library
 * call, else inferred from the tensor's uses in the window (category.c). */
static void assign_categories(struct dt_group *g, const struct dt_use *uses,
		const size_t *use_at)
{
	for (size_t t = 0; t < g->n_tensors; t++) {
		struct dt_tensor_result *r = &g->results[t];
		uint8_t category;
		if (dt_category_of_tag(g->tensors[t].name, &category)) {
			r->category = category;
			r->category_source = DT_CATEGORY_FROM_TAG;
		} else if (g->tensors[t].workspace) {
			r->category = DT_CATEGORY_WORKSPACE;
			r->category_source = DT_CATEGORY_FROM_ROLE;
		} else {
			r->category = dt_category_infer(r->global, r->birth,
					r->death, &uses[use_at[t]],
					use_at[t + 1] - use_at[t], g->win_count);
			r->category_source = DT_CATEGORY_INFERRED;
		}
	}
}

/* The one rule of a --range window, for the held group and for the
 * kernel order before the group is built: from the first to the last of
 * the n kernels whose call time lies in [start_ns, end_ns]. */
static bool calls_in_span(size_t n,
		uint64_t (*call_ns)(const void *ctx, size_t k), const void *ctx,
		uint64_t start_ns, uint64_t end_ns, size_t *first, size_t *count)
{
	bool found = false;
	size_t lo = 0, hi = 0;
	for (size_t k = 0; k < n; k++) {
		uint64_t t = call_ns(ctx, k);
		if (t == DT_NO_TIME || t < start_ns || t > end_ns)
			continue;
		if (!found)
			lo = k;
		hi = k;
		found = true;
	}
	*first = lo;
	*count = found ? hi - lo + 1 : 0;
	return found;
}

static uint64_t held_call_ns(const void *ctx, size_t k)
{
	return ((const struct dt_group *)ctx)->kernels[k].call_ns;
}

bool dt_group_range_window(const struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns, size_t *first, size_t *count)
{
	bool found = calls_in_span(g->n_kernels_held, held_call_ns, g,
			start_ns, end_ns, first, count);
	*first += g->kernels_from;
	return found;
}

static void analyze_window(struct dt_group *g);

/* The window: full-order kernels [first, first+count), clamped to those
 * the group holds; win_first is an index into its kernels[]. */
static void set_window(struct dt_group *g, size_t first, size_t count)
{
	size_t from = g->kernels_from, end = from + g->n_kernels_held;
	if (first < from)
		first = from;
	if (first > end)
		first = end;
	if (count > end - first)
		count = end - first;
	g->win_first = first - from;
	g->win_count = count;
}

/* The window of an NVTX range, judged by the range's times; false when
 * no kernel was launched inside it (nothing set). */
static bool set_range_window(struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns)
{
	size_t first, count;
	if (!dt_group_range_window(g, start_ns, end_ns, &first, &count))
		return false;
	g->range_times = true;
	g->range_start_ns = start_ns;
	g->range_end_ns = end_ns;
	set_window(g, first, count);
	return true;
}

bool dt_group_analyze_range(struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns)
{
	if (!set_range_window(g, start_ns, end_ns))
		return false;
	analyze_window(g);
	return true;
}

void dt_group_analyze(struct dt_group *g, size_t first, size_t count)
{
	g->range_times = false;
	set_window(g, first, count);
	analyze_window(g);
}

/* The analysis of the window set (set_window). */
static void analyze_window(struct dt_group *g)
{
	free(g->results);
	free(g->periods);
	free(g->live_bytes);
	free(g->active_bytes);
	free(g->g10_total_bytes);
	g->bytes_saturated = false;
	size_t first = g->win_first, count = g->win_count;
	size_t nt = g->n_tensors, nk = count;
	const struct dt_kernel *window = &g->kernels[first];
	g->results = dt_xcalloc(nt, sizeof(*g->results));
	g->live_bytes = dt_xcalloc(nk, sizeof(uint64_t));
	g->active_bytes = dt_xcalloc(nk, sizeof(uint64_t));
	g->g10_total_bytes = dt_xcalloc(nk, sizeof(uint64_t));

	/* Uses per tensor inside the window, in kernel order (CSR layout). */
	size_t *use_at = dt_xcalloc(nt + 1, sizeof(size_t));
	for (size_t k = 0; k < nk; k++)
		for (uint32_t i = 0; i < window[k].n_touches; i++)
			use_at[g->touches[window[k].touches_at + i].tensor + 1]++;
	for (size_t t = 0; t < nt; t++)
		use_at[t + 1] += use_at[t];
	size_t n_uses = use_at[nt];
	struct dt_use *uses = dt_xmalloc(n_uses * sizeof(*uses) + 1);
	size_t *fill = dt_xmalloc(nt * sizeof(size_t) + 1);
	memcpy(fill, use_at, nt * sizeof(size_t));
	for (size_t k = 0; k < nk; k++) {
		for (uint32_t i = 0; i < window[k].n_touches; i++) {
			const struct dt_touch *touch =
				&g->touches[window[k].touches_at + i];
			uses[fill[touch->tensor]++] = (struct dt_use){
				(uint32_t)k, touch->roles};
			g->active_bytes[k] = add_bytes(g, g->active_bytes[k],
					g->tensors[touch->tensor].bytes);
		}
	}
	free(fill);

	/* Global: allocated before the window's first kernel starts and not
	 * given back before its kernels have all ended (GPU times: stream-
	 * ordered allocs and frees count when their stream got there); for an NVTX
	 * range's window, allocated before the range opened and not freed
	 * before it closed (host times, like the alloc and free calls). */
	uint64_t first_start = nk ? window[0].start : 0, last_end = 0;
	for (size_t k = 0; k < nk; k++) {
		if (window[k].start < first_start)
			first_start = window[k].start;
		if (window[k].end > last_end)
			last_end = window[k].end;
	}
	if (g->range_times && nk) {
		first_start = g->range_start_ns;
		last_end = g->range_end_ns;
	}
	uint64_t *prefix_ns = dt_xcalloc(nk + 1, sizeof(uint64_t));
	for (size_t k = 0; k < nk; k++)
		prefix_ns[k + 1] = prefix_ns[k] + window[k].duration_ns;

	g->periods = dt_xmalloc((n_uses + nt) * sizeof(*g->periods) + 1);
	g->n_periods = 0;
	g->global_bytes = 0;
	__int128 *total_delta = dt_xcalloc(nk + 1, sizeof(__int128));
	for (size_t t = 0; t < nt; t++) {
		const struct dt_tensor *tensor = &g->tensors[t];
		struct dt_tensor_result *r = &g->results[t];
		const struct dt_use *tu = &uses[use_at[t]];
		size_t tn = use_at[t + 1] - use_at[t];
		r->first_use = tn ? (int32_t)tu[0].kernel : -1;
		r->last_use = tn ? (int32_t)tu[tn - 1].kernel : -1;
		r->birth = r->death = -1;
		if (nk == 0)
			continue;
		uint64_t born = g->range_times ? tensor->alloc_ns :
			dt_tensor_ready_ns(tensor);
		uint64_t gone = g->range_times ? tensor->free_ns :
			dt_tensor_release_ns(tensor);
		r->global = born < first_start &&
			(gone == DT_NO_TIME || gone >= last_end);
		r->in_g10 = tn > 0 || (born <= last_end &&
			(gone == DT_NO_TIME || gone > first_start));
		if (!r->in_g10)
			continue;
		if (r->global) {
			g->global_bytes = add_bytes(g, g->global_bytes, tensor->bytes);
		} else {
			int64_t birth, death;
			dt_liveness_local(tu, tn, &birth, &death);
			r->birth = (int32_t)birth;   /* window kernel indices */
			r->death = (int32_t)death;
			/* G10 "total": live from Birth to Death-1; a Death of -1
			 * counts as Birth+1. */
			if (r->birth >= 0) {
				int64_t end = r->death >= 0 ? r->death : r->birth + 1;
				total_delta[r->birth] += tensor->bytes;
				total_delta[end] -= tensor->bytes;
			}
		}
		r->periods_at = g->n_periods;
		r->n_periods = (uint32_t)dt_liveness_periods(r->global, tu, tn, r->death, nk,
				(uint32_t)t, &g->periods[g->n_periods]);
		g->n_periods += r->n_periods;
		for (size_t i = 0; i < r->n_periods; i++) {
			struct dt_period *period = &g->periods[r->periods_at + i];
			dt_liveness_estimate(period, prefix_ns, nk);
			r->idle_byte_seconds += (double)tensor->bytes *
				(double)period->estimated_ns / 1e9;
		}
	}
	__int128 running = 0;
	for (size_t k = 0; k < nk; k++) {
		running += total_delta[k];
		g->g10_total_bytes[k] = saturate_bytes(g, running + g->global_bytes);
	}
	free(total_delta);
	free(prefix_ns);
	assign_categories(g, uses, use_at);
	free(uses);
	free(use_at);

	if (dt_live_bytes_sweep(g, NULL, 1, g->live_bytes))
		g->bytes_saturated = true;
	g->peak_kernel = 0;
	g->peak_bytes = 0;
	for (size_t k = 0; k < nk; k++) {
		if (g->live_bytes[k] > g->peak_bytes) {
			g->peak_bytes = g->live_bytes[k];
			g->peak_kernel = k;
		}
	}
}

/* ---- the window the request asks for ---------------------------------- */

bool dt_window_to_build(const struct dt_request *req,
		const struct dt_process *p, size_t n,
		uint64_t (*call_ns)(const void *ctx, size_t k), const void *ctx,
		size_t *first, size_t *count)
{
	if (!req)
		return false;
	if (req->range_name) {
		/* what choose_range and dt_group_range_window find */
		const struct dt_range *r = dt_process_find_range(p,
				req->range_name, req->range_occurrence - 1, NULL);
		return r && calls_in_span(n, call_ns, ctx, r->start_ns,
				r->end_ns, first, count);
	}
	/* what choose_kernels chooses */
	if (!req->has_window || req->window_last >= n)
		return false;
	*first = req->window_first;
	*count = req->window_last - req->window_first + 1;
	return true;
}

/* --kernels A:B (or none: every kernel). A window applies to every group
 * it fits; a group with fewer kernels is analyzed whole and says so.
 * Fitting none is a usage error (1). */
static int choose_kernels(const struct dt_request *req, struct dt_group *groups,
		size_t n_groups, char **error)
{
	bool window_fits_some = false;
	for (size_t i = 0; i < n_groups; i++) {
		struct dt_group *g = &groups[i];
		size_t first = 0, count = g->n_kernels;
		if (req->has_window && req->window_last < g->n_kernels) {
			first = req->window_first;
			count = req->window_last - req->window_first + 1;
			window_fits_some = true;
		} else if (req->has_window) {
			g->window_misfit = true;
		}
		g->range_times = false;
		set_window(g, first, count);
	}
	if (!req->has_window || window_fits_some)
		return 0;
	size_t most = 0;
	for (size_t i = 0; i < n_groups; i++)
		if (groups[i].n_kernels > most)
			most = groups[i].n_kernels;
	*error = dt_xasprintf("--kernels %zu:%zu out of range: the trace "
			"has at most %zu %s per process and device",
			req->window_first, req->window_last, most,
			req->granularity == DT_GRANULARITY_OP ? "ops" : "kernels");
	return 1;
}

/*
 * --range NAME:N: in each group, the kernels launched (by any thread of its
 * process) inside the N-th range named NAME of that process. Like
 * --kernels, a group where it does not occur, or launched nothing, is
 * analyzed whole and says so; a range that fits no group is a usage
 * error (1): no such range, fewer occurrences, or no kernels inside.
 */
static int choose_range(const struct dt_request *req, const struct dt_model *m,
		struct dt_group *groups, size_t n_groups, char **error)
{
	size_t most = 0;
	for (size_t i = 0; i < m->n_processes; i++) {
		size_t count;
		dt_process_find_range(&m->processes[i], req->range_name, 0, &count);
		if (count > most)
			most = count;
	}
	bool fits_some = false;
	for (size_t i = 0; i < n_groups; i++) {
		struct dt_group *g = &groups[i];
		const struct dt_process *p = dt_model_find_process(m, g->vpid);
		const struct dt_range *r = p ? dt_process_find_range(p,
				req->range_name, req->range_occurrence - 1, NULL) : NULL;
		if (r && set_range_window(g, r->start_ns, r->end_ns)) {
			fits_some = true;
		} else {
			g->window_misfit = true;
			g->range_times = false;
			set_window(g, 0, g->n_kernels);
		}
	}
	if (fits_some)
		return 0;
	if (most == 0)
		*error = dt_xasprintf("--range %s: no NVTX range named %s in "
				"the trace", req->range_name, req->range_name);
	else if (req->range_occurrence > most)
		*error = dt_xasprintf("--range %s:%zu: %s occurs only %zu "
				"time%s in a process", req->range_name,
				req->range_occurrence, req->range_name, most,
				most == 1 ? "" : "s");
	else
		*error = dt_xasprintf("--range %s:%zu: no kernel was launched "
				"inside it", req->range_name, req->range_occurrence);
	return 1;
}

int dt_groups_choose_windows(const struct dt_request *req,
		const struct dt_model *m, struct dt_group *groups, size_t n_groups,
		char **error)
{
	*error = NULL;
	int rc = req->range_name ? choose_range(req, m, groups, n_groups, error) :
		choose_kernels(req, groups, n_groups, error);
	for (size_t i = 0; i < n_groups && rc == 0; i++)
		if (groups[i].win_count > DT_MAX_WINDOW_KERNELS) {
			*error = dt_xasprintf("process %lld device %d: a "
				"window of %zu kernels, more than the %zu one "
				"analysis indexes (choose fewer with --kernels A:B)",
				(long long)groups[i].vpid, groups[i].device,
				groups[i].win_count, DT_MAX_WINDOW_KERNELS);
			rc = 1;
		}
	return rc;
}

void dt_groups_analyze_windows(struct dt_group *groups, size_t n_groups)
{
	for (size_t i = 0; i < n_groups; i++)
		analyze_window(&groups[i]);
}

int dt_groups_analyze_request(const struct dt_request *req,
		const struct dt_model *m, struct dt_group *groups, size_t n_groups,
		char **error)
{
	int rc = dt_groups_choose_windows(req, m, groups, n_groups, error);
	dt_groups_analyze_windows(groups, n_groups);
	return rc;
}
