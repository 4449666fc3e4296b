/*
 * The live-bytes sweep (live_bytes.h): one pass over the tensors' ready
 * and release points in time order against the window's kernels in start
 * order. Must never write output.
 */
#include "analysis/derive/live_bytes.h"

#include <stdlib.h>

#include "analysis/util.h"

/* A tensor's ready and release points, by its index: 4 bytes a point
 * (the times are read from the tensors). */
static uint64_t ready_of(const struct dt_tensor *t)
{
	return dt_tensor_ready_ns(t);
}

static uint64_t release_of(const struct dt_tensor *t)
{
	uint64_t ready = dt_tensor_ready_ns(t), gone = dt_tensor_release_ns(t);
	return gone < ready ? ready : gone;
}

struct point_order {
	const struct dt_tensor *tensors;
	uint64_t (*time)(const struct dt_tensor *);
};

static int compare_points(const void *a, const void *b, void *arg)
{
	const struct point_order *o = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = o->time(&o->tensors[x]), ty = o->time(&o->tensors[y]);
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

static const struct dt_kernel *sort_base;
static int compare_kernel_starts(const void *a, const void *b)
{
	uint64_t x = sort_base[*(const size_t *)a].start;
	uint64_t y = sort_base[*(const size_t *)b].start;
	return x < y ? -1 : x > y;
}

bool dt_live_bytes_sweep(const struct dt_group *g, const uint32_t *row_of_tensor,
		size_t n_rows, uint64_t *per_kernel)
{
	bool saturated = false;
	size_t nk = g->win_count;
	const struct dt_kernel *window = &g->kernels[g->win_first];
	if (nk == 0)
		return false;
	/* ready points and release points, each sorted (tensors come in
	 * alloc order: the ready points mostly are already), then merged as
	 * the sweep goes: the bytes at a kernel's start sum every point at
	 * or before it, in whatever order */
	uint32_t *ready = dt_xmalloc(g->n_tensors * sizeof(*ready) + 1);
	uint32_t *release = dt_xmalloc(g->n_tensors * sizeof(*release) + 1);
	size_t n_ready = 0, n_release = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		ready[n_ready++] = (uint32_t)t;
		if (g->tensors[t].free_ns != DT_NO_TIME)
			release[n_release++] = (uint32_t)t;
	}
	struct point_order by_ready = {g->tensors, ready_of};
	struct point_order by_release = {g->tensors, release_of};
	dt_sort_r(ready, n_ready, sizeof(*ready), compare_points, &by_ready);
	dt_sort_r(release, n_release, sizeof(*release), compare_points, &by_release);
	size_t *order = dt_xmalloc(nk * sizeof(size_t) + 1);
	for (size_t k = 0; k < nk; k++)
		order[k] = k;
	sort_base = window;
	dt_sort(order, nk, sizeof(size_t), compare_kernel_starts);
	__int128 *running = dt_xcalloc(n_rows, sizeof(__int128));
	size_t next_ready = 0, next_release = 0;
	for (size_t o = 0; o < nk; o++) {
		size_t k = order[o];
		uint64_t start = window[k].start;
		for (; next_ready < n_ready &&
		       ready_of(&g->tensors[ready[next_ready]]) <= start; next_ready++) {
			size_t t = ready[next_ready];
			running[row_of_tensor ? row_of_tensor[t] : 0] +=
				(__int128)g->tensors[t].bytes;
		}
		for (; next_release < n_release &&
		       release_of(&g->tensors[release[next_release]]) <= start;
		     next_release++) {
			size_t t = release[next_release];
			running[row_of_tensor ? row_of_tensor[t] : 0] -=
				(__int128)g->tensors[t].bytes;
		}
		for (size_t i = 0; i < n_rows; i++) {
			uint64_t bytes = running[i] > 0 ? (uint64_t)running[i] : 0;
			if (running[i] > (__int128)UINT64_MAX) {
				bytes = UINT64_MAX;
				saturated = true;
			}
			per_kernel[k * n_rows + i] = bytes;
		}
	}
	free(running);
	free(order);
	free(release);
	free(ready);
	return saturated;
}
