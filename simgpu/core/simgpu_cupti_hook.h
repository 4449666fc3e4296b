/*
 * The private contract between the simulated driver libcuda.so.1 and the
 * simulated libcupti: how CUPTI learns about GPU work and API calls. Not for
 * programs: only simgpu/cupti/cupti_activity.c and the driver's
 * core_report.c use it.
 *
 * libcupti loads libcuda.so.1 (as the real one does) and looks up
 * simgpu_internal_attach_cupti in it. The real driver has no such symbol, so
 * the simulated CUPTI then fails cleanly. Once attached, the driver calls
 * the sink in the thread that made the CUDA call, after the work is on the
 * timeline and before the outermost call returns: once per kernel, copy or
 * set, and once per call that submits no GPU work but has a CUPTI cbid
 * (SIMGPU_WORK_NONE: cudaMalloc, cuMemAlloc_v2, ...; its correlation_id is
 * 0, and CUPTI takes one from simgpu_internal_next_correlation_id only if
 * it writes a record for it). A runtime call and the driver call it makes
 * are ONE report carrying both cbids (the simulated cudart opens a frame
 * around its driver calls, simgpu_driver_private.h). The driver never holds
 * its own lock while calling the sink.
 */
#ifndef SIMGPU_CUPTI_HOOK_H
#define SIMGPU_CUPTI_HOOK_H

#include <stddef.h>
#include <stdint.h>

#define SIMGPU_CUPTI_HOOK_VERSION 4

enum simgpu_work_kind {
	SIMGPU_WORK_KERNEL,
	SIMGPU_WORK_MEMCPY,
	SIMGPU_WORK_MEMSET,
	SIMGPU_WORK_NONE, /* an API call that submits no GPU work */
	/* a graph launch call: its correlation_id is that of the kernels,
	   copies and sets reported right after it (graph_id set, api_cbid
	   and driver_cbid 0: no API record of their own) */
	SIMGPU_WORK_GRAPH_LAUNCH,
};

struct simgpu_work {
	enum simgpu_work_kind kind;
	uint32_t correlation_id; /* unique per API call, from 1 */
	uint32_t device_id;
	uint32_t context_id;
	uint32_t stream_id;
	uint64_t start_ns;       /* device time = CLOCK_MONOTONIC ns */
	uint64_t end_ns;
	uint64_t api_start_ns;   /* host time the API call began */
	int api_cbid;            /* CUPTI_RUNTIME_TRACE_CBID_* of the runtime
				    entry point; 0: the driver was called directly */
	int api_result;          /* cudaError_t the runtime call returns */
	int driver_cbid;         /* CUPTI_DRIVER_TRACE_CBID_* of the driver entry
				    point; 0: the runtime call never reached it */
	int driver_result;       /* CUresult the driver call returned */
	int is_async;            /* a *Async copy or set */
	/* kernel */
	const char *name;        /* valid for the process lifetime */
	uint32_t grid[3];
	uint32_t block[3];
	uint64_t dynamic_shared_mem;
	uint32_t graph_id;       /* graph launches: the graph's id, else 0 */
	uint64_t graph_node_id;  /* and the node's id (kernel, memcpy, memset) */
	/* memcpy: CUpti_ActivityMemcpyKind / CUpti_ActivityMemoryKind values */
	uint8_t copy_kind;
	uint8_t src_kind;
	uint8_t dst_kind;
	/* memset */
	uint32_t value;
	uint16_t memory_kind;
	/* memcpy and memset */
	uint64_t bytes;
};

typedef void (*simgpu_work_sink)(const struct simgpu_work *work);
/* Whether a call of this runtime cbid and/or driver cbid (0: none) that
 * submits no GPU work is wanted (SIMGPU_WORK_NONE); cheap, lock-free: asked
 * on every such call. */
typedef int (*simgpu_api_filter)(int runtime_cbid, int driver_cbid);

/*
 * Exported by the simulated libcuda.so.1 under these names. attach returns
 * 0 on success, -1 if version differs.
 * Passing NULLs detaches. work_complete tells whether work ending at device
 * time end_ns has completed as the host sees it (for non-forced flushes).
 */
typedef int (*simgpu_attach_cupti_fn)(unsigned int version, simgpu_work_sink sink,
				      simgpu_api_filter filter);
typedef int (*simgpu_work_complete_fn)(uint64_t end_ns);
typedef uint32_t (*simgpu_next_correlation_id_fn)(void);
/* Whether cuInit has succeeded in this process (1) or not (0). */
typedef int (*simgpu_driver_initialized_fn)(void);
/*
 * Optional (looked up on their own; version 4 drivers without them give
 * CUPTI no graph callbacks): CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED as
 * CUpti_GraphData says it, one call per node cloned by cuGraphClone or
 * cuGraphInstantiate (graph_exec set), on the calling thread, outside the
 * driver's lock; and the ids cuptiGetGraphNodeId (what 0), cuptiGetGraphId
 * (1) and cuptiGetGraphExecId (2) return (0, or -1: unknown handle).
 */
struct simgpu_graph_clone {
	void *graph;
	void *original_graph;
	void *node;
	void *original_node;
	int node_type;          /* CUgraphNodeType */
	void *graph_exec;       /* instantiation: the new exec; else NULL */
	int mark;               /* enum simgpu_clone_mark */
};
/*
 * An instantiation's clones come between a mark of its start and one of
 * its end (graph_exec set on all three); the CUPTI side turns marks into
 * callbacks, where and whether SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS says
 * (simgpu/cupti/cupti_callbacks.c), each clone with no graphExec, as on an
 * H200 (CUPTI 13.0).
 */
enum simgpu_clone_mark {
	SIMGPU_CLONE_NODE = 0,
	SIMGPU_CLONE_EXEC_STARTING,
	SIMGPU_CLONE_EXEC_CREATED,
};
typedef void (*simgpu_graph_clone_fn)(const struct simgpu_graph_clone *clone);
typedef void (*simgpu_set_graph_clone_callback_fn)(simgpu_graph_clone_fn fn);
typedef int (*simgpu_graph_object_id_fn)(int what, const void *handle, uint64_t *id);
#define SIMGPU_SET_GRAPH_CLONE_CALLBACK_SYMBOL "simgpu_internal_set_graph_clone_callback"
#define SIMGPU_GRAPH_OBJECT_ID_SYMBOL "simgpu_internal_graph_object_id"

#define SIMGPU_ATTACH_CUPTI_SYMBOL "simgpu_internal_attach_cupti"
#define SIMGPU_WORK_COMPLETE_SYMBOL "simgpu_internal_work_complete"
#define SIMGPU_NEXT_CORRELATION_ID_SYMBOL "simgpu_internal_next_correlation_id"
#define SIMGPU_DRIVER_INITIALIZED_SYMBOL "simgpu_internal_driver_initialized"

#endif
