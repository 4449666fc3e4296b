/*
 * sim_not_supported_report: the once-per-function stderr line of the
 * generated stubs (not_supported.h). It must never allocate, lock or use
 * stdio: a single write(2) per function, whoever calls first.
 */
#include "simgpu/exports/not_supported.h"

#include <errno.h>
#include <unistd.h>

void sim_not_supported_report(atomic_flag *reported, const char *line, size_t len)
{
	if (atomic_flag_test_and_set(reported))
		return;
	int saved = errno; /* a stub must not disturb the caller's errno */
	while (len > 0) {
		ssize_t n = write(STDERR_FILENO, line, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		line += n;
		len -= (size_t)n;
	}
	errno = saved;
}
