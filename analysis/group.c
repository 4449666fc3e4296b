/*
 * Builds the analysis groups from the event model and analyzes a window of
 * kernels (group.h). This is where kernel order, ops, links to launches and
 * library calls, tensor roles and global/local are decided. Must never read
 * the trace or write output.
 */
#include "analysis/group.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/category.h"
#include "analysis/stream_order.h"
#include "tracepoints/dnntrace_enums.h"

void dt_group_init(struct dt_group *g, int64_t vpid, int32_t device)
{
	memset(g, 0, sizeof(*g));
	g->vpid = vpid;
	g->device = device;
	g->stats.device = device;
}

void dt_group_add_tensor(struct dt_group *g, const struct dt_tensor *t)
{
	*DT_PUSH_SLOT(g->tensors, g->n_tensors, g->cap_tensors) = *t;
}

void dt_group_add_kernel(struct dt_group *g, const struct dt_kernel *k,
		const struct dt_touch *touches, uint32_t n_touches)
{
	struct dt_kernel *slot = DT_PUSH_SLOT(g->kernels, g->n_kernels,
			g->cap_kernels);
	*slot = *k;
	slot->touches_at = g->n_touches;
	slot->n_touches = n_touches;
	for (uint32_t i = 0; i < n_touches; i++)
		*DT_PUSH_SLOT(g->touches, g->n_touches, g->cap_touches) =
			touches[i];
}

uint32_t dt_group_add_dims(struct dt_group *g, const int64_t *dims, uint8_t rank)
{
	size_t at = g->n_dims;
	for (uint8_t i = 0; i < rank; i++)
		*DT_PUSH_SLOT(g->dims, g->n_dims, g->cap_dims) = dims[i];
	return (uint32_t)at;
}

void dt_group_free(struct dt_group *g)
{
	free(g->tensors);
	free(g->kernels);
	free(g->touches);
	free(g->dims);
	dt_strpool_free(&g->names);
	free(g->results);
	free(g->periods);
	free(g->live_bytes);
	free(g->active_bytes);
	free(g->g10_total_bytes);
	memset(g, 0, sizeof(*g));
}

const char *dt_tensor_display_name(const struct dt_tensor *t, char *buf,
		size_t size)
{
	if (t->name)
		return t->name;
	/* hot when writing kernels.config: no snprintf */
	char digits[24];
	int n = 0;
	uint64_t v = t->id < 0 ? (uint64_t)0 - (uint64_t)t->id : (uint64_t)t->id;
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (t->id < 0)
		digits[n++] = '-';
	if ((size_t)n + 2 > size)
		return "t?";
	buf[0] = 't';
	for (int i = 0; i < n; i++)
		buf[1 + i] = digits[n - 1 - i];
	buf[n + 1] = '\0';
	return buf;
}

/* ---- building groups from the model ---------------------------------- */

/* The host call a kernel links to: a launch or a library call. */
struct call_ref {
	uint8_t source;              /* enum dt_source */
	size_t index;                /* into launches or lib_calls */
};

/* A kernel (or op, or stand-in) before sorting, with the call it links to. */
struct pending_kernel {
	struct dt_kernel kernel;
	struct call_ref call;
	uint64_t call_id;            /* stand-in order; ops without kernels */
	uint64_t rank;               /* op order (merge_into_ops) */
};

/* What every group of one process shares while it is built. */
struct process_view {
	const struct dt_process *p;
	int64_t *lib_tensor;         /* per library argument: tensor id, -1: none */
	struct dt_u64map calls_with_kernels; /* call ids seen on a GPU */
	struct dt_stream_points *stream_points; /* per tensor, or NULL */
};

static int compare_call_order(const void *a, const void *b)
{
	uint64_t x = ((const struct pending_kernel *)a)->call_id;
	uint64_t y = ((const struct pending_kernel *)b)->call_id;
	return x < y ? -1 : x > y;
}

static int compare_pending(const void *a, const void *b)
{
	const struct dt_kernel *x = &((const struct pending_kernel *)a)->kernel;
	const struct dt_kernel *y = &((const struct pending_kernel *)b)->kernel;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->correlation_id != y->correlation_id)
		return x->correlation_id < y->correlation_id ? -1 : 1;
	return 0;
}

static int compare_op_rank(const void *a, const void *b)
{
	const struct pending_kernel *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->call_id < y->call_id ? -1 : x->call_id > y->call_id;
}

static int compare_tensor_ids(const void *a, const void *b)
{
	int64_t x = ((const struct dt_tensor *)a)->id;
	int64_t y = ((const struct dt_tensor *)b)->id;
	return x < y ? -1 : x > y;
}

static int compare_devices(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

static void add_device(int32_t **devices, size_t *n, size_t *cap, int32_t d)
{
	for (size_t i = 0; i < *n; i++)
		if ((*devices)[i] == d)
			return;
	*DT_PUSH_SLOT(*devices, *n, *cap) = d;
}

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
static int64_t *map_lib_tensors(const struct dt_process *p)
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

static bool link_call(const struct dt_process *p, uint64_t call_id,
		struct call_ref *call)
{
	uint64_t index;
	if (dt_u64map_get(&p->launch_index, call_id, &index)) {
		*call = (struct call_ref){DT_SOURCE_LAUNCH, index};
		return true;
	}
	if (dt_u64map_get(&p->lib_call_index, call_id, &index)) {
		*call = (struct call_ref){DT_SOURCE_LIBRARY, index};
		return true;
	}
	return false;
}

static int64_t call_tensor(const struct process_view *v, struct call_ref call,
		uint32_t i)
{
	const struct dt_process *p = v->p;
	if (call.source == DT_SOURCE_LAUNCH)
		return p->launch_tensors[p->launches[call.index].tensors_at + i];
	return v->lib_tensor[p->lib_calls[call.index].args_at + i];
}

static uint32_t call_n_tensors(const struct dt_process *p, struct call_ref call)
{
	return call.source == DT_SOURCE_LAUNCH ? p->launches[call.index].n_tensors :
		call.source == DT_SOURCE_LIBRARY ? p->lib_calls[call.index].n_args : 0;
}

/*
 * Without a GPU kernel record, a call has no device field: take the device
 * of the first tensor it touches, else the device of the process's latest
 * allocation, else 0. Assumed, not observed: on a real GPU the call went
 * to the calling thread's current device, which the trace does not record.
 */
static int32_t guessed_call_device(const struct process_view *v,
		struct call_ref call)
{
	const struct dt_process *p = v->p;
	for (uint32_t i = 0; i < call_n_tensors(p, call); i++) {
		const struct dt_tensor *t = dt_process_find_tensor(p,
				call_tensor(v, call, i));
		if (t && t->allocated)
			return t->device;
	}
	return p->last_alloc_device >= 0 ? p->last_alloc_device : 0;
}

static bool process_uses_fallback(const struct dt_process *p)
{
	if (p->n_kernels > 0)
		return false;
	for (size_t i = 0; i < p->n_launches; i++)
		if (p->launches[i].result == 0)
			return true;
	for (size_t i = 0; i < p->n_lib_calls; i++)
		if (p->lib_calls[i].result == 0)
			return true;
	return false;
}

/* What a kernel takes from the call that submitted it: the call's host
 * time (--range windows) and its NVTX op. */
static void set_call_fields(const struct dt_process *p, struct call_ref call,
		struct dt_kernel *k)
{
	if (call.source == DT_SOURCE_LAUNCH) {
		k->call_ns = p->launches[call.index].ts;
		k->op = p->launches[call.index].op;
	} else {
		k->call_ns = p->lib_calls[call.index].ts;
		k->op = p->lib_calls[call.index].op;
	}
}

/* A successful call with no GPU kernel: a stand-in (no CUPTI) or an op
 * none of whose kernels was seen. Host call time, duration 0. */
static void add_call_without_kernels(const struct process_view *v,
		struct call_ref call, int32_t device, struct pending_kernel **pending,
		size_t *n, size_t *cap)
{
	const struct dt_process *p = v->p;
	struct pending_kernel *pk = DT_PUSH_SLOT(*pending, *n, *cap);
	memset(pk, 0, sizeof(*pk));
	pk->call = call;
	pk->kernel.device = (uint32_t)device;
	pk->kernel.source = call.source;
	if (call.source == DT_SOURCE_LAUNCH) {
		const struct dt_launch *l = &p->launches[call.index];
		pk->kernel.start = pk->kernel.end = l->ts;
		pk->kernel.name = l->name;
		pk->kernel.api = l->api;
		pk->call_id = l->call_id;
	} else {
		const struct dt_lib_call *c = &p->lib_calls[call.index];
		pk->kernel.start = pk->kernel.end = c->ts;
		pk->kernel.name = "";
		pk->kernel.api = c->api;
		pk->call_id = c->call_id;
	}
	set_call_fields(p, call, &pk->kernel);
	/* the call id stands in for the correlation id as tie-breaker */
	pk->kernel.correlation_id = (uint32_t)pk->call_id;
}

/* Calls of the process that count: successful ones, on this device, and
 * (unless every call counts, as stand-ins) none of whose kernels ran. */
static bool is_graph_launch_api(int api)
{
	return api == DNNTRACE_API_cudaGraphLaunch || api == DNNTRACE_API_cudaGraphLaunch_ptsz ||
	       api == DNNTRACE_API_cuGraphLaunch || api == DNNTRACE_API_cuGraphLaunch_ptsz;
}

static void add_calls_without_kernels(const struct process_view *v,
		int32_t device, bool only_kernelless,
		struct pending_kernel **pending, size_t *n, size_t *cap)
{
	const struct dt_process *p = v->p;
	uint64_t unused;
	for (size_t i = 0; i < p->n_launches; i++) {
		struct call_ref call = {DT_SOURCE_LAUNCH, i};
		/*
		 * A successful kernel launch that ran no kernel while CUPTI
		 * records others was captured into a CUDA graph (stream
		 * capture): it is a graph node, run later by a graph launch,
		 * not an op of its own. Graph launches and library calls
		 * without kernels still are.
		 */
		if (only_kernelless && !is_graph_launch_api(p->launches[i].api))
			continue;
		if (p->launches[i].result != 0 || (only_kernelless &&
				dt_u64map_get(&v->calls_with_kernels,
					p->launches[i].call_id, &unused)) ||
		    guessed_call_device(v, call) != device)
			continue;
		add_call_without_kernels(v, call, device, pending, n, cap);
	}
	for (size_t i = 0; i < p->n_lib_calls; i++) {
		struct call_ref call = {DT_SOURCE_LIBRARY, i};
		if (p->lib_calls[i].result != 0 || (only_kernelless &&
				dt_u64map_get(&v->calls_with_kernels,
					p->lib_calls[i].call_id, &unused)) ||
		    guessed_call_device(v, call) != device)
			continue;
		add_call_without_kernels(v, call, device, pending, n, cap);
	}
}

/* Kernel launches on this device that succeeded and ran no recorded
 * kernel (see add_calls_without_kernels for why they are not ops). */
static uint64_t count_launches_without_records(const struct process_view *v,
		int32_t device)
{
	const struct dt_process *p = v->p;
	uint64_t n = 0, unused;
	for (size_t i = 0; i < p->n_launches; i++) {
		struct call_ref call = {DT_SOURCE_LAUNCH, i};
		if (p->launches[i].result == 0 &&
		    !is_graph_launch_api(p->launches[i].api) &&
		    !dt_u64map_get(&v->calls_with_kernels,
				p->launches[i].call_id, &unused) &&
		    guessed_call_device(v, call) == device)
			n++;
	}
	return n;
}

static size_t collect_kernels(const struct process_view *v, int32_t device,
		bool fallback, struct pending_kernel **out)
{
	const struct dt_process *p = v->p;
	struct pending_kernel *pending = NULL;
	size_t n = 0, cap = 0;
	if (fallback) {
		/* Launches and library calls stand in for kernels, one each,
		 * in call order, duration 0. */
		add_calls_without_kernels(v, device, false, &pending, &n, &cap);
		dt_sort(pending, n, sizeof(*pending), compare_call_order);
		*out = pending;
		return n;
	}
	for (size_t i = 0; i < p->n_kernels; i++) {
		const struct dt_gpu_kernel *k = &p->kernels[i];
		if ((int32_t)k->device != device)
			continue;
		struct pending_kernel *pk = DT_PUSH_SLOT(pending, n, cap);
		memset(pk, 0, sizeof(*pk));
		pk->kernel.start = k->start;
		pk->kernel.end = k->end;
		pk->kernel.duration_ns = k->end - k->start;
		pk->kernel.correlation_id = k->correlation_id;
		pk->kernel.device = k->device;
		pk->kernel.stream = k->stream;
		pk->kernel.n_gpu_kernels = 1;
		pk->kernel.name = k->name;
		pk->kernel.api = -1;
		pk->kernel.call_ns = DT_NO_TIME;
		uint64_t call_id;
		if (dt_u64map_get(&p->call_of_correlation, k->correlation_id,
				&call_id) && link_call(p, call_id, &pk->call)) {
			pk->call_id = call_id;
			pk->kernel.source = pk->call.source;
			pk->kernel.api = pk->call.source == DT_SOURCE_LAUNCH ?
				p->launches[pk->call.index].api :
				p->lib_calls[pk->call.index].api;
			set_call_fields(p, pk->call, &pk->kernel);
		}
	}
	/* GPU start, then end, then correlation id */
	dt_sort(pending, n, sizeof(*pending), compare_pending);
	*out = pending;
	return n;
}

static void append_text(char **text, size_t *length, size_t *cap, const char *s)
{
	size_t n = strlen(s);
	while (*length + n + 1 > *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*text = dt_xrealloc(*text, *cap);
	}
	memcpy(*text + *length, s, n + 1);
	*length += n;
}

/* Each op of several kernels is named by its kernels' names, in GPU order,
 * joined by "; " (stored in the group's pool). */
static void name_merged_ops(struct pending_kernel *ops, size_t n_ops,
		const struct pending_kernel *kernels, size_t n_kernels,
		const size_t *op_of_kernel, struct dt_group *g)
{
	char **text = dt_xcalloc(n_ops, sizeof(char *));
	size_t *length = dt_xcalloc(n_ops, sizeof(size_t));
	size_t *cap = dt_xcalloc(n_ops, sizeof(size_t));
	for (size_t k = 0; k < n_kernels; k++) {
		size_t op = op_of_kernel[k];
		if (ops[op].kernel.n_gpu_kernels < 2)
			continue;
		if (length[op])
			append_text(&text[op], &length[op], &cap[op], "; ");
		append_text(&text[op], &length[op], &cap[op], kernels[k].kernel.name);
	}
	for (size_t op = 0; op < n_ops; op++) {
		if (text[op])
			ops[op].kernel.name = dt_strpool_intern(&g->names, text[op]);
		free(text[op]);
	}
	free(text);
	free(length);
	free(cap);
}

struct call_position {
	uint64_t call_id;
	size_t position;
};

static int compare_call_positions(const void *a, const void *b)
{
	uint64_t x = ((const struct call_position *)a)->call_id;
	uint64_t y = ((const struct call_position *)b)->call_id;
	return x < y ? -1 : x > y;
}

/*
 * --granularity op: the kernels of one call become one op (start = first
 * kernel's start, end = last kernel's end, duration = sum of the kernels'
 * durations: the GPU time the op took, never counting gaps or other
 * streams' work in between); a kernel without a link is an op by itself.
 * Ops keep the order of their first kernel. A successful call none of
 * whose kernels was seen is an op too, at its host call time with duration
 * 0, placed in call order: right after the op of the closest earlier call
 * (by call id) that ran kernels, or first if there is none.
 */
static size_t merge_into_ops(const struct process_view *v, int32_t device,
		struct pending_kernel **io, size_t n, struct dt_group *g)
{
	struct pending_kernel *kernels = *io, *ops = NULL;
	size_t n_ops = 0, cap_ops = 0;
	struct dt_u64map op_of_call = {0};
	size_t *op_of_kernel = dt_xmalloc(n * sizeof(size_t) + 1);
	for (size_t k = 0; k < n; k++) {
		const struct pending_kernel *pk = &kernels[k];
		uint64_t op;
		if (pk->call.source != DT_SOURCE_NONE &&
		    dt_u64map_get(&op_of_call, pk->call_id, &op)) {
			struct dt_kernel *merged = &ops[op].kernel;
			if (pk->kernel.end > merged->end)
				merged->end = pk->kernel.end;
			merged->duration_ns += pk->kernel.duration_ns;
			merged->n_gpu_kernels++;
		} else {
			op = n_ops;
			*DT_PUSH_SLOT(ops, n_ops, cap_ops) = *pk;
			ops[op].rank = 2 * (op + 1);
			if (pk->call.source != DT_SOURCE_NONE)
				dt_u64map_put(&op_of_call, pk->call_id, op);
		}
		op_of_kernel[k] = op;
	}
	name_merged_ops(ops, n_ops, kernels, n, op_of_kernel, g);
	free(op_of_kernel);
	dt_u64map_free(&op_of_call);

	struct call_position *positions = NULL;
	size_t n_positions = 0, cap_positions = 0;
	for (size_t op = 0; op < n_ops; op++)
		if (ops[op].call.source != DT_SOURCE_NONE)
			*DT_PUSH_SLOT(positions, n_positions, cap_positions) =
				(struct call_position){ops[op].call_id, op};
	dt_sort(positions, n_positions, sizeof(*positions),
			compare_call_positions);
	size_t with_kernels = n_ops;
	add_calls_without_kernels(v, device, true, &ops, &n_ops, &cap_ops);
	for (size_t op = with_kernels; op < n_ops; op++) {
		size_t lo = 0, hi = n_positions;   /* first call id >= ours */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (positions[mid].call_id < ops[op].call_id)
				lo = mid + 1;
			else
				hi = mid;
		}
		ops[op].rank = lo == 0 ? 1 : 2 * (positions[lo - 1].position + 1) + 1;
	}
	free(positions);
	if (n_ops > with_kernels)
		dt_sort(ops, n_ops, sizeof(*ops), compare_op_rank);
	free(kernels);
	*io = ops;
	return n_ops;
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
static uint8_t g10_roles(uint8_t role, const struct dt_tensor *t,
		bool touched_before, uint64_t kernel_start)
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
		(t->first_write_ns != DT_NO_TIME && t->first_write_ns < kernel_start);
	return written ? (DT_ROLE_READ | DT_ROLE_WRITE) : DT_ROLE_WRITE;
}

/* The touches of one kernel: the tensors of the call it links to that
 * belong to this group (tensors of other devices, reached by peer access,
 * do not), each once, roles merged, shape from its first argument. */
static size_t call_touches(const struct process_view *v, struct call_ref call,
		const struct dt_u64map *index_of_id, bool *touched_before,
		uint64_t kernel_start, struct dt_group *g,
		struct dt_touch **touches, size_t *cap)
{
	const struct dt_process *p = v->p;
	size_t n = 0;
	uint32_t n_tensors = call_n_tensors(p, call);
	for (uint32_t i = 0; i < n_tensors; i++) {
		int64_t id = call_tensor(v, call, i);
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
				&g->tensors[index], touched_before[index],
				kernel_start);
	}
	for (size_t j = 0; j < n; j++)
		touched_before[(*touches)[j].tensor] = true;
	return n;
}

static void build_group(const struct dt_model *m, const struct process_view *v,
		int32_t device, bool fallback, enum dt_granularity granularity,
		struct dt_group *g)
{
	const struct dt_process *p = v->p;
	dt_group_init(g, p->vpid, device);
	g->granularity = granularity;
	g->kernel_times_missing = fallback;
	g->cupti_message = p->cupti_message;
	g->events_lost = m->discarded_events + p->records_dropped;
	g->events_lost_unknown = m->discarded_unknown;
	for (size_t i = 0; i < p->n_devices; i++)
		if (p->devices[i].device == device)
			g->stats = p->devices[i];

	for (size_t i = 0; i < p->n_tensors; i++) {
		if (!p->tensors[i].allocated || p->tensors[i].device != device)
			continue;
		struct dt_tensor t = p->tensors[i];
		if (v->stream_points) {
			t.ready_ns = v->stream_points[i].ready_ns;
			t.release_ns = v->stream_points[i].release_ns;
		}
		dt_group_add_tensor(g, &t);
	}
	dt_sort(g->tensors, g->n_tensors, sizeof(*g->tensors), compare_tensor_ids);
	struct dt_u64map index_of_id = {0};
	for (size_t i = 0; i < g->n_tensors; i++)
		dt_u64map_put(&index_of_id, (uint64_t)g->tensors[i].id, i);

	struct pending_kernel *pending;
	size_t n_pending = collect_kernels(v, device, fallback, &pending);
	if (!fallback)
		g->launches_without_records =
			count_launches_without_records(v, device);
	/* without CUPTI every call is one stand-in: kernels and ops agree */
	if (granularity == DT_GRANULARITY_OP && !fallback)
		n_pending = merge_into_ops(v, device, &pending, n_pending, g);
	bool *touched_before = dt_xcalloc(g->n_tensors, sizeof(bool));
	struct dt_touch *touches = NULL;
	size_t cap_touches = 0;
	for (size_t k = 0; k < n_pending; k++) {
		size_t n_touches = pending[k].call.source == DT_SOURCE_NONE ? 0 :
			call_touches(v, pending[k].call, &index_of_id,
					touched_before, pending[k].kernel.start, g,
					&touches, &cap_touches);
		dt_group_add_kernel(g, &pending[k].kernel, touches,
				(uint32_t)n_touches);
	}
	free(touches);
	free(touched_before);
	free(pending);
	dt_u64map_free(&index_of_id);
}

/*
 * Counts the event did not place in a group of its own (a failed call, or
 * any allocation whose device is -1 or has no tensors and no kernels) are
 * reported by the group of their device if there is one, else by the
 * process's first group: they must never make a group by themselves.
 */
static void merge_stats(struct dt_device_stats *into,
		const struct dt_device_stats *from)
{
	into->failed_allocs += from->failed_allocs;
	into->pinned_allocs += from->pinned_allocs;
	into->pinned_bytes += from->pinned_bytes;
	into->vmm_physical_allocs += from->vmm_physical_allocs;
	into->vmm_physical_bytes += from->vmm_physical_bytes;
}

static bool has_device(const int32_t *devices, size_t n, int32_t d)
{
	for (size_t i = 0; i < n; i++)
		if (devices[i] == d)
			return true;
	return false;
}

size_t dt_groups_build(const struct dt_model *m, enum dt_granularity granularity,
		struct dt_group **groups)
{
	struct dt_group *out = NULL;
	size_t n = 0, cap = 0;
	for (size_t pi = 0; pi < m->n_processes; pi++) {
		const struct dt_process *p = &m->processes[pi];
		bool fallback = process_uses_fallback(p);
		struct process_view view = {p, map_lib_tensors(p), {0},
			dt_stream_points(p)};
		/* every granularity: launches without records are counted */
		if (!fallback)
			for (size_t i = 0; i < p->n_kernels; i++) {
				uint64_t call_id;
				if (dt_u64map_get(&p->call_of_correlation,
						p->kernels[i].correlation_id, &call_id))
					dt_u64map_put(&view.calls_with_kernels,
							call_id, 1);
			}
		int32_t *devices = NULL;
		size_t n_devices = 0, cap_devices = 0;
		for (size_t i = 0; i < p->n_tensors; i++)
			if (p->tensors[i].allocated)
				add_device(&devices, &n_devices, &cap_devices,
						p->tensors[i].device);
		for (size_t i = 0; i < p->n_kernels; i++)
			add_device(&devices, &n_devices, &cap_devices,
					(int32_t)p->kernels[i].device);
		if (fallback) {
			for (size_t i = 0; i < p->n_launches; i++)
				if (p->launches[i].result == 0)
					add_device(&devices, &n_devices, &cap_devices,
							guessed_call_device(&view,
								(struct call_ref){DT_SOURCE_LAUNCH, i}));
			for (size_t i = 0; i < p->n_lib_calls; i++)
				if (p->lib_calls[i].result == 0)
					add_device(&devices, &n_devices, &cap_devices,
							guessed_call_device(&view,
								(struct call_ref){DT_SOURCE_LIBRARY, i}));
		}
		/* successful pinned host or physical VMM allocations on a
		 * known device */
		for (size_t i = 0; i < p->n_devices; i++)
			if (p->devices[i].device >= 0 && (p->devices[i].pinned_allocs ||
					p->devices[i].vmm_physical_allocs))
				add_device(&devices, &n_devices, &cap_devices,
						p->devices[i].device);
		/* Only failed or device -1 allocations: one group reports them,
		 * on the device the first of them named, else device 0 (the
		 * default device; assumed, the trace does not say). */
		if (n_devices == 0 && p->n_devices > 0)
			add_device(&devices, &n_devices, &cap_devices,
					p->devices[0].device >= 0 ?
					p->devices[0].device : 0);
		dt_sort(devices, n_devices, sizeof(*devices), compare_devices);
		size_t first_group = n;
		for (size_t d = 0; d < n_devices; d++)
			build_group(m, &view, devices[d], fallback, granularity,
					DT_PUSH_SLOT(out, n, cap));
		for (size_t i = 0; i < p->n_devices; i++)
			if (n_devices > 0 && !has_device(devices, n_devices,
					p->devices[i].device))
				merge_stats(&out[first_group].stats, &p->devices[i]);
		free(devices);
		free(view.lib_tensor);
		free(view.stream_points);
		dt_u64map_free(&view.calls_with_kernels);
	}
	*groups = out;
	return n;
}

/* ---- analyzing a window ---------------------------------------------- */

struct memory_event {
	uint64_t time;
	int64_t delta;
};

static int compare_memory_events(const void *a, const void *b)
{
	uint64_t x = ((const struct memory_event *)a)->time;
	uint64_t y = ((const struct memory_event *)b)->time;
	return x < y ? -1 : x > y;
}

static const struct dt_kernel *sort_base;
static int compare_kernel_starts(const void *a, const void *b)
{
	uint64_t x = sort_base[*(const size_t *)a].start;
	uint64_t y = sort_base[*(const size_t *)b].start;
	return x < y ? -1 : x > y;
}

/* live_bytes[i]: bytes of tensors allocated at kernel i's start
 * (ready <= start < release: stream-ordered allocs and frees count when
 * their stream got there), by one sweep over them in time order. */
static void compute_live_bytes(struct dt_group *g)
{
	const struct dt_kernel *window = &g->kernels[g->win_first];
	size_t n_events = 0;
	struct memory_event *events = dt_xmalloc(2 * g->n_tensors *
			sizeof(*events) + 1);
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		uint64_t ready = dt_tensor_ready_ns(t);
		events[n_events++] = (struct memory_event){ready,
			(int64_t)t->bytes};
		uint64_t release = dt_tensor_release_ns(t);
		if (release != DT_NO_TIME)
			events[n_events++] = (struct memory_event){
				release < ready ? ready : release,
				-(int64_t)t->bytes};
	}
	dt_sort(events, n_events, sizeof(*events), compare_memory_events);
	size_t *order = dt_xmalloc(g->win_count * sizeof(size_t) + 1);
	for (size_t i = 0; i < g->win_count; i++)
		order[i] = i;
	sort_base = window;
	dt_sort(order, g->win_count, sizeof(size_t), compare_kernel_starts);
	int64_t live = 0;
	size_t next = 0;
	for (size_t o = 0; o < g->win_count; o++) {
		size_t k = order[o];
		while (next < n_events && events[next].time <= window[k].start)
			live += events[next++].delta;
		g->live_bytes[k] = live > 0 ? (uint64_t)live : 0;
	}
	free(order);
	free(events);
}

/* Categories: the tag's prefix, else a WORKSPACE role in any library
 * call, else inferred from the tensor's uses in the window (category.c). */
static void assign_categories(struct dt_group *g, const struct dt_use *uses,
		const size_t *use_at)
{
	for (size_t t = 0; t < g->n_tensors; t++) {
		struct dt_tensor_result *r = &g->results[t];
		uint8_t category;
		if (dt_category_of_tag(g->tensors[t].name, &category)) {
			r->category = category;
			r->category_source = DT_CATEGORY_FROM_TAG;
		} else if (g->tensors[t].workspace) {
			r->category = DT_CATEGORY_WORKSPACE;
			r->category_source = DT_CATEGORY_FROM_ROLE;
		} else {
			r->category = dt_category_infer(r->global, r->birth,
					r->death, &uses[use_at[t]],
					use_at[t + 1] - use_at[t], g->win_count);
			r->category_source = DT_CATEGORY_INFERRED;
		}
	}
}

bool dt_group_range_window(const struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns, size_t *first, size_t *count)
{
	bool found = false;
	size_t lo = 0, hi = 0;
	for (size_t k = 0; k < g->n_kernels; k++) {
		uint64_t t = g->kernels[k].call_ns;
		if (t == DT_NO_TIME || t < start_ns || t > end_ns)
			continue;
		if (!found)
			lo = k;
		hi = k;
		found = true;
	}
	*first = lo;
	*count = found ? hi - lo + 1 : 0;
	return found;
}

static void analyze_window(struct dt_group *g, size_t first, size_t count);

bool dt_group_analyze_range(struct dt_group *g, uint64_t start_ns,
		uint64_t end_ns)
{
	size_t first, count;
	if (!dt_group_range_window(g, start_ns, end_ns, &first, &count))
		return false;
	g->range_times = true;
	g->range_start_ns = start_ns;
	g->range_end_ns = end_ns;
	analyze_window(g, first, count);
	return true;
}

void dt_group_analyze(struct dt_group *g, size_t first, size_t count)
{
	g->range_times = false;
	analyze_window(g, first, count);
}

static void analyze_window(struct dt_group *g, size_t first, size_t count)
{
	free(g->results);
	free(g->periods);
	free(g->live_bytes);
	free(g->active_bytes);
	free(g->g10_total_bytes);
	if (first > g->n_kernels)
		first = g->n_kernels;
	if (count > g->n_kernels - first)
		count = g->n_kernels - first;
	g->win_first = first;
	g->win_count = count;
	size_t nt = g->n_tensors, nk = count;
	const struct dt_kernel *window = &g->kernels[first];
	g->results = dt_xcalloc(nt, sizeof(*g->results));
	g->live_bytes = dt_xcalloc(nk, sizeof(uint64_t));
	g->active_bytes = dt_xcalloc(nk, sizeof(uint64_t));
	g->g10_total_bytes = dt_xcalloc(nk, sizeof(uint64_t));

	/* Uses per tensor inside the window, in kernel order (CSR layout). */
	size_t *use_at = dt_xcalloc(nt + 1, sizeof(size_t));
	for (size_t k = 0; k < nk; k++)
		for (uint32_t i = 0; i < window[k].n_touches; i++)
			use_at[g->touches[window[k].touches_at + i].tensor + 1]++;
	for (size_t t = 0; t < nt; t++)
		use_at[t + 1] += use_at[t];
	size_t n_uses = use_at[nt];
	struct dt_use *uses = dt_xmalloc(n_uses * sizeof(*uses) + 1);
	size_t *fill = dt_xmalloc(nt * sizeof(size_t) + 1);
	memcpy(fill, use_at, nt * sizeof(size_t));
	for (size_t k = 0; k < nk; k++) {
		for (uint32_t i = 0; i < window[k].n_touches; i++) {
			const struct dt_touch *touch =
				&g->touches[window[k].touches_at + i];
			uses[fill[touch->tensor]++] = (struct dt_use){
				(uint32_t)k, touch->roles};
			g->active_bytes[k] += g->tensors[touch->tensor].bytes;
		}
	}
	free(fill);

	/* Global: allocated before the window's first kernel starts and not
	 * given back before its kernels have all ended (GPU times: stream-
	 * ordered allocs and frees count when their stream got there); for an NVTX
	 * range's window, allocated before the range opened and not freed
	 * before it closed (host times, like the alloc and free calls). */
	uint64_t first_start = nk ? window[0].start : 0, last_end = 0;
	for (size_t k = 0; k < nk; k++) {
		if (window[k].start < first_start)
			first_start = window[k].start;
		if (window[k].end > last_end)
			last_end = window[k].end;
	}
	if (g->range_times && nk) {
		first_start = g->range_start_ns;
		last_end = g->range_end_ns;
	}
	uint64_t *prefix_ns = dt_xcalloc(nk + 1, sizeof(uint64_t));
	for (size_t k = 0; k < nk; k++)
		prefix_ns[k + 1] = prefix_ns[k] + window[k].duration_ns;

	g->periods = dt_xmalloc((n_uses + nt) * sizeof(*g->periods) + 1);
	g->n_periods = 0;
	g->global_bytes = 0;
	int64_t *total_delta = dt_xcalloc(nk + 1, sizeof(int64_t));
	for (size_t t = 0; t < nt; t++) {
		const struct dt_tensor *tensor = &g->tensors[t];
		struct dt_tensor_result *r = &g->results[t];
		const struct dt_use *tu = &uses[use_at[t]];
		size_t tn = use_at[t + 1] - use_at[t];
		r->first_use = tn ? (int64_t)tu[0].kernel : -1;
		r->last_use = tn ? (int64_t)tu[tn - 1].kernel : -1;
		r->birth = r->death = -1;
		if (nk == 0)
			continue;
		uint64_t born = g->range_times ? tensor->alloc_ns :
			dt_tensor_ready_ns(tensor);
		uint64_t gone = g->range_times ? tensor->free_ns :
			dt_tensor_release_ns(tensor);
		r->global = born < first_start &&
			(gone == DT_NO_TIME || gone >= last_end);
		r->in_g10 = tn > 0 || (born <= last_end &&
			(gone == DT_NO_TIME || gone > first_start));
		if (!r->in_g10)
			continue;
		if (r->global) {
			g->global_bytes += tensor->bytes;
		} else {
			dt_liveness_local(tu, tn, &r->birth, &r->death);
			/* G10 "total": live from Birth to Death-1; a Death of -1
			 * counts as Birth+1. */
			if (r->birth >= 0) {
				int64_t end = r->death >= 0 ? r->death : r->birth + 1;
				total_delta[r->birth] += (int64_t)tensor->bytes;
				total_delta[end] -= (int64_t)tensor->bytes;
			}
		}
		r->periods_at = g->n_periods;
		r->n_periods = dt_liveness_periods(r->global, tu, tn, r->death, nk,
				(uint32_t)t, &g->periods[g->n_periods]);
		g->n_periods += r->n_periods;
		for (size_t i = 0; i < r->n_periods; i++) {
			struct dt_period *period = &g->periods[r->periods_at + i];
			dt_liveness_estimate(period, prefix_ns, nk);
			r->idle_byte_seconds += (double)tensor->bytes *
				(double)period->estimated_ns / 1e9;
		}
	}
	int64_t running = 0;
	for (size_t k = 0; k < nk; k++) {
		running += total_delta[k];
		g->g10_total_bytes[k] = g->global_bytes + (uint64_t)running;
	}
	free(total_delta);
	free(prefix_ns);
	assign_categories(g, uses, use_at);
	free(uses);
	free(use_at);

	compute_live_bytes(g);
	g->peak_kernel = 0;
	g->peak_bytes = 0;
	for (size_t k = 0; k < nk; k++) {
		if (g->live_bytes[k] > g->peak_bytes) {
			g->peak_bytes = g->live_bytes[k];
			g->peak_kernel = k;
		}
	}
}
