/*
 * NVTX ranges in the event model (nvtx_ranges.c): the model's handling of
 * dnntrace_nvtx events, and what the later stages ask of the ranges (the op
 * enclosing a call, a range by name and occurrence).
 * Must never decide windows: derive/window.c does.
 */
#ifndef DNNTRACE_ANALYSIS_MODEL_NVTX_RANGES_H
#define DNNTRACE_ANALYSIS_MODEL_NVTX_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/model/event.h"
#include "analysis/model/model.h"

/* push, pop, start, end (dt_model_on_event hands them here). vtid: the
 * thread of the event (0 when the trace has no vtid context). A pop with
 * nothing open on that (thread, domain), or an end of an unknown id, is
 * ignored. */
void dt_model_on_nvtx_event(struct dt_model *m, const struct dt_event *e);
/* The name of the innermost NVTX range enclosing a call made now (in
 * trace order) on thread vtid, or NULL. */
const char *dt_process_current_op(struct dt_process *p, int64_t vtid);
/* The same range's index in p->ranges, or DT_NO_RANGE. */
#define DT_NO_RANGE SIZE_MAX
size_t dt_process_current_range(struct dt_process *p, int64_t vtid);
/* The occurrence-th (0-based) range named name in the process, in opening
 * order, any domain and thread; NULL if it occurs fewer times. *count
 * (may be NULL) gets how many times it occurs. */
const struct dt_range *dt_process_find_range(const struct dt_process *p,
		const char *name, size_t occurrence, size_t *count);
void dt_process_free_ranges(struct dt_process *p);
/* Whether a range named name marks a training step: step_range (the
 * analysis' --range NAME) when given, else "step" or a name ending in
 * "_step" (dnntrace record --torch-names' train_step, Lightning's
 * training_step; not PyTorch's optimizer.step, an op). The timeline's
 * ProfilerStep#N slices and steps.csv ask here. */
bool dt_range_is_step(const char *name, const char *step_range);

#endif
