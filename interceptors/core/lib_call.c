/*
 * Fills and emits dnntrace_lib:call (see lib_call.h). Arguments that do not
 * fit are dropped and counted in `truncated`, never written out of bounds.
 * Must never allocate or call into CUDA.
 */
#include <string.h>

#include "interceptors/core/lib_call.h"
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

/* Appends one argument with this tensor id, unless it does not fit. */
static void add(struct lib_call *c, const void *ptr, long long tensor, enum dnntrace_role role,
		enum dnntrace_dtype dtype, unsigned rank, const long long *dims)
{
	struct dnntrace_lib_call *e = &c->event;
	if (e->n_args >= LIB_CALL_MAX_ARGS || e->n_dims + rank > LIB_CALL_MAX_DIMS) {
		c->truncated = true;
		return;
	}
	unsigned i = e->n_args++;
	c->tensors[i] = tensor;
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
	add(c, ptr, ptr ? tracer_tensor_of(ptr) : -1, role, dtype, rank, dims);
}

void lib_call_unused(struct lib_call *c, const void *ptr)
{
	add(c, ptr, -1, DNNTRACE_ROLE_UNUSED, DNNTRACE_DTYPE_UNKNOWN, 0, NULL);
}

void lib_call_param(struct lib_call *c, long long value)
{
	if (c->event.n_params >= LIB_CALL_MAX_PARAMS) {
		c->truncated = true;
		return;
	}
	c->params[c->event.n_params++] = value;
}

void lib_call_emit(struct lib_call *c, unsigned long long call_id,
		   unsigned long long start_ns, int result)
{
	c->event.call_id = call_id;
	c->event.start_ns = start_ns;
	c->event.result = result;
	lttng_ust_tracepoint(dnntrace_lib, call, &c->event);
}
