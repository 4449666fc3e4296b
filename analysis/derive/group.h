/*
 * One analysis group: the kernels and tensors of one (process, device), in
 * G10's terms. dt_groups_build (group_build.h, with tensor_uses.c for the
 * tensors each kernel uses and their roles) turns the event model into
 * ordered kernels with their tensor uses and roles; dt_group_analyze
 * (window.h) then computes, for a window of kernels, everything the
 * writers print (global flags, Birth and Death, inactive periods, memory
 * per kernel). Tests may also fill a group by hand (dt_group_add_*,
 * group.c) and analyze it without any trace.
 * Must never write files or print: writers and the summary do that.
 */
#ifndef DNNTRACE_ANALYSIS_GROUP_H
#define DNNTRACE_ANALYSIS_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/liveness.h"
#include "analysis/model/model.h"

struct dt_memory_report;
struct dt_steps;
struct dt_request;

/* A tensor's use by one kernel, stored with the kernel (parameter order). */
struct dt_touch {
	uint32_t tensor;     /* index into group tensors */
	uint8_t roles;       /* DT_ROLE_READ | DT_ROLE_WRITE */
	uint8_t dtype;       /* enum dnntrace_dtype of the argument as passed */
	uint8_t rank;        /* 0: shape unknown */
	uint32_t dims_at;    /* rank dimensions at dt_group.dims[dims_at] */
};

/* What a kernel (or op) links to: the host call that submitted it. */
enum dt_source {
	DT_SOURCE_NONE = 0,          /* no link: no tensors known */
	DT_SOURCE_LAUNCH,            /* api: enum dnntrace_api_id */
	DT_SOURCE_LIBRARY,           /* api: enum dnntrace_lib_api_id */
	/* only where a graph kernel's tensors come from (group_build.c),
	 * never a kernel's own source: */
	DT_SOURCE_GRAPH_NODE,        /* a graph call's explicit node parameters */
	DT_SOURCE_UNKNOWN_GRAPH,     /* a graph node whose tensors are unknown */
};

/* What one index of the analysis stands for (--granularity). */
enum dt_granularity {
	DT_GRANULARITY_KERNEL = 0,   /* one GPU kernel */
	DT_GRANULARITY_OP,           /* one library call or launch: its kernels merged */
};

/*
 * One index of the analysis: a GPU kernel, or with DT_GRANULARITY_OP one
 * op (the kernels of one host call merged: start = first kernel's start,
 * end = last kernel's end, duration = sum of the kernels' durations).
 */
struct dt_kernel {
	uint64_t start, end;         /* GPU times, ns (CLOCK_MONOTONIC) */
	uint64_t duration_ns;        /* G10's t_k; set it, even by hand */
	uint32_t correlation_id;
	uint32_t device;
	uint32_t stream;             /* CUPTI stream id, 0 where no kernel was seen */
	uint32_t n_gpu_kernels;      /* GPU kernels merged (op: 0 if none seen) */
	const char *name;            /* op of several kernels: names joined by "; " */
	const char *op;              /* innermost NVTX range at its call, or NULL */
	uint64_t call_ns;            /* host time of its call, DT_NO_TIME: none */
	/* 32 bits, and the small fields last: 80 bytes a kernel, not 88 */
	uint32_t touches_at;         /* into dt_group.touches */
	uint32_t n_touches;
	int api;                     /* per source; -1: no link */
	uint8_t source;              /* enum dt_source */
};

/* Per-tensor results of dt_group_analyze (index = tensor index). */
/* A window holds at most DT_MAX_WINDOW_KERNELS kernels (checked when it
 * is chosen, window.c), so its kernel indices fit 32 bits: 40 bytes a
 * tensor, not 64, a million tensors' worth of 23 MiB at the peak. */
#define DT_MAX_WINDOW_KERNELS ((size_t)INT32_MAX)
struct dt_tensor_result {
	int32_t birth, death;        /* locals only (G10 values) */
	int32_t first_use, last_use; /* window kernel indices, -1: none */
	size_t periods_at;           /* into dt_group.periods */
	double idle_byte_seconds;
	uint32_t n_periods;          /* at most a window's kernels + 1 */
	bool global;
	bool in_g10;                 /* lives in or is touched in the window */
	uint8_t category;            /* enum dt_category (category.h) */
	uint8_t category_source;     /* enum dt_category_source */
};
_Static_assert(sizeof(struct dt_tensor_result) <= 40, "a result grew");

struct dt_group {
	int64_t vpid;
	int32_t device;
	enum dt_granularity granularity;
	bool kernel_times_missing;   /* CUPTI unavailable: launches stand in */
	/* successful kernel launches with no kernel record although CUPTI
	 * recorded others: captured into a graph, or records never delivered */
	uint64_t launches_without_records;
	/* successful kernel launches whose every kernel record was left out
	 * as impossible (end before start, a time at 0): not counted above */
	uint64_t launches_with_damaged_records;
	/* tensors no call freed: they end with their process, at its last
	 * event (process_end_ns), and the summary says how many */
	uint64_t tensors_ended_at_exit;
	uint64_t bytes_ended_at_exit;    /* saturating at UINT64_MAX */
	uint64_t process_end_ns;
	/* GPU kernels of graph launches whose node's tensors the trace does
	 * not give (graph built before tracing, no CUPTI node ids, conditional
	 * bodies): each counts as touching every tensor live at its start */
	uint64_t graph_kernels_unknown;
	/* with graph_kernels_unknown: graph allocations (alloc nodes) on the
	 * device that no launch was seen to begin; their launches may be the
	 * unknown ones, so their memory may be missing from live bytes */
	uint64_t graph_allocs_unseen, graph_alloc_bytes_unseen;
	const char *cupti_message;
	int cupti_ok;                /* status.cupti_ok; -1: no status event */
	uint64_t events_lost;        /* known counts: discarded + dropped */
	bool events_lost_unknown;
	struct dt_device_stats stats;

	struct dt_tensor *tensors;   /* copies, sorted by id, or (borrowed)
	                              * the model's own array when it holds
	                              * exactly those: never grown then, and
	                              * the model outlives the group */
	size_t n_tensors, cap_tensors;
	bool tensors_borrowed;
	struct dt_kernel *kernels;   /* the kernels held: the full order, or
	                              * (a window built narrowed, group_build.c;
	                              * dt_group_drop_after_window) part of it */
	size_t n_kernels, cap_kernels; /* n_kernels: the full order's count */
	size_t kernels_from;         /* full-order index of kernels[0] */
	size_t n_kernels_held;       /* kernels[0 .. n_kernels_held) exist */
	struct dt_touch *touches;
	size_t n_touches, cap_touches;
	int64_t *dims;               /* shapes of touches, as passed in the calls */
	size_t n_dims, cap_dims;
	struct dt_strpool names;     /* names of merged ops */

	bool window_misfit;          /* the window asked for (--kernels,
	                              * --range: dt_request) did not fit: all
	                              * kernels analyzed */
	bool range_times;            /* the window is that range's: global and
	                              * alive are judged by its host times */
	uint64_t range_start_ns, range_end_ns; /* end DT_NO_TIME: never closed */

	/* Results of dt_group_analyze for the window [win_first,
	 * win_first+win_count): indices into kernels[] (held), so the full
	 * order's are kernels_from + win_first on (the summary prints those) */
	size_t win_first, win_count;
	struct dt_tensor_result *results;
	struct dt_period *periods;
	size_t n_periods;
	uint64_t *live_bytes;        /* per window kernel */
	uint64_t *active_bytes;      /* per window kernel */
	uint64_t *g10_total_bytes;   /* per window kernel, G10 "total" */
	uint64_t global_bytes;
	size_t peak_kernel;          /* window index of max live_bytes */
	uint64_t peak_bytes;
	bool bytes_saturated;        /* a byte sum exceeded 2^64-1: printed as that */
	/* categories and swaps (derive/memory.h), set and freed by its
	 * caller after the analysis; NULL: none */
	struct dt_memory_report *memory;
	/* the training steps (derive/steps.h), the same way; NULL: none */
	struct dt_steps *steps;
};

/* Hand-made groups (tests): tensors must be added in increasing id order. */
void dt_group_init(struct dt_group *g, int64_t vpid, int32_t device);
void dt_group_add_tensor(struct dt_group *g, const struct dt_tensor *t);
/* Adds a kernel after the others; touches name tensor indices with roles
 * (and shapes stored by dt_group_add_dims). */
void dt_group_add_kernel(struct dt_group *g, const struct dt_kernel *k,
		const struct dt_touch *touches, uint32_t n_touches);
/* Stores rank dimensions; returns their dims_at for a touch. */
uint32_t dt_group_add_dims(struct dt_group *g, const int64_t *dims, uint8_t rank);

/* Lets go of the kernels after the window's end and of their touches,
 * once the window is chosen (and its timeline's span taken): every reader
 * after that reads the window's kernels only, so a --kernels 0:9 window
 * does not hold a million-kernel order through energy and the reports.
 * n_kernels still counts them all (the summary's "of N"); the group is
 * never grown after. Nothing happens when the window reaches the end. */
void dt_group_drop_after_window(struct dt_group *g);

void dt_group_free(struct dt_group *g);

/* A tensor's display name: its tag, else "t<id>"; buf needs 32 bytes. */
const char *dt_tensor_display_name(const struct dt_tensor *t, char *buf,
		size_t size);

#endif
