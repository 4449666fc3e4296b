/*
 * dnntrace_nvtx: NVTX ranges the program opens and closes (libdnntrace.so is
 * also an NVTX injection library), so kernels can be named by the op or
 * training step that launched them. Push/pop ranges nest per thread; start/end
 * ranges are identified by the id NVTX returned and may cross threads.
 *
 * Part of the public trace format (tracepoints/README.md): add only.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dnntrace_nvtx

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tracepoints/dnntrace_nvtx.h"

#if !defined(DNNTRACE_NVTX_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DNNTRACE_NVTX_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "tracepoints/event_fields.h"

/* nvtxDomainRangePushEx / nvtxRangePushA / nvtxRangePushW (as UTF-8). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_nvtx, push,
	LTTNG_UST_TP_ARGS(const char *, domain, const char *, name),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_nvtx_push(DT_TP_FIELD))
)

/* nvtxDomainRangePop / nvtxRangePop: closes the thread's innermost push. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_nvtx, pop,
	LTTNG_UST_TP_ARGS(const char *, domain),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_nvtx_pop(DT_TP_FIELD))
)

/* nvtxDomainRangeStartEx / nvtxRangeStartA: id is the nvtxRangeId_t returned. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_nvtx, start,
	LTTNG_UST_TP_ARGS(uint64_t, id, const char *, domain, const char *, name),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_nvtx_start(DT_TP_FIELD))
)

/* nvtxDomainRangeEnd / nvtxRangeEnd. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_nvtx, end,
	LTTNG_UST_TP_ARGS(uint64_t, id),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_nvtx_end(DT_TP_FIELD))
)

#endif /* DNNTRACE_NVTX_TP_H */

#include <lttng/tracepoint-event.h>
