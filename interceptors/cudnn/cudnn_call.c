/*
 * The argument helpers shared by the cuDNN call wrappers (cudnn_call.h).
 * Must never call into cuDNN beyond cudnn_desc_cache's queries.
 */
#include "interceptors/cudnn/cudnn_call.h"

#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_lib.h"

bool cudnn_call_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_lib, call);
}

double cudnn_host_scale(const void *factor, const struct cudnn_shape *of)
{
	if (!factor)
		return 0.0;
	return of->is_double ? *(const double *)factor : (double)*(const float *)factor;
}

static void add(struct lib_call *c, const void *ptr, enum dnntrace_role role,
		const struct cudnn_shape *shape)
{
	unsigned rank = ptr ? shape->rank : 0; /* an absent optional argument has no shape */
	lib_call_arg(c, ptr, role, shape->dtype, rank, shape->dims);
}

void cudnn_arg_tensor(struct lib_call *c, cudnnTensorDescriptor_t desc,
		      const void *ptr, enum dnntrace_role role)
{
	struct cudnn_shape shape;
	cudnn_tensor_shape(desc, &shape);
	add(c, ptr, role, &shape);
}

void cudnn_arg_filter(struct lib_call *c, cudnnFilterDescriptor_t desc,
		      const void *ptr, enum dnntrace_role role)
{
	struct cudnn_shape shape;
	cudnn_filter_shape(desc, &shape);
	add(c, ptr, role, &shape);
}

static enum dnntrace_role blended_role(const void *beta, const struct cudnn_shape *shape)
{
	return cudnn_host_scale(beta, shape) != 0.0 ? DNNTRACE_ROLE_READ_WRITE
						    : DNNTRACE_ROLE_WRITE;
}

void cudnn_arg_output(struct lib_call *c, cudnnTensorDescriptor_t desc,
		      const void *ptr, const void *beta)
{
	struct cudnn_shape shape;
	cudnn_tensor_shape(desc, &shape);
	add(c, ptr, blended_role(beta, &shape), &shape);
}

void cudnn_arg_filter_output(struct lib_call *c, cudnnFilterDescriptor_t desc,
			     const void *ptr, const void *beta)
{
	struct cudnn_shape shape;
	cudnn_filter_shape(desc, &shape);
	add(c, ptr, blended_role(beta, &shape), &shape);
}

void cudnn_arg_bytes(struct lib_call *c, const void *ptr, size_t bytes,
		     enum dnntrace_role role)
{
	struct cudnn_shape shape = { .dtype = DNNTRACE_DTYPE_U8, .rank = 1,
				     .dims = { (long long)bytes } };
	add(c, ptr, role, &shape);
}
