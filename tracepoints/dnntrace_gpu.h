/*
 * dnntrace_gpu: the device-side LTTng-UST provider. One event per CUPTI
 * activity record (kernel, memcpy, memset, external correlation), one per
 * batch of records CUPTI had to drop, and one per NVML power sample.
 *
 * Records reach the tracer late and in batches, so each event's own LTTng
 * timestamp is when the buffer was delivered, NOT when the GPU work ran: the
 * start and end fields carry the GPU times, in ns on the LTTng clock
 * (CLOCK_MONOTONIC). Part of the public trace format (tracepoints/README.md).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dnntrace_gpu

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tracepoints/dnntrace_gpu.h"

#if !defined(DNNTRACE_GPU_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DNNTRACE_GPU_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "tracepoints/dnntrace_enums.h"
#include "tracepoints/event_fields.h"

/*
 * A kernel that ran (CUpti_ActivityKernel*). Format 3: its name by name_id,
 * the dnntrace_gpu:kernel_name event written once per distinct name per
 * process (before the first record naming it, on the same thread), and its
 * grid, block and dynamic shared memory, passed in one struct (a tracepoint
 * takes 10 arguments at most). Formats 1 and 2 copied the name into every
 * record and had no geometry.
 */
#if DNNTRACE_TRACE_FORMAT >= 3
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, kernel,
	LTTNG_UST_TP_ARGS(const struct dnntrace_gpu_kernel *, k),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_kernel(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, kernel_name,
	LTTNG_UST_TP_ARGS(uint32_t, name_id, const char *, name),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_kernel_name(DT_TP_FIELD))
)
#else
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, kernel,
	LTTNG_UST_TP_ARGS(uint32_t, correlation_id, uint32_t, device,
		uint32_t, context, uint32_t, stream, uint64_t, start,
		uint64_t, end, const char *, name),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_kernel(DT_TP_FIELD))
)
#endif

/* A copy that ran (CUpti_ActivityMemcpy*); copy_kind: CUpti_ActivityMemcpyKind,
 * src_kind and dst_kind: CUpti_ActivityMemoryKind (format 7). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, memcpy,
	LTTNG_UST_TP_ARGS(uint32_t, correlation_id, uint32_t, device,
		uint32_t, context, uint32_t, stream, uint64_t, start,
		uint64_t, end, uint32_t, copy_kind, uint64_t, bytes,
		uint8_t, src_kind, uint8_t, dst_kind),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_memcpy(DT_TP_FIELD))
)

/* A memset that ran (CUpti_ActivityMemset*). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, memset,
	LTTNG_UST_TP_ARGS(uint32_t, correlation_id, uint32_t, device,
		uint32_t, context, uint32_t, stream, uint64_t, start,
		uint64_t, end, uint32_t, value, uint64_t, bytes),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_memset(DT_TP_FIELD))
)

/*
 * CUpti_ActivityExternalCorrelation: the GPU work with this CUPTI
 * correlation_id was submitted by the dnntrace_api call with this call_id.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, external_correlation,
	LTTNG_UST_TP_ARGS(uint32_t, correlation_id, uint64_t, call_id),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_external_correlation(DT_TP_FIELD))
)

/* CUPTI dropped this many records (cuptiActivityGetNumDroppedRecords). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, records_dropped,
	LTTNG_UST_TP_ARGS(uint64_t, count),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_records_dropped(DT_TP_FIELD))
)

/*
 * One NVML sample of a board (interceptors/core/nvml_sampler.c): sample_ns is
 * the raw CLOCK_MONOTONIC time taken just before the energy counter and
 * the power were read, read_ns how long both reads took (the values were
 * read somewhere in that window).
 * power_ok / energy_ok: 1 when NVML gave the value, else 0 and the value 0
 * (nvmlDeviceGetTotalEnergyConsumption needs Volta or newer).
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_gpu, power,
	LTTNG_UST_TP_ARGS(uint32_t, device, uint64_t, sample_ns,
		uint32_t, read_ns, uint32_t, power_mw, uint8_t, power_ok,
		uint64_t, energy_mj, uint8_t, energy_ok),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_gpu_power(DT_TP_FIELD))
)

#endif /* DNNTRACE_GPU_TP_H */

#include <lttng/tracepoint-event.h>
