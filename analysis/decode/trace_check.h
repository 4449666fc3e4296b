/*
 * The checks before decoding (trace_check.c): every CTF trace under
 * TRACE_DIR gets its metadata checked (metadata_check.h) and, when it has
 * LTTng-UST's packet layout, its stream files walked (stream_scan.h).
 * Damage is noted (damage.h). When a trace must be skipped, a stream file
 * cut, or an index disagrees, libbabeltrace2 is given a view instead: a
 * temporary directory with the usable metadata, symbolic links to the
 * intact stream files, copies of the usable packets of the others, and no
 * index. Must never change the files under TRACE_DIR.
 */
#ifndef DNNTRACE_ANALYSIS_TRACE_CHECK_H
#define DNNTRACE_ANALYSIS_TRACE_CHECK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct dt_trace_check {
	char decode_dir[PATH_MAX];   /* TRACE_DIR itself, or the view */
	char view_dir[PATH_MAX];     /* "" when no view was needed */
	bool failed;                 /* dt_trace_check itself wrote the error */
};

/* 0: decode c->decode_dir. -1: nothing usable, one line in error. */
int dt_trace_check(const char *trace_dir, struct dt_trace_check *c,
		char *error, size_t error_size);

/* An error line naming the view names TRACE_DIR instead, and says what
 * damage the checks found. */
void dt_trace_check_error_path(const struct dt_trace_check *c,
		const char *trace_dir, char *error, size_t error_size);

/* Removes the view, if any. */
void dt_trace_check_free(struct dt_trace_check *c);

#endif
