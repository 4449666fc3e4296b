/*
 * Reads an LTTng trace directory with libbabeltrace2 (source.ctf.fs ->
 * filter.utils.muxer -> our own sink) in one streaming pass and feeds every
 * dnntrace event to the model, in trace order (decoding on the calling
 * thread; on a second one each event is decoded once into a struct
 * dt_event and handed to the model, then to the hooks: trace_reader.c).
 * Must never
 * keep events: only the model grows.
 */
#ifndef DNNTRACE_ANALYSIS_TRACE_READER_H
#define DNNTRACE_ANALYSIS_TRACE_READER_H

#include <stddef.h>

#include "analysis/model/model.h"
#include "analysis/report/pass_hooks.h"

/* 0 on success; otherwise a one-line reason is in error (no newline). */
int dt_read_trace(const char *trace_dir, struct dt_model *m, char *error,
		size_t error_size);
/* The same, handing every event also to hooks (NULL: none) once the model
 * has it (report/pass_hooks.h). */
/* decoders: at most this many babeltrace2 graphs decode the stream files
 * at once (stream_split.h), their events merged in the order one graph
 * gives; 1: one graph. */
int dt_read_trace_hooked(const char *trace_dir, struct dt_model *m,
		const struct dt_pass_hooks *hooks, size_t decoders, char *error,
		size_t error_size);

#endif
