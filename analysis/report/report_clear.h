/*
 * --force (report_clear.c): removes a previous dnntrace report from OUT_DIR
 * before the new one is written, so a report never stands beside an older
 * one's files (a single-process report beside an old index.csv and its
 * pid<P>-dev<D> folders). Also checks OUT_DIR can be written at all, before
 * any decoding. Must never remove a file a report does not write.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_CLEAR_H
#define DNNTRACE_ANALYSIS_REPORT_CLEAR_H

#include <stddef.h>

/* 0 when OUT_DIR is, or can be created as, a writable directory; otherwise
 * -1 with the reason in error. */
int dt_report_out_dir_check(const char *out_dir, char *error, size_t error_size);

/* Removes the files and folders a report writes (by name) from OUT_DIR;
 * anything else stays. 0, or -1 with the reason in error. */
int dt_report_clear(const char *out_dir, char *error, size_t error_size);

#endif
