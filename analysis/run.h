/*
 * The analysis of one request from trace to report (run.c), the work of
 * the supervised child (supervisor.h): check the trace, decode it (the
 * pass outputs written as it goes), build and analyze the groups for what
 * was asked, and write the report. Must never parse the command line
 * (main.c) nor outlive a crash of the decoder (the supervisor handles it).
 */
#ifndef DNNTRACE_ANALYSIS_RUN_H
#define DNNTRACE_ANALYSIS_RUN_H

#define DT_ANALYZE_PROG "dnntrace-analyze"

/* request: a const struct dt_request * (request.h). Returns the exit code:
 * 0, 1 (usage error: a window that fits no group, bad --categories rules),
 * 2 (unreadable input or output), one line on stderr for each failure. */
int dt_run_request(void *request);

#endif
