/*
 * The analysis of a window of kernels (window.c): which window each group
 * gets (--kernels, --range, all), and for it global and local, G10's Birth
 * and Death, inactive periods, memory per kernel, the peak, categories.
 * Must never build groups (group_build.h) nor write.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_WINDOW_H
#define DNNTRACE_ANALYSIS_DERIVE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"

struct dt_request;

/* The window of kernels launched inside an NVTX range: from the first to
 * the last kernel (full order) whose call's host time is in [start_ns,
 * end_ns] (end DT_NO_TIME: open). Kernels between them go with them, so
 * the window stays contiguous as G10's are. False if there is none. */
bool dt_group_range_window(const struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns, size_t *first, size_t *count);

/* Analyzes the window of an NVTX range [start_ns, end_ns] (above), with
 * global and alive judged by the range's own times: global = allocated
 * before the range opened and not freed before it closed. False (and
 * nothing analyzed) when no kernel was launched inside it. */
bool dt_group_analyze_range(struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns);

/* Analyzes kernels [first, first+count) of the full order (count 0: none). */
void dt_group_analyze(struct dt_group *g, size_t first, size_t count);

/* The window every group gets for what req asks (window.c): --kernels
 * A:B in each group it fits, --range NAME:N in each group that launched
 * kernels inside that range, else every kernel; a group the window does
 * not fit gets all its kernels with window_misfit set. Sets win_first,
 * win_count (and the range's times), analyzes nothing: energy needs the
 * window before the model's calls are dropped, the analysis after. 0, or
 * 1 (a usage error: the window fits no group) with a one-line reason in
 * *error (malloc'd, the caller frees it; NULL on 0). */
int dt_groups_choose_windows(const struct dt_request *req,
		const struct dt_model *m, struct dt_group *groups, size_t n_groups,
		char **error);
/*
 * The part of one group's kernel order (n indices; call_ns(ctx, k): the
 * host time of index k's call, DT_NO_TIME: none) that req's window
 * needs, known before any kernel record is built: the kernels
 * dt_groups_choose_windows will choose, [*first, *first + *count) of the
 * full order. False: the group needs them all (no window, or it does not
 * fit this group: analyzed whole). p: the group's process (its ranges).
 */
bool dt_window_to_build(const struct dt_request *req,
		const struct dt_process *p, size_t n,
		uint64_t (*call_ns)(const void *ctx, size_t k), const void *ctx,
		size_t *first, size_t *count);
/* Analyzes each group's chosen window (dt_group_analyze's work). */
void dt_groups_analyze_windows(struct dt_group *groups, size_t n_groups);
/* Both: chooses the windows, analyzes them; returns what choosing did. */
int dt_groups_analyze_request(const struct dt_request *req,
		const struct dt_model *m, struct dt_group *groups, size_t n_groups,
		char **error);

#endif
