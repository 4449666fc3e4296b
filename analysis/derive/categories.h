/*
 * Memory by category of one analyzed group (categories.c): the
 * --categories rules, then tags and library roles, then "Others", and
 * "Untrackable" (device memory in use that no traced tensor accounts for).
 * Must never change the group's own results: only reads them.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_CATEGORIES_H
#define DNNTRACE_ANALYSIS_DERIVE_CATEGORIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/group.h"
#include "analysis/derive/swap.h"
#include "analysis/model/model.h"

/* --categories FILE: lines "keyword category"; the first line whose keyword
 * is part of a tensor's name gives its category. */
struct dt_category_rules {
	size_t n;
	char **keywords;
	char **categories;
};

/* Reads rules from path. 0, or -1 with one line in err; *unreadable says
 * whether the file could not be read at all (else its text is wrong). */
int dt_category_rules_load(struct dt_category_rules *r, const char *path,
		char *err, size_t err_size, bool *unreadable);
void dt_category_rules_free(struct dt_category_rules *r);

/* Bytes per category (rows: rule categories in file order, then the tag and
 * role categories, then "Others"; "Untrackable" apart). */
struct dt_categories {
	size_t n;
	const char **names;          /* the last one is "Others" */
	uint32_t *of_tensor;         /* row of each group tensor */
	uint64_t *per_kernel;        /* win_count x n, bytes at each kernel's start */
	uint64_t *at_peak, *max, *at_swapped_peak;
	double *mean;
	/* Untrackable: device memory in use (mem_info samples of the group's
	 * process and device) minus the bytes of the group's tensors allocated
	 * at the sample's time (host alloc and free times), 0 when negative */
	size_t n_samples;
	uint64_t untrackable_at_peak, untrackable_at_swapped_peak;
	uint64_t untrackable_max;
	double untrackable_mean;
	/* samples where the traced tensors exceed the device memory in use,
	 * and by how much at most: an inconsistency the summary flags */
	size_t n_overtraced;
	uint64_t overtraced_max;
	int64_t *untrackable_at_kernel; /* latest sample at or before the
	                                 * kernel's start; -1: none yet */
};

void dt_categories_compute(struct dt_categories *c, const struct dt_group *g,
		const struct dt_process *p, const struct dt_category_rules *rules,
		const struct dt_swap *swap);
void dt_categories_free(struct dt_categories *c);

#endif
