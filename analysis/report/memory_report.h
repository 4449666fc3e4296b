/*
 * Memory by category (categories_report.c: categories.csv,
 * categories_time.csv, with 003's "Others" and "Untrackable") and
 * swap/offload opportunities (swap.c: swap.csv, the peak with every
 * feasible swap taken), computed for one analyzed group after
 * dt_group_analyze, and their summary lines (memory_report.c).
 * Must never change the group's own results: these only read them.
 */
#ifndef DNNTRACE_ANALYSIS_MEMORY_REPORT_H
#define DNNTRACE_ANALYSIS_MEMORY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"

#define DT_DEFAULT_LINK_GBPS 64.0   /* PCIe 5.0 x16, one direction */

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
int dt_swap_write_csv(const struct dt_swap *s, const struct dt_group *g,
		const char *dir);
void dt_swap_free(struct dt_swap *s);

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
	int64_t *untrackable_at_kernel; /* latest sample at or before the
	                                 * kernel's start; -1: none yet */
};

void dt_categories_compute(struct dt_categories *c, const struct dt_group *g,
		const struct dt_process *p, const struct dt_category_rules *rules,
		const struct dt_swap *swap);
/* categories.csv, and categories_time.csv with the swapped live bytes of
 * each kernel (column live_with_swaps) */
int dt_categories_write_csv(const struct dt_categories *c,
		const struct dt_swap *swap, const struct dt_group *g,
		const char *dir);
void dt_categories_free(struct dt_categories *c);

struct dt_memory_report {
	struct dt_swap swap;
	struct dt_categories categories;
};

/* p: the group's process in the model (its mem_info samples), or NULL. */
struct dt_memory_report *dt_memory_report_new(const struct dt_group *g,
		const struct dt_process *p, const struct dt_category_rules *rules,
		double link_gbps);
/* categories.csv, categories_time.csv, swap.csv; 0 or -1 with errno. */
int dt_memory_report_write(const struct dt_memory_report *r,
		const struct dt_group *g, const char *dir);
void dt_memory_report_summary(FILE *f, const struct dt_memory_report *r,
		const struct dt_group *g);
void dt_memory_report_free(struct dt_memory_report *r);

#endif
