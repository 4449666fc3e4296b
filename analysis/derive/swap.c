/*
 * Swap/offload opportunities (G10's central idea) from a trace: for each
 * inactive period, could its tensor go to host memory after its last use
 * and come back before its next one over a link of link_gbps (GB/s, 1e9
 * bytes/s, each way)? Feasible when the period's estimated time (G10's: the
 * durations of the kernels in it) is at least the way out plus the way
 * back, 2 * bytes / bandwidth. Then the peak memory with every feasible
 * swap taken: a swapped tensor is off the device at the start of the
 * kernels that start once its copy out has ended and before its copy back
 * must begin, on the period's time line (kernel a starts the copy out at
 * T[a], kernel b needs it back at T[b], T = cumulative durations).
 * Optimistic where the trace cannot say better: each swap has the link to
 * itself (no two copies share it) and copies overlap the kernels fully.
 * Must never change the group's results; only reads them.
 */
#include "analysis/derive/swap.h"

#include <stdlib.h>

#include "analysis/util.h"

/* Cumulative duration at index k of the window repeated twice (looped
 * periods run past the window's end into the next iteration). */
static double t_ext(const uint64_t *prefix, size_t n, size_t k)
{
	return k <= n ? (double)prefix[k] : (double)prefix[n] + (double)prefix[k - n];
}

/* First k in [lo, hi] with t_ext(k) >= t (hi when none). */
static size_t first_at_or_after(const uint64_t *prefix, size_t n, size_t lo,
		size_t hi, double t)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t_ext(prefix, n, mid) >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void dt_swap_compute(struct dt_swap *s, const struct dt_group *g,
		double link_gbps)
{
	size_t n = g->win_count, np = g->n_periods;
	const struct dt_kernel *window = &g->kernels[g->win_first];
	s->link_gbps = link_gbps;
	s->n_feasible = 0;
	s->feasible = dt_xcalloc(np + 1, sizeof(bool));
	s->absent_lo = dt_xcalloc(np + 1, sizeof(size_t));
	s->absent_hi = dt_xcalloc(np + 1, sizeof(size_t));
	s->live_bytes = dt_xcalloc(n + 1, sizeof(uint64_t));
	uint64_t *prefix = dt_xcalloc(n + 1, sizeof(uint64_t));
	for (size_t k = 0; k < n; k++)
		prefix[k + 1] = prefix[k] + window[k].duration_ns;
	/* bytes swapped out at each window kernel: a difference array */
	int64_t *out = dt_xcalloc(n + 1, sizeof(int64_t));
	for (size_t p = 0; p < np; p++) {
		const struct dt_period *period = &g->periods[p];
		uint64_t bytes = g->tensors[period->tensor].bytes;
		/* idle_ns * GB/s >= 2 * bytes, exact for values below 2^53 */
		if (!((double)period->estimated_ns * link_gbps >= 2.0 * (double)bytes))
			continue;
		s->feasible[p] = true;
		s->n_feasible++;
		size_t a = (size_t)period->start;
		size_t b = (size_t)period->end + (period->looped ? n : 0);
		double one_way_ns = (double)bytes / link_gbps;
		size_t lo = first_at_or_after(prefix, n, a, b,
				t_ext(prefix, n, a) + one_way_ns);
		size_t hi = first_at_or_after(prefix, n, a, b,
				t_ext(prefix, n, b) - one_way_ns);
		if (hi < lo)
			hi = lo;
		s->absent_lo[p] = lo;
		s->absent_hi[p] = hi;
		/* [lo, hi) in the doubled window: at most two pieces */
		for (size_t piece = 0; piece < 2 && lo < hi; piece++) {
			size_t base = lo >= n ? n : 0;
			size_t end = hi < base + n ? hi : base + n;
			out[lo - base] += (int64_t)bytes;
			out[end - base] -= (int64_t)bytes;
			lo = end;
		}
	}
	int64_t running = 0;
	s->peak_kernel = 0;
	s->peak_bytes = 0;
	for (size_t k = 0; k < n; k++) {
		running += out[k];
		/* a tensor is on the device between its uses, so it is in
		 * live_bytes wherever it is swapped out; clamp all the same */
		uint64_t live = g->live_bytes[k];
		s->live_bytes[k] = running > 0 && (uint64_t)running > live ? 0 :
			live - (uint64_t)(running > 0 ? running : 0);
		if (s->live_bytes[k] > s->peak_bytes) {
			s->peak_bytes = s->live_bytes[k];
			s->peak_kernel = k;
		}
	}
	free(out);
	free(prefix);
}

bool dt_swap_absent(const struct dt_swap *s, const struct dt_group *g,
		size_t p, size_t k)
{
	if (!s->feasible[p])
		return false;
	size_t n = g->win_count;
	return (k >= s->absent_lo[p] && k < s->absent_hi[p]) ||
		(k + n >= s->absent_lo[p] && k + n < s->absent_hi[p]);
}

void dt_swap_free(struct dt_swap *s)
{
	free(s->feasible);
	free(s->absent_lo);
	free(s->absent_hi);
	free(s->live_bytes);
}
