/*
 * The live-bytes sweep (live_bytes.h): one pass over the tensors' ready
 * and release points in time order against the window's kernels in start
 * order. Must never write output.
 */
#include "analysis/derive/live_bytes.h"

#include <stdlib.h>

#include "analysis/util.h"

struct memory_event {
	uint64_t time;
	__int128 delta;      /* sizes near 2^64 must neither wrap nor overflow */
	uint32_t row;
};

static int compare_memory_events(const void *a, const void *b)
{
	uint64_t x = ((const struct memory_event *)a)->time;
	uint64_t y = ((const struct memory_event *)b)->time;
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
	struct memory_event *events = dt_xmalloc(2 * g->n_tensors *
			sizeof(*events) + 1);
	size_t n_events = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		const struct dt_tensor *tensor = &g->tensors[t];
		uint32_t row = row_of_tensor ? row_of_tensor[t] : 0;
		uint64_t ready = dt_tensor_ready_ns(tensor);
		events[n_events++] = (struct memory_event){ready,
			(__int128)tensor->bytes, row};
		uint64_t release = dt_tensor_release_ns(tensor);
		if (release != DT_NO_TIME)
			events[n_events++] = (struct memory_event){
				release < ready ? ready : release,
				-(__int128)tensor->bytes, row};
	}
	dt_sort(events, n_events, sizeof(*events), compare_memory_events);
	size_t *order = dt_xmalloc(nk * sizeof(size_t) + 1);
	for (size_t k = 0; k < nk; k++)
		order[k] = k;
	sort_base = window;
	dt_sort(order, nk, sizeof(size_t), compare_kernel_starts);
	__int128 *running = dt_xcalloc(n_rows, sizeof(__int128));
	size_t next = 0;
	for (size_t o = 0; o < nk; o++) {
		size_t k = order[o];
		while (next < n_events && events[next].time <= window[k].start) {
			running[events[next].row] += events[next].delta;
			next++;
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
	free(events);
	return saturated;
}
