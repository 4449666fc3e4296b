/*
 * What the reader's one streaming pass hands, besides the model, to the
 * outputs that are written or gathered while the trace is read (the
 * timeline, the host overheads): one decoded event at a time, in trace
 * (timestamp) order, right after the model has taken it. Strings and
 * arrays are the reader's and valid during the call only.
 * Must never hold analysis logic: it is a plain record.
 */
#ifndef DNNTRACE_ANALYSIS_PASS_HOOKS_H
#define DNNTRACE_ANALYSIS_PASS_HOOKS_H

#include <stdint.h>

enum dt_hook_kind {
	DT_HOOK_ALLOC,
	DT_HOOK_FREE,
	DT_HOOK_MEMCPY,
	DT_HOOK_MEMSET,
	DT_HOOK_LAUNCH,
	DT_HOOK_GRAPH_LAUNCH,
	DT_HOOK_LIB_CALL,
	DT_HOOK_GPU_KERNEL,
	DT_HOOK_GPU_MEMCPY,
	DT_HOOK_GPU_MEMSET,
	DT_HOOK_EXTERNAL_CORRELATION,
	DT_HOOK_NVTX_PUSH,
	DT_HOOK_NVTX_POP,
	DT_HOOK_NVTX_START,
	DT_HOOK_NVTX_END,
	DT_HOOK_THREAD_NAME,         /* a thread's first event: its procname */
};

struct dt_hook_event {
	enum dt_hook_kind kind;
	int64_t vpid, vtid;          /* 0 when the trace lacks the context */
	const char *procname;        /* DT_HOOK_THREAD_NAME: the thread's
	                              * name (LTTng's procname context) */
	uint64_t ts;                 /* the event's time: a call's return */
	uint64_t start_ns;           /* entry of a launch, graph launch, copy,
	                              * set or library call; 0: unknown */
	uint64_t call_id;
	int api;                     /* dnntrace_api_id, or dnntrace_lib_api_id */
	int result;
	int mem_kind;                /* alloc: enum dnntrace_mem_kind */
	int32_t device;              /* alloc */
	uint64_t stream;             /* host stream pointer */
	uint64_t bytes;              /* alloc, memcpy, memset, GPU copy/set */
	uint32_t copy_kind;          /* GPU copy: CUpti_ActivityMemcpyKind */
	int64_t tensor;              /* alloc, free, memset; memcpy: dst */
	int64_t src_tensor;          /* memcpy */
	const int64_t *tensors;      /* launch, library call */
	uint32_t n_tensors;
	const char *name;            /* kernel name, NVTX range name */
	const char *domain;          /* NVTX */
	uint64_t id;                 /* NVTX start/end id */
	uint32_t correlation_id;     /* GPU records, external correlation */
	uint32_t gpu_device, gpu_stream;
	uint64_t gpu_start, gpu_end;
};

struct dt_timeline;
struct dt_overheads;

/* Who listens during the pass; NULL members are skipped. */
struct dt_pass_hooks {
	struct dt_timeline *timeline;
	struct dt_overheads *overheads;
};

#endif
