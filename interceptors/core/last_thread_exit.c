/*
 * Makes a traced process end when its last APPLICATION thread ends, as an
 * untraced one does. glibc calls exit(0) when the last thread of a process
 * ends with pthread_exit (or returns from its start routine), but LTTng-UST's
 * listener threads (and CUPTI's) count as threads too: preloaded, a program
 * whose main thread calls pthread_exit would never end. So we wrap
 * pthread_create, count the live application threads (main is one), and when
 * the last one ends we flush the tracer and call exit(0) ourselves.
 *
 * A thread is a tracer thread when the code that created it lives in
 * liblttng-ust*, libcupti* or libdnntrace itself (dladdr on the return
 * address); anything else, CUDA's own threads included, is an application
 * thread: those would keep an untraced process alive just the same.
 * Return from main and exit() are untouched (no destructor runs for main).
 *
 * Assumed, not tested on a real GPU: CUPTI creates its threads from
 * libcupti itself. Known limits: threads started by glibc internally
 * (SIGEV_THREAD timers, AIO helpers) never pass through pthread_create's
 * public symbol, so they are not counted; under ASan (which interposes
 * pthread_create before us) every thread looks created by libasan and the
 * count never reaches 0, i.e. the old behaviour.
 *
 * Must never change what pthread_create returns or does for the caller, and
 * never exit the process while an application thread can still run: it is
 * only active when we are preloaded (our pthread_create is the one the
 * process uses) and our constructor ran on the main thread.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interceptors/core/tracer.h"

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *,
				 void *(*)(void *), void *);

/* Main counts as one; the count is raised by the creator, before the thread runs. */
static atomic_long live_application_threads = 1;
/* Set by the constructor once it knows the count is complete (see above). */
static atomic_bool exit_with_last_thread;
/* Set for good when a thread had to be started uncounted. */
static atomic_bool count_incomplete;

static pthread_key_t application_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static bool key_ready;

static _Atomic(pthread_create_fn) real_pthread_create;

static void *self_base(void)
{
	static void *base;
	Dl_info info;

	if (!base && dladdr((const void *)&self_base, &info))
		base = info.dli_fbase;
	return base;
}

static void on_application_thread_exit(void *value)
{
	(void)value;
	if (atomic_fetch_sub(&live_application_threads, 1) != 1)
		return;
	if (!atomic_load(&exit_with_last_thread) || atomic_load(&count_incomplete))
		return;
	/* What glibc does when the last thread ends, once our records are out. */
	tracer_flush_for_exit();
	exit(0);
}

static void create_key(void)
{
	key_ready = pthread_key_create(&application_key, on_application_thread_exit) == 0;
}

static bool created_by_tracer(const void *creator)
{
	Dl_info info;

	if (!creator || !dladdr(creator, &info))
		return false;
	if (info.dli_fbase == self_base())
		return true;
	if (!info.dli_fname)
		return false;
	const char *slash = strrchr(info.dli_fname, '/');
	const char *file = slash ? slash + 1 : info.dli_fname;
	return strncmp(file, "liblttng-ust", strlen("liblttng-ust")) == 0 ||
	       strncmp(file, "libcupti", strlen("libcupti")) == 0;
}

struct application_start {
	void *(*routine)(void *);
	void *arg;
};

static void *start_application_thread(void *data)
{
	struct application_start start = *(struct application_start *)data;

	free(data);
	/* Any non-NULL value: the key's destructor runs at this thread's end. */
	pthread_setspecific(application_key, &live_application_threads);
	return start.routine(start.arg);
}

DNNTRACE_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
				   void *(*start_routine)(void *), void *arg)
{
	const void *creator = __builtin_return_address(0);
	int saved_errno = errno; /* dlsym and dladdr may touch it; pthread_create does not */
	pthread_create_fn real = atomic_load_explicit(&real_pthread_create, memory_order_acquire);

	if (!real) {
		real = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
		if (!real)
			return EAGAIN; /* no libc below us: nothing could create a thread */
		atomic_store_explicit(&real_pthread_create, real, memory_order_release);
	}
	pthread_once(&key_once, create_key);
	bool tracer_thread = !key_ready || created_by_tracer(creator);
	errno = saved_errno;
	if (tracer_thread)
		return real(thread, attr, start_routine, arg);

	struct application_start *start = malloc(sizeof(*start));
	if (!start) {
		/* Uncounted, this thread could be cut short: stop exiting early for good. */
		atomic_store(&count_incomplete, true);
		errno = saved_errno;
		return real(thread, attr, start_routine, arg);
	}
	start->routine = start_routine;
	start->arg = arg;
	atomic_fetch_add(&live_application_threads, 1);
	int rc = real(thread, attr, start_application_thread, start);
	if (rc != 0) {
		atomic_fetch_sub(&live_application_threads, 1);
		free(start);
	}
	return rc;
}

/* The forked child has only the forking thread, as glibc counts it. */
static void reset_in_child(void)
{
	atomic_store(&live_application_threads, 1);
}

static bool preloaded(void)
{
	Dl_info info;
	void *used = dlsym(RTLD_DEFAULT, "pthread_create");

	return used && dladdr(used, &info) && info.dli_fbase == self_base();
}

__attribute__((constructor)) static void last_thread_exit_init(void)
{
	pthread_once(&key_once, create_key);
	if (!key_ready || gettid() != getpid() || !preloaded())
		return;
	if (pthread_setspecific(application_key, &live_application_threads) != 0)
		return;
	pthread_atfork(NULL, NULL, reset_in_child);
	atomic_store(&exit_with_last_thread, true);
}
