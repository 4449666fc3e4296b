/*
 * The counter file behind event_count.h: DNNTRACE_EVENT_COUNT_DIR/PID, one
 * page, mapped shared so its counts outlive a SIGKILL. Its blocks are
 * allocated before it is mapped (posix_fallocate), so a full disk can never
 * turn a counter update into SIGBUS. A forked child counts in its own file.
 * Must never change the traced program's errno, nor fail it.
 */
#include "interceptors/core/event_count.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracepoints/dnntrace_api.h"

#define EVENT_COUNT_FILE_SIZE 4096

struct event_counts *event_counts_mapped;

bool event_count_unregistered_slow(void)
{
	struct event_counts *counts = event_counts_mapped;
	/* dnntrace record enables every dnntrace event: one that is off
	 * means no session has reached this process yet. */
	if (!counts || lttng_ust_tracepoint_enabled(dnntrace_api, alloc))
		return false;
	/* An event already written: the process was registered, and tracing
	 * has ended for it (at exit, other threads still calling). */
	if (atomic_load_explicit(&counts->emitted, memory_order_relaxed) > 0)
		atomic_fetch_add_explicit(&counts->untraced_late, 1, memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&counts->untraced, 1, memory_order_relaxed);
	return true;
}

static void event_count_open(void)
{
	const char *dir = getenv("DNNTRACE_EVENT_COUNT_DIR");
	char path[PATH_MAX];
	int saved_errno = errno;

	if (!dir || !*dir)
		return;
	int length = snprintf(path, sizeof path, "%s/%ld", dir, (long)getpid());
	if (length < 0 || (size_t)length >= sizeof path)
		return;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	if (posix_fallocate(fd, 0, EVENT_COUNT_FILE_SIZE) == 0) {
		void *map = mmap(NULL, EVENT_COUNT_FILE_SIZE, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, 0);
		if (map != MAP_FAILED)
			event_counts_mapped = map;
	}
	close(fd);
out:
	errno = saved_errno;
}

/* The child's events are its own process's (LTTng-UST's fork wrapper makes
 * it one): it must not add to the parent's file. */
static void event_count_in_child(void)
{
	struct event_counts *inherited = event_counts_mapped;
	event_counts_mapped = NULL;
	if (inherited)
		munmap(inherited, EVENT_COUNT_FILE_SIZE);
	event_count_open();
}

__attribute__((constructor)) static void event_count_start(void)
{
	event_count_open();
	pthread_atfork(NULL, NULL, event_count_in_child);
}
