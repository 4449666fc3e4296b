/*
 * What the user asked dnntrace-analyze for: the trace, the output
 * directory and every option. main.c fills one from the command line and
 * owns it; the analysis (run.c, window.c, report_files.c, summary.c) takes
 * it as input and reads it only, so no command-line state lives inside the
 * analysis structs. Must never hold results: those go into the groups.
 */
#ifndef DNNTRACE_ANALYSIS_REQUEST_H
#define DNNTRACE_ANALYSIS_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/derive/group.h"
#include "analysis/derive/categories.h"

#define DT_DEFAULT_WATCHDOG_S 30
#define DT_DEFAULT_LOG_NAME "dnntrace"
/* --timeline auto: the JSON timeline is given up past this many events
 * (about 130 MB, 126 bytes each: what chrome://tracing and Perfetto UI's
 * JSON import still load); the .pftrace, about a fifth of the JSON's
 * size, is always written (docs/report.md). */
#define DT_DEFAULT_JSON_MAX_EVENTS 1000000u

/* --timeline: which timeline files are written. */
enum dt_timeline_mode {
	DT_TIMELINE_AUTO,            /* pftrace, and JSON up to a size */
	DT_TIMELINE_BOTH,
	DT_TIMELINE_JSON,
	DT_TIMELINE_PFTRACE,
	DT_TIMELINE_NONE,            /* also --no-timeline */
};

/* memory_snapshot.pickle keeps the last this many allocator events, as
 * PyTorch's own recording does with the max_entries its docs suggest
 * (torch.cuda.memory._record_memory_history(max_entries=100000)): its
 * viewer draws 15000 of them by default and holds every one in the
 * browser; at five events a tensor, a million tensors would make 260 MB */
#define DT_DEFAULT_SNAPSHOT_EVENTS 100000

struct dt_request {
	const char *trace_dir;       /* TRACE_DIR */
	const char *out_dir;         /* -o OUT_DIR */
	const char *name;            /* --name: prefix of the two .py logs */
	bool force;                  /* --force: OUT_DIR may hold files */
	bool has_window;             /* --kernels A:B given */
	size_t window_first, window_last; /* its A and B (inclusive) */
	const char *range_name;      /* --range NAME[:N], or NULL */
	size_t range_occurrence;     /* its N, 1-based */
	enum dt_granularity granularity; /* --granularity */
	const char *categories_file; /* --categories FILE, or NULL */
	double link_gbps;            /* --link-gbps */
	enum dt_timeline_mode timeline; /* --timeline MODE, --no-timeline */
	size_t json_max_events;      /* --timeline auto:N, 0: no limit */
	size_t snapshot_events;      /* --snapshot-events: the last this many
	                              * events in memory_snapshot.pickle, 0: all */
	unsigned watchdog_s;         /* --watchdog-s: no decoding progress for
	                              * this long stops the run, 0: never */
};

/* A request with nothing asked yet: every option at its default. */
static inline struct dt_request dt_request_defaults(void)
{
	return (struct dt_request){
		.name = DT_DEFAULT_LOG_NAME,
		.granularity = DT_GRANULARITY_KERNEL,
		.link_gbps = DT_DEFAULT_LINK_GBPS,
		.watchdog_s = DT_DEFAULT_WATCHDOG_S,
		.timeline = DT_TIMELINE_AUTO,
		.json_max_events = DT_DEFAULT_JSON_MAX_EVENTS,
		.snapshot_events = DT_DEFAULT_SNAPSHOT_EVENTS,
	};
}

#endif
