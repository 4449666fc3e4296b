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
 * DNNTRACE_RECORDED_CALL is the same bracket without a call id, for calls
 * that submit no GPU work (allocations). DNNTRACE_FREE_CALL adds a step
 * `before` the real function (a free must forget its tensor before another
 * thread can be handed the address).
 *
 * Must never allocate, lock or make a system call of its own, and never
 * touch the arguments or the result.
 */
#ifndef DNNTRACE_WRAPPER_H
#define DNNTRACE_WRAPPER_H

#include <errno.h>

#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_enums.h"

#define DNNTRACE_TRACED_CALL(ret, name, params, args, missing, enabled, describe) \
	DNNTRACE_EXPORT ret name params                                           \
	{                                                                         \
		__typeof__(&name) real_ = REAL(name);                             \
		if (!real_)                                                       \
			return missing;                                           \
		if (!tracer_enter(enabled))                                       \
			return real_ args;                                        \
		const enum dnntrace_api_id api = DNNTRACE_API_##name;             \
		struct traced_call call;                                          \
		traced_call_begin(&call);                                         \
		ret result = real_ args;                                          \
		traced_call_end(&call);                                           \
		describe;                                                         \
		(void)api;                                                        \
		traced_call_leave(&call);                                         \
		return result;                                                    \
	}

#define DNNTRACE_FREE_CALL(ret, name, params, args, missing, enabled, before, describe) \
	DNNTRACE_EXPORT ret name params                                           \
	{                                                                         \
		__typeof__(&name) real_ = REAL(name);                             \
		if (!real_)                                                       \
			return missing;                                           \
		if (!tracer_enter(enabled))                                       \
			return real_ args;                                        \
		const enum dnntrace_api_id api = DNNTRACE_API_##name;             \
		before;                                                           \
		ret result = real_ args;                                          \
		int saved_errno_ = errno;                                         \
		describe;                                                         \
		(void)api;                                                        \
		tracer_leave();                                                   \
		errno = saved_errno_;                                             \
		return result;                                                    \
	}

#define DNNTRACE_RECORDED_CALL(ret, name, params, args, missing, enabled, describe) \
	DNNTRACE_FREE_CALL(ret, name, params, args, missing, enabled, (void)0, describe)

#endif
