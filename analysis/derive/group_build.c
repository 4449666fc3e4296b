/*
 * Builds the analysis groups from the event model (dt_groups_build,
 * group.h): one group per (process, device), its tensors, and its kernels
 * in order (GPU start, end, correlation id), each linked to the launch or
 * library call that submitted it; stand-ins without CUPTI; ops for
 * --granularity op; the device of calls without kernel records; and the
 * counts that must not make a group of their own. Must never analyze a
 * window (window.c), decide roles (tensor_uses.c), read the trace or
 * write output.
 */
#include "analysis/derive/group_build.h"

#include "analysis/model/graph_nodes.h"
#include "analysis/model/api_names.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/derive/stream_order.h"
#include "analysis/derive/tensor_uses.h"
#include "analysis/derive/window.h"
#include "analysis/request.h"
#include "tracepoints/dnntrace_enums.h"

/* A kernel (or op, or stand-in) before sorting, with the call it links to. */
struct pending_kernel {
	struct dt_kernel kernel;
	struct dt_call_ref call;
	struct dt_call_ref uses;     /* whose tensors it takes: call, or for a
	                              * graph kernel its node's (graph_nodes.c) */
	size_t more_uses_at;         /* an op of a graph launch: its other */
	uint32_t n_more_uses;        /* kernels' uses, in struct more_uses */
	uint64_t call_id;            /* stand-in order; ops without kernels */
	uint64_t rank;               /* op order (merge_into_ops) */
};


static int compare_call_order(const void *a, const void *b)
{
	uint64_t x = ((const struct pending_kernel *)a)->call_id;
	uint64_t y = ((const struct pending_kernel *)b)->call_id;
	return x < y ? -1 : x > y;
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

/* The uses of an op's kernels other than its first's (graph launches). */
struct more_uses {
	struct dt_call_ref *refs;
	size_t n, cap;
};

static bool link_call(const struct dt_process *p, uint64_t call_id,
		struct dt_call_ref *call)
{
	uint64_t index;
	if (dt_u64map_get(&p->launch_index, call_id, &index)) {
		*call = (struct dt_call_ref){DT_SOURCE_LAUNCH, index};
		return true;
	}
	if (dt_u64map_get(&p->lib_call_index, call_id, &index)) {
		*call = (struct dt_call_ref){DT_SOURCE_LIBRARY, index};
		return true;
	}
	return false;
}

/*
 * Without a GPU kernel record, a call has no device field: take the device
 * of the first tensor it touches, else the device of the process's latest
 * allocation, else 0. Assumed, not observed: on a real GPU the call went
 * to the calling thread's current device, which the trace does not record.
 */
static int32_t guessed_call_device(const struct dt_process_view *v,
		struct dt_call_ref call)
{
	const struct dt_process *p = v->p;
	for (uint32_t i = 0; i < dt_call_n_tensors(p, call); i++) {
		const struct dt_tensor *t = dt_process_find_tensor(p,
				dt_call_tensor(v, call, i));
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
static void set_call_fields(const struct dt_process *p, struct dt_call_ref call,
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
static void add_call_without_kernels(const struct dt_process_view *v,
		struct dt_call_ref call, int32_t device, struct pending_kernel **pending,
		size_t *n, size_t *cap)
{
	const struct dt_process *p = v->p;
	struct pending_kernel *pk = DT_PUSH_SLOT(*pending, *n, *cap);
	memset(pk, 0, sizeof(*pk));
	pk->call = call;
	pk->uses = call;
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
static void add_calls_without_kernels(const struct dt_process_view *v,
		int32_t device, bool only_kernelless,
		struct pending_kernel **pending, size_t *n, size_t *cap)
{
	const struct dt_process *p = v->p;
	uint64_t unused;
	for (size_t i = 0; i < p->n_launches; i++) {
		struct dt_call_ref call = {DT_SOURCE_LAUNCH, i};
		/*
		 * A successful kernel launch that ran no kernel while CUPTI
		 * records others was captured into a CUDA graph (stream
		 * capture): it is a graph node, run later by a graph launch,
		 * not an op of its own. Graph launches and library calls
		 * without kernels still are.
		 */
		if (only_kernelless && !dt_api_is_graph_launch(p->launches[i].api))
			continue;
		if (p->launches[i].result != 0 || (only_kernelless &&
				dt_u64map_get(&v->calls_with_kernels,
					p->launches[i].call_id, &unused)) ||
		    guessed_call_device(v, call) != device)
			continue;
		add_call_without_kernels(v, call, device, pending, n, cap);
	}
	for (size_t i = 0; i < p->n_lib_calls; i++) {
		struct dt_call_ref call = {DT_SOURCE_LIBRARY, i};
		/* a library call captured into a CUDA graph ran nothing: its
		 * kernels are the graph launches' */
		if (p->lib_calls[i].result != 0 || (only_kernelless &&
				(dt_u64map_get(&v->calls_with_kernels,
					p->lib_calls[i].call_id, &unused) ||
				 dt_u64map_get(&p->captured_calls,
					p->lib_calls[i].call_id, &unused))) ||
		    guessed_call_device(v, call) != device)
			continue;
		add_call_without_kernels(v, call, device, pending, n, cap);
	}
}

/* Kernel launches on this device that succeeded and ran no recorded
 * kernel (see add_calls_without_kernels for why they are not ops): those
 * whose kernel records were all left out as impossible in *damaged, the
 * others (never delivered, or captured into a graph) returned. */
static uint64_t count_launches_without_records(const struct dt_process_view *v,
		int32_t device, uint64_t *damaged)
{
	const struct dt_process *p = v->p;
	uint64_t n = 0, unused, call_id;
	struct dt_u64map damaged_calls = {0};
	for (size_t i = 0; i < p->n_damaged_kernel_correlations; i++)
		if (dt_u64map_get(&p->call_of_correlation,
				p->damaged_kernel_correlations[i], &call_id))
			dt_u64map_put(&damaged_calls, call_id, 1);
	*damaged = 0;
	for (size_t i = 0; i < p->n_launches; i++) {
		struct dt_call_ref call = {DT_SOURCE_LAUNCH, i};
		if (p->launches[i].result == 0 &&
		    !dt_api_is_graph_launch(p->launches[i].api) &&
		    !dt_u64map_get(&v->calls_with_kernels,
				p->launches[i].call_id, &unused) &&
		    guessed_call_device(v, call) == device) {
			if (dt_u64map_get(&damaged_calls, p->launches[i].call_id, &unused))
				(*damaged)++;
			else
				n++;
		}
	}
	dt_u64map_free(&damaged_calls);
	return n;
}

/*
 * Whose tensors a kernel of graph launch launch_index takes: the call its
 * node had them from at that launch (a launch or library call captured
 * into the graph, or a graph call's explicit parameters); unknown when the
 * trace does not say (no node id, a node the tracer never saw).
 */
static struct dt_call_ref graph_kernel_uses(const struct dt_process *p,
		size_t launch_index, uint64_t node_id)
{
	struct dt_call_ref uses = {DT_SOURCE_UNKNOWN_GRAPH, 0};
	uint64_t source = dt_process_graph_node_source(p, launch_index, node_id), index;
	if (!source)
		return uses;
	if (dt_u64map_get(&p->node_call_index, source, &index))
		return (struct dt_call_ref){DT_SOURCE_GRAPH_NODE, index};
	if (link_call(p, source, &uses) && !(uses.source == DT_SOURCE_LAUNCH &&
			dt_api_is_graph_launch(p->launches[uses.index].api)))
		return uses;
	return (struct dt_call_ref){DT_SOURCE_UNKNOWN_GRAPH, 0};
}

/* GPU kernel k as one index of the analysis, linked to its call. */
static void gpu_kernel_entry(const struct dt_process *p,
		const struct dt_gpu_kernel *k, struct pending_kernel *pk)
{
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
	pk->uses = pk->call;
	if (pk->call.source == DT_SOURCE_LAUNCH &&
	    dt_api_is_graph_launch(p->launches[pk->call.index].api))
		pk->uses = graph_kernel_uses(p, pk->call.index,
				dt_process_kernel_graph_node(p, (size_t)(k - p->kernels)));
}

/* GPU start, then end, then correlation id; equal ones in trace order
 * (as the stable sort of whole entries had them). */
static const struct dt_gpu_kernel *order_base;
static int compare_kernel_order(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct dt_gpu_kernel *x = &order_base[i], *y = &order_base[j];
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->correlation_id != y->correlation_id)
		return x->correlation_id < y->correlation_id ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The indices of the process's GPU kernels on device, in kernel order:
 * 4 bytes a kernel where whole entries, sorted, were 128. */
static size_t kernel_order(const struct dt_process *p, int32_t device,
		uint32_t **out)
{
	uint32_t *order = dt_xmalloc(p->n_kernels * sizeof(*order) + 1);
	size_t n = 0;
	for (size_t i = 0; i < p->n_kernels && i <= UINT32_MAX; i++)
		if ((int32_t)p->kernels[i].device == device)
			order[n++] = (uint32_t)i;
	order_base = p->kernels;
	dt_sort(order, n, sizeof(*order), compare_kernel_order);
	*out = order;
	return n;
}

static size_t collect_kernels(const struct dt_process_view *v, int32_t device,
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
	uint32_t *order;
	n = kernel_order(p, device, &order);
	pending = dt_xmalloc(n * sizeof(*pending) + 1);
	for (size_t i = 0; i < n; i++)
		gpu_kernel_entry(p, &p->kernels[order[i]], &pending[i]);
	free(order);
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
static void add_more_uses(struct pending_kernel *op, const struct pending_kernel *pk,
		struct more_uses *more)
{
	if (pk->uses.source == op->uses.source && pk->uses.index == op->uses.index)
		return;
	for (uint32_t i = 0; i < op->n_more_uses; i++) {
		const struct dt_call_ref *r = &more->refs[op->more_uses_at + i];
		if (r->source == pk->uses.source && r->index == pk->uses.index)
			return;
	}
	/* an op's extra uses are contiguous: move them to the end first */
	if (op->n_more_uses && op->more_uses_at + op->n_more_uses != more->n) {
		size_t at = more->n;
		for (uint32_t i = 0; i < op->n_more_uses; i++) {
			struct dt_call_ref r = more->refs[op->more_uses_at + i];
			*DT_PUSH_SLOT(more->refs, more->n, more->cap) = r;
		}
		op->more_uses_at = at;
	}
	if (!op->n_more_uses)
		op->more_uses_at = more->n;
	*DT_PUSH_SLOT(more->refs, more->n, more->cap) = pk->uses;
	op->n_more_uses++;
}

static size_t merge_into_ops(const struct dt_process_view *v, int32_t device,
		struct pending_kernel **io, size_t n, struct dt_group *g,
		struct more_uses *more)
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
			add_more_uses(&ops[op], pk, more);
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

/* Whether the group of device may read the model's tensors in place: they
 * are exactly what it would copy (all allocated, all on device, sorted by
 * id), and no stream-ordered point changes them. */
static bool tensors_as_they_are(const struct dt_process_view *v, int32_t device)
{
	const struct dt_process *p = v->p;
	if (v->stream_points || p->n_tensors == 0)
		return false;
	for (size_t i = 0; i < p->n_tensors; i++)
		if (!p->tensors[i].allocated || p->tensors[i].device != device ||
		    (i > 0 && p->tensors[i - 1].id >= p->tensors[i].id))
			return false;
	return true;
}

/* The touches a kernel takes from uses (none for no link). */
static size_t uses_touches(const struct dt_process_view *v, struct dt_call_ref uses,
		const struct dt_u64map *index_of_id, bool *touched_before, uint64_t start,
		struct dt_group *g, struct dt_touch **touches, size_t *cap)
{
	if (uses.source == DT_SOURCE_NONE)
		return 0;
	if (uses.source == DT_SOURCE_UNKNOWN_GRAPH)
		return dt_live_touches(v->p, touched_before, start, g, touches,
				cap);
	return dt_call_touches(v, uses, index_of_id, touched_before, start, g, touches,
			cap);
}

/* extra's touches merged into *touches (roles or-ed; shapes kept). */
static size_t merge_touches(struct dt_touch **touches, size_t n, size_t *cap,
		const struct dt_touch *extra, size_t n_extra)
{
	for (size_t i = 0; i < n_extra; i++) {
		size_t j = 0;
		while (j < n && (*touches)[j].tensor != extra[i].tensor)
			j++;
		if (j < n)
			(*touches)[j].roles |= extra[i].roles;
		else
			*DT_PUSH_SLOT(*touches, n, *cap) = extra[i];
	}
	return n;
}

/* GPU kernels of graph launches on device whose tensors are unknown. */
static uint64_t count_unknown_graph_kernels(const struct dt_process *p, int32_t device)
{
	uint64_t n = 0;
	struct pending_kernel pk;
	for (size_t i = 0; i < p->n_kernels; i++) {
		if ((int32_t)p->kernels[i].device != device)
			continue;
		gpu_kernel_entry(p, &p->kernels[i], &pk);
		n += pk.uses.source == DT_SOURCE_UNKNOWN_GRAPH;
	}
	return n;
}

/* A kernel outside the window: what its uses leave behind (touched
 * first, workspace roles), no touch kept. */
static void mark_uses(const struct dt_process_view *v, struct dt_call_ref uses,
		const struct dt_u64map *index_of_id, bool *touched_before,
		uint64_t start, struct dt_group *g, struct dt_touch **scratch,
		size_t *cap)
{
	if (uses.source == DT_SOURCE_UNKNOWN_GRAPH)
		dt_live_touches(v->p, touched_before, start, g, scratch, cap);
	else if (uses.source != DT_SOURCE_NONE)
		dt_call_marks(v, uses, index_of_id, touched_before, g);
}

/* The kernel order as the window's choice reads it: index k's call time. */
struct order_view {
	const struct dt_process *p;
	const uint32_t *order;                /* GPU kernels, or */
	const struct pending_kernel *pending; /* gathered entries */
};

static uint64_t order_call_ns(const void *ctx, size_t k)
{
	const struct order_view *o = ctx;
	if (o->pending)
		return o->pending[k].kernel.call_ns;
	struct pending_kernel entry;
	gpu_kernel_entry(o->p, &o->p->kernels[o->order[k]], &entry);
	return entry.kernel.call_ns;
}

static void build_group(const struct dt_model *m, const struct dt_process_view *v,
		int32_t device, bool fallback, enum dt_granularity granularity,
		const struct dt_request *req, struct dt_group *g)
{
	const struct dt_process *p = v->p;
	dt_group_init(g, p->vpid, device);
	g->granularity = granularity;
	g->kernel_times_missing = fallback;
	g->cupti_message = p->cupti_message;
	g->cupti_ok = p->cupti_ok;
	g->events_lost = m->discarded_events + p->records_dropped;
	g->events_lost_unknown = m->discarded_unknown;
	for (size_t i = 0; i < p->n_devices; i++)
		if (p->devices[i].device == device)
			g->stats = p->devices[i];

	if (tensors_as_they_are(v, device)) {
		/* the model's own array (it keeps it until it is freed): a
		 * million-tensor trace need not hold it twice */
		g->tensors = (struct dt_tensor *)p->tensors;
		g->n_tensors = g->cap_tensors = p->n_tensors;
		g->tensors_borrowed = true;
	}
	for (size_t i = 0; i < p->n_tensors && !g->tensors_borrowed; i++) {
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
	/* A tensor no call freed ended with its process (model.h, last_ns). */
	g->process_end_ns = p->last_ns;
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		if (!t->allocated || t->free_ns != DT_NO_TIME)
			continue;
		g->tensors_ended_at_exit++;
		g->bytes_ended_at_exit = UINT64_MAX - g->bytes_ended_at_exit < t->bytes ?
			UINT64_MAX : g->bytes_ended_at_exit + t->bytes;
	}

	if (!fallback)
		g->launches_without_records = count_launches_without_records(v,
				device, &g->launches_with_damaged_records);
	/* GPU kernels, one index each, go straight from their kernel order
	 * into the group (a million-kernel trace need not hold them twice);
	 * stand-ins and ops are gathered first. Without CUPTI every call is
	 * one stand-in: kernels and ops agree. */
	bool direct = granularity == DT_GRANULARITY_KERNEL && !fallback;
	struct pending_kernel *pending = NULL, entry;
	uint32_t *order = NULL;
	size_t n_pending = direct ? kernel_order(p, device, &order) :
		collect_kernels(v, device, fallback, &pending);
	if (!fallback)
		g->graph_kernels_unknown = count_unknown_graph_kernels(p, device);
	for (size_t i = 0; g->graph_kernels_unknown && i < p->n_graph_allocs; i++)
		if (p->graph_allocs[i].device == device && !p->graph_allocs[i].lifetimes) {
			g->graph_allocs_unseen++;
			g->graph_alloc_bytes_unseen += p->graph_allocs[i].bytes;
		}
	struct more_uses more = {0};
	if (!direct && granularity == DT_GRANULARITY_OP && !fallback)
		n_pending = merge_into_ops(v, device, &pending, n_pending, g, &more);
	/* A window (--kernels, --range) is chosen from the order before any
	 * record is built: only its kernels get records and touches; those
	 * outside it leave only their marks (touched first, workspace). */
	struct order_view view = {p, order, pending};
	size_t from = 0, count = n_pending;
	if (!dt_window_to_build(req, p, n_pending, order_call_ns, &view,
			&from, &count)) {
		from = 0;
		count = n_pending;
	}
	bool *touched_before = dt_xcalloc(g->n_tensors, sizeof(bool));
	struct dt_touch *touches = NULL, *extra = NULL;
	size_t cap_touches = 0, cap_extra = 0;
	for (size_t k = 0; k < n_pending; k++) {
		const struct pending_kernel *pk = &entry;
		if (direct)
			gpu_kernel_entry(p, &p->kernels[order[k]], &entry);
		else
			pk = &pending[k];
		if (k < from || k - from >= count) {
			mark_uses(v, pk->uses, &index_of_id, touched_before,
					pk->kernel.start, g, &extra, &cap_extra);
			for (uint32_t i = 0; i < pk->n_more_uses; i++)
				mark_uses(v, more.refs[pk->more_uses_at + i],
						&index_of_id, touched_before,
						pk->kernel.start, g, &extra, &cap_extra);
			continue;
		}
		size_t n_touches = uses_touches(v, pk->uses, &index_of_id, touched_before,
				pk->kernel.start, g, &touches, &cap_touches);
		for (uint32_t i = 0; i < pk->n_more_uses; i++) {
			size_t n_extra = uses_touches(v, more.refs[pk->more_uses_at + i],
					&index_of_id, touched_before, pk->kernel.start, g,
					&extra, &cap_extra);
			n_touches = merge_touches(&touches, n_touches, &cap_touches,
					extra, n_extra);
		}
		dt_group_add_kernel(g, &pk->kernel, touches,
				(uint32_t)n_touches);
	}
	g->kernels_from = from;
	g->n_kernels = n_pending;   /* the full order's count */
	free(touches);
	free(extra);
	free(more.refs);
	free(touched_before);
	free(pending);
	free(order);
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
	into->registered_allocs += from->registered_allocs;
	into->registered_bytes += from->registered_bytes;
	into->unregistrations += from->unregistrations;
	into->vmm_physical_allocs += from->vmm_physical_allocs;
	into->vmm_physical_bytes += from->vmm_physical_bytes;
	for (int f = 0; f < DT_GPU_FAULTS; f++)
		into->damaged_gpu_records[f] += from->damaged_gpu_records[f];
}

static bool has_device(const int32_t *devices, size_t n, int32_t d)
{
	for (size_t i = 0; i < n; i++)
		if (devices[i] == d)
			return true;
	return false;
}

static size_t groups_build(struct dt_model *m, enum dt_granularity granularity,
		const struct dt_request *req, struct dt_group **groups)
{
	struct dt_group *out = NULL;
	size_t n = 0, cap = 0;
	for (size_t pi = 0; pi < m->n_processes; pi++) {
		const struct dt_process *p = &m->processes[pi];
		bool fallback = process_uses_fallback(p);
		struct dt_process_view view = {p, dt_map_lib_tensors(p), {0},
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
								(struct dt_call_ref){DT_SOURCE_LAUNCH, i}));
			for (size_t i = 0; i < p->n_lib_calls; i++)
				if (p->lib_calls[i].result == 0)
					add_device(&devices, &n_devices, &cap_devices,
							guessed_call_device(&view,
								(struct dt_call_ref){DT_SOURCE_LIBRARY, i}));
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
		for (size_t d = 0; d < n_devices; d++) {
			struct dt_group *g = DT_PUSH_SLOT(out, n, cap);
			build_group(m, &view, devices[d], fallback, granularity,
					req, g);
			if (g->tensors_borrowed)
				m->processes[pi].tensors_lent = true;
		}
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

size_t dt_groups_build(struct dt_model *m, enum dt_granularity granularity,
		struct dt_group **groups)
{
	return groups_build(m, granularity, NULL, groups);
}

size_t dt_groups_build_for(struct dt_model *m, const struct dt_request *req,
		struct dt_group **groups)
{
	return groups_build(m, req->granularity, req, groups);
}
