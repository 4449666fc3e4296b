/*
 * timeline.json: the trace as Chrome trace-event files in the PyTorch
 * profiler's (Kineto's) conventions (Holistic Trace Analysis reads them;
 * they open in Perfetto UI and chrome://tracing), one per traced process,
 * written event by event during the reader's one pass (pass_hooks.h):
 * host threads with their API calls and NVTX ranges, one track per GPU
 * stream, flow arrows from each call to its GPU work, live/active byte
 * counters and tensor lifetimes. One process: OUT_DIR/timeline.json;
 * several: OUT_DIR/timeline-pid<vpid>.json each (one rank each: HTA
 * reads OUT_DIR as a multi-rank job).
 * The same pass writes the same timeline in Perfetto's protobuf format
 * (timeline.pftrace, timeline-pid<vpid>.pftrace; timeline_pftrace.h)
 * when asked: the slices, tracks, counters and flows are decided here
 * once for both.
 * Must never build a file in memory: what it keeps grows with calls (who
 * made each, for the flow arrows) and open ranges, never with output.
 */
#ifndef DNNTRACE_ANALYSIS_TIMELINE_JSON_H
#define DNNTRACE_ANALYSIS_TIMELINE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/model/model.h"
#include "analysis/model/event.h"

/* Which timelines are written (dnntrace-analyze --timeline). */
struct dt_timeline_formats {
	bool json, pftrace;
	/* Not 0: the JSON is given up (its file removed, a line on stderr)
	 * once it holds more events than this; only with pftrace on. */
	uint64_t json_max_events;
};

/* Files go to out_dir (which exists), as partial files until closed;
 * step_range: the NVTX range whose occurrences are ProfilerStep#N (NULL:
 * ranges named ...step). NULL with errno set when out_dir is too long. */
struct dt_timeline *dt_timeline_open(const char *out_dir,
		const char *step_range, struct dt_timeline_formats formats);
/* Before the pass: only what lies in [start, end] ns of process vpid is
 * written (a window's timeline, --kernels/--range): calls that returned
 * inside it, GPU work inside it with its call (when it has one), their
 * counters, NVTX ranges and tensor lifetimes that overlap it; steps keep
 * their numbers in the whole trace. A process without a window gets
 * everything. */
void dt_timeline_window(struct dt_timeline *tl, int64_t vpid, uint64_t start,
		uint64_t end);
void dt_timeline_on_event(struct dt_timeline *tl, struct dt_model *m,
		const struct dt_event *e);
/* e->procname, the name of thread e->vtid (its first event brings it,
 * whatever its kind): the process and thread tracks are named for it. */
void dt_timeline_thread_name(struct dt_timeline *tl, struct dt_model *m,
		const struct dt_event *e);
/* Ends what is still open at the trace's last time (NVTX ranges,
 * tensors never freed, GPU work whose call never came), closes the files
 * and gives them their names, frees tl. 0, or -1 with a one-line reason
 * in error (and no timeline file left). */
int dt_timeline_close(struct dt_timeline *tl, const struct dt_model *m,
		char *error, size_t error_size);
/* A failed run: closes and removes every timeline file, frees tl. */
void dt_timeline_discard(struct dt_timeline *tl, const struct dt_model *m);
/* Removes the timeline's files (finished or partial, JSON and
 * protobuf) from out_dir. */
void dt_timeline_remove(const char *out_dir);

/* Writes s as a JSON string (quotes included): '"', '\\' and control
 * characters escaped, bytes that are not valid UTF-8 replaced by U+FFFD,
 * so any name a trace holds gives valid JSON. */
void dt_json_put_string(FILE *f, const char *s);

#endif
