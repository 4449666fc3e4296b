/*
 * The analyzer runs its work in a supervised child process (supervisor.c):
 * libbabeltrace2 2.0 aborts, crashes or spins forever on some damaged
 * traces, and none of that may reach the user as a core dump, a hang or a
 * page of assertion text. The child reports its progress through shared
 * memory; the parent turns a death by signal or a stall into one line on
 * stderr and exit 2. Must never analyze or print results itself.
 */
#ifndef DNNTRACE_ANALYSIS_SUPERVISOR_H
#define DNNTRACE_ANALYSIS_SUPERVISOR_H

#include <stdatomic.h>
#include <stdint.h>

enum dt_phase {
	DT_PHASE_CHECKING,    /* our own checks of the trace files */
	DT_PHASE_DECODING,    /* libbabeltrace2 at work: the watchdog runs */
	DT_PHASE_ANALYZING,   /* our analysis and output: no watchdog */
};

/* Shared between the child (writer) and the parent (reader). */
struct dt_progress {
	_Atomic uint64_t ticks;     /* message batches decoded so far */
	_Atomic uint64_t events;    /* trace events decoded so far */
	_Atomic int phase;          /* enum dt_phase */
	char scratch_dir[4096];     /* the child's temporary directory, removed
	                               by the parent whatever happens (set once,
	                               in DT_PHASE_CHECKING) */
};

/* NULL when not supervised (unit tests call the reader directly). */
extern struct dt_progress *dt_progress_shared;

static inline void dt_progress_tick(void)
{
	if (dt_progress_shared)
		atomic_fetch_add_explicit(&dt_progress_shared->ticks, 1,
				memory_order_relaxed);
}

/* n more trace events decoded (the progress line on a terminal). */
static inline void dt_progress_events(uint64_t n)
{
	if (dt_progress_shared)
		atomic_fetch_add_explicit(&dt_progress_shared->events, n,
				memory_order_relaxed);
}

/*
 * Enters a phase. Entering DT_PHASE_DECODING lets fatal signals (SEGV, BUS,
 * FPE, ILL) kill the child outright, so a sanitizer's handler does not turn
 * a crash inside libbabeltrace2 into an exit code the parent would take for
 * our own; leaving it restores the previous handlers.
 */
void dt_progress_enter(enum dt_phase phase);

/*
 * Runs work(arg) in a child process and returns the exit code the analyzer
 * must exit with: the child's own (0, 1 or 2, its stderr forwarded as is),
 * or 2 with one line naming trace_dir when the child died by a signal while
 * decoding or made no progress for watchdog_s seconds (0: no watchdog);
 * 3 when it died after decoding (a bug of ours). The child never dumps core.
 * When stderr is a terminal, a progress line there (phase, events decoded,
 * events per second), rewritten in place and cleared at the end; nothing
 * otherwise.
 */
int dt_supervise(int (*work)(void *), void *arg, const char *prog,
		const char *trace_dir, unsigned watchdog_s);

#endif
