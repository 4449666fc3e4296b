/*
 * The simulated device's core, inside the simulated driver libcuda.so.1:
 * the one lock, the device timeline, device memory, the sticky error, the
 * kernel registry, copies and sets, and the reports to the simulated CUPTI.
 * The core speaks cudaError_t (the richer vocabulary: the runtime needs
 * e.g. cudaErrorInvalidConfiguration, which CUresult lacks); the driver
 * entry points (driver/cuda_api_*.c) map it to CUresult. Nothing here is
 * exported (see driver/libcuda.map). It must never include anything that a
 * real CUDA program could see.
 */
#ifndef SIMGPU_SIM_INTERNAL_H
#define SIMGPU_SIM_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "simgpu/core/sim_launch_limits.h"
#include "simgpu/core/simgpu_cupti_hook.h"
#include "simgpu/core/simgpu_driver_private.h"

/* ---- what the core knows of the driver above it (core_driver_state.c) ---- */

/* The device of the calling thread's current context; 0 when none.
 * Contexts belong to the driver, which installs the answer at load with
 * sim_set_current_device_query: the core never calls up into it. */
int sim_current_device(void);
void sim_set_current_device_query(int (*query)(void));
/*
 * The id of the calling thread's current context, which owns the device
 * memory it allocates. The driver numbers contexts and installs the
 * answer (sim_set_current_context_query): a device's primary context is
 * its ordinal, a context cuCtxCreate made is a number above every
 * ordinal; with no answer installed, 0 (device 0's primary).
 */
int sim_current_context(void);
void sim_set_current_context_query(int (*query)(void));
/* Memory that belongs to no context (stream-ordered, VMM physical). */
#define SIM_NO_CONTEXT (-1)
/* Whether cuInit has succeeded in this process (cuInit marks it). */
int sim_driver_initialized(void);
void sim_mark_driver_initialized(void);

/* ---- global state and clock (core_timeline.c) ---- */

/*
 * One lock guards every piece of simulated state. It is never held while
 * sleeping, nor while calling into the CUPTI sink or user callbacks.
 */
extern pthread_mutex_t sim_lock;

/* Parses the environment and maps device memory, once per process. */
void sim_init(void);

/* CLOCK_MONOTONIC in ns: the host clock, and the clock records are placed on. */
uint64_t sim_now_ns(void);

/*
 * A point on the simulated device's timeline. `v` is virtual device time:
 * it advances only by simulated work and by the host's synchronisation, so
 * durations, back-to-back placement and event timings never depend on how
 * fast the host runs. `trace` is where that point sits on CLOCK_MONOTONIC,
 * the clock CUPTI records carry (README.md, "Simulated time").
 */
struct sim_instant {
	uint64_t v;
	uint64_t trace;
};

/* The stream handles the API accepts besides created streams. */
#define SIM_STREAM_MAGIC 0x5354524dU /* "STRM" */
struct CUstream_st {
	uint32_t magic;
	unsigned int flags;       /* cudaStreamDefault / cudaStreamNonBlocking */
	int priority;
	uint32_t cupti_id;        /* streamId in CUPTI records */
	int is_legacy;            /* the legacy NULL stream */
	int is_per_thread;        /* some thread's per-thread default stream */
	struct sim_instant ready; /* when its queued work ends */
	struct CUgraph_st *capture; /* the graph capturing its work, or NULL */
	int capture_origin;       /* began the capture (only it may end it) */
	size_t *capture_deps;     /* what its next captured node depends on */
	size_t ncapture_deps;     /* (node indices in capture; core_graphs.c) */
	struct CUstream_st *next; /* in the list of created streams */
};

#define SIM_EVENT_MAGIC 0x45564e54U /* "EVNT" */
struct CUevent_st {
	uint32_t magic;
	unsigned int flags;
	int recorded;
	struct sim_instant time; /* when the event completes */
	struct CUgraph_st *capture; /* recorded in a capture into this graph */
	uint32_t capture_graph_id; /* its id (the pointer may be reused) */
	size_t *capture_deps;    /* the recording stream's capture_deps then */
	size_t ncapture_deps;
	struct CUevent_st *next;
};

/*
 * Resolves a stream handle as the caller passed it. per_thread_default: the
 * call came through a _ptds/_ptsz entry point, so NULL means the calling
 * thread's default stream. Returns NULL for a handle that is not a live
 * stream. Caller holds sim_lock.
 */
struct CUstream_st *sim_stream_resolve(cudaStream_t handle,
				       int per_thread_default);

/*
 * Puts work of duration_ns on stream s and returns where its record goes
 * on the trace clock (*start_ns, *end_ns) and the instant it ends (the
 * rules, legacy stream included, are in README.md). Caller holds sim_lock.
 */
struct sim_instant sim_timeline_schedule(struct CUstream_st *s,
					 uint64_t duration_ns,
					 uint64_t *start_ns, uint64_t *end_ns);

/* The end of all work queued so far on the device. Caller holds sim_lock. */
struct sim_instant sim_timeline_device_end(void);

/*
 * Blocks the host until the device reaches t (on the trace clock, scaled
 * by SIMGPU_TIME_SCALE; not at all at 0), then records that the host has
 * seen the device get there. Caller must NOT hold sim_lock.
 */
void sim_wait_device_time(struct sim_instant t);

/*
 * Whether work ending at t has completed, from the host's view; a yes is
 * the host seeing it, as after a wait.
 */
int sim_device_time_reached(struct sim_instant t);

/* Creates / destroys streams and events (live lists for handle checks). */
cudaError_t sim_stream_create(cudaStream_t *out, unsigned int flags, int priority);
cudaError_t sim_stream_destroy(cudaStream_t s);
cudaError_t sim_event_create(cudaEvent_t *out, unsigned int flags);
cudaError_t sim_event_destroy(cudaEvent_t e);
struct CUevent_st *sim_event_lookup(cudaEvent_t e); /* holds sim_lock */
/* Forgets every created stream and event (cudaDeviceReset). Holds sim_lock. */
void sim_timeline_reset(void);

/* ---- reports to the simulated CUPTI (core_report.c) ---- */

/* A fresh CUPTI correlation id (1, 2, ...), one per call submitting GPU work. */
uint32_t sim_next_correlation_id(void);

/*
 * Hands a piece of GPU work, fully described, to CUPTI: at once for a
 * direct driver call, at the end of the runtime call (frame) it is part of
 * otherwise. work->driver_cbid names the driver entry point.
 */
void sim_report_work(struct simgpu_work *work);
/*
 * A graph launch: its API call (SIMGPU_WORK_GRAPH_LAUNCH) reported like
 * sim_report_work, then its n kernels (malloc()ed; freed here once
 * delivered), each with the launch's correlation id and no API record.
 */
void sim_report_graph_launch(struct simgpu_work *api,
			     struct simgpu_work *kernels, size_t n);

/*
 * A driver call that submits no GPU work (cuMemAlloc_v2, ...), for CUPTI's
 * API records: sim_api_begin(driver_cbid) is its start time, or 0 when no
 * record is wanted (then nothing is reported); sim_api_end() reports the
 * call with the CUresult it returns.
 */
uint64_t sim_api_begin(int driver_cbid);
void sim_api_end(int driver_cbid, uint64_t api_start_ns, int driver_result);

/* The runtime's frames (simgpu_driver_private.h). */
void sim_runtime_begin(struct simgpu_runtime_frame *frame, int runtime_cbid,
		       int submits_work);
int sim_runtime_end(struct simgpu_runtime_frame *frame, int result);

/* ---- the sticky error (core_sticky_error.c) ---- */

/*
 * Called first by every entry point: sets the simulator up if needed and
 * returns the sticky error if the device has faulted, else cudaSuccess.
 */
cudaError_t sim_enter(void);
/* A kernel that will fail with err when it completes at t. */
void sim_arm_sticky_error(cudaError_t err, struct sim_instant t);

/* ---- the power model (core_power.c) ---- */

/* A kernel placed on the timeline, with the power the calling thread set
 * for it (simgpu_next_kernel_power_mw, consumed here). Caller holds sim_lock. */
void sim_power_record_kernel(uint64_t start_ns, uint64_t end_ns);

/* ---- device memory (core_memory.c) ---- */

enum sim_mem_kind {
	SIM_MEM_DEVICE,
	SIM_MEM_MANAGED,
	SIM_MEM_STREAM_ORDERED,
};

struct sim_alloc {
	uint64_t offset;    /* from the start of the device range */
	uint64_t size;      /* rounded size this block occupies */
	uint64_t requested; /* what the caller asked for */
	enum sim_mem_kind kind;
	const void *pool;   /* stream-ordered: the pool it came from */
	int context;        /* the owning context (sim_current_context) or SIM_NO_CONTEXT */
	int device;         /* the device current when it was allocated */
};

/* Capacity and bytes in use (rounded sizes). Caller holds sim_lock. */
uint64_t sim_mem_capacity(void);
uint64_t sim_mem_used(void);

/*
 * Allocates size bytes; *dev untouched on failure. Device and managed
 * memory belong to the calling thread's current context, stream-ordered
 * memory to none (cuda.h, cuCtxDestroy: "not associated with any CUDA
 * context"). Caller holds sim_lock.
 */
cudaError_t sim_mem_alloc(size_t size, enum sim_mem_kind kind,
			  const void *pool, void **dev);
/* Frees the allocation starting exactly at dev. Caller holds sim_lock. */
cudaError_t sim_mem_free(const void *dev);
/*
 * Frees every allocation the context owns (cuCtxDestroy, a primary
 * context's reset) and, when device >= 0, the stream-ordered allocations
 * made on that device too (a reset of its primary context). Caller holds
 * sim_lock.
 */
void sim_mem_free_context(int context, int device);
/* The allocation at dev belongs to no context (a VMM physical block). */
void sim_mem_disown(const void *dev);
/* The allocation containing p, or NULL. Caller holds sim_lock. */
const struct sim_alloc *sim_mem_find(const void *p);
/* Whether p lies in the simulated device address range at all. */
int sim_mem_in_device_range(const void *p);
/* The device address an allocation starts at. */
void *sim_mem_base(const struct sim_alloc *a);
/* Host view of device address p (valid for the allocation's bytes). */
void *sim_mem_view(const void *p);

/* Pinned host memory (cudaMallocHost, cudaHostAlloc). Caller holds sim_lock. */
cudaError_t sim_host_alloc(size_t size, unsigned int flags, void **out);
cudaError_t sim_host_free(void *p);
/* Whether p is in pinned host memory, allocated or registered: 1 with its
 * block's base and size (each may be NULL), else 0. */
int sim_host_find(const void *p, void **base, size_t *size);
/* Host memory page-locked in place (cuMemHostRegister). Caller holds
 * sim_lock. 0; 1: it overlaps a registered range; -1: out of memory. */
int sim_host_register(void *p, size_t size);
/* 0; 1: p starts no registered range. Caller holds sim_lock. */
int sim_host_unregister(const void *p);

/* ---- virtual memory management (core_vmm.c); caller holds sim_lock ---- */

uint64_t sim_vmm_granularity(void);
cudaError_t sim_vmm_create(uint64_t size, uint64_t *handle);
cudaError_t sim_vmm_release(uint64_t handle);
cudaError_t sim_vmm_reserve(uint64_t size, uint64_t alignment, uint64_t addr,
			    uint64_t *va);
cudaError_t sim_vmm_free(uint64_t va, uint64_t size);
cudaError_t sim_vmm_map(uint64_t va, uint64_t size, uint64_t offset,
			uint64_t handle);
cudaError_t sim_vmm_unmap(uint64_t va, uint64_t size);
cudaError_t sim_vmm_set_access(uint64_t va, uint64_t size, int accessible);
/* Whether p is in the virtual ranges' span; the simulator's view of
 * [p, p+extent) if it is mapped and accessible in one mapping, else NULL. */
int sim_vmm_in_range(const void *p);
void *sim_vmm_view(const void *p, uint64_t extent);

/* ---- kernels (core_kernels.c) ---- */

/*
 * The launch every runtime and driver launch comes down to. func: a
 * CUfunction, a CUkernel or a declared host function. cbid: the driver
 * entry point's CUPTI cbid.
 */
cudaError_t sim_launch(const void *func, dim3 grid, dim3 block, void **args,
		       size_t shared_mem, cudaStream_t stream,
		       int per_thread_default, int cbid);
/*
 * The launch checks of sim_launch for a kernel about to run or to become a
 * graph node; *name (if asked) is its current name. Caller holds sim_lock.
 */
cudaError_t sim_kernel_check(const void *func, dim3 grid, dim3 block,
			     size_t shared_mem, int has_args, const char **name);
/* The next kernel's duration on this thread (simgpu_next_kernel_ns, used
 * once, else the cost model). */
uint64_t sim_kernel_duration_ns(dim3 grid);
/* Handles of declared kernels (NULL: none). */
CUfunction sim_function_of(const void *func_or_handle, int handles_only);
CUkernel sim_kernel_of(const void *host_func);
CUfunction sim_function_named(const char *name); /* first declared */
cudaError_t sim_function_name(const void *handle, const char **name);
cudaError_t sim_function_param(const void *handle, size_t index,
			       size_t *offset, size_t *size);
/* The parameter layout of a kernel handle (0 parameters when unknown);
 * the arrays live as long as the kernel's definition. Caller holds sim_lock. */
size_t sim_kernel_layout_locked(const void *handle, const size_t **offsets,
				const size_t **sizes);

/*
 * Defines the kernel of key (a host function; NULL: a module's own kernel)
 * with an exact layout; load_error: what every launch of it returns (its
 * device code failed to load), cudaSuccess otherwise. Its CUfunction.
 */
CUfunction sim_define_kernel_layout(const void *key, const char *name,
				    size_t nparams, const size_t *offsets,
				    const size_t *sizes, cudaError_t load_error);

/* ---- modules: device code from fatbins and cubins (core_modules.c) ---- */

struct sim_module;
/*
 * Loads image (a fatbin or cubin). for_runtime: a program's registration
 * (__cudaRegisterFatBinary), which never fails: a bad image gives a module
 * whose kernels fail to launch with the load error, and one line on
 * stderr. Otherwise (cuModuleLoadData) a bad image is an error and no
 * module; the module's kernels and variables are defined at once.
 */
CUresult sim_module_load(const void *image, int for_runtime,
			 struct sim_module **out);
CUresult sim_module_unload(struct sim_module *m);
/* The live module m, or NULL. */
struct sim_module *sim_module_lookup(const void *m);
/* The load result of a runtime-registered module. */
CUresult sim_module_status(struct sim_module *m);
/* Binds host function host to the module's kernel device_name. */
cudaError_t sim_module_register_function(struct sim_module *m, const void *host,
					 const char *device_name);
/* Places the module's variable device_name (size bytes) in device memory
 * (managed: host-accessible), initialised from the cubin, keyed by host. */
cudaError_t sim_module_register_var(struct sim_module *m, const void *host,
				    const char *device_name, size_t size,
				    int managed, void **dev);
/* A registered variable's device address and size, by its host key. */
cudaError_t sim_symbol_lookup(const void *host, void **dev, size_t *size);
/* cuModuleGetFunction / cuModuleGetGlobal on a loaded module. */
CUresult sim_module_function(struct sim_module *m, const char *name,
			     CUfunction *out);
CUresult sim_module_global(struct sim_module *m, const char *name,
			   void **dev, size_t *size);

/* The CUDA ABI's parameter alignment for a parameter of this size. */
size_t sim_param_alignment(size_t size);

/* ---- CUDA graphs and stream capture (core_graphs.c) ---- */

/* Handles are looked up in live lists before they are dereferenced. */
cudaError_t sim_graph_create(CUgraph *out, unsigned int flags);
cudaError_t sim_graph_destroy(CUgraph graph);
/* A kernel node after deps (all nodes of graph), checked as a launch. */
cudaError_t sim_graph_add_kernel_node(CUgraphNode *out, CUgraph graph,
				      const CUgraphNode *deps, size_t ndeps,
				      const void *func, dim3 grid, dim3 block,
				      unsigned int shared_mem, int has_args,
				      void **args);
/* A kernel node's work; params: one pointer per parameter value. */
struct sim_kernel_node {
	const void *func;
	dim3 grid, block;
	unsigned int shared_mem;
	void **params;
};
cudaError_t sim_graph_kernel_node_get(CUgraphNode node, struct sim_kernel_node *out);
cudaError_t sim_graph_kernel_node_set(CUgraphNode node, const struct sim_kernel_node *p,
				      int has_args);
cudaError_t sim_graph_exec_kernel_node_set(CUgraphExec exec, CUgraphNode node,
					   const struct sim_kernel_node *p, int has_args);
/* CUgraphExecUpdateResultInfo's fields (result a CUgraphExecUpdateResult). */
struct sim_update_result {
	int result;
	CUgraphNode error_node;
	CUgraphNode error_from_node;
};
cudaError_t sim_graph_exec_update(CUgraphExec exec, CUgraph graph,
				  struct sim_update_result *r);
/* cuGraphNodeSetEnabled / GetEnabled: the exec's copy of the graph's node
 * (a kernel, memcpy or memset node) runs nothing while disabled. */
cudaError_t sim_graph_node_set_enabled(CUgraphExec exec, CUgraphNode node, int enabled);
cudaError_t sim_graph_node_get_enabled(CUgraphExec exec, CUgraphNode node, int *enabled);
/* A child graph node: the node's own copy of child (its nodes reported to
 * CUPTI as clones); the copy by its node. */
cudaError_t sim_graph_add_child_node(CUgraphNode *out, CUgraph graph,
				     const CUgraphNode *deps, size_t ndeps, CUgraph child);
cudaError_t sim_graph_child_graph(CUgraphNode node, CUgraph *out);
/* A CUgraphNodeType. */
cudaError_t sim_graph_node_type(CUgraphNode node, int *type);
/* *status a CUstreamCaptureStatus; the other outputs optional. */
cudaError_t sim_stream_capture_info(cudaStream_t stream, int per_thread_default,
				    int *status, uint64_t *id, CUgraph *graph,
				    const CUgraphNode **deps, size_t *ndeps);
cudaError_t sim_graph_instantiate(CUgraphExec *out, CUgraph graph,
				  unsigned long long flags);
cudaError_t sim_graph_exec_destroy(CUgraphExec exec);
/* Runs exec's kernels in its order on stream; cbid: the driver entry point. */
cudaError_t sim_graph_launch(CUgraphExec exec, cudaStream_t stream,
			     int per_thread_default, int cbid);
cudaError_t sim_stream_begin_capture(cudaStream_t stream,
				     int per_thread_default, int mode);
cudaError_t sim_stream_end_capture(cudaStream_t stream,
				   int per_thread_default, CUgraph *out);
/*
 * If s is capturing: appends the (checked) launch to its graph, after the
 * nodes s's captured work so far ends with, and returns 1; else 0. Caller
 * holds sim_lock.
 */
int sim_graph_capture_launch(struct CUstream_st *s, const void *func,
			     dim3 grid, dim3 block, size_t shared_mem,
			     void **args);

/* A copy or set as a graph node holds it (core_transfer.c checks and runs). */
struct sim_copy_args {
	void *dst;
	size_t dpitch;
	const void *src;
	size_t spitch;
	size_t width, height;   /* bytes per row, rows */
	int want_src, want_dst; /* as for sim_memcpy2d */
};
struct sim_set_args {
	void *dst;
	size_t pitch;
	unsigned int value;
	size_t elem_size, width, height; /* width in elements */
};
cudaError_t sim_graph_add_copy_node(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    const struct sim_copy_args *c);
cudaError_t sim_graph_add_set_node(CUgraphNode *out, CUgraph graph,
				   const CUgraphNode *deps, size_t ndeps,
				   const struct sim_set_args *p);
/* A copy or set node's new parameters (exactly one of copy, set), for the
 * graph's node (exec NULL) or the exec's copy of it. */
cudaError_t sim_graph_copy_node_set(CUgraphExec exec, CUgraphNode node,
				    const struct sim_copy_args *copy,
				    const struct sim_set_args *set);
cudaError_t sim_graph_add_host_node(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    void (*fn)(void *), void *user_data);
cudaError_t sim_graph_clone(CUgraph *out, CUgraph graph);
/* cuGraphGetNodes: nodes NULL asks for the count. */
cudaError_t sim_graph_get_nodes(CUgraph graph, CUgraphNode *nodes, size_t *num);
/* If s is capturing: the copy / set (checked) becomes a node, *captured 1. */
cudaError_t sim_graph_capture_copy(struct CUstream_st *s,
				   const struct sim_copy_args *c);
cudaError_t sim_graph_capture_set(struct CUstream_st *s,
				  const struct sim_set_args *p);
/*
 * Events and capture: recorded on a capturing stream, an event remembers
 * what the stream's captured work ends with; a stream that waits for it
 * joins the capture (or adds those nodes to its dependencies). *captured:
 * whether it was handled so (the timeline must then not see it). Caller
 * holds sim_lock.
 */
cudaError_t sim_graph_event_record(struct CUstream_st *s, struct CUevent_st *e,
				   int *captured);
cudaError_t sim_graph_event_wait(struct CUstream_st *s, struct CUevent_st *e,
				 int *captured);
/* cuLaunchHostFunc: a host node when capturing, else run in the calling
 * thread once the stream's work has completed. */
cudaError_t sim_launch_host_func(cudaStream_t stream, int per_thread_default,
				 void (*fn)(void *), void *user_data);

/* ---- graph allocations: memory nodes' memory (core_graph_memory.c) ---- */

/* One graph allocation: a fixed virtual range (va, span: size rounded to
 * the VMM granularity), mapped while live. Never freed: nodes, execs and
 * captured allocations keep pointers to it. Caller holds sim_lock for all. */
struct sim_graph_alloc {
	uint64_t va, size, span;
	int live;
	struct sim_graph_alloc *next;
};
cudaError_t sim_graph_mem_reserve(uint64_t size, struct sim_graph_alloc **out);
/* The graph allocation whose range holds p, or NULL. */
struct sim_graph_alloc *sim_graph_mem_at(const void *p);
cudaError_t sim_graph_mem_map(struct sim_graph_alloc *a);
cudaError_t sim_graph_mem_unmap(struct sim_graph_alloc *a);
/* cuMemFree / cuMemFreeAsync of p: 1 (and *err) if p is in a graph
 * allocation, 0 if not (an ordinary block). */
int sim_graph_mem_free(const void *p, cudaError_t *err);
cudaError_t sim_graph_mem_get_attribute(int attr, uint64_t *value);
cudaError_t sim_graph_mem_set_attribute(int attr, uint64_t value);
/* Memory nodes (core_graphs.c): an alloc node's allocation is reserved
 * when it is added (*va, fixed for every launch); a free node takes the
 * address an alloc node returned. */
cudaError_t sim_graph_add_mem_alloc_node(CUgraphNode *out, CUgraph graph,
					 const CUgraphNode *deps, size_t ndeps,
					 uint64_t size, uint64_t *va);
cudaError_t sim_graph_add_mem_free_node(CUgraphNode *out, CUgraph graph,
					const CUgraphNode *deps, size_t ndeps,
					uint64_t va);
/* An alloc node's (is_alloc 1) or free node's address and size. */
cudaError_t sim_graph_mem_node_get(CUgraphNode node, int is_alloc,
				   uint64_t *va, uint64_t *size);
/* Stream capture of cuMemAllocAsync / cuMemFreeAsync (s capturing; caller
 * holds sim_lock): an alloc node (its address in *va) or a free node. */
cudaError_t sim_graph_capture_alloc(struct CUstream_st *s, uint64_t size,
				    uint64_t *va);
cudaError_t sim_graph_capture_free(struct CUstream_st *s, const void *p);

/* ---- allocation entry logic and pools (core_alloc.c) ---- */

/* Device or managed memory; size 0 is the caller's business. */
cudaError_t sim_alloc_device(void **dev, size_t size, enum sim_mem_kind kind);
/* Frees a device block after waiting for the device (as cudaFree). */
cudaError_t sim_free_device(void *dev);
cudaError_t sim_alloc_pinned(void **host, size_t size, unsigned int flags);
cudaError_t sim_free_pinned(void *host);
/* Stream-ordered: reserved at once, the stream only orders use. */
cudaError_t sim_alloc_async(void **dev, size_t size, const void *pool,
			    cudaStream_t stream, int per_thread_default);
cudaError_t sim_free_async(void *dev, cudaStream_t stream,
			   int per_thread_default);
cudaMemPool_t sim_default_pool(void);
cudaError_t sim_pool_create(cudaMemPool_t *pool);
cudaError_t sim_pool_destroy(cudaMemPool_t pool);
/* cudaMemPoolSetAttribute / GetAttribute (value: the attribute's type). */
cudaError_t sim_pool_set_attribute(cudaMemPool_t pool,
				   enum cudaMemPoolAttr attr, const void *value);
cudaError_t sim_pool_get_attribute(cudaMemPool_t pool,
				   enum cudaMemPoolAttr attr, void *value);
void sim_pointer_attributes(const void *p, struct cudaPointerAttributes *out);

/* ---- copies and sets (core_transfer.c) ---- */

/*
 * want_src / want_dst: 1 device memory, 0 host memory (or managed), -1
 * either (unified addressing). Synchronous copies wait for the device,
 * except device to device.
 */
cudaError_t sim_memcpy2d(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 int want_src, int want_dst, cudaStream_t stream,
			 int per_thread_default, int is_async, int cbid);
/*
 * The core of a copy / set on stream st (NULL with run 0: only check the
 * memory). run: move the bytes, put the work on st's timeline and fill
 * work's kinds, times and stream (not its correlation id); *end (copies):
 * the instant it ends. An empty one is checked by nothing and runs nothing
 * (work->bytes 0). Caller holds sim_lock.
 */
cudaError_t sim_copy_locked(struct CUstream_st *st, const struct sim_copy_args *c,
			    int run, struct simgpu_work *work,
			    struct sim_instant *end);
cudaError_t sim_set_locked(struct CUstream_st *st, const struct sim_set_args *p,
			   int run, struct simgpu_work *work);
/* Sets height rows of width elements of elem_size (1, 2 or 4) bytes. */
cudaError_t sim_memset2d(void *dst, size_t pitch, unsigned int value,
			 size_t elem_size, size_t width, size_t height,
			 cudaStream_t stream, int per_thread_default,
			 int is_async, int cbid);
cudaError_t sim_stream_synchronize(cudaStream_t stream, int per_thread_default);
cudaError_t sim_stream_query(cudaStream_t stream, int per_thread_default);
cudaError_t sim_stream_wait_event(cudaStream_t stream, cudaEvent_t event,
				  int per_thread_default);
cudaError_t sim_event_record(cudaEvent_t event, cudaStream_t stream,
			     int per_thread_default);
cudaError_t sim_event_state(cudaEvent_t event, int *recorded,
			    struct sim_instant *time, unsigned int *flags);
cudaError_t sim_device_synchronize(void);
/*
 * Resets the primary context of device: waits for the device, frees the
 * memory that context owns and the device's stream-ordered memory,
 * forgets every stream and event (cudaDeviceReset, cuDevicePrimaryCtxReset,
 * the last cuDevicePrimaryCtxRelease).
 */
void sim_device_reset(int device);
/* Destroys a created context's memory (cuCtxDestroy), after waiting for the device. */
void sim_context_free(int context);

/* ---- CUresult of a core status, and a CUresult's name, NULL for a value
 * cuda.h does not name (core_driver_state.c) ---- */
CUresult sim_cu_result(cudaError_t err);
const char *sim_cu_result_name(CUresult result);

#endif
