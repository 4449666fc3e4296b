/*
 * The output buffer of the report's big files (timeline.json, the G10
 * files, the large CSV tables): formatting writes straight into one
 * 1 MiB buffer (no stdio call per character or number: on
 * million-kernel traces that was most of the writers' time), a full
 * buffer goes to write(2), here or, when opened with a writer thread,
 * on that thread while formatting fills a second buffer.
 * Must never drop a write error: the first one is kept, later writes
 * are skipped, and dt_out_close returns it.
 */
#ifndef DNNTRACE_ANALYSIS_OUT_BUFFER_H
#define DNNTRACE_ANALYSIS_OUT_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/util.h"

#define DT_OUT_BUFFER ((size_t)1 << 20)

struct dt_out_writer;

struct dt_out {
	char *buf;
	size_t len;
	int fd;                      /* -1: file below */
	FILE *file;                  /* a stream the caller owns, or NULL */
	int error;                   /* the first write error (errno), 0: none */
	char *spare;                 /* the writer thread's other buffer */
	struct dt_out_writer *writer;/* NULL: write(2) on the caller's thread */
};

/* Creates (truncates) path. threaded: full buffers are written by a
 * thread of its own (where one can be had). 0, or -1 with errno. */
int dt_out_open(struct dt_out *o, const char *path, bool threaded);
/* dir/file_name, not threaded. */
int dt_out_open_in(struct dt_out *o, const char *dir, const char *file_name);
/* Into a stream the caller owns (and closes): small outputs, tests. */
void dt_out_open_stream(struct dt_out *o, FILE *f);
/* Writes what is buffered, ends the thread, closes the file and frees
 * the buffers: 0, or -1 with errno of the first failure. */
int dt_out_close(struct dt_out *o);

/* Hands the buffer's content to write(2) (or the writer thread). */
void dt_out_flush(struct dt_out *o);
/* Bytes of any length, through the buffer. */
void dt_out_write_long(struct dt_out *o, const char *s, size_t n);
/* printf, for the few lines with floating-point numbers. */
void dt_out_printf(struct dt_out *o, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* Where n more bytes (n <= DT_OUT_BUFFER) may be written now: format at
 * the pointer, then dt_out_end with where formatting stopped. */
static inline char *dt_out_room(struct dt_out *o, size_t n)
{
	if (DT_OUT_BUFFER - o->len < n)
		dt_out_flush(o);
	return o->buf + o->len;
}

static inline void dt_out_end(struct dt_out *o, char *end)
{
	o->len = (size_t)(end - o->buf);
}

/* n is a constant for literals (DT_OUT_LIT), so the copy is inlined. */
static inline void dt_out_mem(struct dt_out *o, const char *s, size_t n)
{
	if (n <= DT_OUT_BUFFER - o->len) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		dt_out_write_long(o, s, n);
	}
}

#define DT_OUT_LIT(o, literal) dt_out_mem((o), "" literal, sizeof(literal) - 1)

static inline void dt_out_str(struct dt_out *o, const char *s)
{
	dt_out_mem(o, s, strlen(s));
}

static inline void dt_out_c(struct dt_out *o, char c)
{
	*dt_out_room(o, 1) = c;
	o->len++;
}

static inline void dt_out_u64(struct dt_out *o, uint64_t v)
{
	dt_out_end(o, dt_fmt_u64(dt_out_room(o, 20), v));
}

static inline void dt_out_i64(struct dt_out *o, int64_t v)
{
	dt_out_end(o, dt_fmt_i64(dt_out_room(o, 21), v));
}

/* "0x" and v in lowercase hex, no leading zeros: printf's "0x%" PRIx64,
 * without printf (tensors.csv writes two a tensor). */
static inline void dt_out_hex(struct dt_out *o, uint64_t v)
{
	char digits[16];
	int n = 0;
	do {
		digits[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	char *p = dt_out_room(o, 18);
	*p++ = '0';
	*p++ = 'x';
	while (n)
		*p++ = digits[--n];
	dt_out_end(o, p);
}

/* ns as µs with three decimals (dt_fmt_us3). */
static inline void dt_out_us3(struct dt_out *o, uint64_t ns)
{
	dt_out_end(o, dt_fmt_us3(dt_out_room(o, 24), ns));
}

#endif
