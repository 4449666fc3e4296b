/*
 * The API a traced program may call (include/dnntrace.h): dnntrace_tag.
 * Must never call into CUDA, and does nothing when no session listens.
 */
#include "include/dnntrace.h"
#include "interceptors/core/event_count.h"

#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_EXPORT void dnntrace_tag(const void *device_ptr, const char *name)
{
	if (!lttng_ust_tracepoint_enabled(dnntrace_api, tag))
		return;
	DNNTRACE_EMIT(dnntrace_api, tag, device_ptr, tracer_tensor_of(device_ptr),
			     name ? name : "");
}
