/*
 * Memory by category, as the MXNet GPU memory profiler breaks it down
 * (keyword rules on tensor names, then "Others"), with dnntrace's own
 * categories from tags (param:, grad:, optim:, act:) and library roles
 * (workspace), and "Untrackable": device memory the process had in use
 * (dnntrace_api:mem_info samples) that no traced tensor accounts for (the
 * CUDA context, library workspaces allocated inside the libraries, caching
 * allocators' reserve, fragmentation; other processes on the same device
 * too, since cuMemGetInfo sees the whole device).
 * A category is what the trace says: keyword rules, then tags, then roles.
 * Categories inferred from lifetimes (tensors.csv) are guesses and go to
 * "Others" here. Must never change the group's results.
 */
#include "analysis/derive/categories.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derive/category.h"
#include "analysis/derive/live_bytes.h"
#include "analysis/util.h"

#define OTHERS "Others"
#define UNTRACKABLE "Untrackable"

/* ---- --categories FILE -------------------------------------------------- */

/* A category becomes a CSV column name: keep it to a safe alphabet. */
static bool valid_category(const char *s)
{
	if (strcmp(s, OTHERS) == 0 || strcmp(s, UNTRACKABLE) == 0)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-+:", *s)))
			return false;
	return true;
}

int dt_category_rules_load(struct dt_category_rules *r, const char *path,
		char *err, size_t err_size, bool *unreadable)
{
	memset(r, 0, sizeof(*r));
	*unreadable = false;
	FILE *f = fopen(path, "r");
	if (!f) {
		*unreadable = true;
		snprintf(err, err_size, "cannot read --categories file %s: %s",
				path, strerror(errno));
		return -1;
	}
	size_t cap = 0, line_no = 0;
	char *line = NULL;
	size_t line_cap = 0;
	int rc = 0;
	while (getline(&line, &line_cap, f) >= 0) {
		line_no++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *fields[3] = {NULL, NULL, NULL};
		size_t n = 0;
		for (char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
		     tok && n < 3; tok = strtok_r(NULL, " \t\r\n", &save))
			fields[n++] = tok;
		if (n == 0)
			continue;
		if (n != 2 || !valid_category(fields[1])) {
			snprintf(err, err_size, "%s:%zu: expected 'keyword category' "
					"(category: letters, digits, ._-+:, not Others "
					"or Untrackable)", path, line_no);
			rc = -1;
			break;
		}
		if (r->n == cap) {
			cap = cap ? 2 * cap : 8;
			r->keywords = dt_xrealloc(r->keywords, cap * sizeof(char *));
			r->categories = dt_xrealloc(r->categories, cap * sizeof(char *));
		}
		r->keywords[r->n] = dt_xstrdup(fields[0]);
		r->categories[r->n++] = dt_xstrdup(fields[1]);
	}
	if (rc == 0 && ferror(f)) {
		*unreadable = true;
		snprintf(err, err_size, "cannot read --categories file %s", path);
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc != 0)
		dt_category_rules_free(r);
	return rc;
}

void dt_category_rules_free(struct dt_category_rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->keywords[i]);
		free(r->categories[i]);
	}
	free(r->keywords);
	free(r->categories);
	memset(r, 0, sizeof(*r));
}

/* ---- categories ----------------------------------------------------------- */

static const uint8_t builtin_rows[] = {
	DT_CATEGORY_PARAMETER, DT_CATEGORY_GRADIENT, DT_CATEGORY_OPTIMIZER_STATE,
	DT_CATEGORY_ACTIVATION, DT_CATEGORY_WORKSPACE,
};
#define N_BUILTIN (sizeof(builtin_rows) / sizeof(builtin_rows[0]))

static uint32_t row_named(const struct dt_categories *c, const char *name)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return i;
	return UINT32_MAX;
}

/* Tensors by their alloc or free call's time, then index: 4 bytes a
 * call (the times are read from the tensors). */
struct call_order {
	const struct dt_tensor *tensors;
	bool frees;
};

static uint64_t call_ns(const struct dt_tensor *t, bool free_call)
{
	return free_call ? t->free_ns : t->alloc_ns;
}

static int compare_calls(const void *a, const void *b, void *arg)
{
	const struct call_order *o = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = call_ns(&o->tensors[x], o->frees);
	uint64_t ty = call_ns(&o->tensors[y], o->frees);
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Untrackable at each mem_info sample of the group's device: in use minus
 * the group's tensors allocated then (host call times: the sample's clock). */
static void untrackable(struct dt_categories *c, const struct dt_group *g,
		const struct dt_process *p)
{
	size_t nk = g->win_count;
	c->untrackable_at_kernel = dt_xmalloc(nk * sizeof(int64_t) + 1);
	for (size_t k = 0; k < nk; k++)
		c->untrackable_at_kernel[k] = -1;
	size_t n = 0;
	for (size_t i = 0; p && i < p->n_mem_samples; i++)
		n += p->mem_samples[i].device == g->device;
	if (n == 0)
		return;
	/* allocs and frees, each list sorted (mostly so already), merged
	 * as the samples go: a sample's sum holds every call at or before it */
	uint32_t *allocs = dt_xmalloc(g->n_tensors * sizeof(*allocs) + 1);
	uint32_t *frees = dt_xmalloc(g->n_tensors * sizeof(*frees) + 1);
	size_t n_allocs = 0, n_frees = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		allocs[n_allocs++] = (uint32_t)t;
		if (g->tensors[t].free_ns != DT_NO_TIME)
			frees[n_frees++] = (uint32_t)t;
	}
	struct call_order by_alloc = {g->tensors, false};
	struct call_order by_free = {g->tensors, true};
	dt_sort_r(allocs, n_allocs, sizeof(*allocs), compare_calls, &by_alloc);
	dt_sort_r(frees, n_frees, sizeof(*frees), compare_calls, &by_free);
	uint64_t *sample_ts = dt_xmalloc(n * sizeof(uint64_t));
	uint64_t *value = dt_xmalloc(n * sizeof(uint64_t));
	size_t next_alloc = 0, next_free = 0, j = 0;
	__int128 tracked = 0;
	double sum = 0;
	c->untrackable_max = 0;
	c->n_overtraced = 0;
	c->overtraced_max = 0;
	/* samples come in trace (time) order */
	for (size_t i = 0; i < p->n_mem_samples; i++) {
		const struct dt_mem_sample *s = &p->mem_samples[i];
		if (s->device != g->device)
			continue;
		for (; next_alloc < n_allocs &&
		       g->tensors[allocs[next_alloc]].alloc_ns <= s->ts; next_alloc++)
			tracked += (__int128)g->tensors[allocs[next_alloc]].bytes;
		for (; next_free < n_frees &&
		       g->tensors[frees[next_free]].free_ns <= s->ts; next_free++)
			tracked -= (__int128)g->tensors[frees[next_free]].bytes;
		__int128 excess = tracked - (__int128)s->used_bytes;
		/* More traced than the device has in use: a free the trace
		 * missed, or a wrong size. Untrackable is 0 there, and the
		 * inconsistency is counted, never clamped away. */
		if (excess > 0) {
			c->n_overtraced++;
			uint64_t e = excess > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)excess;
			if (e > c->overtraced_max)
				c->overtraced_max = e;
		}
		uint64_t v = excess < 0 ? (uint64_t)(-excess) : 0;
		sample_ts[j] = s->ts;
		value[j++] = v;
		sum += (double)v;
		if (v > c->untrackable_max)
			c->untrackable_max = v;
	}
	free(frees);
	free(allocs);
	c->n_samples = n;
	c->untrackable_mean = sum / (double)n;
	/* each kernel: the latest sample at or before its start */
	const struct dt_kernel *window = &g->kernels[g->win_first];
	for (size_t k = 0; k < nk; k++) {
		size_t lo = 0, hi = n;   /* first sample after the start */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (sample_ts[mid] > window[k].start)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo > 0)
			c->untrackable_at_kernel[k] = (int64_t)value[lo - 1];
	}
	/* at a kernel before every sample: the first sample stands in */
	c->untrackable_at_peak = nk && c->untrackable_at_kernel[g->peak_kernel] >= 0 ?
		(uint64_t)c->untrackable_at_kernel[g->peak_kernel] : value[0];
	free(sample_ts);
	free(value);
}

void dt_categories_compute(struct dt_categories *c, const struct dt_group *g,
		const struct dt_process *p, const struct dt_category_rules *rules,
		const struct dt_swap *swap)
{
	memset(c, 0, sizeof(*c));
	c->names = dt_xmalloc((rules->n + N_BUILTIN + 1) * sizeof(char *));
	for (size_t i = 0; i < rules->n; i++)
		if (row_named(c, rules->categories[i]) == UINT32_MAX)
			c->names[c->n++] = rules->categories[i];
	for (size_t i = 0; i < N_BUILTIN; i++)
		if (row_named(c, dt_category_name(builtin_rows[i])) == UINT32_MAX)
			c->names[c->n++] = dt_category_name(builtin_rows[i]);
	uint32_t others = (uint32_t)c->n;
	c->names[c->n++] = OTHERS;

	c->of_tensor = dt_xmalloc(g->n_tensors * sizeof(uint32_t) + 1);
	for (size_t t = 0; t < g->n_tensors; t++) {
		const char *name = g->tensors[t].name;
		const struct dt_tensor_result *r = &g->results[t];
		uint32_t row = others;
		for (size_t i = 0; name && i < rules->n; i++) {
			if (strstr(name, rules->keywords[i])) {
				row = row_named(c, rules->categories[i]);
				break;
			}
		}
		if (row == others && r->category_source != DT_CATEGORY_INFERRED)
			row = row_named(c, dt_category_name(r->category));
		c->of_tensor[t] = row == UINT32_MAX ? others : row;
	}

	size_t nk = g->win_count;
	c->per_kernel = dt_xcalloc(nk * c->n + 1, sizeof(uint64_t));
	c->at_peak = dt_xcalloc(c->n, sizeof(uint64_t));
	c->max = dt_xcalloc(c->n, sizeof(uint64_t));
	c->at_swapped_peak = dt_xcalloc(c->n, sizeof(uint64_t));
	c->mean = dt_xcalloc(c->n, sizeof(double));
	/* by the rule memory.csv uses, so the rows add up to live_bytes */
	(void)dt_live_bytes_sweep(g, c->of_tensor, c->n, c->per_kernel);   /* window.c flags a saturated total */
	for (size_t k = 0; k < nk; k++) {
		for (size_t i = 0; i < c->n; i++) {
			uint64_t v = c->per_kernel[k * c->n + i];
			c->mean[i] += (double)v / (double)nk;
			if (v > c->max[i])
				c->max[i] = v;
		}
	}
	if (nk) {
		for (size_t i = 0; i < c->n; i++) {
			c->at_peak[i] = c->per_kernel[g->peak_kernel * c->n + i];
			c->at_swapped_peak[i] =
				c->per_kernel[swap->peak_kernel * c->n + i];
		}
		/* minus the tensors swapped out at that kernel */
		for (size_t q = 0; q < g->n_periods; q++) {
			if (!dt_swap_absent(swap, g, q, swap->peak_kernel))
				continue;
			size_t t = g->periods[q].tensor;
			uint32_t row = c->of_tensor[t];
			uint64_t bytes = g->tensors[t].bytes;
			c->at_swapped_peak[row] -= bytes < c->at_swapped_peak[row] ?
				bytes : c->at_swapped_peak[row];
		}
	}
	untrackable(c, g, p);
	if (c->n_samples)
		c->untrackable_at_swapped_peak = nk &&
			c->untrackable_at_kernel[swap->peak_kernel] >= 0 ?
			(uint64_t)c->untrackable_at_kernel[swap->peak_kernel] :
			c->untrackable_at_peak;
}

void dt_categories_free(struct dt_categories *c)
{
	free(c->names);
	free(c->of_tensor);
	free(c->per_kernel);
	free(c->at_peak);
	free(c->max);
	free(c->at_swapped_peak);
	free(c->mean);
	free(c->untrackable_at_kernel);
	memset(c, 0, sizeof(*c));
}
