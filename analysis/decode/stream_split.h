/*
 * The stream files of a trace directory split among several decoders
 * (stream_split.c), so that as many babeltrace2 graphs decode them at
 * once: each decoder gets a directory of views, one per CTF trace that has
 * stream files for it, holding a link to the trace's metadata and links to
 * its share of the stream files (and their indexes). LTTng writes one
 * stream file per CPU and channel, and each file is one stream: a file is
 * never split, and the shares are balanced by size.
 * Must never change the files under the trace directory.
 */
#ifndef DNNTRACE_ANALYSIS_DECODE_STREAM_SPLIT_H
#define DNNTRACE_ANALYSIS_DECODE_STREAM_SPLIT_H

#include <limits.h>
#include <stddef.h>

struct dt_stream_split {
	char root[PATH_MAX];         /* the views' temporary directory, "" */
	size_t n_decoders;           /* 1: no split (read trace_dir itself) */
	char ***inputs;              /* per decoder, its trace views */
	size_t *n_inputs;
};

/* How many decoders to run: DNNTRACE_DECODERS when set (1 to 64), else the
 * CPUs this process may run on, at most 8. */
size_t dt_decoders_wanted(void);

/* Splits trace_dir's stream files among at most n_wanted decoders (no
 * more than there are files). 0 with s->n_decoders >= 1 (1: no views were
 * made), -1 when the views could not be made (s->n_decoders is 1 then). */
int dt_stream_split(const char *trace_dir, size_t n_wanted,
		struct dt_stream_split *s);
/* Removes the views. */
void dt_stream_split_free(struct dt_stream_split *s);

#endif
