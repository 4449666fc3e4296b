/*
 * Stable numeric values of the dnntrace_api enums, shared by the tracer (which
 * writes them) and the analyzer (which reads them back). Append only: a value
 * once written into a trace must keep its meaning. Entry point ids come from
 * the catalogue, tracepoints/entry_points.h.
 */
#ifndef DNNTRACE_ENUMS_H
#define DNNTRACE_ENUMS_H

#include <stdint.h>

#include "tracepoints/entry_points.h"
#include "tracepoints/event_fields.h"

/* Entry points traced by dnntrace_api, with the ids of tracepoints/entry_points.h. */
enum dnntrace_api_id {
#define DT_API_ENUMERATOR(id, name, kind, proc, cbid) DNNTRACE_API_##name = (id),
	DNNTRACE_API_ENTRIES(DT_API_ENUMERATOR)
#undef DT_API_ENUMERATOR
};

/* One more than the largest dnntrace_api id: the size of a table indexed by id. */
union dnntrace_api_id_bound {
#define DT_API_BOUND(id, name, kind, proc, cbid) char bound_##name[(id) + 1];
	DNNTRACE_API_ENTRIES(DT_API_BOUND)
#undef DT_API_BOUND
};
enum { DNNTRACE_API_COUNT = sizeof(union dnntrace_api_id_bound) };

enum dnntrace_mem_kind {
	DNNTRACE_MEM_DEVICE = 0,
	DNNTRACE_MEM_MANAGED = 1,
	DNNTRACE_MEM_PINNED_HOST = 2,
	DNNTRACE_MEM_STREAM_ORDERED = 3,
	/* Driver virtual memory management (cuMemCreate/cuMemMap): a range
	 * mapped with cuMemMap is a tensor; the physical allocation
	 * (cuMemCreate) and the reserved address range (cuMemAddressReserve)
	 * are traced with tensor_id -1, like pinned host memory. */
	DNNTRACE_MEM_VMM_MAPPED = 4,
	DNNTRACE_MEM_VMM_PHYSICAL = 5,
	DNNTRACE_MEM_VMM_RESERVED = 6,
};

/* Launch configuration, passed by pointer (a tracepoint takes 10 args at
 * most): the launch event of formats 1 and 2 (tests write such traces). */
struct dnntrace_launch_geometry {
	unsigned int grid[3];
	unsigned int block[3];
	unsigned long long shared_mem;
};

/* One GPU kernel record (format 3), passed to dnntrace_gpu:kernel by pointer. */
struct dnntrace_gpu_kernel {
	uint32_t correlation_id, device, context, stream;
	uint64_t start, end;        /* raw CLOCK_MONOTONIC ns */
	uint32_t name_id;           /* its dnntrace_gpu:kernel_name event; 0: no name */
	uint32_t grid[3], block[3];
	uint32_t shared_mem;        /* dynamic shared memory bytes */
	uint64_t graph_node_id;     /* format 4: CUPTI's graphNodeId; 0: no graph */
};

/* Library entry points traced by dnntrace_lib (cuDNN from 0, cuBLAS from 100). */
enum dnntrace_lib_api_id {
#define DT_LIB_ENUMERATOR(id, name, args, params) DNNTRACE_LIB_##name = (id),
	DNNTRACE_LIB_ENTRIES(DT_LIB_ENUMERATOR)
#undef DT_LIB_ENUMERATOR
};

/* One more than the largest dnntrace_lib id. */
union dnntrace_lib_id_bound {
#define DT_LIB_BOUND(id, name, args, params) char bound_##name[(id) + 1];
	DNNTRACE_LIB_ENTRIES(DT_LIB_BOUND)
#undef DT_LIB_BOUND
};
enum { DNNTRACE_LIB_COUNT = sizeof(union dnntrace_lib_id_bound) };

/* How a library call uses one of its data pointers. */
enum dnntrace_role {
	DNNTRACE_ROLE_READ = 0,
	DNNTRACE_ROLE_WRITE = 1,
	DNNTRACE_ROLE_READ_WRITE = 2, /* e.g. C with beta != 0, running stats */
	DNNTRACE_ROLE_WORKSPACE = 3,  /* scratch: written, then read, by the call */
	DNNTRACE_ROLE_UNKNOWN = 4,    /* the call does not say: count as read and write */
	DNNTRACE_ROLE_UNUSED = 5,     /* format 3: an argument the call's other arguments
				       * leave unused (z when alpha2 == 0): listed so
				       * every call of the entry point has the same
				       * arguments, and no use of anything */
};

/* Element type of a tensor argument (printed as in G10: f32, f16, ...). */
enum dnntrace_dtype {
	DNNTRACE_DTYPE_UNKNOWN = 0,
	DNNTRACE_DTYPE_F32,
	DNNTRACE_DTYPE_F64,
	DNNTRACE_DTYPE_F16,
	DNNTRACE_DTYPE_BF16,
	DNNTRACE_DTYPE_I8,
	DNNTRACE_DTYPE_U8,
	DNNTRACE_DTYPE_I32,
	DNNTRACE_DTYPE_I64,
	DNNTRACE_DTYPE_F8E4M3,
	DNNTRACE_DTYPE_F8E5M2,
	DNNTRACE_DTYPE_BOOL,
};

/*
 * One traced library call, passed to dnntrace_lib:call by pointer. Every
 * array has n_args entries, one per data pointer argument, in the order the
 * catalogue names them (entry_points.h, DNNTRACE_LIB_ENTRIES); dims holds
 * the dimensions of all arguments one after the other (ranks[i] of them for
 * argument i, outermost first; rank 0 when the shape is unknown). handle,
 * arg_names and param_names (comma-separated) are formats 1 and 2's only.
 */
struct dnntrace_lib_call {
	unsigned long long call_id;
	int api;                     /* enum dnntrace_lib_api_id */
#if DNNTRACE_TRACE_FORMAT < 3
	const void *handle;
#endif
	const void *stream;
	unsigned int n_args;
	const long long *tensors;    /* tensor id, or -1 (not in a live tensor) */
	const unsigned long long *ptrs;
	const unsigned char *roles;  /* enum dnntrace_role */
	const unsigned char *dtypes; /* enum dnntrace_dtype */
	const unsigned char *ranks;
#if DNNTRACE_TRACE_FORMAT < 3
	const char *arg_names;
#endif
	unsigned int n_dims;
	const long long *dims;
	unsigned int n_params;
	const long long *params;     /* API-specific, named by the catalogue */
#if DNNTRACE_TRACE_FORMAT < 3
	const char *param_names;
#endif
	int result;                  /* cudnnStatus_t / cublasStatus_t */
	unsigned long long start_ns; /* CLOCK_MONOTONIC when the call began */
};

#endif
