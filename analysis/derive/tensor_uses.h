/*
 * The tensors each kernel uses and their roles, for building groups
 * (group_build.c): the host call a kernel links to, the tensors of that
 * call (library arguments mapped also by address), and the touches of one
 * kernel with their G10 roles. Internal to building groups: writers and
 * tests use group.h. Must never order kernels or analyze a window.
 */
#ifndef DNNTRACE_ANALYSIS_TENSOR_USES_H
#define DNNTRACE_ANALYSIS_TENSOR_USES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/util.h"

struct dt_stream_points;

/* The host call a kernel links to: a launch or a library call (or, for
 * the tensors of a graph kernel, a node call: index into node_calls). */
struct dt_call_ref {
	uint8_t source;              /* enum dt_source */
	size_t index;                /* into launches, lib_calls or node_calls */
};

/* What every group of one process shares while it is built. */
struct dt_process_view {
	const struct dt_process *p;
	int64_t *lib_tensor;         /* per library argument: tensor id, -1: none */
	struct dt_u64map calls_with_kernels; /* call ids seen on a GPU */
	struct dt_stream_points *stream_points; /* per tensor, or NULL */
};

/*
 * The tensor id of every library call argument (the process's lib_args
 * order), -1 where none: the tracer's, else the tensor alive at the call
 * whose allocation holds the pointer. The caller frees it.
 */
int64_t *dt_map_lib_tensors(const struct dt_process *p);

/* The i-th tensor id of a call (-1: none), and how many it has. */
int64_t dt_call_tensor(const struct dt_process_view *v, struct dt_call_ref call,
		uint32_t i);
uint32_t dt_call_n_tensors(const struct dt_process *p, struct dt_call_ref call);

/*
 * The touches of one kernel that starts at kernel_start, linked to call:
 * the call's tensors that are in g (index_of_id: tensor id -> index), each
 * once, roles merged, shape from its first argument; into *touches
 * (grown, capacity *cap). touched_before (per tensor index) says which
 * tensors an earlier kernel touched and is updated. Marks workspace
 * tensors and stores shapes in g. Returns the count.
 */
size_t dt_call_touches(const struct dt_process_view *v, struct dt_call_ref call,
		const struct dt_u64map *index_of_id, bool *touched_before,
		uint64_t kernel_start, struct dt_group *g,
		struct dt_touch **touches, size_t *cap);

/* What dt_call_touches leaves behind, for a kernel outside the window
 * whose touches are not kept: the call's workspace tensors marked in g,
 * touched_before set for the call's tensors in g. No touch, no shape. */
void dt_call_marks(const struct dt_process_view *v, struct dt_call_ref call,
		const struct dt_u64map *index_of_id, bool *touched_before,
		struct dt_group *g);

/* The touches of a graph kernel whose tensors are unknown: every tensor of
 * g live at kernel_start, roles unknown (tensor_uses.c says why). */
size_t dt_live_touches(const struct dt_process *p, bool *touched_before,
		uint64_t kernel_start, struct dt_group *g,
		struct dt_touch **touches, size_t *cap);

#endif
