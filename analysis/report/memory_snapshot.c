/*
 * PyTorch memory snapshot writer (memory_snapshot.h). The pickle is
 *   {'segments': [...], 'device_traces': [[...], ...]}
 * as torch.cuda.memory._snapshot() returns it (the fields its viewer and
 * _memory_viz.py read):
 *   device_traces[d] for the group's device d (the others empty): every
 *     tensor as one segment of its own (dnntrace records each tensor as
 *     its own allocation, which is what `dnntrace record` sets the
 *     frameworks' allocators to do): 'segment_alloc' then 'alloc' when
 *     its memory was taken (its alloc call; a stream-ordered alloc: when
 *     its stream reached it, since the pool may hand out an address whose
 *     earlier free is still queued on another stream); 'free_requested'
 *     at its free call (or its alloc's time, if the host freed it before
 *     its stream reached the alloc), 'free_completed' then 'segment_free' when the
 *     memory really went back (a stream-ordered free: when its stream
 *     reached it); each with 'addr',
 *     'size', 'stream' (the alloc's cudaStream_t), 'time_us' and
 *     'frames'; allocs also 'category' (categories.csv's row: the
 *     --categories rules' names, then parameter, gradient,
 *     optimizer_state, activation, workspace, as PyTorch names its own;
 *     "Others" is PyTorch's unknown). Events in time order; at one time frees before allocs,
 *     so an address handed out again follows its release;
 *   segments: the tensors still allocated at the end of the trace, each
 *     a segment holding one active_allocated block (what the viewer
 *     draws as allocated before its trace began or still live);
 *   frames: made from what the trace knows instead of a Python stack:
 *     the tensor ("tensor:<id>:<name>") and the first and last kernels
 *     that used it ("first use:<index>:<kernel> [<op>]").
 * Tensors without an address (ptr 0: an older trace) get none: PyTorch's
 * viewer keys blocks by address, so they are left out, and counted in no
 * event. Segment events carry category 'unknown' (a segment has no
 * tensor category): the viewer (MemoryViz.js annotate_snapshot) fails
 * when a snapshot's categories lack 'unknown'.
 * Must never hold more than the sorted event list (24 bytes per event).
 */
#include "analysis/report/memory_snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/derive/category.h"
#include "analysis/derive/memory.h"
#include "analysis/report/out_buffer.h"
#include "analysis/report/pickle_writer.h"
#include "analysis/util.h"

enum action {                /* at one time, in this order */
	FREE_REQUESTED,
	FREE_COMPLETED,
	SEGMENT_FREE,
	SEGMENT_ALLOC,
	ALLOC,
};

static const char *const action_names[] = {
	[FREE_REQUESTED] = "free_requested",
	[FREE_COMPLETED] = "free_completed",
	[SEGMENT_FREE] = "segment_free",
	[SEGMENT_ALLOC] = "segment_alloc",
	[ALLOC] = "alloc",
};

struct event {
	uint64_t ns;
	uint32_t tensor;         /* index in the group */
	uint16_t action;         /* enum action */
	uint16_t rank;           /* order at one time: the action's, or after
	                          * every alloc for the free of a tensor that
	                          * lived no time */
	uint64_t seq;            /* the order they were made in: ties */
};

static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The tensor's row in categories.csv (--categories rules, then tag and
 * role categories), else its category; "Others" is PyTorch's unknown. */
/* after_allocs: a free at its own alloc's time, ranked after every alloc. */
static void push(struct event **events, size_t *n, size_t *cap, uint64_t ns,
		size_t tensor, enum action action, bool after_allocs)
{
	struct event e = {ns, (uint32_t)tensor, (uint16_t)action,
		(uint16_t)(action + (after_allocs ? ALLOC + 1 : 0)), *n};
	*DT_PUSH_SLOT(*events, *n, *cap) = e;
}

static const char *category_of(const struct dt_group *g, size_t i)
{
	if (g->memory && g->memory->categories.of_tensor) {
		const struct dt_categories *c = &g->memory->categories;
		uint32_t row = c->of_tensor[i];
		return row + 1 < c->n ? c->names[row] : "unknown";
	}
	uint8_t c = g->results ? g->results[i].category : DT_CATEGORY_OTHER;
	return c == DT_CATEGORY_OTHER ? "unknown" : dt_category_name(c);
}

/* A kernel's frame: "<what>:<window index>:<name> [<op>]". */
static void kernel_frame(struct dt_pickle *p, const struct dt_group *g,
		const char *what, int64_t index)
{
	if (index < 0 || g->win_first + (size_t)index >= g->n_kernels)
		return;
	const struct dt_kernel *k = &g->kernels[g->win_first + (size_t)index];
	char name[512];
	snprintf(name, sizeof(name), "%s%s%s%s", k->name ? k->name : "?",
			k->op ? " [" : "", k->op ? k->op : "", k->op ? "]" : "");
	dt_pickle_dict_begin(p);
	dt_pickle_key_str(p, "filename", what);
	dt_pickle_key_int(p, "line", index);
	dt_pickle_key_str(p, "name", name);
	dt_pickle_dict_end(p);
}

static void frames(struct dt_pickle *p, const struct dt_group *g, size_t i)
{
	const struct dt_tensor *t = &g->tensors[i];
	char buf[32];
	dt_pickle_str(p, "frames");
	dt_pickle_list_begin(p);
	dt_pickle_dict_begin(p);
	dt_pickle_key_str(p, "filename", "tensor");
	dt_pickle_key_int(p, "line", t->id);
	dt_pickle_key_str(p, "name", dt_tensor_display_name(t, buf, sizeof(buf)));
	dt_pickle_dict_end(p);
	if (g->results) {
		kernel_frame(p, g, "first use", g->results[i].first_use);
		if (g->results[i].last_use != g->results[i].first_use)
			kernel_frame(p, g, "last use", g->results[i].last_use);
	}
	dt_pickle_list_end(p);
}

static void trace_event(struct dt_pickle *p, const struct dt_group *g,
		const struct event *e)
{
	const struct dt_tensor *t = &g->tensors[e->tensor];
	dt_pickle_dict_begin(p);
	dt_pickle_key_str(p, "action", action_names[e->action]);
	dt_pickle_key_uint(p, "addr", t->ptr);
	dt_pickle_key_uint(p, "size", t->bytes);
	dt_pickle_key_uint(p, "stream", t->stream);
	dt_pickle_key_uint(p, "time_us", e->ns / 1000);
	if (e->action == ALLOC)
		dt_pickle_key_str(p, "category", category_of(g, e->tensor));
	else if (e->action == SEGMENT_ALLOC || e->action == SEGMENT_FREE)
		dt_pickle_key_str(p, "category", "unknown");
	frames(p, g, e->tensor);
	dt_pickle_dict_end(p);
}

static void segment(struct dt_pickle *p, const struct dt_group *g, size_t i)
{
	const struct dt_tensor *t = &g->tensors[i];
	dt_pickle_dict_begin(p);
	dt_pickle_key_int(p, "device", g->device);
	dt_pickle_key_uint(p, "address", t->ptr);
	dt_pickle_key_uint(p, "total_size", t->bytes);
	dt_pickle_key_uint(p, "allocated_size", t->bytes);
	dt_pickle_key_uint(p, "active_size", t->bytes);
	dt_pickle_key_uint(p, "requested_size", t->bytes);
	dt_pickle_key_uint(p, "stream", t->stream);
	dt_pickle_key_str(p, "segment_type", "large");
	dt_pickle_str(p, "is_expandable");
	dt_pickle_bool(p, false);
	dt_pickle_str(p, "blocks");
	dt_pickle_list_begin(p);
	dt_pickle_dict_begin(p);
	dt_pickle_key_uint(p, "size", t->bytes);
	dt_pickle_key_uint(p, "requested_size", t->bytes);
	dt_pickle_key_str(p, "state", "active_allocated");
	frames(p, g, i);
	dt_pickle_dict_end(p);
	dt_pickle_list_end(p);
	dt_pickle_dict_end(p);
}

static bool snapshot_tensor(const struct dt_tensor *t)
{
	return t->allocated && t->ptr != 0 && t->alloc_ns != DT_NO_TIME;
}

int dt_memory_snapshot_write(const struct dt_group *g, const char *dir)
{
	struct event *events = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		if (!snapshot_tensor(t))
			continue;
		uint64_t ready = dt_tensor_ready_ns(t);
		push(&events, &n, &cap, ready, i, SEGMENT_ALLOC, 0);
		push(&events, &n, &cap, ready, i, ALLOC, 0);
		if (t->free_ns == DT_NO_TIME)
			continue;
		/* the host may free a tensor before its stream reached its
		 * alloc: the request then counts from there */
		uint64_t released = dt_tensor_release_ns(t);
		uint64_t requested = t->free_ns > ready ? t->free_ns : ready;
		if (released < requested)
			released = requested;
		push(&events, &n, &cap, requested, i, FREE_REQUESTED,
				requested == ready);
		push(&events, &n, &cap, released, i, FREE_COMPLETED,
				released == ready);
		push(&events, &n, &cap, released, i, SEGMENT_FREE,
				released == ready);
	}
	if (n)
		qsort(events, n, sizeof(*events), by_time);

	struct dt_out out;
	if (dt_out_open_in(&out, dir, "memory_snapshot.pickle") != 0) {
		free(events);
		return -1;
	}
	struct dt_pickle p;
	dt_pickle_begin(&p, &out);
	dt_pickle_dict_begin(&p);
	dt_pickle_str(&p, "segments");
	dt_pickle_list_begin(&p);
	for (size_t i = 0; i < g->n_tensors; i++)
		if (snapshot_tensor(&g->tensors[i]) &&
		    g->tensors[i].free_ns == DT_NO_TIME)
			segment(&p, g, i);
	dt_pickle_list_end(&p);
	dt_pickle_str(&p, "device_traces");
	dt_pickle_list_begin(&p);
	for (int32_t d = 0; d < g->device; d++) {
		dt_pickle_list_begin(&p);
		dt_pickle_list_end(&p);
	}
	if (g->device >= 0) {        /* -1: failed allocs of no device */
		dt_pickle_list_begin(&p);
		for (size_t i = 0; i < n; i++)
			trace_event(&p, g, &events[i]);
		dt_pickle_list_end(&p);
	}
	dt_pickle_list_end(&p);
	dt_pickle_dict_end(&p);
	int shape = dt_pickle_end(&p);
	free(events);
	int rc = dt_out_close(&out);
	if (shape != 0 && rc == 0) {
		errno = EINVAL;
		return -1;
	}
	return rc;
}
