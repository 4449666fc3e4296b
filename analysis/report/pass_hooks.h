/*
 * The listeners of the reader's one pass: the outputs written or gathered
 * while the trace is read (the timeline, the host overheads). Each decoded
 * event (model/event.h) reaches them through dt_pass_hooks_on_event, right
 * after the model has taken it.
 * Must never hold analysis logic: it only passes the event on.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_PASS_HOOKS_H
#define DNNTRACE_ANALYSIS_REPORT_PASS_HOOKS_H

#include "analysis/model/event.h"
#include "analysis/model/model.h"

struct dt_timeline;
struct dt_overheads;

/* Who listens during the pass; NULL members are skipped. */
struct dt_pass_hooks {
	struct dt_timeline *timeline;
	struct dt_overheads *overheads;
};

/* Hands e to every listener: calls (allocs, frees, copies, sets,
 * launches, library calls), GPU work, correlations and NVTX ranges; the
 * other kinds (names, tags, samples, counters, losses) are the model's
 * alone. */
void dt_pass_hooks_on_event(const struct dt_pass_hooks *h, struct dt_model *m,
		const struct dt_event *e);

#endif
