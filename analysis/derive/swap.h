/*
 * Swap/offload opportunities of one analyzed group (swap.c): for each
 * inactive period, whether its tensor could go to host memory and come
 * back in time over the link, and the peak with every feasible swap taken.
 * Must never change the group's own results: only reads them.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_SWAP_H
#define DNNTRACE_ANALYSIS_DERIVE_SWAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/group.h"

#define DT_DEFAULT_LINK_GBPS 64.0   /* PCIe 5.0 x16, one direction */

/* Swap opportunities, one entry per dt_group.periods entry. */
struct dt_swap {
	double link_gbps;
	size_t n_feasible;
	bool *feasible;
	/* window kernels at whose start the tensor is off the device when the
	 * period's swap is taken: [absent_lo, absent_hi), indices past the
	 * window's end (looped periods) wrap to its start */
	size_t *absent_lo, *absent_hi;
	uint64_t *live_bytes;        /* per window kernel, feasible swaps taken */
	size_t peak_kernel;
	uint64_t peak_bytes;
};

void dt_swap_compute(struct dt_swap *s, const struct dt_group *g,
		double link_gbps);
/* Whether the swap of period p (if feasible) has its tensor off the device
 * at the start of window kernel k. */
bool dt_swap_absent(const struct dt_swap *s, const struct dt_group *g,
		size_t p, size_t k);
void dt_swap_free(struct dt_swap *s);

#endif
