/*
 * What the cuDNN call wrappers (legacy and backend) share: the status for a
 * real function that cannot be found, whether this call is to be recorded,
 * and the arguments every cuDNN call event carries the same way (tensors
 * with descriptor shapes, outputs blended by a host beta, workspaces).
 *
 * Must never call into cuDNN except the descriptor queries of
 * cudnn_desc_cache, and only after the real call has returned.
 */
#ifndef DNNTRACE_CUDNN_CALL_H
#define DNNTRACE_CUDNN_CALL_H

#include <stdbool.h>

#include <cudnn.h>

#include "interceptors/cudnn/desc_cache.h"
#include "interceptors/core/lib_call.h"
#include "interceptors/core/wrapper.h"

/*
 * What a wrapper returns when the real function cannot be found (the
 * program calls cuDNN but no loaded library defines it): the closest
 * status cuDNN has for a library that could not be loaded.
 */
#define CUDNN_MISSING_STATUS CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED

/* Whether a session listens to dnntrace_lib:call. */
bool cudnn_call_enabled(void);

/*
 * One traced cuDNN call on core/wrapper.h's skeleton: the real function's
 * prototype and argument list (which must name the handle `handle`), then
 * the description: statements that add every data pointer and param to
 * `event`, in the order of the catalogue's names for the entry point
 * (tracepoints/entry_points.h), to a dnntrace_lib:call already begun on the
 * handle's stream, which is emitted with the call id and the real status
 * after them.
 */
#define CUDNN_TRACED_CALL(name, params, args, ...)                                           \
	DNNTRACE_LIB_TRACED_CALL(cudnnStatus_t, name, params, args, CUDNN_MISSING_STATUS,    \
				 cudnn_call_enabled(), (void)0,                               \
				 struct lib_call event;                                       \
				 lib_call_begin(&event, api, cudnn_handle_stream(handle));    \
				 __VA_ARGS__;                                                 \
				 lib_call_emit(&event, call.call_id, call.start_ns, (int)result))

/*
 * A scaling factor of a legacy call (alpha, beta): a HOST pointer, to a
 * double for double tensors and a float otherwise (cudnn_ops.h, "scaling
 * parameters"). NULL reads as 0.
 */
double cudnn_host_scale(const void *factor, const struct cudnn_shape *of);

/* Each adds one argument. */
void cudnn_arg_tensor(struct lib_call *c, cudnnTensorDescriptor_t desc, const void *ptr,
		      enum dnntrace_role role);
void cudnn_arg_filter(struct lib_call *c, cudnnFilterDescriptor_t desc, const void *ptr,
		      enum dnntrace_role role);
/* An output blended with its old value when *beta != 0: READ_WRITE, else WRITE. */
void cudnn_arg_output(struct lib_call *c, cudnnTensorDescriptor_t desc, const void *ptr,
		      const void *beta);
void cudnn_arg_filter_output(struct lib_call *c, cudnnFilterDescriptor_t desc, const void *ptr,
			     const void *beta);
/* Scratch or reserve bytes, shaped u8[bytes]. */
void cudnn_arg_bytes(struct lib_call *c, const void *ptr, size_t bytes, enum dnntrace_role role);

#endif
