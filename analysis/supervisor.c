/*
 * Supervised child process of the analyzer (supervisor.h). The parent only
 * waits, watches the progress counter and relays the child's stderr; it
 * touches no trace file and allocates nothing that can fail halfway. Must
 * never let a core dump, a hang or libbabeltrace2's multi-line abort text
 * out, and never hide a sanitizer report of the child (relayed as is).
 */
#include "analysis/supervisor.h"

#include "analysis/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct dt_progress *dt_progress_shared;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define N_FATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction saved_actions[N_FATAL];
static bool actions_saved;

void dt_progress_enter(enum dt_phase phase)
{
	if (!dt_progress_shared)
		return;
	if (phase == DT_PHASE_DECODING && !actions_saved) {
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		for (size_t i = 0; i < N_FATAL; i++)
			sigaction(fatal_signals[i], &dfl, &saved_actions[i]);
		actions_saved = true;
	} else if (phase != DT_PHASE_DECODING && actions_saved) {
		for (size_t i = 0; i < N_FATAL; i++)
			sigaction(fatal_signals[i], &saved_actions[i], NULL);
		actions_saved = false;
	}
	atomic_store(&dt_progress_shared->phase, (int)phase);
}

/* ---- the parent --------------------------------------------------------- */

struct captured {
	char *text;
	size_t len, cap;
	bool truncated;
};

/* The child's stderr is kept whole up to 1 MiB (a sanitizer report is a few
 * KB); beyond that the rest is dropped and the relay says so. */
#define CAPTURE_LIMIT (1u << 20)

static void capture(struct captured *c, const char *buf, size_t n)
{
	if (c->len + n > CAPTURE_LIMIT) {
		n = CAPTURE_LIMIT - c->len;
		c->truncated = true;
	}
	if (n == 0)
		return;
	if (c->len + n > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		while (cap < c->len + n)
			cap *= 2;
		char *text = realloc(c->text, cap);
		if (!text) {
			c->truncated = true;
			return;
		}
		c->text = text;
		c->cap = cap;
	}
	memcpy(c->text + c->len, buf, n);
	c->len += n;
}

/* Reads what is there; false at end of file (or error). */
static bool drain(int fd, struct captured *c)
{
	char buf[4096];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			capture(c, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What libbabeltrace2 said before it aborted, as a short phrase: its
 * assertion text when there is one (BT_ASSERT prints "Assertion `...'
 * failed"), else nothing. */
static void abort_reason(const struct captured *c, char *out, size_t size)
{
	out[0] = '\0';
	if (!c->text)
		return;
	const char *end = c->text + c->len;
	const char *key = "Assertion";
	const char *hit = NULL;
	for (const char *p = c->text; p + 9 <= end; p++)
		if (memcmp(p, key, 9) == 0)
			hit = p;     /* the last one */
	if (!hit)
		return;
	size_t n = 0;
	for (const char *p = hit; p < end && *p != '\n' && n + 1 < size; p++)
		out[n++] = (*p == '\r' || *p == '\t') ? ' ' : *p;
	out[n] = '\0';
}

/* The child's scratch directory goes, whatever became of the child. Only a
 * path the child named under the system's temporary directory is removed. */
static void remove_scratch(struct dt_progress *p)
{
	p->scratch_dir[sizeof(p->scratch_dir) - 1] = '\0';
	if (p->scratch_dir[0] == '/' && strstr(p->scratch_dir, "/dnntrace-view."))
		dt_remove_tree(p->scratch_dir);
}

/* The progress line on a terminal: rewritten in place at most twice a
 * second and on each change of phase, cleared before anything else is
 * written. */
struct progress_line {
	bool on;                     /* stderr is a terminal */
	bool shown;                  /* a line is on the screen */
	int phase;
	double last_shown, phase_start;
	uint64_t phase_events;       /* events when the phase began */
};

static void show_progress(struct progress_line *pl, const char *prog,
		int phase, uint64_t events, double t)
{
	static const char *const names[] = {
		[DT_PHASE_CHECKING] = "checking the trace files",
		[DT_PHASE_DECODING] = "decoding",
		[DT_PHASE_ANALYZING] = "analyzing and writing the report",
	};
	if (!pl->on)
		return;
	bool changed = phase != pl->phase;
	if (changed) {
		pl->phase = phase;
		pl->phase_start = t;
		pl->phase_events = events;
	}
	if (!changed && t - pl->last_shown < 0.5)
		return;
	pl->last_shown = t;
	double seconds = t - pl->phase_start;
	const char *name = phase >= 0 && phase <= DT_PHASE_ANALYZING ?
		names[phase] : "starting";
	if (phase == DT_PHASE_DECODING && seconds > 0.05)
		fprintf(stderr, "\r\033[K%s: %s: %llu events (%.0f events/s)",
				prog, name, (unsigned long long)events,
				(double)(events - pl->phase_events) / seconds);
	else if (phase == DT_PHASE_DECODING)
		fprintf(stderr, "\r\033[K%s: %s: %llu events", prog, name,
				(unsigned long long)events);
	else
		fprintf(stderr, "\r\033[K%s: %s (%llu events decoded)", prog,
				name, (unsigned long long)events);
	fflush(stderr);
	pl->shown = true;
}

static void clear_progress(struct progress_line *pl)
{
	if (pl->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		pl->shown = false;
	}
}

int dt_supervise(int (*work)(void *), void *arg, const char *prog,
		const char *trace_dir, unsigned watchdog_s)
{
	struct dt_progress *p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fds[2];
	if (p == MAP_FAILED) {
		fprintf(stderr, "%s: cannot start the decoding process: %s\n",
				prog, strerror(errno));
		return 2;
	}
	memset(p, 0, sizeof(*p));
	if (pipe(fds) != 0) {
		fprintf(stderr, "%s: cannot start the decoding process: %s\n",
				prog, strerror(errno));
		munmap(p, sizeof(*p));
		return 2;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: cannot start the decoding process: %s\n",
				prog, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		munmap(p, sizeof(*p));
		return 2;
	}
	if (pid == 0) {
		/* the child: no core file, gone with its parent */
		struct rlimit none = {0, 0};
		setrlimit(RLIMIT_CORE, &none);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(2);
		close(fds[0]);
		if (dup2(fds[1], STDERR_FILENO) < 0)
			_exit(2);
		close(fds[1]);
		dt_progress_shared = p;
		int rc = work(arg);
		fflush(stdout);
		exit(rc);
	}

	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	struct captured err = {0};
	bool open_fd = true, stalled = false, lost = false;
	int lost_errno = 0;
	int status = 0;
	uint64_t last_ticks = 0;
	int last_phase = -1;
	double last_change = now_s();
	struct progress_line line = {.on = isatty(STDERR_FILENO), .phase = -1};
	for (;;) {
		struct pollfd pfd = {fds[0], POLLIN, 0};
		/* the pipe's end of file wakes us when the child exits; after
		 * it, the child is reaped within milliseconds */
		if (poll(&pfd, open_fd ? 1 : 0, open_fd ? 100 : 2) > 0 &&
		    !drain(fds[0], &err))
			open_fd = false;
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			lost = true;
			lost_errno = errno;
			break;
		}
		uint64_t ticks = atomic_load(&p->ticks);
		int phase = atomic_load(&p->phase);
		double t = now_s();
		show_progress(&line, prog, phase, atomic_load(&p->events), t);
		if (ticks != last_ticks || phase != last_phase) {
			last_ticks = ticks;
			last_phase = phase;
			last_change = t;
		} else if (watchdog_s > 0 && phase <= DT_PHASE_DECODING &&
				t - last_change >= (double)watchdog_s) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			stalled = true;
			break;
		}
	}
	if (open_fd) {
		/* the child is gone: what it wrote is all in the pipe */
		fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) & ~O_NONBLOCK);
		drain(fds[0], &err);
	}
	close(fds[0]);
	clear_progress(&line);
	int phase = atomic_load(&p->phase);
	remove_scratch(p);
	munmap(p, sizeof(*p));

	int rc;
	if (lost) {
		fprintf(stderr, "%s: %s: lost the decoding process: %s\n", prog,
				trace_dir, strerror(lost_errno));
		rc = 2;
	} else if (stalled) {
		fprintf(stderr, "%s: %s: no progress decoding the trace for %u s "
				"(libbabeltrace2 stuck on a truncated or corrupt "
				"trace?): stopped (--watchdog-s sets the limit)\n",
				prog, trace_dir, watchdog_s);
		rc = 2;
	} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) {
		/* the reader of our stdout went away (`| head`): end as an
		 * unsupervised analyzer would, quietly */
		free(err.text);
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		return 2;
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		char reason[200];
		abort_reason(&err, reason, sizeof(reason));
		if (phase <= DT_PHASE_DECODING) {
			fprintf(stderr, "%s: %s: truncated or corrupt trace "
					"(libbabeltrace2 crashed decoding it: SIG%s%s%s)\n",
					prog, trace_dir, sigabbrev_np(sig) ?
					sigabbrev_np(sig) : "?",
					reason[0] ? ", " : "", reason);
			rc = 2;
		} else {
			fprintf(stderr, "%s: %s: internal error: the analysis died "
					"of SIG%s after decoding (please report it)\n",
					prog, trace_dir, sigabbrev_np(sig) ?
					sigabbrev_np(sig) : "?");
			rc = 3;
		}
	} else {
		if (err.len)
			fwrite(err.text, 1, err.len, stderr);
		if (err.truncated)
			fprintf(stderr, "%s: (more error output dropped)\n", prog);
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
	}
	free(err.text);
	return rc;
}
