/*
 * timeline.json: the whole trace as a Chrome trace-event file (opens in
 * Perfetto UI and chrome://tracing), written event by event during the
 * reader's one pass (pass_hooks.h): host threads with their API calls and
 * NVTX ranges, one track per GPU stream, flow arrows from each call to
 * its GPU work, live/active byte counters and tensor lifetimes.
 * Must never build the file in memory: what it keeps grows with calls
 * (who made each, for the flow arrows) and open ranges, never with output.
 */
#ifndef DNNTRACE_ANALYSIS_TIMELINE_JSON_H
#define DNNTRACE_ANALYSIS_TIMELINE_JSON_H

#include <stdio.h>

#include "analysis/model/model.h"
#include "analysis/model/event.h"

/* Creates path; NULL with errno set when it cannot. */
struct dt_timeline *dt_timeline_open(const char *path);
void dt_timeline_on_event(struct dt_timeline *tl, struct dt_model *m,
		const struct dt_event *e);
/* Ends what is still open at the trace's last time (NVTX ranges,
 * tensors never freed), closes the JSON and the file, frees tl.
 * 0, or -1 with errno set when anything could not be written. */
int dt_timeline_close(struct dt_timeline *tl, const struct dt_model *m);

/* Writes s as a JSON string (quotes included): '"', '\\' and control
 * characters escaped, bytes that are not valid UTF-8 replaced by U+FFFD,
 * so any name a trace holds gives valid JSON. */
void dt_json_put_string(FILE *f, const char *s);

#endif
