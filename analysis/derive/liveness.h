/*
 * G10's tensor vitality rules (Birth, Death, inactive periods, looped periods
 * of global tensors, estimated times), computed from one tensor's uses inside
 * the analysis window. Pure functions on plain arrays, so tests can check
 * them against G10's published outputs. Must never deviate from G10
 * (HieronZhang/G10-Artifact src/analysis.cc; /work/shared/notes/g10-semantics.md)
 * even where G10's rules look odd: users compare these numbers with G10's.
 */
#ifndef DNNTRACE_ANALYSIS_LIVENESS_H
#define DNNTRACE_ANALYSIS_LIVENESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DT_ROLE_READ 1u    /* the kernel has the tensor as an input */
#define DT_ROLE_WRITE 2u   /* the kernel has the tensor as an output */

/* One use of a tensor: window kernel index and roles. Sorted by kernel. */
struct dt_use {
	uint32_t kernel;
	uint8_t roles;
};

struct dt_period {
	uint32_t tensor;      /* index of the tensor in its group */
	int64_t start;        /* first kernel of the idle stretch */
	int64_t end;          /* the kernel that uses the tensor again */
	bool looped;          /* crosses the iteration boundary (end < start) */
	uint64_t estimated_ns;
};

/* Local tensor: Birth = first use; Death = last read + 1, or -1 if never read.
 * With no use at all both are -1 (G10 leaves them undefined). */
void dt_liveness_local(const struct dt_use *uses, size_t n_uses,
		int64_t *birth, int64_t *death);

/* Inactive periods of one tensor, in G10's order, written to out (room for
 * n_uses + 1 entries); returns how many. Local tensors need their death;
 * global ones ignore it and wrap around the n_kernels-kernel iteration. */
size_t dt_liveness_periods(bool global, const struct dt_use *uses,
		size_t n_uses, int64_t death, size_t n_kernels,
		uint32_t tensor, struct dt_period *out);

/* Fills period->estimated_ns from cumulative kernel times: prefix_ns[k] is
 * the sum of durations of kernels 0..k-1 (n_kernels + 1 entries). */
void dt_liveness_estimate(struct dt_period *period, const uint64_t *prefix_ns,
		size_t n_kernels);

#endif
