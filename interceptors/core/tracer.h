/*
 * The tracer's process-wide state, shared by every wrapper: the per-thread
 * nesting counter, the call and tensor id counters, the live-allocation map,
 * and the one-time start (CUPTI, exit flush) on the first traced call.
 *
 * A wrapper records only when it is the outermost wrapper on its thread AND
 * a session listens to its event; otherwise it only forwards. Consequence:
 * allocations made while no session listened are unknown to the map (their
 * frees are traced with tensor_id -1 and launches do not list them).
 *
 * Must never hold a lock while a real CUDA function runs.
 */
#ifndef DNNTRACE_TRACER_H
#define DNNTRACE_TRACER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "interceptors/core/tensor_map.h"

/* Marks the only symbols libdnntrace.so exports (built -fvisibility=hidden). */
#define DNNTRACE_EXPORT __attribute__((visibility("default")))

/*
 * How many wrappers are active on this thread. initial-exec: a plain TLS
 * load on the hot path; the library is preloaded, so static TLS is there.
 */
extern __thread unsigned tracer_nesting __attribute__((tls_model("initial-exec")));

extern struct tensor_map tracer_tensors;

enum { TRACER_STARTED = 1 };
extern atomic_int tracer_start_state;
void tracer_start_slow(void);

/*
 * True when this call must be recorded: it is the outermost wrapper on the
 * thread and event_enabled (lttng_ust_tracepoint_enabled of its event). Then
 * the caller must call tracer_leave() once it is done.
 */
static inline bool tracer_enter(bool event_enabled)
{
	if (tracer_nesting != 0 || !event_enabled)
		return false;
	tracer_nesting++;
	if (atomic_load_explicit(&tracer_start_state, memory_order_acquire) != TRACER_STARTED)
		tracer_start_slow();
	return true;
}

static inline void tracer_leave(void)
{
	tracer_nesting--;
}

/* Per-process ids: call ids 1, 2, ...; tensor ids 0, 1, 2, ... */
uint64_t tracer_next_call_id(void);
int64_t tracer_next_tensor_id(void);

/* Forces out every buffered GPU record; at the process's end only. */
void tracer_flush_for_exit(void);

/* The calling thread's current device, or -1 when the runtime cannot say. */
int tracer_current_device(void);

/* The id of the tensor containing ptr (base or interior), or -1. */
int64_t tracer_tensor_of(const void *ptr);

#endif
