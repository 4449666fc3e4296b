/*
 * Per-process counts of what the tracer handed to LTTng, kept where
 * `dnntrace record` reads them after the run (DNNTRACE_EVENT_COUNT_DIR/PID):
 * the analysis compares them with the events the trace holds, so events lost
 * on the way (a killed process's never-completed buffers, a full disk,
 * --lossy's discards) are counted exactly, and calls made before the process
 * registered with LTTng are counted at all.
 *
 * Every event goes through DNNTRACE_EMIT. Must never fail, block or signal
 * the traced program: no directory, no file, no space: no counting.
 */
#ifndef DNNTRACE_EVENT_COUNT_H
#define DNNTRACE_EVENT_COUNT_H

#include <lttng/tracepoint.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The counter file's layout (native byte order, read by scripts/lib/dnntrace-record.sh). */
struct event_counts {
	_Atomic uint64_t emitted;   /* events handed to LTTng (their tracepoint enabled) */
	_Atomic uint64_t untraced;  /* traced calls not recorded: no session had
	                               reached the process yet */
	_Atomic uint64_t untraced_late; /* ... no session listened any more
	                                   (LTTng-UST's exit handler had run) */
};

/* NULL unless `dnntrace record` asked for counts and the file is mapped. */
extern struct event_counts *event_counts_mapped;

static inline void event_count_emitted(void)
{
	struct event_counts *counts = event_counts_mapped;
	if (counts)
		atomic_fetch_add_explicit(&counts->emitted, 1, memory_order_relaxed);
}

/* For an outermost traced call that only forwards because its event is off:
 * true (and the call counted) when counting and no dnntrace event at all is
 * on (the process has not registered with the session daemon yet), false
 * for a call a wrapper forwards by choice (cudaFree(NULL)). */
bool event_count_unregistered_slow(void);

static inline bool event_count_unregistered(void)
{
	return event_counts_mapped && event_count_unregistered_slow();
}

/* lttng_ust_tracepoint, counted: the count is taken before the event is
 * written, so a process killed in between counts it as lost, which it is. */
#define DNNTRACE_EMIT(provider, name, ...)                                        \
	do {                                                                      \
		LTTNG_UST_STAP_PROBEV(provider, name, ##__VA_ARGS__);             \
		if (lttng_ust_tracepoint_enabled(provider, name)) {               \
			event_count_emitted();                                    \
			lttng_ust_do_tracepoint(provider, name, __VA_ARGS__);     \
		}                                                                 \
	} while (0)

#endif
