/*
 * The training steps of one group (steps.c): the NVTX ranges that mark a
 * step (nvtx_ranges.h, dt_range_is_step), numbered as the timeline numbers
 * its ProfilerStep#N slices, with the window's kernels whose calls they
 * enclose and the most live bytes among those kernels.
 * report/steps_csv.c writes them (steps.csv); the plot reads that.
 * Must never write: report/ does.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_STEPS_H
#define DNNTRACE_ANALYSIS_DERIVE_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"

#define DT_NO_KERNEL SIZE_MAX

struct dt_step {
	uint64_t number;             /* N of the timeline's ProfilerStep#N */
	const char *name;            /* the range's name (interned) */
	uint64_t start_ns, end_ns;   /* host times; end DT_NO_TIME: open at
	                              * the end of the trace */
	size_t first_kernel, last_kernel; /* window indices (kernels.csv's),
	                              * DT_NO_KERNEL: no kernel's call inside */
	size_t n_kernels;            /* window kernels whose call is inside */
	uint64_t peak_bytes;         /* most live bytes at the start of one of
	                              * those kernels (memory.csv's live_bytes) */
};

struct dt_steps {
	struct dt_step *steps;       /* by number */
	size_t n;
};

/* The steps of the analyzed group g, whose process in the model is p (its
 * ranges; NULL: none). step_range: the analysis' --range NAME, or NULL.
 * Never NULL; n is 0 when the process marks no step. */
struct dt_steps *dt_steps_new(const struct dt_group *g,
		const struct dt_process *p, const char *step_range);
void dt_steps_free(struct dt_steps *s);

#endif
