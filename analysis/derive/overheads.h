/*
 * Host overheads per op, in the meaning of ml_perf_model (owensgroup,
 * seed 002): T1 the gap before an op since the previous op ended (same
 * thread, same enclosing range), T2 op start to the start of its first
 * launch, T3 end of its last launch to op end, T4 the launch calls
 * themselves, T5 the gaps between its launches (0 for an op of one
 * launch; an op with no launch has one T5, its whole duration). Launches
 * here are kernel and graph launches, async copies and sets (the seed
 * counts cudaMemcpyAsync) and library calls. An op is an NVTX range that
 * is the innermost range of some launch, or that contains no other range
 * (a host-only op); a library call
 * is also an op of its own (its row holds its calls' durations as T4).
 * Launches are gathered during the reader's pass (report/pass_hooks.h), the
 * ranges' T1-T3 once the model has them all. report/overheads_csv.c
 * writes overheads.csv.
 * Must never look at GPU times (that is gpu_time.c), nor write.
 */
#ifndef DNNTRACE_ANALYSIS_OVERHEADS_H
#define DNNTRACE_ANALYSIS_OVERHEADS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model/model.h"
#include "analysis/model/event.h"

enum { DT_T1, DT_T2, DT_T3, DT_T4, DT_T5, DT_N_T };

/* One of T1..T5 over an op's instances: count, sum, sum of squares (ns). */
struct dt_overhead_stat {
	uint64_t n;
	double sum, sum_sq;          /* ns, ns^2 */
};

struct dt_overheads_row {
	const char *name;
	uint64_t count;              /* op instances (calls, for a library row);
	                              * 0: only ranges still open charged it */
	struct dt_overhead_stat t[DT_N_T];
};

struct dt_overheads *dt_overheads_new(void);
void dt_overheads_on_event(struct dt_overheads *o, struct dt_model *m,
		const struct dt_event *e);
/* After the pass: every closed range of the model becomes op instances. */
void dt_overheads_finish(struct dt_overheads *o, const struct dt_model *m);
/* Process vpid's rows: one per op name (and per library entry point), in
 * the order first charged; *n of them (0, NULL: none). */
const struct dt_overheads_row *dt_overheads_rows(const struct dt_overheads *o,
		int64_t vpid, size_t *n);
void dt_overheads_free(struct dt_overheads *o);

#endif
