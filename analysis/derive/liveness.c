/*
 * G10's liveness and inactive-period rules (see liveness.h), expressed over a
 * tensor's sorted use list instead of G10's scan of every kernel: the results
 * are identical, the cost is O(uses) per tensor instead of O(kernels).
 * Must never change a rule to "fix" G10: equivalence is the point.
 */
#include "analysis/derive/liveness.h"

void dt_liveness_local(const struct dt_use *uses, size_t n_uses,
		int64_t *birth, int64_t *death)
{
	*birth = n_uses ? (int64_t)uses[0].kernel : -1;
	*death = -1;
	for (size_t i = n_uses; i-- > 0;) {
		if (uses[i].roles & DT_ROLE_READ) {
			*death = (int64_t)uses[i].kernel + 1;
			break;
		}
	}
}

static struct dt_period *add_period(struct dt_period *out, size_t *n,
		uint32_t tensor, int64_t start, int64_t end)
{
	struct dt_period *p = &out[(*n)++];
	p->tensor = tensor;
	p->start = start;
	p->end = end;
	p->looped = end < start;
	p->estimated_ns = 0;
	return p;
}

size_t dt_liveness_periods(bool global, const struct dt_use *uses,
		size_t n_uses, int64_t death, size_t n_kernels,
		uint32_t tensor, struct dt_period *out)
{
	size_t n = 0;
	if (n_uses == 0)
		return 0;
	if (!global) {
		/* G10 walks Birth..Death-1 and opens a period after a use when
		 * the next kernel (still before Death) does not use the tensor;
		 * the next use closes it. That is every gap between two
		 * consecutive uses up to Death-1. Never read: no periods. */
		if (death < 0)
			return 0;
		for (size_t i = 0; i + 1 < n_uses; i++) {
			if ((int64_t)uses[i + 1].kernel >= death)
				break;
			if (uses[i + 1].kernel > uses[i].kernel + 1)
				add_period(out, &n, tensor, uses[i].kernel + 1,
						uses[i + 1].kernel);
		}
		return n;
	}
	/* Global: the same gaps from the first use u to the end, then one
	 * period from after the last use around the iteration boundary back
	 * to u. G10 special-cases a last use at N-1: that period starts at
	 * kernel 0 (and is then not looped), unless kernel 0 itself uses the
	 * tensor, in which case there is none. The wrapped walk only opens
	 * periods while j < u, and no kernel before u uses the tensor, so it
	 * adds nothing else. */
	for (size_t i = 0; i + 1 < n_uses; i++)
		if (uses[i + 1].kernel > uses[i].kernel + 1)
			add_period(out, &n, tensor, uses[i].kernel + 1,
					uses[i + 1].kernel);
	int64_t first = uses[0].kernel, last = uses[n_uses - 1].kernel;
	if ((size_t)last + 1 < n_kernels)
		add_period(out, &n, tensor, last + 1, first);
	else if (first != 0)
		add_period(out, &n, tensor, 0, first);
	return n;
}

void dt_liveness_estimate(struct dt_period *period, const uint64_t *prefix_ns,
		size_t n_kernels)
{
	size_t a = (size_t)period->start, b = (size_t)period->end;
	if (!period->looped)
		period->estimated_ns = prefix_ns[b] - prefix_ns[a];
	else   /* kernels a..N-1, then 0..b-1 of the next iteration */
		period->estimated_ns = (prefix_ns[n_kernels] - prefix_ns[a]) +
			prefix_ns[b];
}
