/*
 * The outputs gathered during the reader's pass and written beside each
 * group's files: the timeline (timeline.json, or one
 * timeline-pid<vpid>.json per process, in OUT_DIR, on by default), overheads.csv and gpu_time.csv (per group). run.c and
 * report_files.c call these functions and nothing else of them (the
 * supervising parent in main.c: dt_pass_outputs_clean_after_crash).
 * Must never analyze: timeline_json.c, overheads.c and gpu_time.c do.
 */
#ifndef DNNTRACE_ANALYSIS_PASS_OUTPUTS_H
#define DNNTRACE_ANALYSIS_PASS_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/report/pass_hooks.h"
#include "analysis/report/timeline_json.h"

struct dt_pass_outputs {
	struct dt_pass_hooks hooks;
	bool timeline_begun;         /* the timeline was asked for and opened */
	bool created_out_dir;        /* remove it again if the run fails */
	const char *out_dir;
};

/* Before the pass: creates OUT_DIR and opens the timeline files asked
 * for (none: neither json nor pftrace). 0, or -1 with a one-line reason
 * in error. */
int dt_pass_outputs_begin(struct dt_pass_outputs *o, const char *out_dir,
		struct dt_timeline_formats timeline, const char *step_range,
		char *error, size_t error_size);
/* After a successful pass: closes timeline.json, finishes the overheads.
 * 0, or -1 with a reason in error when the timeline could not be written. */
int dt_pass_outputs_end(struct dt_pass_outputs *o, const struct dt_model *m,
		char *error, size_t error_size);
/* A failed run: removes timeline.json (open or closed), and OUT_DIR when
 * this run created it and it is empty. */
void dt_pass_outputs_discard(struct dt_pass_outputs *o, const struct dt_model *m);
/* overheads.csv and gpu_time.csv of group g into dir. 0, or -1 (errno). */
int dt_pass_outputs_write_group(const struct dt_pass_outputs *o,
		const struct dt_group *g, const char *dir);
void dt_pass_outputs_free(struct dt_pass_outputs *o);

/*
 * What a decoder that died (a crash inside libbabeltrace2, the watchdog)
 * left of the pass's outputs in out_dir: the partial timeline, and out_dir
 * itself when it did not exist before (created_out_dir) and is empty. For
 * the supervising parent, which outlives the child.
 */
void dt_pass_outputs_clean_after_crash(const char *out_dir, bool created_out_dir);

#endif
