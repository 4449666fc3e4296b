/*
 * Helpers shared by the analysis unit tests: read an output file, find a
 * tensor's results, check a period, read a use's roles, check which tensors
 * a kernel touches. Must never compute an expected value: tests state
 * those by hand.
 */
#ifndef DNNTRACE_TESTS_ANALYSIS_GROUP_CHECKS_H
#define DNNTRACE_TESTS_ANALYSIS_GROUP_CHECKS_H

#include <stdio.h>
#include <stdlib.h>

#include "analysis/derive/group.h"
#include "tests/analysis/check.h"

/* The whole file dir/name (static buffer: valid until the next call). */
static inline char *read_text(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static inline const struct dt_tensor_result *result_of(const struct dt_group *g,
		int64_t id)
{
	for (size_t i = 0; i < g->n_tensors; i++)
		if (g->tensors[i].id == id)
			return &g->results[i];
	fprintf(stderr, "tensor %" PRId64 " missing\n", id);
	exit(1);
}

static inline const struct dt_period *period_of(const struct dt_group *g,
		int64_t id, size_t i)
{
	const struct dt_tensor_result *r = result_of(g, id);
	CHECK(i < r->n_periods);
	return &g->periods[r->periods_at + i];
}

static inline void check_period(const struct dt_group *g, int64_t id, size_t i,
		int64_t start, int64_t end, int looped, uint64_t ns)
{
	const struct dt_period *p = period_of(g, id, i);
	CHECK_EQ_INT(p->start, start);
	CHECK_EQ_INT(p->end, end);
	CHECK_EQ_INT(p->looped, looped);
	CHECK_EQ_INT(p->estimated_ns, ns);
}

/* Roles of tensor id in window kernel `kernel` (0: not touched there). */
static inline uint8_t roles_in(const struct dt_group *g, size_t kernel,
		int64_t id)
{
	const struct dt_kernel *k = &g->kernels[g->win_first + kernel];
	for (uint32_t i = 0; i < k->n_touches; i++)
		if (g->tensors[g->touches[k->touches_at + i].tensor].id == id)
			return g->touches[k->touches_at + i].roles;
	return 0;
}

/* Kernel k touches exactly the tensor ids in want (in that order). */
static inline void check_touches(const struct dt_group *g, size_t k, const int64_t *want,
		uint32_t n)
{
	const struct dt_kernel *kernel = &g->kernels[k];
	CHECK_EQ_INT(kernel->n_touches, n);
	for (uint32_t i = 0; i < n && i < kernel->n_touches; i++)
		CHECK_EQ_INT(g->tensors[g->touches[kernel->touches_at + i].tensor].id, want[i]);
}

/* Kernel k touches exactly tensor id, with roles. */
static inline void check_touch_roles(const struct dt_group *g, size_t k, int64_t id,
		uint8_t roles)
{
	const struct dt_kernel *kernel = &g->kernels[k];
	CHECK_EQ_INT(kernel->n_touches, 1);
	const struct dt_touch *t = &g->touches[kernel->touches_at];
	CHECK_EQ_INT(g->tensors[t->tensor].id, id);
	CHECK_EQ_INT(t->roles, roles);
}

/* Kernel k touches exactly tensor want, or (want -1, a graph kernel whose
 * tensors are unknown) every one of the n_live live tensors. */
static inline void check_touches_one_or_all(const struct dt_group *g, size_t k, int64_t want,
		uint32_t n_live)
{
	const struct dt_kernel *kernel = &g->kernels[k];
	if (want < 0) {
		CHECK_EQ_INT(kernel->n_touches, n_live);
		return;
	}
	CHECK_EQ_INT(kernel->n_touches, 1);
	if (kernel->n_touches == 1)
		CHECK_EQ_INT(g->tensors[g->touches[kernel->touches_at].tensor].id, want);
}

/* Removes directory dir and everything in it. */
static inline void remove_dir(const char *dir)
{
	char command[4200];
	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	CHECK_EQ_INT(system(command), 0);
}

#endif
