/*
 * Gets CUPTI's buffered GPU records into the trace when the process ends
 * without running its exit handlers: a crash signal (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGABRT), a termination signal left at its default action
 * (SIGTERM, SIGINT, SIGHUP, SIGQUIT), or _exit/_Exit called by the program. LTTng
 * events need nothing: they sit in the session daemon's shared memory as
 * soon as they are written. SIGKILL cannot be caught: the records CUPTI
 * still holds then are lost.
 *
 * But an event must not be half written when the process dies: LTTng can
 * never complete that sub-buffer, and the session's stop then waits for it
 * forever (dnntrace record gives up after its teardown limit, and every
 * event still in that CPU's buffers is lost). So the tracer's own writers
 * are idle before the dying thread goes on: the helper answers only once
 * its flush is written, and it then stops and joins the power sampler,
 * which otherwise writes an event every DNNTRACE_POWER_MS on its own thread
 * whenever the end comes (rarely in the middle of one, unless that thread
 * was preempted there: a loaded machine). A program that survives the
 * signal (its own handler longjmps) goes on without power samples.
 * Assumed, not seen on a real GPU: cuptiActivityFlushAll returns only once
 * CUPTI's own worker has finished handing over a buffer it was delivering
 * (the simulated CUPTI's does), so no CUPTI thread is writing either.
 *
 * The flush runs on a helper thread started with the CUPTI session (or
 * the power sampler alone), and the dying thread waits for it at most
 * FLUSH_TIMEOUT_MS: the crash may have happened while holding a lock the
 * flush needs (malloc's, CUPTI's), and a dying process must never hang.
 * The signal handler is chained and one-shot: it puts the previous action
 * (the program's handler, or the default) back first, then has the signal
 * delivered again to it: a fault by re-executing
 * the faulting instruction, a sent or raised signal by raising it again.
 * So the program's own handlers still run and its exit status and core dump
 * are what they would be untraced; a program that recovers from the signal
 * has its own handler from then on.
 *
 * Must never change what the program's signal dispositions do, never run
 * a flush on the signalled thread itself, never wait unboundedly, and do
 * nothing in a forked child (it has no CUPTI).
 */
#include "interceptors/core/crash_flush.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "interceptors/core/cupti_session.h"
#include "interceptors/core/nvml_sampler.h"
#include "interceptors/core/tracer.h"

/*
 * Long enough for a full 4 MiB CUPTI buffer into a blocking LTTng channel,
 * and the sampler's join (at most 2 s).
 */
enum { FLUSH_TIMEOUT_MS = 10000 };

/*
 * The crash signals always (chained to whatever handler the program has);
 * from N_ALWAYS on, the termination signals a user or `dnntrace record`
 * sends, only while their action is the default (a handler of the
 * program's own ends the program its own way, through exit or not at all).
 */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				     SIGTERM, SIGINT, SIGHUP, SIGQUIT };
enum { N_CRASH_SIGNALS = sizeof(crash_signals) / sizeof(crash_signals[0]), N_ALWAYS = 5 };

static struct sigaction previous[N_CRASH_SIGNALS];

/* The helper's pipes: a byte in asks for a flush, a byte back says done. */
static int request_fds[2] = { -1, -1 };
static int done_fds[2] = { -1, -1 };
static pid_t helper_pid; /* the process whose helper thread it is */
static atomic_bool helper_ready;

typedef void exit_fn(int);
static exit_fn *real_exit, *real_Exit;

static void *flush_helper(void *arg)
{
	char byte;
	(void)arg;
	for (;;) {
		ssize_t n = read(request_fds[0], &byte, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1)
			return NULL;
		tracer_nesting++;
		cupti_session_flush_now();
		nvml_sampler_halt();
		tracer_nesting--;
		while (write(done_fds[1], &byte, 1) < 0 && errno == EINTR)
			;
	}
}

static int64_t now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Async-signal-safe: has the helper flush, waits for it, bounded. */
static void flush_bounded(void)
{
	char byte = 1;

	if (!atomic_load(&helper_ready) || getpid() != helper_pid)
		return;
	if (write(request_fds[1], &byte, 1) != 1)
		return;
	int64_t deadline = now_ms() + FLUSH_TIMEOUT_MS;
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return;
		struct pollfd done = { .fd = done_fds[0], .events = POLLIN };
		int ready = poll(&done, 1, (int)left);
		if (ready > 0) {
			/* Another dying thread may have taken it first: then we waited for its flush. */
			ssize_t ignored = read(done_fds[0], &byte, 1);
			(void)ignored;
			return;
		}
		if (ready < 0 && errno != EINTR)
			return;
	}
}

static int signal_index(int sig)
{
	for (int i = 0; i < N_CRASH_SIGNALS; i++)
		if (crash_signals[i] == sig)
			return i;
	return -1;
}

static void on_crash_signal(int sig, siginfo_t *info, void *context)
{
	int saved_errno = errno;
	int index = signal_index(sig);
	(void)context;

	if (index >= 0)
		sigaction(sig, &previous[index], NULL);
	flush_bounded();
	/*
	 * A fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL from the kernel: si_code > 0,
	 * SI_KERNEL included) recurs when we return and the instruction runs
	 * again, with the same siginfo. Any other signal (sent, raised,
	 * abort(), a terminal's SIGINT) does not: raise it again; it is blocked
	 * until we return, then goes to the previous action.
	 */
	bool fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
	if (!fault || !info || info->si_code <= 0)
		syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
	errno = saved_errno;
}

void crash_flush_start(void)
{
	if (pipe2(request_fds, O_CLOEXEC) != 0)
		return;
	if (pipe2(done_fds, O_CLOEXEC) != 0) {
		close(request_fds[0]);
		close(request_fds[1]);
		return;
	}
	/* The helper must never take the program's signals. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t thread;
	int rc = pthread_create(&thread, NULL, flush_helper, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		close(request_fds[0]);
		close(request_fds[1]);
		close(done_fds[0]);
		close(done_fds[1]);
		return;
	}
	/* Unnamed: its events carry the program's procname, like CUPTI's threads' do. */
	pthread_detach(thread);
	helper_pid = getpid();
	atomic_store(&helper_ready, true);

	struct sigaction action;
	memset(&action, 0, sizeof(action));
	action.sa_sigaction = on_crash_signal;
	action.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&action.sa_mask); /* nothing else runs on this thread meanwhile */
	for (int i = 0; i < N_CRASH_SIGNALS; i++) {
		struct sigaction current;
		/* An ignored SIGABRT stays ignored; faults cannot be ignored anyway. */
		if (sigaction(crash_signals[i], NULL, &current) != 0 ||
		    current.sa_handler == SIG_IGN ||
		    (i >= N_ALWAYS && ((current.sa_flags & SA_SIGINFO) ||
				       current.sa_handler != SIG_DFL)))
			continue;
		previous[i] = current;
		sigaction(crash_signals[i], &action, NULL);
	}
}

/* Resolved before any fork: a vfork child calling _exit must not dlsym. */
__attribute__((constructor)) static void crash_flush_init(void)
{
	*(void **)&real_exit = dlsym(RTLD_NEXT, "_exit");
	*(void **)&real_Exit = dlsym(RTLD_NEXT, "_Exit");
}

static __attribute__((noreturn)) void end_process(exit_fn *real, int status)
{
	flush_bounded();
	if (real)
		real(status);
	for (;;)
		syscall(SYS_exit_group, status);
}

DNNTRACE_EXPORT void _exit(int status)
{
	end_process(real_exit, status);
}

DNNTRACE_EXPORT void _Exit(int status)
{
	end_process(real_Exit, status);
}
