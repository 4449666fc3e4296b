/*
 * Finding the CTF traces under a directory (trace_finder.c): every
 * directory below it (itself included) that holds a regular file named
 * `metadata`, in the order nftw(3) walks them, without following links.
 * trace_check.c checks each of them and its stream files;
 * trace_reader.c hands them to source.ctf.fs; stream_split.c shares their
 * stream files out.
 * Must never open or judge the files: finding only.
 */
#ifndef DNNTRACE_ANALYSIS_DECODE_TRACE_FINDER_H
#define DNNTRACE_ANALYSIS_DECODE_TRACE_FINDER_H

#include <stddef.h>
#include <sys/types.h>

/* 0 with *dirs (each allocated, "." for root's own "metadata" given as a
 * relative name, and the array, all for the caller to free:
 * dt_trace_dirs_free) and *n_dirs, possibly 0; -1 when the walk failed. */
int dt_find_trace_dirs(const char *root, char ***dirs, size_t *n_dirs);
void dt_trace_dirs_free(char **dirs, size_t n_dirs);

/* A trace directory's stream files: its regular files but its metadata
 * (LTTng's CHANNEL_CPU files), sorted by name. */
struct dt_stream_file {
	char *name;                  /* allocated; the caller frees it */
	off_t size;
};
/* Appends dir's stream files to *files (n, cap: its count and room). */
void dt_list_stream_files(const char *dir, struct dt_stream_file **files,
		size_t *n, size_t *cap);

#endif
