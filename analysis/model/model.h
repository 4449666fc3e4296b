/*
 * The event model: what the trace says, per process, after one streaming
 * pass. The trace reader (or a unit test) hands it each dnntrace event,
 * decoded once, through dt_model_on_event; nothing here knows about babeltrace2. Memory grows
 * with tensors, launches, library calls (their arguments and shapes),
 * kernels, NVTX ranges and distinct names, and by a few words per copy or
 * set (their call time and GPU end: where a stream had got to, for
 * stream-ordered frees); correlations only update a map.
 * Must never decide analysis questions (order, roles, windows):
 * group_build.c, tensor_uses.c and window.c do.
 */
#ifndef DNNTRACE_ANALYSIS_MODEL_H
#define DNNTRACE_ANALYSIS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/model/event.h"
#include "analysis/util.h"

#define DT_NO_TIME UINT64_MAX

/* One device allocation that got a tensor id (kinds device/managed/stream_ordered). */
#define DT_TENSOR_KIND_UNKNOWN UINT8_MAX
/* 80 bytes: a million tensors are held through the whole analysis, so
 * the small fields go together at the end and what only building the
 * groups reads (a first write's time) is kept apart, in the process. */
struct dt_tensor {
	int64_t id;
	const char *name;          /* last dnntrace_tag name, or NULL */
	uint64_t bytes;
	uint64_t ptr;              /* base address, 0: unknown */
	uint64_t stream;           /* the alloc's cudaStream_t, 0: a
	                            * synchronous alloc (or the default stream) */
	uint64_t alloc_ns;         /* host time of the alloc call */
	uint64_t ready_ns;         /* for a stream-ordered alloc, the point its
	                            * stream reached it; 0: at alloc_ns */
	uint64_t free_ns;          /* host time of the free call; DT_NO_TIME:
	                            * never freed in the trace */
	uint64_t release_ns;       /* for a stream-ordered free, the point its
	                            * stream reached it; 0: at free_ns. Both
	                            * set by group_build.c (stream_order.c); read
	                            * them with dt_tensor_ready_ns/_release_ns */
	int32_t device;
	uint8_t kind;              /* enum dnntrace_mem_kind, or
	                            * DT_TENSOR_KIND_UNKNOWN */
	bool allocated;            /* an alloc event was seen (tags may come first) */
	bool workspace;            /* set by tensor_uses.c: a library call used it as
	                            * WORKSPACE (category workspace) */
};
_Static_assert(sizeof(struct dt_tensor) <= 80, "a tensor's record grew");

/* When a tensor's memory was taken, on the GPU's timeline. */
static inline uint64_t dt_tensor_ready_ns(const struct dt_tensor *t)
{
	return t->ready_ns > t->alloc_ns && t->alloc_ns != DT_NO_TIME ?
		t->ready_ns : t->alloc_ns;
}

/* When a tensor's memory really went back (DT_NO_TIME: never freed). */
static inline uint64_t dt_tensor_release_ns(const struct dt_tensor *t)
{
	if (t->free_ns == DT_NO_TIME)
		return DT_NO_TIME;
	return t->release_ns > t->free_ns ? t->release_ns : t->free_ns;
}

/* A successful stream-ordered alloc or free (cudaMallocAsync,
 * cuMemAllocFromPoolAsync, cudaFreeAsync, cuMemFreeAsync, their _ptsz
 * twins...): it takes effect when the stream gets there. */
struct dt_stream_call {
	size_t tensor;             /* index into dt_process.tensors */
	uint64_t stream;           /* the host's cudaStream_t / CUstream */
	bool is_free;
};

/* A copy or set the GPU ran (dnntrace_gpu:memcpy / memset). */
struct dt_gpu_copy {
	uint32_t correlation_id;
	uint32_t device;
	uint32_t stream;           /* CUPTI stream id */
	uint64_t start, end;
};

/* One successful or failed kernel launch call (dnntrace_api:launch), or
 * graph launch (dnntrace_api:graph_launch: api cudaGraphLaunch,
 * cuGraphLaunch or a _ptsz twin, empty name, no tensors). */
struct dt_launch {
	uint64_t call_id;
	uint64_t ts;
	int api;
	const char *name;          /* interned */
	const char *op;            /* innermost NVTX range at the call, or NULL */
	uint64_t stream;
	size_t tensors_at;         /* into dt_process.launch_tensors */
	uint32_t n_tensors;
	int result;
	/* a graph launch (format 4): which call each node of its exec took its
	 * tensors from at this launch, sorted by node (graph_nodes.c) */
	size_t nodes_at;           /* into dt_process.launch_nodes */
	uint32_t n_nodes;
};

/* One data pointer argument of a library call. */
struct dt_lib_arg {
	int64_t tensor;            /* id from the trace, or -1 (see tensor_uses.c) */
	uint64_t ptr;
	uint32_t dims_at;          /* into dt_process.lib_dims */
	uint8_t role;              /* enum dnntrace_role */
	uint8_t dtype;             /* enum dnntrace_dtype */
	uint8_t rank;              /* 0: shape unknown */
};

/* One cuDNN / cuBLAS / cuBLASLt call (dnntrace_lib:call). */
struct dt_lib_call {
	uint64_t call_id;
	uint64_t ts;
	int api;                   /* enum dnntrace_lib_api_id */
	int result;
	uint64_t stream;           /* the handle's cudaStream_t at the call */
	const char *op;            /* innermost NVTX range at the call, or NULL */
	size_t args_at;            /* into dt_process.lib_args */
	uint32_t n_args;
};

/* One kernel that ran on the GPU (dnntrace_gpu:kernel). */
struct dt_gpu_kernel {
	uint32_t correlation_id;
	uint32_t device;
	uint32_t stream;
	uint64_t start;
	uint64_t end;
	const char *name;          /* interned */
	uint64_t graph_node_id;    /* format 4: CUPTI's graphNodeId; 0: none */
};

/* Graph nodes (graph_nodes.c, format 4). A kernel node's parameters set by
 * a graph call (dnntrace_api:graph_node): its tensors, like a launch's. */
struct dt_node_call {
	uint64_t call_id;
	int api;
	size_t tensors_at;         /* into dt_process.launch_tensors */
	uint32_t n_tensors;
	uint8_t mem;               /* format 5: DT_MEM_NODE_ALLOC / _FREE (its one
	                            * tensor the graph allocation), else 0 */
	uint64_t function_id;      /* a kernel node's function (0: unknown) */
	uint64_t copied_from;      /* a copy made for graph memory: the source
	                            * it copies (a node call or a launch), whose
	                            * kernel it runs; 0: none */
	bool copy;                 /* a copy or set node's: tensors[0] is written */
};

enum { DT_MEM_NODE_ALLOC = 1, DT_MEM_NODE_FREE = 2 };

/* A graph allocation (format 5): the id the trace gives it (fixed, like its
 * address, for every launch) and the tensor of its current lifetime: each
 * launch of a graph with its alloc node makes a new tensor (graph_nodes.c). */
struct dt_graph_alloc {
	int64_t id;
	uint64_t bytes, ptr;
	int32_t device;
	int64_t live;              /* the live lifetime's tensor id, -1: none */
	uint64_t lifetimes;        /* how many launches gave it one */
};

/* A lifetime a launch's free node ends: when that launch's GPU work ends. */
struct dt_graph_end {
	int64_t tensor;
	uint64_t launch_call_id, launch_ns, stream;
};

/* A copy or set node's destination, written by a graph launch whose entry
 * the trace does not give (start_ns 0): dt_graph_finish dates the write at
 * the launch's first GPU work. */
struct dt_graph_write {
	int64_t tensor;
	uint64_t launch_call_id;
};

/* A node of an executable graph: the copy instantiation made of original. */
struct dt_exec_node {
	uint64_t original, node;
	bool disabled;             /* cudaGraphNodeSetEnabled(exec, original, 0) */
};

/* An executable graph's nodes, in the order CUPTI reported their clones. */
struct dt_exec {
	uint64_t exec;             /* the handle */
	struct dt_exec_node *nodes;
	size_t n_nodes, cap_nodes;
};

/* At one graph launch: node took its tensors from the call source_call
 * (0: unknown). */
struct dt_launch_node {
	uint64_t node, source_call;
	bool disabled;             /* the node runs nothing at this launch */
};

/*
 * One NVTX range (dnntrace_nvtx): push/pop ranges nest per (thread,
 * domain); start/end ranges are found by their id and may end on another
 * thread. Ranges are stored in the order they were opened, which is time
 * order (the trace is read in timestamp order).
 */
struct dt_range {
	const char *name;          /* interned */
	const char *domain;        /* interned */
	int64_t vtid;              /* the thread that opened it */
	uint64_t start_ns;
	uint64_t end_ns;           /* DT_NO_TIME: still open at the end */
	bool by_id;                /* a start/end range */
};

/* The open push/pop ranges of one (thread, domain), innermost last. */
struct dt_range_stack {
	int64_t vtid;
	const char *domain;        /* interned */
	size_t *ranges;            /* indices into dt_process.ranges */
	size_t n, cap;
};

/* One dnntrace_api:mem_info sample: device memory in use (all of the
 * device, as cuMemGetInfo_v2 saw it) at host time ts. */
struct dt_mem_sample {
	uint64_t ts;
	int32_t device;
	uint64_t used_bytes;       /* total - free */
};

/* One NVML sample of a board (dnntrace_gpu:power), kept per process. */
struct dt_power_sample {
	uint64_t ns;               /* the middle of its reads (sample_ns +
	                            * read_ns/2): the sample's time */
	uint32_t half_read_ns;     /* the reads happened within ns -/+ this */
	uint64_t energy_mj;        /* counter since the driver loaded */
	uint32_t device;           /* NVML index, taken as the CUDA device */
	uint32_t power_mw;
	bool power_ok, energy_ok;
};

/* Why a GPU record (kernel, copy or set) was left out as impossible: it
 * would put a span of 2^64 ns, or a kernel counted twice, in the report. */
enum dt_gpu_fault {
	DT_GPU_FAULT_END_BEFORE_START,
	DT_GPU_FAULT_ZERO_TIME,        /* start or end at 0 */
	DT_GPU_FAULT_DUPLICATE,        /* same kind, correlation id, device,
	                                * stream, start and end as a kept one */
	DT_GPU_FAULTS
};

/* Counters kept per (process, device). */
struct dt_device_stats {
	int32_t device;
	uint64_t failed_allocs;
	uint64_t pinned_allocs;
	uint64_t pinned_bytes;
	uint64_t registered_allocs;     /* of the pinned ones, the program's own
	                                 * memory (cudaHostRegister) */
	uint64_t registered_bytes;
	uint64_t unregistrations;       /* successful cudaHostUnregister and
	                                 * driver twin: not subtracted (their
	                                 * events name no memory) */
	uint64_t vmm_physical_allocs;  /* cuMemCreate: device memory that is
	                                * no tensor until a range maps it */
	uint64_t vmm_physical_bytes;
	uint64_t damaged_gpu_records[DT_GPU_FAULTS]; /* left out, by fault */
};

/* A launch whose function event (format 2 on), or a GPU kernel whose
 * kernel_name event (format 3), had not come yet. */
struct dt_unnamed {
	size_t index;              /* in dt_process.launches, or .kernels */
	uint64_t id;               /* function id, or name id */
};

struct dt_process {
	int64_t vpid;
	uint64_t last_ns;                   /* its last event's time: where it
	                                     * ended (exit, or killed); a tensor
	                                     * no call freed ends there */
	struct dt_tensor *tensors;
	size_t n_tensors, cap_tensors;
	bool tensors_lent;                  /* a group reads them in place
	                                     * (group.h): kept until freed */
	struct dt_u64map tensor_index;      /* tensor id -> index in tensors */
	/* tensor id -> the first successful memcpy/memset into it (ns);
	 * only written tensors have one (dt_process_first_write) */
	struct dt_u64map first_write;
	struct dt_launch *launches;
	size_t n_launches, cap_launches;
	struct dt_u64map launch_index;      /* call_id -> index in launches */
	int64_t *launch_tensors;
	size_t n_launch_tensors, cap_launch_tensors;
	struct dt_lib_call *lib_calls;
	size_t n_lib_calls, cap_lib_calls;
	struct dt_u64map lib_call_index;    /* call_id -> index in lib_calls */
	struct dt_lib_arg *lib_args;
	size_t n_lib_args, cap_lib_args;
	int64_t *lib_dims;
	size_t n_lib_dims, cap_lib_dims;
	struct dt_gpu_kernel *kernels;
	size_t n_kernels, cap_kernels;
	struct dt_u64map call_of_correlation; /* CUPTI correlation id -> call_id */
	struct dt_stream_call *stream_calls;/* in trace order */
	size_t n_stream_calls, cap_stream_calls;
	struct dt_gpu_copy *gpu_copies;     /* GPU copies and sets */
	size_t n_gpu_copies, cap_gpu_copies;
	struct dt_u64map copy_call_ns;      /* successful copy/set call_id -> host time */
	struct dt_u64map gpu_record_seen;   /* hash of a kept GPU record ->
	                                     * its index in kernels or gpu_copies */
	uint32_t *damaged_kernel_correlations; /* correlation ids of kernel
	                                     * records left out as impossible */
	size_t n_damaged_kernel_correlations, cap_damaged_kernel_correlations;
	struct dt_device_stats *devices;
	size_t n_devices, cap_devices;
	int cupti_ok;                       /* -1: no status event seen */
	const char *cupti_message;          /* interned, or NULL */
	uint64_t records_dropped;
	int32_t last_alloc_device;          /* -1: none yet */
	struct dt_range *ranges;            /* NVTX ranges, in opening order */
	size_t n_ranges, cap_ranges;
	struct dt_range_stack *range_stacks;/* per (thread, domain) */
	size_t n_range_stacks, cap_range_stacks;
	size_t last_range_stack;            /* lookup cache */
	struct dt_u64map range_of_id;       /* start/end id -> index in ranges */
	size_t *open_by_id;                 /* start/end ranges in opening order;
	                                     * closed ones leave from the tail */
	size_t n_open_by_id, cap_open_by_id;
	struct dt_mem_sample *mem_samples;  /* in trace (time) order */
	size_t n_mem_samples, cap_mem_samples;
	struct dt_power_sample *power_samples; /* trace order (power_samples.c) */
	size_t n_power_samples, cap_power_samples;
	int trace_format;                   /* status.format; 1: no such field */
	int rank;                           /* status.rank (format 6): its
	                                     * launcher's, -1: not known */
	struct dt_u64map function_names;    /* function id -> interned name */
	struct dt_unnamed *unnamed_launches; /* named at the end */
	size_t n_unnamed_launches, cap_unnamed_launches;
	struct dt_u64map kernel_names;      /* GPU kernel name id -> interned name */
	struct dt_unnamed *unnamed_kernels; /* named at the end */
	size_t n_unnamed_kernels, cap_unnamed_kernels;
	/* CUDA graphs (graph_nodes.c) */
	struct dt_node_call *node_calls;    /* explicit node parameters */
	size_t n_node_calls, cap_node_calls;
	struct dt_u64map node_call_index;   /* call_id -> index in node_calls */
	struct dt_u64map captured_calls;    /* call ids that became graph nodes */
	struct dt_u64map node_source;       /* node id -> call_id of its tensors
	                                     * now (0: unknown) */
	struct dt_exec *execs;
	size_t n_execs, cap_execs;
	struct dt_u64map exec_index;        /* exec handle -> index in execs */
	struct dt_launch_node *launch_nodes;/* graph launches' snapshots */
	size_t n_launch_nodes, cap_launch_nodes;
	struct dt_u64map flattened_nodes;   /* index in kernels -> the exec node a
	                                     * kernel of a child graph ran as
	                                     * (graph_nodes.c) */
	size_t n_kernels_flattened;
	/* graph memory nodes (format 5, graph_nodes.c) */
	struct dt_graph_alloc *graph_allocs;
	size_t n_graph_allocs, cap_graph_allocs;
	struct dt_u64map graph_alloc_index; /* graph allocation id -> index */
	struct dt_graph_end *graph_ends;
	size_t n_graph_ends, cap_graph_ends;
	struct dt_graph_write *graph_writes;/* copy/set node writes to date */
	size_t n_graph_writes, cap_graph_writes;
	uint64_t graph_lifetimes;           /* lifetimes made so far */
	uint64_t graph_node_copies;         /* node calls copied for a launch */
};

struct dt_model {
	struct dt_process *processes;
	size_t n_processes, cap_processes;
	size_t last_process;                /* lookup cache: events come in runs */
	struct dt_strpool names;
	uint64_t dnntrace_events;
	uint64_t discarded_events;          /* known counts of lost events */
	bool discarded_unknown;             /* some loss had no count */
};

void dt_model_init(struct dt_model *m);
void dt_model_free(struct dt_model *m);
/* Frees what only building the groups read (each process's tensors
 * unless lent to a group, launch tensors, library arguments, copies and
 * stream-ordered calls: groups hold copies of what they need), so a
 * million-kernel trace is not held twice. */
void dt_model_drop_built(struct dt_model *m);
/* That, and what attributing energy also read (launches, library calls,
 * GPU kernels, correlations). Names, NVTX ranges, samples and device
 * counts stay. */
void dt_model_drop_calls(struct dt_model *m);

/*
 * The model's one entry point: one decoded event (event.h), in trace
 * order. What each kind does:
 *  - alloc, free: tensors (stream: the call's cudaStream_t, 0 for the
 *    synchronous entry points; stream-ordered ones take effect when their
 *    stream gets there), per-device counts (failed, pinned, VMM physical);
 *  - memcpy, memset: a tensor's first write (a prefetch, dt_api_is_prefetch,
 *    writes nothing) and the call's time, for stream points;
 *  - launch, graph launch: a launch (a graph launch is one with no
 *    tensors: every GPU kernel linked to its call_id is one of the graph's,
 *    one op at --granularity op; the GPU copies and sets linked to it are
 *    placed on their stream at its time);
 *  - library call: the call and its arguments with their shapes;
 *    lib_set_stream (cudnnSetStream, cublasSetStream_v2) is counted only,
 *    since every call event carries its handle's stream;
 *  - GPU kernel, GPU copy/set, external correlation, records dropped;
 *    an impossible GPU record (end before start, start or end at 0, or a
 *    duplicate of a kept one) is left out and counted per (process,
 *    device) and fault (dt_device_stats.damaged_gpu_records), a kernel
 *    record's correlation id kept (its launch is then told apart from
 *    one whose records never came);
 *  - function, kernel_name: format 2 names a launch's kernel by function
 *    id, format 3 a GPU kernel record's by name id, once per process (the
 *    first event for an id wins). A launch or GPU kernel read before its
 *    name's event comes with name_later: it is stored with the name "" and
 *    named by dt_model_resolve_function_names once the whole trace is read;
 *  - tag (a tensor's name), mem_info (device memory in use), status
 *    (CUPTI state; format: the trace format the process wrote, 1 when
 *    absent), power (power_samples.c: samples with neither value are
 *    dropped), NVTX push/pop/start/end (nvtx_ranges.c: a pop with nothing
 *    open on that (thread, domain), or an end of an unknown id, is
 *    ignored), discarded (events the tracer or the trace lost).
 * Returns false when the event was left out as impossible (a damaged GPU
 * record): the pass hooks (timeline, overheads) must not see it either.
 */
bool dt_model_on_event(struct dt_model *m, const struct dt_event *e);
/* The interned name of function_id, or NULL while no event gave it. */
const char *dt_model_function_name(const struct dt_model *m, int64_t vpid,
		uint64_t function_id);
/* The interned name of name_id ("" for 0), or NULL while no event gave it. */
const char *dt_model_kernel_name(const struct dt_model *m, int64_t vpid,
		uint32_t name_id);
/* Names the launches and GPU kernels read before their name's event. */
void dt_model_resolve_function_names(struct dt_model *m);
struct dt_process *dt_model_process(struct dt_model *m, int64_t vpid);
/* The process with that vpid, or NULL (never creates one). */
const struct dt_process *dt_model_find_process(const struct dt_model *m,
		int64_t vpid);
struct dt_device_stats *dt_process_device(struct dt_process *p, int32_t device);
struct dt_tensor *dt_process_find_tensor(const struct dt_process *p, int64_t id);
/* When a copy or set first wrote tensor id (DT_NO_TIME: none did). */
uint64_t dt_process_first_write(const struct dt_process *p, int64_t id);
/* A copy or set wrote tensor id at ts: keeps the earliest. */
void dt_process_note_write(struct dt_process *p, int64_t id, uint64_t ts);
/* The tensor of this id, made (empty, never allocated) if there is none. */
struct dt_tensor *dt_process_tensor(struct dt_process *p, int64_t id);
/* Once every event is in: what needs all of them (graph memory lifetimes
 * ended by their launch's last GPU work, graph_nodes.c). */
void dt_model_finish(struct dt_model *m);

#endif
