/*
 * The bracket around one forwarded copy, set or launch that is being
 * recorded: a fresh call id, pushed while the real function runs (as CUPTI's
 * external correlation id, or for the CUPTI callback to read: see
 * cupti_session.c) so the GPU record links back to our event, and
 * the errno the real function left, restored before returning to the caller.
 *
 * Must never allocate, lock, or make a system call.
 */
#ifndef DNNTRACE_TRACED_CALL_H
#define DNNTRACE_TRACED_CALL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "interceptors/core/cupti_session.h"
#include "interceptors/core/tracer.h"

struct traced_call {
	uint64_t call_id;
	uint64_t start_ns;   /* CLOCK_MONOTONIC at entry: the trace clock */
	bool pushed;
	int saved_errno;
};

/*
 * start_ns lets the analyzer measure how long the call took (its event is
 * stamped after the real function returned). clock_gettime(CLOCK_MONOTONIC)
 * is answered by the vDSO, no system call; it is LTTng's own clock.
 */
static inline void traced_call_begin(struct traced_call *call)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	call->start_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	call->call_id = tracer_next_call_id();
	call->pushed = cupti_session_push(call->call_id);
}

/* Right after the real function returns, before anything else can touch errno. */
static inline void traced_call_end(struct traced_call *call)
{
	call->saved_errno = errno;
	if (call->pushed)
		cupti_session_pop();
}

/* Leaves the wrapper's recording state; errno is the real function's again. */
static inline void traced_call_leave(const struct traced_call *call)
{
	tracer_leave();
	errno = call->saved_errno;
}

#endif
