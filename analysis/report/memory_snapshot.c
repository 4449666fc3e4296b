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
 * Keys, actions and categories are written once and then read from the
 * pickle's memo, and so is each tensor's list of frames (written with its
 * first event): the same objects for the reader (the viewer changes the
 * events it reads, never their frames; every event is a dict of its own).
 * Must never hold more than three sorted lists of tensor indices and a
 * memo index per tensor (16 bytes a tensor).
 */
#include "analysis/report/memory_snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	N_ACTIONS,
};

static const char *const action_names[] = {
	[FREE_REQUESTED] = "free_requested",
	[FREE_COMPLETED] = "free_completed",
	[SEGMENT_FREE] = "segment_free",
	[SEGMENT_ALLOC] = "segment_alloc",
	[ALLOC] = "alloc",
};

/* The keys and fixed values, each written once and then read from the
 * pickle's memo (they are most of the bytes otherwise). */
static void key(struct dt_pickle *p, const char *k)
{
	dt_pickle_str_shared(p, k);
}

static bool snapshot_tensor(const struct dt_tensor *t)
{
	return t->allocated && t->ptr != 0 && t->alloc_ns != DT_NO_TIME;
}

/* The three times of a tensor's events: its memory taken; its free
 * requested (the host may free a tensor before its stream reached its
 * alloc: the request then counts from there); its memory given back. */
static uint64_t requested_ns(const struct dt_tensor *t)
{
	uint64_t ready = dt_tensor_ready_ns(t);
	return t->free_ns > ready ? t->free_ns : ready;
}

static uint64_t released_ns(const struct dt_tensor *t)
{
	uint64_t released = dt_tensor_release_ns(t);
	uint64_t requested = requested_ns(t);
	return released < requested ? requested : released;
}

/* The events, in the order they are written: by time; at one time by
 * rank (the action's, or after every alloc, + N_ACTIONS, for the frees of
 * a tensor that lived no time, so an address handed out again follows its
 * release); then by tensor index. Each (time, rank, tensor) is one event:
 * a tensor's actions all rank apart. Rather than a sorted list of every
 * event (24 bytes each, and as much again while sorting), three lists of
 * tensor indices sorted by one time each are merged: 4 bytes a tensor a
 * list. */
enum timing { AT_READY, AT_REQUESTED, AT_RELEASED, N_TIMINGS };

static uint64_t time_of(const struct dt_tensor *t, enum timing timing)
{
	return timing == AT_READY ? dt_tensor_ready_ns(t) :
		timing == AT_REQUESTED ? requested_ns(t) : released_ns(t);
}

struct order {
	const struct dt_tensor *tensors;
	enum timing timing;
};

static int by_time_then_index(const void *a, const void *b, void *arg)
{
	const struct order *o = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = time_of(&o->tensors[x], o->timing);
	uint64_t ty = time_of(&o->tensors[y], o->timing);
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* One action's events (or its after-allocs twin): a walk along the list
 * of its time. */
struct cursor {
	const uint32_t *order;
	size_t n, at;
	enum timing timing;
	enum action action;
	bool after_allocs;       /* only frees at their tensor's ready time */
	uint64_t ns;             /* the head's, valid while at < n */
};

static bool is_after_allocs(const struct dt_tensor *t, enum timing timing)
{
	return time_of(t, timing) == dt_tensor_ready_ns(t);
}

static bool cursor_matches(const struct cursor *c,
		const struct dt_tensor *tensors, size_t at)
{
	const struct dt_tensor *t = &tensors[c->order[at]];
	return c->timing == AT_READY ||
		is_after_allocs(t, c->timing) == c->after_allocs;
}

/* Moves to the cursor's next event from at on; false when none is left. */
static bool cursor_settle(struct cursor *c, const struct dt_tensor *tensors)
{
	for (; c->at < c->n; c->at++) {
		if (cursor_matches(c, tensors, c->at)) {
			c->ns = time_of(&tensors[c->order[c->at]], c->timing);
			return true;
		}
	}
	return false;
}

/* Backwards: moves to the cursor's last event below at (then at its
 * index); false when none is left. */
static bool cursor_settle_back(struct cursor *c, const struct dt_tensor *tensors)
{
	while (c->at > 0) {
		if (cursor_matches(c, tensors, --c->at)) {
			c->ns = time_of(&tensors[c->order[c->at]], c->timing);
			return true;
		}
	}
	return false;
}

static unsigned rank_of(const struct cursor *c)
{
	return c->action + (c->after_allocs ? N_ACTIONS : 0);
}

static bool cursor_before(const struct cursor *a, const struct cursor *b)
{
	if (a->ns != b->ns)
		return a->ns < b->ns;
	if (rank_of(a) != rank_of(b))
		return rank_of(a) < rank_of(b);
	return a->order[a->at] < b->order[b->at];
}

/* The tensor's row in categories.csv (--categories rules, then tag and
 * role categories), else its category; "Others" is PyTorch's unknown. */
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

/* Appends s to buf (size bytes, *len used), cut where it would not fit,
 * and keeps it NUL-terminated, as snprintf would. */
static void append_cut(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);
	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

/* A kernel's frame: "<what>:<window index>:<name> [<op>]". */
static void kernel_frame(struct dt_pickle *p, const struct dt_group *g,
		const char *what, int64_t index)
{
	if (index < 0 || g->win_first + (size_t)index >= g->n_kernels)
		return;
	const struct dt_kernel *k = &g->kernels[g->win_first + (size_t)index];
	char name[512];
	/* snprintf's "%s%s%s%s" (cut at 511 bytes), without its cost: one
	 * frame a tensor */
	size_t len = 0;
	append_cut(name, sizeof(name), &len, k->name ? k->name : "?");
	if (k->op) {
		append_cut(name, sizeof(name), &len, " [");
		append_cut(name, sizeof(name), &len, k->op);
		append_cut(name, sizeof(name), &len, "]");
	}
	dt_pickle_dict_begin(p);
	key(p, "filename");
	key(p, what);
	key(p, "line");
	dt_pickle_int(p, index);
	key(p, "name");
	dt_pickle_str(p, name);
	dt_pickle_dict_end(p);
}

/* The tensor's frames: written with its first event, then that same list
 * from the memo (memo[i]; the viewer never changes a frame list). */
static void frames(struct dt_pickle *p, const struct dt_group *g, size_t i,
		uint32_t *memo)
{
	key(p, "frames");
	if (memo[i] != DT_PICKLE_NO_MEMO) {
		dt_pickle_memo_get(p, memo[i]);
		return;
	}
	const struct dt_tensor *t = &g->tensors[i];
	char buf[32];
	memo[i] = dt_pickle_list_begin_memo(p);
	dt_pickle_dict_begin(p);
	key(p, "filename");
	key(p, "tensor");
	key(p, "line");
	dt_pickle_int(p, t->id);
	key(p, "name");
	dt_pickle_str(p, dt_tensor_display_name(t, buf, sizeof(buf)));
	dt_pickle_dict_end(p);
	if (g->results) {
		kernel_frame(p, g, "first use", g->results[i].first_use);
		if (g->results[i].last_use != g->results[i].first_use)
			kernel_frame(p, g, "last use", g->results[i].last_use);
	}
	dt_pickle_list_end(p);
}

static void trace_event(struct dt_pickle *p, const struct dt_group *g,
		size_t tensor, enum action action, uint64_t ns, uint32_t *memo)
{
	const struct dt_tensor *t = &g->tensors[tensor];
	dt_pickle_dict_begin(p);
	key(p, "action");
	key(p, action_names[action]);
	key(p, "addr");
	dt_pickle_uint(p, t->ptr);
	key(p, "size");
	dt_pickle_uint(p, t->bytes);
	key(p, "stream");
	dt_pickle_uint(p, t->stream);
	key(p, "time_us");
	dt_pickle_uint(p, ns / 1000);
	if (action == ALLOC) {
		key(p, "category");
		key(p, category_of(g, tensor));
	} else if (action == SEGMENT_ALLOC || action == SEGMENT_FREE) {
		key(p, "category");
		key(p, "unknown");
	}
	frames(p, g, tensor, memo);
	dt_pickle_dict_end(p);
}

static void segment(struct dt_pickle *p, const struct dt_group *g, size_t i,
		uint32_t *memo)
{
	const struct dt_tensor *t = &g->tensors[i];
	dt_pickle_dict_begin(p);
	key(p, "device");
	dt_pickle_int(p, g->device);
	key(p, "address");
	dt_pickle_uint(p, t->ptr);
	const char *const sizes[] = {"total_size", "allocated_size",
		"active_size", "requested_size"};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		key(p, sizes[k]);
		dt_pickle_uint(p, t->bytes);
	}
	key(p, "stream");
	dt_pickle_uint(p, t->stream);
	key(p, "segment_type");
	key(p, "large");
	key(p, "is_expandable");
	dt_pickle_bool(p, false);
	key(p, "blocks");
	dt_pickle_list_begin(p);
	dt_pickle_dict_begin(p);
	key(p, "size");
	dt_pickle_uint(p, t->bytes);
	key(p, "requested_size");
	dt_pickle_uint(p, t->bytes);
	key(p, "state");
	key(p, "active_allocated");
	frames(p, g, i, memo);
	dt_pickle_dict_end(p);
	dt_pickle_list_end(p);
	dt_pickle_dict_end(p);
}

/* The events of device_traces, in order, from the three sorted lists:
 * the last keep of them. Where each list's share of those begins is found
 * walking back from the end (keep steps, not the whole trace). */
static void trace_events(struct dt_pickle *p, const struct dt_group *g,
		uint32_t *const lists[N_TIMINGS], const size_t lengths[N_TIMINGS],
		uint32_t *memo, size_t keep)
{
	static const struct {
		enum timing timing;
		enum action action;
		bool after_allocs;
	} kinds[] = {
		{AT_READY, SEGMENT_ALLOC, false}, {AT_READY, ALLOC, false},
		{AT_REQUESTED, FREE_REQUESTED, false},
		{AT_REQUESTED, FREE_REQUESTED, true},
		{AT_RELEASED, FREE_COMPLETED, false},
		{AT_RELEASED, FREE_COMPLETED, true},
		{AT_RELEASED, SEGMENT_FREE, false},
		{AT_RELEASED, SEGMENT_FREE, true},
	};
	enum { N_CURSORS = sizeof(kinds) / sizeof(kinds[0]) };
	struct cursor all[N_CURSORS];
	size_t start[N_CURSORS];
	for (size_t i = 0; i < N_CURSORS; i++) {
		all[i] = (struct cursor){lists[kinds[i].timing],
			lengths[kinds[i].timing], 0, kinds[i].timing,
			kinds[i].action, kinds[i].after_allocs, 0};
		start[i] = 0;
	}
	if (keep < dt_memory_snapshot_events(g)) {
		/* the last keep events, latest first: each cursor's share
		 * begins at the last one taken from it */
		struct cursor back[N_CURSORS];
		size_t index[N_CURSORS], live = 0;
		for (size_t i = 0; i < N_CURSORS; i++) {
			start[i] = all[i].n;
			back[live] = all[i];
			back[live].at = all[i].n;
			index[live] = i;
			if (cursor_settle_back(&back[live], g->tensors))
				live++;
		}
		for (size_t taken = 0; taken < keep && live; taken++) {
			size_t last = 0;
			for (size_t i = 1; i < live; i++)
				if (cursor_before(&back[last], &back[i]))
					last = i;
			start[index[last]] = back[last].at;
			if (!cursor_settle_back(&back[last], g->tensors)) {
				back[last] = back[--live];
				index[last] = index[live];
			}
		}
	}
	struct cursor cursors[N_CURSORS];
	size_t live = 0;
	for (size_t i = 0; i < N_CURSORS; i++) {
		cursors[live] = all[i];
		cursors[live].at = start[i];
		if (cursor_settle(&cursors[live], g->tensors))
			live++;
	}
	while (live) {
		size_t first = 0;
		for (size_t i = 1; i < live; i++)
			if (cursor_before(&cursors[i], &cursors[first]))
				first = i;
		struct cursor *c = &cursors[first];
		trace_event(p, g, c->order[c->at], c->action, c->ns, memo);
		c->at++;
		if (!cursor_settle(c, g->tensors))
			cursors[first] = cursors[--live];
	}
}

size_t dt_memory_snapshot_events(const struct dt_group *g)
{
	size_t n = 0;
	for (size_t i = 0; g->device >= 0 && i < g->n_tensors; i++)
		if (snapshot_tensor(&g->tensors[i]))   /* 2 at alloc, 3 at free */
			n += g->tensors[i].free_ns == DT_NO_TIME ? 2 : 5;
	return n;
}

int dt_memory_snapshot_write(const struct dt_group *g, const char *dir,
		size_t max_events)
{
	size_t total = dt_memory_snapshot_events(g);
	size_t keep = max_events && total > max_events ? max_events : total;
	/* the tensors of the snapshot, by ready time; the freed ones by
	 * request and by release time */
	uint32_t *lists[N_TIMINGS];
	size_t lengths[N_TIMINGS] = {0};
	for (int k = 0; k < N_TIMINGS; k++)
		lists[k] = dt_xmalloc((g->n_tensors ? g->n_tensors : 1) *
				sizeof(uint32_t));
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		if (!snapshot_tensor(t))
			continue;
		lists[AT_READY][lengths[AT_READY]++] = (uint32_t)i;
		if (t->free_ns == DT_NO_TIME)
			continue;
		lists[AT_REQUESTED][lengths[AT_REQUESTED]++] = (uint32_t)i;
		lists[AT_RELEASED][lengths[AT_RELEASED]++] = (uint32_t)i;
	}
	for (int k = 0; k < N_TIMINGS; k++) {
		struct order o = {g->tensors, (enum timing)k};
		bool sorted = true;  /* tensors come in alloc order: often so */
		for (size_t i = 1; i < lengths[k] && sorted; i++)
			sorted = by_time_then_index(&lists[k][i - 1],
					&lists[k][i], &o) < 0;
		if (!sorted)
			qsort_r(lists[k], lengths[k], sizeof(uint32_t),
					by_time_then_index, &o);
	}
	uint32_t *memo = dt_xmalloc((g->n_tensors ? g->n_tensors : 1) *
			sizeof(uint32_t));
	for (size_t i = 0; i < g->n_tensors; i++)
		memo[i] = DT_PICKLE_NO_MEMO;

	struct dt_out out;
	int rc = dt_out_open_in(&out, dir, "memory_snapshot.pickle");
	int shape = 0;
	if (rc == 0) {
		struct dt_pickle p;
		dt_pickle_begin(&p, &out);
		dt_pickle_dict_begin(&p);
		key(&p, "segments");
		dt_pickle_list_begin(&p);
		for (size_t i = 0; i < g->n_tensors; i++)
			if (snapshot_tensor(&g->tensors[i]) &&
			    g->tensors[i].free_ns == DT_NO_TIME)
				segment(&p, g, i, memo);
		dt_pickle_list_end(&p);
		key(&p, "device_traces");
		dt_pickle_list_begin(&p);
		for (int32_t d = 0; d < g->device; d++) {
			dt_pickle_list_begin(&p);
			dt_pickle_list_end(&p);
		}
		if (g->device >= 0) {        /* -1: failed allocs of no device */
			dt_pickle_list_begin(&p);
			trace_events(&p, g, lists, lengths, memo, keep);
			dt_pickle_list_end(&p);
		}
		dt_pickle_list_end(&p);
		dt_pickle_dict_end(&p);
		shape = dt_pickle_end(&p);
		rc = dt_out_close(&out);
	}
	for (int k = 0; k < N_TIMINGS; k++)
		free(lists[k]);
	free(memo);
	if (shape != 0 && rc == 0) {
		errno = EINVAL;
		return -1;
	}
	return rc;
}
