/*
 * The live-bytes sweep, written once: bytes of a group's tensors allocated
 * at each window kernel's start (ready <= start < release: stream-ordered
 * allocs and frees count when their stream got there), in total
 * (window.c: memory.csv, the peak) or per row of a partition of the
 * tensors (categories.c), so the rows always add up to the total.
 * Must never decide which tensors a row holds: its callers do.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_LIVE_BYTES_H
#define DNNTRACE_ANALYSIS_DERIVE_LIVE_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/group.h"

/* per_kernel[k * n_rows + row]: bytes of row's tensors live at window
 * kernel k's start (0 when negative), for the window g->win_first,
 * g->win_count. row_of_tensor: each group tensor's row, or NULL for one
 * row (n_rows 1). Summed in 128 bits; true when a sum exceeded 2^64-1 and
 * was saturated to that. */
bool dt_live_bytes_sweep(const struct dt_group *g, const uint32_t *row_of_tensor,
		size_t n_rows, uint64_t *per_kernel);

#endif
