/*
 * The wrapper skeleton: the bracket every wrapped entry point shares,
 * written once, in the spirit of compiler-rt's INTERCEPTOR/REAL. A wrapper
 * then says only what is particular to it: its prototype, and how it
 * describes the call (which tensors, which roles) once the real function
 * returned.
 *
 *   DNNTRACE_TRACED_CALL(cudaError_t, cudaMemcpyPeerAsync,
 *   	(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
 *   	 cudaStream_t stream),
 *   	(dst, dstDevice, src, srcDevice, count, stream),
 *   	cudaErrorSharedObjectSymbolNotFound, memcpy_enabled(),
 *   	record_memcpy(&call, api, cudaMemcpyDeviceToDevice, dst, src, count, stream, result))
 *
 * expands to the exported function cudaMemcpyPeerAsync that
 *   1. finds the real function (REAL: the catalogue's table), or returns
 *      `missing` when no loaded library has it;
 *   2. only forwards when no session listens (`enabled` false) or when
 *      called from inside another wrapper (tracer_enter's nesting count);
 *   3. otherwise takes a call id and pushes it as CUPTI's external
 *      correlation id while the real function runs, so the GPU record links
 *      back to the event;
 *   4. runs `describe` with `call`, `result`, `api` (the entry point's
 *      DNNTRACE_API_ id) and every parameter in scope;
 *   5. leaves, restoring the errno the real function set.
 *
 * `describe` is the last, variadic argument: one expression, or several
 * statements (declarations and commas included), run in that order. A
 * `before` step (below) is one argument: statements and declarations
 * joined by `;`, with no comma outside parentheses; what it declares is in
 * scope for the description.
 *
 * The variants, each the same bracket with one thing changed:
 *   DNNTRACE_LIB_TRACED_CALL   a cuDNN/cuBLAS call: `api` is DNNTRACE_LIB_<name>,
 *                              and `before` runs between tracer_enter and the
 *                              call id (what must be asked before forwarding:
 *                              a handle's pointer mode, a descriptor's shape);
 *   DNNTRACE_LAUNCH_CALL       a traced call with a `before` step, like the LIB_
 *                              one but with a DNNTRACE_API_ id: a kernel launch
 *                              learns its kernel's layout before forwarding;
 *   DNNTRACE_RECORDED_CALL     no call id, for calls that submit no GPU work
 *                              (allocations); errno restored all the same;
 *   DNNTRACE_FREE_CALL         a recorded call with a step `before` the real
 *                              function (a free must forget its tensor before
 *                              another thread can be handed the address);
 *   DNNTRACE_LIB_RECORDED_CALL a recorded call with a DNNTRACE_LIB_ id;
 *   DNNTRACE_BOOKKEEPING_CALL  no tracer_enter at all: descriptor and handle
 *                              bookkeeping that must happen whether or not a
 *                              session listens (one may start later); `before`
 *                              and `after` run around the real function, which
 *                              sees the caller's errno and whose errno the
 *                              caller gets back.
 * A wrapper that must only forward for some argument (cudaFree(NULL)) says
 * so in `enabled`: tracer_enter(false) forwards and costs nothing.
 *
 * Must never allocate, lock or make a system call of its own, and never
 * touch the arguments or the result.
 */
#ifndef DNNTRACE_WRAPPER_H
#define DNNTRACE_WRAPPER_H

#include <errno.h>

#include "interceptors/core/event_count.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_enums.h"

/*
 * Steps 1 and 2, and what both recording brackets do first: the real
 * function or `missing`; only forwarding unless this call is recorded;
 * then `api` in scope and the wrapper's `before` step.
 */
#define DNNTRACE_RECORDING_PROLOGUE_(name, args, missing, api_type, api_id, enabled, before) \
	__typeof__(&name) real_ = REAL(name);                                     \
	if (!real_)                                                               \
		return missing;                                                   \
	if (!tracer_enter(enabled)) {                                             \
		if (tracer_nesting != 0 || !event_count_unregistered())           \
			return real_ args;                                        \
		/* counted once: the calls it makes itself only forward */        \
		tracer_nesting++;                                                 \
		__typeof__(real_ args) untraced_result_ = real_ args;             \
		tracer_nesting--;                                                 \
		return untraced_result_;                                          \
	}                                                                         \
	const api_type api = api_id;                                              \
	(void)api;                                                                \
	before

/* The traced bracket every *_TRACED_CALL expands to. */
#define DNNTRACE_TRACED_BRACKET_(ret, name, params, args, missing, api_type, api_id, enabled, \
				 before, ...)                                               \
	DNNTRACE_EXPORT ret name params                                           \
	{                                                                         \
		DNNTRACE_RECORDING_PROLOGUE_(name, args, missing, api_type, api_id, \
					     enabled, before);                    \
		struct traced_call call;                                          \
		traced_call_begin(&call);                                         \
		ret result = real_ args;                                          \
		traced_call_end(&call);                                           \
		__VA_ARGS__;                                                      \
		traced_call_leave(&call);                                         \
		return result;                                                    \
	}

/* The recorded bracket (no call id) every *_RECORDED_CALL and FREE_CALL expands to. */
#define DNNTRACE_RECORDED_BRACKET_(ret, name, params, args, missing, api_type, api_id, enabled, \
				   before, ...)                                               \
	DNNTRACE_EXPORT ret name params                                           \
	{                                                                         \
		DNNTRACE_RECORDING_PROLOGUE_(name, args, missing, api_type, api_id, \
					     enabled, before);                    \
		ret result = real_ args;                                          \
		int saved_errno_ = errno;                                         \
		__VA_ARGS__;                                                      \
		tracer_leave();                                                   \
		errno = saved_errno_;                                             \
		return result;                                                    \
	}

#define DNNTRACE_TRACED_CALL(ret, name, params, args, missing, enabled, ...)                  \
	DNNTRACE_TRACED_BRACKET_(ret, name, params, args, missing, enum dnntrace_api_id,      \
				 DNNTRACE_API_##name, enabled, (void)0, __VA_ARGS__)

#define DNNTRACE_LIB_TRACED_CALL(ret, name, params, args, missing, enabled, before, ...)      \
	DNNTRACE_TRACED_BRACKET_(ret, name, params, args, missing, enum dnntrace_lib_api_id,  \
				 DNNTRACE_LIB_##name, enabled, before, __VA_ARGS__)

#define DNNTRACE_LAUNCH_CALL(ret, name, params, args, missing, enabled, before, ...)          \
	DNNTRACE_TRACED_BRACKET_(ret, name, params, args, missing, enum dnntrace_api_id,      \
				 DNNTRACE_API_##name, enabled, before, __VA_ARGS__)

#define DNNTRACE_FREE_CALL(ret, name, params, args, missing, enabled, before, ...)            \
	DNNTRACE_RECORDED_BRACKET_(ret, name, params, args, missing, enum dnntrace_api_id,    \
				   DNNTRACE_API_##name, enabled, before, __VA_ARGS__)

#define DNNTRACE_RECORDED_CALL(ret, name, params, args, missing, enabled, ...)                \
	DNNTRACE_FREE_CALL(ret, name, params, args, missing, enabled, (void)0, __VA_ARGS__)

#define DNNTRACE_LIB_RECORDED_CALL(ret, name, params, args, missing, enabled, ...)            \
	DNNTRACE_RECORDED_BRACKET_(ret, name, params, args, missing,                          \
				   enum dnntrace_lib_api_id, DNNTRACE_LIB_##name, enabled,    \
				   (void)0, __VA_ARGS__)

#define DNNTRACE_BOOKKEEPING_CALL(ret, name, params, args, missing, before, ...)              \
	DNNTRACE_EXPORT ret name params                                           \
	{                                                                         \
		__typeof__(&name) real_ = REAL(name);                             \
		if (!real_)                                                       \
			return missing;                                           \
		int saved_errno_ = errno;                                         \
		before;                                                           \
		errno = saved_errno_;                                             \
		ret result = real_ args;                                          \
		saved_errno_ = errno;                                             \
		__VA_ARGS__;                                                      \
		errno = saved_errno_;                                             \
		return result;                                                    \
	}

#endif
