/*
 * The live-bytes sweep (live_bytes.h): one pass over the tensors' ready
 * and release points in time order against the window's kernels in start
 * order. Must never write output.
 */
#include "analysis/derive/live_bytes.h"

#include <stdlib.h>

#include "analysis/util.h"

/* A tensor's ready or release point: 16 bytes, two a tensor (its size
 * and row are read from the tensor when the sweep passes it). */
struct memory_point {
	uint64_t time;
	uint64_t tensor;
};

static int compare_points(const void *a, const void *b)
{
	const struct memory_point *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->tensor < y->tensor ? -1 : x->tensor > y->tensor;
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
	struct memory_point *ready = dt_xmalloc(g->n_tensors * sizeof(*ready) + 1);
	struct memory_point *release = dt_xmalloc(g->n_tensors * sizeof(*release) + 1);
	size_t n_ready = 0, n_release = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor *tensor = &g->tensors[t];
		uint64_t at = dt_tensor_ready_ns(tensor);
		ready[n_ready++] = (struct memory_point){at, t};
		uint64_t gone = dt_tensor_release_ns(tensor);
		if (gone != DT_NO_TIME)
			release[n_release++] = (struct memory_point){
				gone < at ? at : gone, t};
	}
	dt_sort(ready, n_ready, sizeof(*ready), compare_points);
	dt_sort(release, n_release, sizeof(*release), compare_points);
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
		for (; next_ready < n_ready && ready[next_ready].time <= start; next_ready++) {
			size_t t = ready[next_ready].tensor;
			running[row_of_tensor ? row_of_tensor[t] : 0] +=
				(__int128)g->tensors[t].bytes;
		}
		for (; next_release < n_release && release[next_release].time <= start;
		     next_release++) {
			size_t t = release[next_release].tensor;
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
