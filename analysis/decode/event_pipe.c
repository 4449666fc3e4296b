/*
 * The decoder-to-analysis hand-off (event_pipe.h): chunks of records in a
 * FIFO between one producer and one consumer, a mutex and a condition
 * variable taken once per chunk. Must never let the producer run more
 * than MAX_CHUNKS chunks ahead in memory (past them, a pulled pipe with a
 * spill file writes its chunks there, in their place in the FIFO).
 */
#include "analysis/decode/event_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/util.h"

#define CHUNK_BYTES ((size_t)256 << 10)
#define MAX_CHUNKS 8   /* 2 MiB in flight: far ahead enough to even out bursts */

struct chunk {
	char *data;                  /* NULL: spilled, len bytes at `at` */
	size_t len, cap;
	off_t at;
	struct chunk *next;
};

struct dt_event_pipe {
	dt_pipe_consume_fn *consume;
	void *ctx;
	struct chunk *current;       /* the producer's */
	/* shared, under lock: */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chunk *full_head, *full_tail;   /* handed over, oldest first */
	struct chunk *spare;         /* consumed, ready for reuse (a stack) */
	size_t n_chunks;             /* allocated, in any of the places above */
	bool done;                   /* the producer has handed over its last */
	bool threaded;               /* another thread consumes (its own, or
	                              * the puller's) */
	pthread_t thread;
	bool has_thread;
	struct chunk *pulled;        /* the puller's current chunk */
	/* a pulled pipe may spill (dt_event_pipe_spill): the producer's
	 * chunks past MAX_CHUNKS go to this file instead of waiting */
	int spill_fd;                /* -1: none */
	unsigned long long spill_max;   /* bytes it may take */
	size_t max_chunks;           /* in memory: MAX_CHUNKS, or
	                              * DNNTRACE_TEST_PIPE_CHUNKS (tests: a
	                              * pulled pipe that spills at once) */
	off_t spill_end;             /* the producer's */
	char *readback;              /* the puller's: a spilled chunk read */
	size_t readback_cap;
	unsigned long long spilled;  /* bytes */
};

static struct chunk *chunk_new(size_t cap)
{
	struct chunk *c = dt_xcalloc(1, sizeof(*c));
	c->cap = cap;
	c->data = dt_xmalloc(cap);
	return c;
}

static void chunk_free(struct chunk *c)
{
	free(c->data);
	free(c);
}

static void recycle(struct dt_event_pipe *p, struct chunk *c);
static void push_full(struct dt_event_pipe *p, struct chunk *c);

static void *consumer_run(void *arg)
{
	struct dt_event_pipe *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->full_head && !p->done)
			pthread_cond_wait(&p->cond, &p->lock);
		struct chunk *c = p->full_head;
		if (!c)
			break;                   /* done, and all consumed */
		p->full_head = c->next;
		if (!p->full_head)
			p->full_tail = NULL;
		pthread_mutex_unlock(&p->lock);
		p->consume(p->ctx, c->data, c->len);
		pthread_mutex_lock(&p->lock);
		recycle(p, c);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct dt_event_pipe *dt_event_pipe_new(dt_pipe_consume_fn *consume,
		void *ctx, bool threaded)
{
	struct dt_event_pipe *p = dt_xcalloc(1, sizeof(*p));
	p->spill_fd = -1;
	p->max_chunks = MAX_CHUNKS;
	p->consume = consume;
	p->ctx = ctx;
	p->current = chunk_new(CHUNK_BYTES);
	p->n_chunks = 1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->threaded = threaded &&
		pthread_create(&p->thread, NULL, consumer_run, p) == 0;
	p->has_thread = p->threaded;
	return p;
}

struct dt_event_pipe *dt_event_pipe_new_pulled(void)
{
	struct dt_event_pipe *p = dt_xcalloc(1, sizeof(*p));
	p->spill_fd = -1;
	const char *test_chunks = getenv("DNNTRACE_TEST_PIPE_CHUNKS");
	p->max_chunks = test_chunks && atoi(test_chunks) >= 1 &&
		atoi(test_chunks) <= MAX_CHUNKS ? (size_t)atoi(test_chunks) :
		MAX_CHUNKS;
	p->current = chunk_new(CHUNK_BYTES);
	p->n_chunks = 1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->threaded = true;
	return p;
}

/* A consumed chunk back to the producer; the lock is held. */
static void recycle(struct dt_event_pipe *p, struct chunk *c)
{
	if (c->cap == CHUNK_BYTES) {  /* reused: no fresh pages */
		c->len = 0;
		c->next = p->spare;
		p->spare = c;
	} else {                     /* an oversized one */
		chunk_free(c);
		p->n_chunks--;
	}
	pthread_cond_broadcast(&p->cond);
}

bool dt_event_pipe_pull(struct dt_event_pipe *p, const char **data,
		size_t *len)
{
	pthread_mutex_lock(&p->lock);
	if (p->pulled) {
		recycle(p, p->pulled);
		p->pulled = NULL;
	}
	while (!p->full_head && !p->done)
		pthread_cond_wait(&p->cond, &p->lock);
	struct chunk *c = p->full_head;
	if (c) {
		p->full_head = c->next;
		if (!p->full_head)
			p->full_tail = NULL;
		if (c->data)
			p->pulled = c;
	}
	pthread_mutex_unlock(&p->lock);
	if (!c)
		return false;
	if (!c->data) {
		/* spilled: read back (the producer never writes there again) */
		if (p->readback_cap < c->len) {
			free(p->readback);
			p->readback = dt_xmalloc(c->len);
			p->readback_cap = c->len;
		}
		size_t got = 0;
		while (got < c->len) {
			ssize_t n = pread(p->spill_fd, p->readback + got,
					c->len - got, c->at + (off_t)got);
			if (n <= 0 && !(n < 0 && errno == EINTR)) {
				/* the file we wrote cannot be read: no record
				 * may be lost silently */
				fprintf(stderr, "dnntrace-analyze: cannot read "
						"back decoded records (%s)\n",
						n < 0 ? strerror(errno) : "short file");
				abort();
			}
			if (n > 0)
				got += (size_t)n;
		}
		*data = p->readback;
		*len = c->len;
		free(c);
		return true;
	}
	*data = c->data;
	*len = c->len;
	return true;
}

void dt_event_pipe_spill(struct dt_event_pipe *p, int fd,
		unsigned long long max_bytes)
{
	p->spill_fd = fd;
	p->spill_max = max_bytes;
}

unsigned long long dt_event_pipe_spilled(const struct dt_event_pipe *p)
{
	return p->spilled;
}

/* The producer's full chunk c written to the spill file, handed over as
 * a place in it; the lock is held. False when it could not be written
 * (then it goes in memory, as without a file). */
static bool spill(struct dt_event_pipe *p, struct chunk *c)
{
	if (p->spilled + c->len > p->spill_max)
		return false;   /* its share of the room is used */
	size_t put = 0;
	while (put < c->len) {
		ssize_t n = pwrite(p->spill_fd, c->data + put, c->len - put,
				p->spill_end + (off_t)put);
		if (n <= 0 && !(n < 0 && errno == EINTR))
			return false;
		if (n > 0)
			put += (size_t)n;
	}
	struct chunk *entry = dt_xcalloc(1, sizeof(*entry));
	entry->len = c->len;
	entry->at = p->spill_end;
	p->spill_end += (off_t)c->len;
	p->spilled += c->len;
	push_full(p, entry);
	return true;
}

/* Appends a full chunk to the consumer's queue; the lock is held. */
static void push_full(struct dt_event_pipe *p, struct chunk *c)
{
	c->next = NULL;
	if (p->full_tail)
		p->full_tail->next = c;
	else
		p->full_head = c;
	p->full_tail = c;
	pthread_cond_broadcast(&p->cond);
}

/* The current chunk to the consumer; a fresh or spare one (at least
 * min_cap bytes) in its place. */
static void hand_over(struct dt_event_pipe *p, size_t min_cap)
{
	struct chunk *c = p->current;
	p->current = NULL;
	if (!p->threaded) {
		if (c->len)
			p->consume(p->ctx, c->data, c->len);
		c->len = 0;
		if (c->cap >= min_cap) {
			p->current = c;
			return;
		}
		chunk_free(c);
		p->current = chunk_new(min_cap);
		return;
	}
	pthread_mutex_lock(&p->lock);
	/* far ahead of the puller, with a file to spill to: the chunk goes
	 * there and the producer goes on (a later slice of a stream file is
	 * decoded while the merge still takes the earlier one's records) */
	if (c->len && p->spill_fd >= 0 && !p->spare &&
	    p->n_chunks >= p->max_chunks && min_cap <= c->cap && spill(p, c)) {
		c->len = 0;
		pthread_mutex_unlock(&p->lock);
		p->current = c;
		return;
	}
	if (c->len) {
		push_full(p, c);
	} else {
		chunk_free(c);
		p->n_chunks--;
	}
	struct chunk *next = NULL;
	if (min_cap <= CHUNK_BYTES) {
		while (!p->spare && p->n_chunks >= p->max_chunks)
			pthread_cond_wait(&p->cond, &p->lock);
		next = p->spare;
		if (next)
			p->spare = next->next;
	}
	if (!next)
		p->n_chunks++;
	pthread_mutex_unlock(&p->lock);
	p->current = next ? next : chunk_new(min_cap > CHUNK_BYTES ?
			min_cap : CHUNK_BYTES);
}

char *dt_event_pipe_reserve(struct dt_event_pipe *p, size_t n)
{
	struct chunk *c = p->current;
	if (c->cap - c->len < n) {
		hand_over(p, n);
		c = p->current;
	}
	return c->data + c->len;
}

void dt_event_pipe_commit(struct dt_event_pipe *p, size_t n)
{
	p->current->len += n;
}

void dt_event_pipe_finish(struct dt_event_pipe *p)
{
	struct chunk *c = p->current;
	if (p->threaded) {
		pthread_mutex_lock(&p->lock);
		if (c->len) {
			push_full(p, c);
			c = NULL;            /* the consumer has it now */
		}
		p->done = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (p->has_thread)
			pthread_join(p->thread, NULL);
	} else if (c->len) {
		p->consume(p->ctx, c->data, c->len);
	}
	if (c)
		chunk_free(c);
	while (p->spare) {
		struct chunk *next = p->spare->next;
		chunk_free(p->spare);
		p->spare = next;
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}

void dt_event_pipe_close(struct dt_event_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	if (p->current->len) {
		push_full(p, p->current);
	} else {
		chunk_free(p->current);
		p->n_chunks--;
	}
	p->current = NULL;
	p->done = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

void dt_event_pipe_free(struct dt_event_pipe *p)
{
	struct chunk *lists[] = {p->pulled, p->full_head, p->spare};
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		for (struct chunk *c = lists[i]; c;) {
			struct chunk *next = i == 0 ? NULL : c->next;
			chunk_free(c);   /* a spilled one's data is NULL */
			c = next;
		}
	}
	free(p->readback);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}
