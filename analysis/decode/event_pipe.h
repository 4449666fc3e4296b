/*
 * The hand-off between the decoding thread and the analysis thread of the
 * reader's pass: the decoder appends records (any bytes, 8-aligned) to a
 * chunk; a full chunk goes, in order, to a consumer that runs on a thread
 * of its own, while the decoder fills the next one. At most a few chunks
 * are in flight (the decoder waits for a free one), so memory stays
 * bounded whatever the trace's size; one lock per chunk, thousands of
 * events. Without a thread (none to be had) the consumer runs on the
 * decoder's thread when a chunk is full: the same records, in the same
 * order, so the analysis is the same either way.
 * Must never reorder, drop or split a record.
 */
#ifndef DNNTRACE_ANALYSIS_EVENT_PIPE_H
#define DNNTRACE_ANALYSIS_EVENT_PIPE_H

#include <stdbool.h>
#include <stddef.h>

struct dt_event_pipe;

/* consume(ctx, data, len): one chunk's records, whole, in order. */
typedef void dt_pipe_consume_fn(void *ctx, const char *data, size_t len);

/* threaded: start the consumer's thread (false: consume inline). */
struct dt_event_pipe *dt_event_pipe_new(dt_pipe_consume_fn *consume,
		void *ctx, bool threaded);
/* Room for a record of n bytes (a multiple of 8, any size): write it
 * there, then dt_event_pipe_commit(n). */
char *dt_event_pipe_reserve(struct dt_event_pipe *p, size_t n);
void dt_event_pipe_commit(struct dt_event_pipe *p, size_t n);
/* Hands over what is left, waits until the consumer has had everything,
 * ends its thread and frees the pipe. */
void dt_event_pipe_finish(struct dt_event_pipe *p);

/*
 * A pipe whose consumer pulls (several decoders merged by one thread):
 * no consumer function, no thread of its own. The producer closes it when
 * it has written its last record; the consumer pulls chunk after chunk,
 * each valid until the next pull, and frees the pipe once the producer
 * has closed it and it has pulled everything (or gives up).
 */
struct dt_event_pipe *dt_event_pipe_new_pulled(void);
/* The next chunk: true with its records, waiting for the producer; false
 * once the producer closed the pipe and every chunk was had. */
bool dt_event_pipe_pull(struct dt_event_pipe *p, const char **data,
		size_t *len);
/* Lets the producer run ahead of the puller without bound: its chunks
 * past the few in memory are written to fd (a file of the caller's,
 * unlinked, open for reading and writing, closed by the caller after
 * dt_event_pipe_free) and read back in their turn. For a decoder of a
 * later slice of a stream file, whose records all come after the
 * earlier slice's: without it, it would wait for them. At most max_bytes
 * are written; a chunk past them, or that cannot be written, stays in
 * memory and the producer waits, as without a file. */
void dt_event_pipe_spill(struct dt_event_pipe *p, int fd,
		unsigned long long max_bytes);
/* Bytes written to the spill file so far. */
unsigned long long dt_event_pipe_spilled(const struct dt_event_pipe *p);
/* The producer's end: hands over what is left; writes no more. */
void dt_event_pipe_close(struct dt_event_pipe *p);
/* After the producer closed it. */
void dt_event_pipe_free(struct dt_event_pipe *p);

#endif
