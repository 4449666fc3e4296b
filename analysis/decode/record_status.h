/*
 * The recording's own account of itself (record_status.c): the status file
 * `dnntrace record` writes into the trace (dnntrace-status: how the
 * recording ended, LTTng's discarded events, write errors, and per process
 * the events the tracer handed to LTTng and the traced calls it could not
 * record), compared with the events this analysis decoded per process. One
 * record per analyzer run, printed in every summary as
 * `incomplete: N events lost (cause)`. A trace without the file (a manual
 * session, an older trace) says nothing here. Must never name a cause the
 * status does not give.
 */
#ifndef DNNTRACE_ANALYSIS_RECORD_STATUS_H
#define DNNTRACE_ANALYSIS_RECORD_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define DT_RECORD_STATUS_FILE "dnntrace-status"

struct dt_record_process {
	int64_t pid;
	uint64_t emitted;      /* events the tracer handed to LTTng */
	uint64_t untraced;     /* traced calls made before the process registered */
	uint64_t untraced_late;/* ... after tracing had ended for it (its exit) */
	uint64_t seen;         /* events of this pid the analysis decoded */
};

struct dt_record_status {
	bool present;          /* the trace has a status file */
	bool ended;            /* record wrote its final status */
	bool malformed;        /* a line could not be read */
	int command_status;    /* -1: unknown */
	bool lossy;
	bool teardown_timed_out, teardown_failed;
	bool discarded_known;
	uint64_t discarded;    /* LTTng's discarded events (record asked) */
	char write_errors[160];
	struct dt_record_process *processes;
	size_t n_processes, cap_processes;
	size_t last;           /* lookup cache: events come in runs */
};

extern struct dt_record_status dt_record_status;

/* Reads TRACE_DIR/dnntrace-status (absent: present stays false). */
void dt_record_status_read(const char *trace_dir);
/* Parses the file's text (the unit tests feed it directly). */
void dt_record_status_parse(const char *text);
/* One decoded dnntrace event of process vpid. */
void dt_record_status_on_event(int64_t vpid);
void dt_record_status_reset(void);

/* Events lost in all: *at_least when part of it is a lower bound. */
uint64_t dt_record_status_lost(bool *at_least);
/* True when record's status says the command made no traced call at all
 * (every process handed LTTng no event and made no call before
 * registering): an empty trace is then the right one. */
bool dt_record_status_nothing_traced(void);
/* True when the recording ended because its command was killed. */
bool dt_record_status_killed(void);

/* The `incomplete: ...` line; nothing when the status shows no loss. */
void dt_record_status_write_summary(FILE *f);

#endif
