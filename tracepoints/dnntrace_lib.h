/*
 * dnntrace_lib: the LTTng-UST provider of library calls (cuDNN, cuBLAS,
 * cuBLASLt). One event per call the program made, at the outermost level,
 * carrying every data pointer with its role (read, write, ...), element type
 * and shape. The kernels a call launches link back to it through CUPTI
 * external correlation (call_id), exactly as launches do.
 *
 * Part of the public trace format (tracepoints/README.md): add only.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dnntrace_lib

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tracepoints/dnntrace_lib.h"

#if !defined(DNNTRACE_LIB_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DNNTRACE_LIB_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "tracepoints/event_fields.h"
#include "tracepoints/dnntrace_enums.h"

#ifndef DT_LIB_LABEL
#define DT_LIB_LABEL(id, name, args, params) lttng_ust_field_enum_value(#name, id)
#endif
LTTNG_UST_TRACEPOINT_ENUM(dnntrace_lib, api,
	LTTNG_UST_TP_ENUM_VALUES(
		DNNTRACE_LIB_ENTRIES(DT_LIB_LABEL)
	)
)

/*
 * A library call that does GPU work (see struct dnntrace_lib_call in
 * dnntrace_enums.h for each field). call_id is pushed as CUPTI external
 * correlation id around the forwarded call: every kernel the library
 * launches inside it links here.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_lib, call,
	LTTNG_UST_TP_ARGS(const struct dnntrace_lib_call *, c),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_lib_call(DT_TP_FIELD))
)

/* cudnnSetStream / cublasSetStream_v2: later calls on handle run on stream. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_lib, set_stream,
	LTTNG_UST_TP_ARGS(int, api, const void *, handle, const void *, stream, int, result),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_lib_set_stream(DT_TP_FIELD))
)

#endif /* DNNTRACE_LIB_TP_H */

#include <lttng/tracepoint-event.h>
