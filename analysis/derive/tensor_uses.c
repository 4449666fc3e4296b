/*
 * The tensors each kernel uses and their roles (tensor_uses.h): library
 * arguments mapped to tensors (by the tracer's id, else by address among
 * the tensors alive at the call), the tensors of a launch or library call,
 * and a kernel's touches with their G10 roles (read/write, the unknown-role
 * refinement) and shapes. Must never order kernels, merge ops or analyze a
 * window (group_build.c and window.c do), nor read the trace or write
 * output.
 */
#include "analysis/derive/tensor_uses.h"

#include <stdlib.h>
#include <string.h>

#include "tracepoints/dnntrace_enums.h"

/* ---- library arguments: tensor ids, also by address ------------------- */

struct address_range {
	uint64_t base, bytes, alloc_ns, free_ns;
	int64_t id;
};

static int compare_bases(const void *a, const void *b)
{
	uint64_t x = ((const struct address_range *)a)->base;
	uint64_t y = ((const struct address_range *)b)->base;
	return x < y ? -1 : x > y;
}

/* The tensor whose allocation holds ptr at time ts, or -1. Ranges are
 * sorted by base; walking down from the last base <= ptr, none further
 * than the largest allocation can hold ptr. */
static int64_t tensor_at(const struct address_range *ranges, size_t n,
		uint64_t max_bytes, uint64_t ptr, uint64_t ts)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ranges[mid].base <= ptr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && ptr - ranges[i].base < max_bytes;) {
		const struct address_range *r = &ranges[i];
		if (ptr - r->base < r->bytes && r->alloc_ns <= ts &&
		    (r->free_ns == DT_NO_TIME || ts < r->free_ns))
			return r->id;
	}
	return -1;
}

/*
 * The tensor of every library call argument. The tracer looks each pointer
 * up in its live-tensor map, base or interior (a view maps to its
 * allocation); where it found none (id -1, e.g. the allocation was being
 * recorded while the call looked it up), the pointer is mapped here by
 * address among the tensors alive at the call, so a tensor a library call
 * reads is never missed.
 */
int64_t *dt_map_lib_tensors(const struct dt_process *p)
{
	int64_t *ids = dt_xmalloc(p->n_lib_args * sizeof(int64_t) + 1);
	bool unmapped = false;
	for (size_t i = 0; i < p->n_lib_args; i++) {
		ids[i] = p->lib_args[i].tensor;
		unmapped |= ids[i] < 0 && p->lib_args[i].ptr != 0;
	}
	if (!unmapped)
		return ids;
	struct address_range *ranges = NULL;
	size_t n = 0, cap = 0;
	uint64_t max_bytes = 0;
	for (size_t i = 0; i < p->n_tensors; i++) {
		const struct dt_tensor *t = &p->tensors[i];
		if (!t->allocated || t->ptr == 0 || t->bytes == 0)
			continue;
		*DT_PUSH_SLOT(ranges, n, cap) = (struct address_range){t->ptr,
			t->bytes, t->alloc_ns, t->free_ns, t->id};
		if (t->bytes > max_bytes)
			max_bytes = t->bytes;
	}
	dt_sort(ranges, n, sizeof(*ranges), compare_bases);
	for (size_t c = 0; c < p->n_lib_calls; c++) {
		const struct dt_lib_call *call = &p->lib_calls[c];
		for (uint32_t i = 0; i < call->n_args; i++) {
			size_t a = call->args_at + i;
			if (ids[a] < 0 && p->lib_args[a].ptr != 0)
				ids[a] = tensor_at(ranges, n, max_bytes,
						p->lib_args[a].ptr, call->ts);
		}
	}
	free(ranges);
	return ids;
}


int64_t dt_call_tensor(const struct dt_process_view *v, struct dt_call_ref call,
		uint32_t i)
{
	const struct dt_process *p = v->p;
	if (call.source == DT_SOURCE_LAUNCH)
		return p->launch_tensors[p->launches[call.index].tensors_at + i];
	if (call.source == DT_SOURCE_GRAPH_NODE)
		return p->launch_tensors[p->node_calls[call.index].tensors_at + i];
	return v->lib_tensor[p->lib_calls[call.index].args_at + i];
}

uint32_t dt_call_n_tensors(const struct dt_process *p, struct dt_call_ref call)
{
	return call.source == DT_SOURCE_LAUNCH ? p->launches[call.index].n_tensors :
		call.source == DT_SOURCE_LIBRARY ? p->lib_calls[call.index].n_args :
		call.source == DT_SOURCE_GRAPH_NODE ? p->node_calls[call.index].n_tensors : 0;
}


/* ---- tensor uses and their roles --------------------------------------- */

/*
 * Roles of a use, in G10's terms. A library call says how it uses each
 * argument: read; write; both; workspace (scratch the call writes before
 * it reads it: an output); or unknown. Launch events never say, so their
 * uses are unknown too. As G10's notes prescribe, an unknown use counts as
 * read AND write, with one sound refinement: the first kernel use of a
 * tensor whose memory nothing wrote before (no memcpy/memset into it
 * before the kernel started, no earlier kernel touched it) cannot be a
 * read, since it would read uninitialised memory; it counts as a write
 * only. Managed memory is excluded: the host can write it directly,
 * without any event. Known roles are taken as they are.
 */
static uint8_t g10_roles(uint8_t role, const struct dt_process *p,
		const struct dt_tensor *t, bool touched_before, uint64_t kernel_start)
{
	switch (role) {
	case DNNTRACE_ROLE_READ:
		return DT_ROLE_READ;
	case DNNTRACE_ROLE_WRITE:
	case DNNTRACE_ROLE_WORKSPACE:
		return DT_ROLE_WRITE;
	case DNNTRACE_ROLE_READ_WRITE:
		return DT_ROLE_READ | DT_ROLE_WRITE;
	default:   /* DNNTRACE_ROLE_UNKNOWN, or a role newer than this reader */
		break;
	}
	bool written = touched_before || t->kind == DNNTRACE_MEM_MANAGED ||
		dt_process_first_write(p, t->id) < kernel_start;
	return written ? (DT_ROLE_READ | DT_ROLE_WRITE) : DT_ROLE_WRITE;
}

/* The touches of one kernel: the tensors of the call it links to that
 * belong to this group (tensors of other devices, reached by peer access,
 * do not), each once, roles merged, shape from its first argument. */
size_t dt_call_touches(const struct dt_process_view *v, struct dt_call_ref call,
		const struct dt_u64map *index_of_id, bool *touched_before,
		uint64_t kernel_start, struct dt_group *g,
		struct dt_touch **touches, size_t *cap)
{
	const struct dt_process *p = v->p;
	size_t n = 0;
	uint32_t n_tensors = dt_call_n_tensors(p, call);
	for (uint32_t i = 0; i < n_tensors; i++) {
		int64_t id = dt_call_tensor(v, call, i);
		uint64_t index;
		if (id < 0 || !dt_u64map_get(index_of_id, (uint64_t)id, &index))
			continue;
		const struct dt_lib_arg *arg = call.source == DT_SOURCE_LIBRARY ?
			&p->lib_args[p->lib_calls[call.index].args_at + i] : NULL;
		if (arg && arg->role == DNNTRACE_ROLE_WORKSPACE)
			g->tensors[index].workspace = true;
		struct dt_touch *touch = NULL;
		for (size_t j = 0; j < n && !touch; j++)
			if ((*touches)[j].tensor == index)
				touch = &(*touches)[j];
		if (!touch) {
			touch = DT_PUSH_SLOT(*touches, n, *cap);
			memset(touch, 0, sizeof(*touch));
			touch->tensor = (uint32_t)index;
			if (arg && arg->rank > 0 &&
			    g->n_dims + arg->rank <= UINT32_MAX) {
				touch->dtype = arg->dtype;
				touch->rank = arg->rank;
				touch->dims_at = dt_group_add_dims(g,
						&p->lib_dims[arg->dims_at], arg->rank);
			}
		}
		touch->roles |= g10_roles(arg ? arg->role : DNNTRACE_ROLE_UNKNOWN,
				v->p, &g->tensors[index], touched_before[index],
				kernel_start);
	}
	for (size_t j = 0; j < n; j++)
		touched_before[(*touches)[j].tensor] = true;
	return n;
}

void dt_call_marks(const struct dt_process_view *v, struct dt_call_ref call,
		const struct dt_u64map *index_of_id, bool *touched_before,
		struct dt_group *g)
{
	const struct dt_process *p = v->p;
	uint32_t n_tensors = dt_call_n_tensors(p, call);
	for (uint32_t i = 0; i < n_tensors; i++) {
		int64_t id = dt_call_tensor(v, call, i);
		uint64_t index;
		if (id < 0 || !dt_u64map_get(index_of_id, (uint64_t)id, &index))
			continue;
		if (call.source == DT_SOURCE_LIBRARY &&
		    p->lib_args[p->lib_calls[call.index].args_at + i].role ==
				DNNTRACE_ROLE_WORKSPACE)
			g->tensors[index].workspace = true;
		touched_before[index] = true;
	}
}

/*
 * A graph kernel whose node's tensors are unknown touches, for all the
 * analysis can tell, every tensor of g live when it starts (memory taken
 * at or before its start, not yet given back), with unknown roles: so no
 * tensor is ever called idle, or swappable, across it.
 */
size_t dt_live_touches(const struct dt_process *p, bool *touched_before,
		uint64_t kernel_start, struct dt_group *g,
		struct dt_touch **touches, size_t *cap)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		if (dt_tensor_ready_ns(t) > kernel_start ||
		    dt_tensor_release_ns(t) <= kernel_start)
			continue;
		struct dt_touch *touch = DT_PUSH_SLOT(*touches, n, *cap);
		memset(touch, 0, sizeof(*touch));
		touch->tensor = (uint32_t)i;
		touch->roles = g10_roles(DNNTRACE_ROLE_UNKNOWN, p, t, touched_before[i],
				kernel_start);
	}
	for (size_t j = 0; j < n; j++)
		touched_before[(*touches)[j].tensor] = true;
	return n;
}
