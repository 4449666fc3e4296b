/*
 * The report's output buffer (out_buffer.h): write(2) of full buffers,
 * on the caller's thread or on a writer thread of its own. Must never
 * return before a buffer handed over is written, nor lose a write error.
 */
#include "analysis/report/out_buffer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The thread doing write(2) of one full buffer while formatting fills the
 * other: timeline.json is written during the decoding pass, where the
 * second core is otherwise idle. */
struct dt_out_writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int fd;
	char *pending;               /* handed over, being written; NULL: idle */
	size_t pending_len;
	bool stop;
	int error;
};

/* All of buf to fd; the errno of a failure, or 0. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void *writer_run(void *arg)
{
	struct dt_out_writer *w = arg;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->pending && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->pending)
			break;
		char *buf = w->pending;
		size_t len = w->pending_len;
		bool skip = w->error != 0;
		pthread_mutex_unlock(&w->lock);
		int error = skip ? 0 : write_all(w->fd, buf, len);
		pthread_mutex_lock(&w->lock);
		if (error && !w->error)
			w->error = error;
		w->pending = NULL;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void start_writer(struct dt_out *o)
{
	struct dt_out_writer *w = dt_xcalloc(1, sizeof(*w));
	w->fd = o->fd;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, writer_run, w) != 0) {
		/* no thread to be had: write on the caller's thread */
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return;
	}
	o->writer = w;
	o->spare = dt_xmalloc(DT_OUT_BUFFER);
}

int dt_out_open(struct dt_out *o, const char *path, bool threaded)
{
	memset(o, 0, sizeof(*o));
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0)
		return -1;
	o->buf = dt_xmalloc(DT_OUT_BUFFER);
	if (threaded)
		start_writer(o);
	return 0;
}

int dt_out_open_in(struct dt_out *o, const char *dir, const char *file_name)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, file_name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return dt_out_open(o, path, false);
}

void dt_out_open_stream(struct dt_out *o, FILE *f)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->file = f;
	o->buf = dt_xmalloc(DT_OUT_BUFFER);
}

void dt_out_flush(struct dt_out *o)
{
	if (o->len == 0)
		return;
	struct dt_out_writer *w = o->writer;
	if (!w) {
		int error = o->error ? 0 : o->file ?
			(fwrite(o->buf, 1, o->len, o->file) == o->len ? 0 : EIO) :
			write_all(o->fd, o->buf, o->len);
		if (error)
			o->error = error;
		o->len = 0;
		return;
	}
	pthread_mutex_lock(&w->lock);
	while (w->pending)      /* the spare is free once the writer is idle */
		pthread_cond_wait(&w->cond, &w->lock);
	w->pending = o->buf;
	w->pending_len = o->len;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	char *next = o->spare;
	o->spare = o->buf;
	o->buf = next;
	o->len = 0;
}

void dt_out_write_long(struct dt_out *o, const char *s, size_t n)
{
	while (n > 0) {
		size_t part = DT_OUT_BUFFER - o->len;
		if (part > n)
			part = n;
		memcpy(o->buf + o->len, s, part);
		o->len += part;
		s += part;
		n -= part;
		if (n > 0)
			dt_out_flush(o);
	}
}

void dt_out_printf(struct dt_out *o, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	size_t room = DT_OUT_BUFFER - o->len;
	int n = vsnprintf(o->buf + o->len, room, format, args);
	va_end(args);
	if (n >= 0 && (size_t)n < room) {
		o->len += (size_t)n;
		return;
	}
	/* it did not fit in what was left: format it apart */
	va_start(args, format);
	char *text = NULL;
	n = vasprintf(&text, format, args);
	va_end(args);
	if (n < 0) {
		if (!o->error)
			o->error = ENOMEM;
		return;
	}
	dt_out_write_long(o, text, (size_t)n);
	free(text);
}

static void stop_writer(struct dt_out *o)
{
	struct dt_out_writer *w = o->writer;
	pthread_mutex_lock(&w->lock);
	while (w->pending)
		pthread_cond_wait(&w->cond, &w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	if (w->error && !o->error)
		o->error = w->error;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	o->writer = NULL;
}

int dt_out_close(struct dt_out *o)
{
	dt_out_flush(o);
	if (o->writer)
		stop_writer(o);
	if (o->fd >= 0 && close(o->fd) != 0 && !o->error)
		o->error = errno;
	free(o->buf);
	free(o->spare);
	int error = o->error;
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (error) {
		errno = error;
		return -1;
	}
	return 0;
}
