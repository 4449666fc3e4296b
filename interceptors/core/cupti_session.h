/*
 * CUPTI, loaded at run time: kernel/memcpy/memset timing records and the
 * external correlation that links them to our call ids, written out as
 * dnntrace_gpu events. When CUPTI cannot be loaded or started, one warning
 * line and a dnntrace_api:status(0, ...) event, and API tracing goes on.
 *
 * Must never make libdnntrace.so depend on libcupti at link time, and never
 * be started twice.
 */
#ifndef DNNTRACE_CUPTI_SESSION_H
#define DNNTRACE_CUPTI_SESSION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Loads and starts CUPTI, emits the status event. Called once. */
void cupti_session_start(void);

/* Forces out every buffered record (at exit). Later calls do nothing. */
void cupti_session_flush(void);

/*
 * Forces out every buffered record now, and again at exit: for a process
 * that may be about to die (crash_flush.c). Does nothing in a forked child.
 */
void cupti_session_flush_now(void);

/* In a forked child: CUPTI's threads are gone; stop using it. */
void cupti_session_forget(void);

extern atomic_bool cupti_session_running;

/* CUPTI's id of a graph node (cuptiGetGraphNodeId), the id GPU records of
 * graph launches carry; false (and 0) when CUPTI does not run or cannot say. */
bool cupti_session_graph_node_id(const void *node, uint64_t *id);

/*
 * Around a graph instantiation (the cudaGraphInstantiate* and
 * cuGraphInstantiateWith* wrappers, whether or not a session listens):
 * the clones CUPTI reports on this thread meanwhile with no exec are held,
 * and written with exec, the instantiated exec (NULL: it failed; they are
 * dropped), when the outermost instantiation ends. Nesting (the runtime's
 * call entering the driver's wrapper) is counted.
 */
void cupti_session_instantiate_begin(void);
void cupti_session_instantiate_end(const void *exec);

/*
 * Push call_id around a forwarded call (--gpu-records=full: as the CUSTOM0
 * external correlation id; work, kernels: on this thread's own stack, which
 * the CUPTI callback reads); returns whether it was pushed (then pop after
 * the call).
 */
bool cupti_session_push_slow(uint64_t call_id);
void cupti_session_pop(void);

static inline bool cupti_session_push(uint64_t call_id)
{
	if (!atomic_load_explicit(&cupti_session_running, memory_order_acquire))
		return false;
	return cupti_session_push_slow(call_id);
}

#endif
