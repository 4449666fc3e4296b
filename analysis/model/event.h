/*
 * The one decoded event: the reader (decode/trace_reader.c) fills one per
 * trace event, once, in trace (timestamp) order, and hands it to the model
 * (dt_model_on_event) and then to every listener of the pass
 * (report/pass_hooks.h: timeline, overheads). Unit tests fill them by hand.
 * Strings and arrays are the reader's and valid during the call only.
 * Which members an event kind sets is said beside each; the others are 0
 * (tensor and src_tensor: -1).
 * Must never hold analysis logic: it is a plain record.
 */
#ifndef DNNTRACE_ANALYSIS_MODEL_EVENT_H
#define DNNTRACE_ANALYSIS_MODEL_EVENT_H

#include <stdbool.h>
#include <stdint.h>

enum dt_event_kind {
	DT_EVENT_ALLOC,
	DT_EVENT_FREE,
	DT_EVENT_MEMCPY,
	DT_EVENT_MEMSET,
	DT_EVENT_LAUNCH,
	DT_EVENT_GRAPH_LAUNCH,
	DT_EVENT_LIB_CALL,
	DT_EVENT_GPU_KERNEL,
	DT_EVENT_GPU_MEMCPY,
	DT_EVENT_GPU_MEMSET,
	DT_EVENT_EXTERNAL_CORRELATION,
	DT_EVENT_NVTX_PUSH,
	DT_EVENT_NVTX_POP,
	DT_EVENT_NVTX_START,
	DT_EVENT_NVTX_END,
	DT_EVENT_LIB_SET_STREAM,
	DT_EVENT_TAG,
	DT_EVENT_MEM_INFO,
	DT_EVENT_STATUS,
	DT_EVENT_FUNCTION,           /* a launch's function id -> name */
	DT_EVENT_KERNEL_NAME,        /* a GPU kernel's name id -> name */
	DT_EVENT_RECORDS_DROPPED,
	DT_EVENT_POWER,
	DT_EVENT_DISCARDED,          /* events the tracer or the trace lost */
	/* format 4: CUDA graph nodes (model/graph_nodes.c) */
	DT_EVENT_CAPTURED_NODE,      /* call_id became node_id */
	DT_EVENT_GRAPH_NODE,         /* call_id, api, graph_exec, node_id, tensors, result */
	DT_EVENT_GRAPH_NODE_CLONE,   /* node_id copied from original_node_id (graph_exec) */
	DT_EVENT_GRAPH_EXEC_UPDATE,  /* graph_exec updated: tensors = the node ids */
	/* format 5: a graph memory node: call_id (0 for a captured
	 * allocation), api, node_id, ptr, bytes, tensor (the graph
	 * allocation's id), is_free, result */
	DT_EVENT_GRAPH_MEM_NODE,
	/* format 8: graph_exec's copy of node_id disabled or enabled again
	 * (enabled), result */
	DT_EVENT_GRAPH_NODE_ENABLE,
};

struct dt_event {
	enum dt_event_kind kind;
	int64_t vpid, vtid;          /* 0 when the trace lacks the context */
	uint64_t ts;                 /* the event's time: a call's return */
	uint64_t start_ns;           /* entry of a launch, graph launch, copy,
	                              * set or library call; 0: unknown */
	uint64_t call_id;            /* calls; external correlation */
	int api;                     /* dnntrace_api_id, or dnntrace_lib_api_id */
	int result;
	int mem_kind;                /* alloc: enum dnntrace_mem_kind */
	int32_t device;              /* alloc, mem_info */
	uint64_t stream;             /* host stream pointer */
	uint64_t ptr;                /* alloc */
	uint64_t bytes;              /* alloc, memcpy, memset, GPU copy/set */
	int64_t tensor;              /* alloc, free, memset, tag; memcpy: dst */
	int64_t src_tensor;          /* memcpy */
	/* launch: its tensors; library call: its arguments (unused ones left
	 * out), each array n_tensors long, dims holding ranks[i] dimensions
	 * for argument i, one argument after the other */
	const int64_t *tensors;
	uint32_t n_tensors;
	const uint64_t *ptrs;
	const uint8_t *roles, *dtypes, *ranks;
	const int64_t *dims;
	uint32_t n_dims;
	/* kernel name (launch, GPU kernel), NVTX range name, tag, function
	 * and kernel_name events' name, status message */
	const char *name;
	/* launch, GPU kernel: name is "" for now, its name event (function
	 * id or kernel name id name_id) is yet to come. Graph node: name_id
	 * is its function id (0: unknown, or a copy or set node). */
	bool name_later;
	uint64_t name_id;
	const char *domain;          /* NVTX */
	uint64_t id;                 /* NVTX start/end id; function id, kernel
	                              * name id of the name events */
	uint32_t correlation_id;     /* GPU records, external correlation */
	uint32_t gpu_device, gpu_stream;   /* GPU records; power: device */
	uint64_t gpu_start, gpu_end;
	uint32_t copy_kind;          /* GPU copy: CUpti_ActivityMemcpyKind */
	uint8_t src_mem_kind, dst_mem_kind; /* GPU copy: each end's
	                              * CUpti_ActivityMemoryKind (format 7;
	                              * 0, CUPTI's unknown, before) */
	/* the thread's name (LTTng's procname context), on the thread's
	 * first event whatever its kind; NULL on the others */
	const char *procname;
	uint64_t free_bytes, total_bytes;  /* mem_info */
	int cupti_ok;                /* status */
	bool has_format;             /* status: format is the event's */
	int format;
	int rank;                    /* status (format 6): the launcher's
	                              * rank, -1: none or an older format */
	uint64_t count;              /* records dropped; discarded (count_known) */
	bool count_known;
	uint64_t sample_ns;          /* power */
	uint32_t read_ns, power_mw;
	uint64_t energy_mj;
	bool power_ok, energy_ok;
	/* format 4: graph launch, graph events (graph_exec); GPU kernel and
	 * graph events (node_id: CUPTI's graph node id, 0: none) */
	uint64_t graph_exec;
	uint64_t node_id, original_node_id;
	bool is_free;                /* graph memory node: a free node */
	bool enabled;                /* graph_node_enable: enabled (else disabled) */
};

#endif
