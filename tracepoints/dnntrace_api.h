/*
 * dnntrace_api: the host-side LTTng-UST provider. One event per wrapped CUDA
 * call the user's program made (allocation, free, copy, set, launch), per
 * kernel function launched (its name, once) and per tensor name given
 * through dnntrace_tag().
 *
 * This header and the field lists it expands (event_fields.h) ARE the
 * trace format: tracepoints/README.md documents every field, and the
 * analyzer reads exactly these names. Add fields or enum labels at the end;
 * never rename, retype or reorder existing ones, except in a new format
 * version (DNNTRACE_TRACE_FORMAT, event_fields.h) whose previous traces the
 * analyzer still reads.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dnntrace_api

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tracepoints/dnntrace_api.h"

#if !defined(DNNTRACE_API_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DNNTRACE_API_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "tracepoints/dnntrace_enums.h"
#include "tracepoints/event_fields.h"

/* Which API entry point the program called. Values are stable (see enums). */
#ifndef DT_API_LABEL
#define DT_API_LABEL(id, name, kind, proc, cbid) lttng_ust_field_enum_value(#name, id)
#endif
LTTNG_UST_TRACEPOINT_ENUM(dnntrace_api, api,
	LTTNG_UST_TP_ENUM_VALUES(
		DNNTRACE_API_ENTRIES(DT_API_LABEL)
	)
)

/* What kind of memory an allocation is. Only device/managed/async are tensors. */
LTTNG_UST_TRACEPOINT_ENUM(dnntrace_api, mem_kind,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("device", DNNTRACE_MEM_DEVICE)
		lttng_ust_field_enum_value("managed", DNNTRACE_MEM_MANAGED)
		lttng_ust_field_enum_value("pinned_host", DNNTRACE_MEM_PINNED_HOST)
		lttng_ust_field_enum_value("stream_ordered", DNNTRACE_MEM_STREAM_ORDERED)
		lttng_ust_field_enum_value("vmm_mapped", DNNTRACE_MEM_VMM_MAPPED)
		lttng_ust_field_enum_value("vmm_physical", DNNTRACE_MEM_VMM_PHYSICAL)
		lttng_ust_field_enum_value("vmm_reserved", DNNTRACE_MEM_VMM_RESERVED)
	)
)

/*
 * A successful or failed allocation. tensor_id is the process-wide number of
 * this device allocation (0, 1, 2, ... in the order the library saw them), or
 * -1 for a failed call or memory that is no tensor (pinned host memory).
 * Format 3: the kind of memory is the api's (memory_kinds.h), and a
 * stream-ordered allocation is alloc_async, with its stream.
 */
#if DNNTRACE_TRACE_FORMAT >= 3
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, alloc,
	LTTNG_UST_TP_ARGS(int, api, int, device, const void *, ptr, uint64_t, bytes,
		int64_t, tensor_id, int, result),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_alloc(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, alloc_async,
	LTTNG_UST_TP_ARGS(int, api, int, device, const void *, ptr, uint64_t, bytes,
		int64_t, tensor_id, int, result, const void *, stream),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_alloc_async(DT_TP_FIELD))
)

/* A free; tensor_id -1: an unknown pointer or memory that is no tensor. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, free,
	LTTNG_UST_TP_ARGS(int, api, int64_t, tensor_id, int, result),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_free(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, free_async,
	LTTNG_UST_TP_ARGS(int, api, int64_t, tensor_id, int, result, const void *, stream),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_free_async(DT_TP_FIELD))
)
#else
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, alloc,
	LTTNG_UST_TP_ARGS(int, api, int, kind, int, device, const void *, stream,
		const void *, ptr, uint64_t, requested_bytes, uint64_t, bytes,
		int64_t, tensor_id, int, result),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_alloc(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, free,
	LTTNG_UST_TP_ARGS(int, api, int, kind, const void *, stream,
		const void *, ptr, int64_t, tensor_id, int, result),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_free(DT_TP_FIELD))
)
#endif

/*
 * A copy. call_id links it to the GPU memcpy record (external correlation).
 * direction is the cudaMemcpyKind the caller passed. bytes: width * height
 * for the 2D variants. *_tensor: the tensor each side points into, or -1,
 * passed as tensors[2] = {dst, src} (a tracepoint takes 10 args at most).
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, memcpy,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, int, direction,
		const void *, dst, const void *, src, uint64_t, bytes,
		const void *, stream, const int64_t *, tensors,
		int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_memcpy(DT_TP_FIELD))
)

/* A memset. bytes: width * height for the 2D variants. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, memset,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, ptr,
		int, value, uint64_t, bytes, const void *, stream,
		int64_t, tensor_id, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_memset(DT_TP_FIELD))
)

/*
 * A kernel launch. call_id is pushed as CUPTI external correlation id
 * (CUSTOM0) around the forwarded call, so dnntrace_gpu:external_correlation
 * links the GPU kernel record back here. function_id names the kernel: the
 * dnntrace_api:function event with that id (0: the name is unknown); its
 * grid and block are in that GPU record (format 3; formats 1 and 2 carried
 * them here, and the handle).
 * tensors: ids of the live tensors whose base or interior addresses appear,
 * 8-byte aligned, in the parameter bytes (each id once, in parameter order).
 * Roles are unknown for plain launches: the analyzer counts each as read and
 * write.
 */
#ifndef DNNTRACE_LAUNCH_ARGS
#if DNNTRACE_TRACE_FORMAT >= 3
#define DNNTRACE_LAUNCH_ARGS uint64_t, call_id, int, api, uint64_t, function_id, \
	const void *, stream, const int64_t *, tensors, unsigned int, n_tensors, int, result, \
	uint64_t, start_ns
#else
/* How a launch names its kernel: by function id (format 2), or by the name
 * string itself (format 1; event_fields.h has the field). */
#if DNNTRACE_TRACE_FORMAT >= 2
#define DNNTRACE_LAUNCH_KERNEL_ARG uint64_t, function_id
#else
#define DNNTRACE_LAUNCH_KERNEL_ARG const char *, name
#endif
#define DNNTRACE_LAUNCH_ARGS uint64_t, call_id, int, api, const void *, func, \
	DNNTRACE_LAUNCH_KERNEL_ARG, const struct dnntrace_launch_geometry *, geom, \
	const void *, stream, const int64_t *, tensors, unsigned int, n_tensors, int, result, \
	uint64_t, start_ns
#endif
#endif
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, launch,
	LTTNG_UST_TP_ARGS(DNNTRACE_LAUNCH_ARGS),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_launch(DT_TP_FIELD))
)

#if DNNTRACE_TRACE_FORMAT >= 2
/*
 * A kernel function, once per process: written by the first traced launch
 * of the function, on the launching thread, just before that launch's
 * event (kernel_info.c says why a launch never comes before it in time).
 * function_id is what launches carry; func the handle (host function,
 * cudaKernel_t or CUfunction: two handles of one kernel are two
 * functions); n_params the parameters of its layout (0: unknown).
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, function,
	LTTNG_UST_TP_ARGS(uint64_t, function_id, const void *, func, const char *, name,
		uint32_t, n_params),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_function(DT_TP_FIELD))
)
#endif

/* dnntrace_tag(ptr, name): names the tensor containing ptr (-1: none). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, tag,
	LTTNG_UST_TP_ARGS(const void *, ptr, int64_t, tensor_id, const char *, name),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_tag(DT_TP_FIELD))
)

/*
 * The tracer's own state, once per process: whether CUPTI (kernel timing)
 * started. cupti_ok 0 means kernel records are missing; message says why.
 * format: the trace format (DNNTRACE_TRACE_FORMAT; absent: 1); version: the
 * tracer's dnntrace version (format 3 on; absent in older tracers' traces);
 * rank: the process's rank as its launcher's environment says (format 6
 * on; -1: none).
 */
#ifndef DNNTRACE_STATUS_ARGS
#if DNNTRACE_TRACE_FORMAT >= 6
#define DNNTRACE_STATUS_ARGS int, cupti_ok, int, code, const char *, message, int, format, \
	const char *, version, int, rank
#elif DNNTRACE_TRACE_FORMAT >= 3
#define DNNTRACE_STATUS_ARGS int, cupti_ok, int, code, const char *, message, int, format, \
	const char *, version
#elif DNNTRACE_TRACE_FORMAT >= 2
#define DNNTRACE_STATUS_ARGS int, cupti_ok, int, code, const char *, message, int, format
#else
#define DNNTRACE_STATUS_ARGS int, cupti_ok, int, code, const char *, message
#endif
#endif
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, status,
	LTTNG_UST_TP_ARGS(DNNTRACE_STATUS_ARGS),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_status(DT_TP_FIELD))
)

/*
 * A CUDA graph launch (cuGraphLaunch, cudaGraphLaunch and their _ptsz
 * twins). call_id is pushed as CUPTI external correlation id around the
 * forwarded call like a launch's, so the kernels, copies and sets the graph
 * runs (known only from CUPTI's records) link back here.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_launch,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, graph_exec,
		const void *, stream, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_graph_launch(DT_TP_FIELD))
)

/*
 * CUDA graph nodes (format 4; tracepoints/README.md, "CUDA graphs"): which
 * call a captured node came from, the parameters a graph call gave a
 * kernel node, CUPTI's node clones (instantiation, cudaGraphClone) and
 * executable graph updates. Node ids are CUPTI's.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, captured_node,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, uint64_t, node_id),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_captured_node(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_node,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, graph_exec,
		uint64_t, node_id, uint64_t, function_id, const int64_t *, tensors,
		unsigned int, n_tensors, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_graph_node(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_node_clone,
	LTTNG_UST_TP_ARGS(uint64_t, node_id, uint64_t, original_node_id,
		const void *, graph_exec),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_graph_node_clone(DT_TP_FIELD))
)

LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_exec_update,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, graph_exec,
		const int64_t *, node_ids, unsigned int, n_node_ids, int, result,
		uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_graph_exec_update(DT_TP_FIELD))
)

/* A graph memory node (format 5; event_fields.h). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_mem_node,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, uint64_t, node_id, const void *, ptr,
		uint64_t, bytes, int64_t, tensor_id, int, is_free, int, result,
		uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_graph_mem_node(DT_TP_FIELD))
)

/* An exec's node disabled or enabled again (format 8; event_fields.h). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_node_enable,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, graph_exec,
		uint64_t, node_id, int, enabled, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_graph_node_enable(DT_TP_FIELD))
)

/*
 * Device memory in use, as cuMemGetInfo_v2 reports it for the calling
 * thread's current context (total - free: every process's allocations on
 * that device, the CUDA contexts, library workspaces, allocator caches).
 * Sampled after some allocations (see interceptors/core/mem_info.c) so the
 * analyzer can tell how much device memory no traced tensor accounts for.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, mem_info,
	LTTNG_UST_TP_ARGS(int, device, uint64_t, free_bytes, uint64_t, total_bytes),
	LTTNG_UST_TP_FIELDS(DNNTRACE_FIELDS_api_mem_info(DT_TP_FIELD))
)

#endif /* DNNTRACE_API_TP_H */

#include <lttng/tracepoint-event.h>
