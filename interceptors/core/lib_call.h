/*
 * Building one dnntrace_lib:call event: the wrappers of cuDNN, cuBLAS and
 * cuBLASLt add each data pointer with its role, element type and shape, in
 * the order of the entry point's argument names in the catalogue
 * (tracepoints/entry_points.h), then emit. Every argument the catalogue
 * names is added, an unused one with lib_call_unused. Fixed-size, on the
 * caller's stack: nothing is allocated per call.
 *
 * Must never call into CUDA or any library: wrappers gather what they need
 * (shapes from descriptors) before adding arguments.
 */
#ifndef DNNTRACE_LIB_CALL_H
#define DNNTRACE_LIB_CALL_H

#include <stdbool.h>

#include "tracepoints/dnntrace_enums.h"

enum {
	LIB_CALL_MAX_ARGS = 64,   /* data pointers per call (a backend variant pack can hold many) */
	LIB_CALL_MAX_DIMS = 512,  /* all arguments' dimensions together */
	LIB_CALL_MAX_PARAMS = 2 * LIB_CALL_MAX_ARGS + 2, /* a variant pack's uid and attribute pairs */
};

struct lib_call {
	struct dnntrace_lib_call event;
	long long tensors[LIB_CALL_MAX_ARGS];
	unsigned long long ptrs[LIB_CALL_MAX_ARGS];
	unsigned char roles[LIB_CALL_MAX_ARGS];
	unsigned char dtypes[LIB_CALL_MAX_ARGS];
	unsigned char ranks[LIB_CALL_MAX_ARGS];
	long long dims[LIB_CALL_MAX_DIMS];
	long long params[LIB_CALL_MAX_PARAMS];
	bool truncated; /* an argument, dimension or param did not fit */
};

/* Starts a call of api on stream. */
void lib_call_begin(struct lib_call *c, enum dnntrace_lib_api_id api, const void *stream);

/* Adds a data pointer: its tensor id is looked up in the live-tensor map
 * (base or interior pointer) when the call is emitted. dims may be NULL
 * when rank is 0. */
void lib_call_arg(struct lib_call *c, const void *ptr, enum dnntrace_role role,
		  enum dnntrace_dtype dtype, unsigned rank, const long long *dims);

/* Adds an argument the call's other arguments leave unused (DNNTRACE_ROLE_UNUSED):
 * its pointer as passed, no tensor, no shape. */
void lib_call_unused(struct lib_call *c, const void *ptr);

/* Adds one API-specific parameter (in the catalogue's order). */
void lib_call_param(struct lib_call *c, long long value);

/* Emits dnntrace_lib:call with this call id, the time the call began
 * (traced_call's start_ns) and the library's status. */
void lib_call_emit(struct lib_call *c, unsigned long long call_id,
		   unsigned long long start_ns, int result);

#endif
