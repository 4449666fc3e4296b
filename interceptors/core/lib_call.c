/*
 * Fills and emits dnntrace_lib:call (see lib_call.h). Arguments that do not
 * fit are dropped and counted in `truncated`, never written out of bounds.
 * Must never allocate or call into CUDA.
 */
#include <string.h>

#include "interceptors/core/lib_call.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_lib.h"

void lib_call_begin(struct lib_call *c, enum dnntrace_lib_api_id api, const void *stream)
{
	c->event = (struct dnntrace_lib_call){
		.api = api,
		.stream = stream,
		.tensors = c->tensors,
		.ptrs = c->ptrs,
		.roles = c->roles,
		.dtypes = c->dtypes,
		.ranks = c->ranks,
		.dims = c->dims,
		.params = c->params,
	};
	c->truncated = false;
}

/* Appends one argument, unless it does not fit; its tensor is looked up at
 * lib_call_emit, with all the others. */
static void add(struct lib_call *c, const void *ptr, enum dnntrace_role role,
		enum dnntrace_dtype dtype, unsigned rank, const long long *dims)
{
	struct dnntrace_lib_call *e = &c->event;
	if (e->n_args >= LIB_CALL_MAX_ARGS || e->n_dims + rank > LIB_CALL_MAX_DIMS) {
		c->truncated = true;
		return;
	}
	unsigned i = e->n_args++;
	c->ptrs[i] = (unsigned long long)(uintptr_t)ptr;
	c->roles[i] = (unsigned char)role;
	c->dtypes[i] = (unsigned char)dtype;
	c->ranks[i] = (unsigned char)rank;
	if (rank) {
		memcpy(c->dims + e->n_dims, dims, rank * sizeof(*dims));
		e->n_dims += rank;
	}
}

void lib_call_arg(struct lib_call *c, const void *ptr, enum dnntrace_role role,
		  enum dnntrace_dtype dtype, unsigned rank, const long long *dims)
{
	add(c, ptr, role, dtype, rank, dims);
}

void lib_call_unused(struct lib_call *c, const void *ptr)
{
	add(c, ptr, DNNTRACE_ROLE_UNUSED, DNNTRACE_DTYPE_UNKNOWN, 0, NULL);
}

void lib_call_param(struct lib_call *c, long long value)
{
	if (c->event.n_params >= LIB_CALL_MAX_PARAMS) {
		c->truncated = true;
		return;
	}
	c->params[c->event.n_params++] = value;
}

/*
 * Every used argument's tensor (base or interior), from one consistent
 * state of the live-tensor map, in one pass (-1: NULL, unused, or in no
 * tensor).
 */
static void find_tensors(struct lib_call *c)
{
	uintptr_t addrs[LIB_CALL_MAX_ARGS];
	int64_t ids[LIB_CALL_MAX_ARGS];
	unsigned at[LIB_CALL_MAX_ARGS], n = 0;

	for (unsigned i = 0; i < c->event.n_args; i++) {
		c->tensors[i] = -1;
		if (c->ptrs[i] && c->roles[i] != DNNTRACE_ROLE_UNUSED) {
			addrs[n] = (uintptr_t)c->ptrs[i];
			at[n++] = i;
		}
	}
	if (n == 0)
		return;
	tensor_map_find_ids(&tracer_tensors, addrs, n, ids);
	for (unsigned k = 0; k < n; k++)
		c->tensors[at[k]] = ids[k];
}

void lib_call_emit(struct lib_call *c, unsigned long long call_id,
		   unsigned long long start_ns, int result)
{
	find_tensors(c);
	c->event.call_id = call_id;
	c->event.start_ns = start_ns;
	c->event.result = result;
	DNNTRACE_EMIT(dnntrace_lib, call, &c->event);
	if (result == 0)
		graph_capture_note(c->event.stream, -1, call_id);
}
