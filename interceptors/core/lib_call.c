/*
 * Fills and emits dnntrace_lib:call (see lib_call.h). Arguments that do not
 * fit are dropped and counted in `truncated`, never written out of bounds.
 * Must never allocate or call into CUDA.
 */
#include <string.h>

#include "interceptors/core/lib_call.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_lib.h"

void lib_call_begin(struct lib_call *c, enum dnntrace_lib_api_id api, const void *handle,
		    const void *stream, const char *arg_names, const char *param_names)
{
	c->event = (struct dnntrace_lib_call){
		.api = api,
		.handle = handle,
		.stream = stream,
		.tensors = c->tensors,
		.ptrs = c->ptrs,
		.roles = c->roles,
		.dtypes = c->dtypes,
		.ranks = c->ranks,
		.arg_names = arg_names ? arg_names : c->names,
		.dims = c->dims,
		.params = c->params,
		.param_names = param_names ? param_names : "",
	};
	c->names[0] = '\0';
	c->names_len = 0;
	c->truncated = false;
}

void lib_call_arg(struct lib_call *c, const void *ptr, enum dnntrace_role role,
		  enum dnntrace_dtype dtype, unsigned rank, const long long *dims)
{
	struct dnntrace_lib_call *e = &c->event;
	if (e->n_args >= LIB_CALL_MAX_ARGS || e->n_dims + rank > LIB_CALL_MAX_DIMS) {
		c->truncated = true;
		return;
	}
	unsigned i = e->n_args++;
	c->tensors[i] = ptr ? tracer_tensor_of(ptr) : -1;
	c->ptrs[i] = (unsigned long long)(uintptr_t)ptr;
	c->roles[i] = (unsigned char)role;
	c->dtypes[i] = (unsigned char)dtype;
	c->ranks[i] = (unsigned char)rank;
	if (rank) {
		memcpy(c->dims + e->n_dims, dims, rank * sizeof(*dims));
		e->n_dims += rank;
	}
}

void lib_call_arg_named(struct lib_call *c, const char *name, const void *ptr,
			enum dnntrace_role role, enum dnntrace_dtype dtype, unsigned rank,
			const long long *dims)
{
	size_t len = strlen(name);
	unsigned before = c->event.n_args;
	if (c->names_len + len + 2 > LIB_CALL_MAX_NAMES) {
		c->truncated = true;
		return;
	}
	lib_call_arg(c, ptr, role, dtype, rank, dims);
	if (c->event.n_args == before)
		return;
	if (c->names_len)
		c->names[c->names_len++] = ',';
	memcpy(c->names + c->names_len, name, len + 1);
	c->names_len += (unsigned)len;
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
