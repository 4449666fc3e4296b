/*
 * NVTX ranges in the event model (model.h): push/pop stacks per (thread,
 * domain), start/end ranges by id, the innermost range at a call, and the
 * N-th occurrence of a range name (--range). The trace is read in
 * timestamp order, so when a call event arrives the open ranges are
 * exactly those enclosing it: the op of a call is decided right then, in
 * O(domains of the thread), and nothing per event is kept.
 * Must never decide which kernels a range covers: window.c does.
 */
#include "analysis/model/nvtx_ranges.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void dt_process_free_ranges(struct dt_process *p)
{
	free(p->ranges);
	for (size_t i = 0; i < p->n_range_stacks; i++)
		free(p->range_stacks[i].ranges);
	free(p->range_stacks);
	dt_u64map_free(&p->range_of_id);
	free(p->open_by_id);
}

/* domain and name are interned: one pointer per distinct string. */
static size_t open_range(struct dt_process *p, int64_t vtid, uint64_t ts,
		const char *domain, const char *name, bool by_id)
{
	*DT_PUSH_SLOT(p->ranges, p->n_ranges, p->cap_ranges) = (struct dt_range){
		.name = name, .domain = domain, .vtid = vtid, .start_ns = ts,
		.end_ns = DT_NO_TIME, .by_id = by_id};
	return p->n_ranges - 1;
}

static struct dt_range_stack *stack_of(struct dt_process *p, int64_t vtid,
		const char *domain, bool create)
{
	size_t cached = p->last_range_stack;
	if (cached < p->n_range_stacks && p->range_stacks[cached].vtid == vtid &&
	    p->range_stacks[cached].domain == domain)
		return &p->range_stacks[cached];
	for (size_t i = 0; i < p->n_range_stacks; i++) {
		if (p->range_stacks[i].vtid == vtid &&
		    p->range_stacks[i].domain == domain) {
			p->last_range_stack = i;
			return &p->range_stacks[i];
		}
	}
	if (!create)
		return NULL;
	struct dt_range_stack *s = DT_PUSH_SLOT(p->range_stacks,
			p->n_range_stacks, p->cap_range_stacks);
	memset(s, 0, sizeof(*s));
	s->vtid = vtid;
	s->domain = domain;
	p->last_range_stack = p->n_range_stacks - 1;
	return s;
}

static void on_push(struct dt_model *m, int64_t vpid, int64_t vtid,
		uint64_t ts, const char *domain, const char *name)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, vpid);
	const char *d = dt_strpool_intern(&m->names, domain ? domain : "");
	size_t range = open_range(p, vtid, ts, d,
			dt_strpool_intern(&m->names, name ? name : ""), false);
	struct dt_range_stack *s = stack_of(p, vtid, d, true);
	*DT_PUSH_SLOT(s->ranges, s->n, s->cap) = range;
}

static void on_pop(struct dt_model *m, int64_t vpid, int64_t vtid,
		uint64_t ts, const char *domain)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, vpid);
	struct dt_range_stack *s = stack_of(p, vtid,
			dt_strpool_intern(&m->names, domain ? domain : ""), false);
	if (!s || s->n == 0)
		return;
	p->ranges[s->ranges[--s->n]].end_ns = ts;
}

static void on_start(struct dt_model *m, int64_t vpid, int64_t vtid,
		uint64_t ts, uint64_t id, const char *domain, const char *name)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, vpid);
	size_t range = open_range(p, vtid, ts,
			dt_strpool_intern(&m->names, domain ? domain : ""),
			dt_strpool_intern(&m->names, name ? name : ""), true);
	if (id != DT_MAP_EMPTY)   /* the one id the map cannot hold: no end */
		dt_u64map_put(&p->range_of_id, id, range);
	*DT_PUSH_SLOT(p->open_by_id, p->n_open_by_id, p->cap_open_by_id) = range;
}

static void on_end(struct dt_model *m, int64_t vpid, uint64_t ts,
		uint64_t id)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, vpid);
	uint64_t range;
	if (id == DT_MAP_EMPTY || !dt_u64map_get(&p->range_of_id, id, &range) ||
	    p->ranges[range].end_ns != DT_NO_TIME)
		return;
	p->ranges[range].end_ns = ts;
}

void dt_model_on_nvtx_event(struct dt_model *m, const struct dt_event *e)
{
	switch (e->kind) {
	case DT_EVENT_NVTX_PUSH:
		on_push(m, e->vpid, e->vtid, e->ts, e->domain, e->name);
		break;
	case DT_EVENT_NVTX_POP:
		on_pop(m, e->vpid, e->vtid, e->ts, e->domain);
		break;
	case DT_EVENT_NVTX_START:
		on_start(m, e->vpid, e->vtid, e->ts, e->id, e->domain, e->name);
		break;
	case DT_EVENT_NVTX_END:
		on_end(m, e->vpid, e->ts, e->id);
		break;
	default:
		break;
	}
}

/*
 * The innermost NVTX range enclosing a call made now on thread vtid: among
 * the push/pop ranges open on that thread (the top of each of its domains'
 * stacks) and the start/end ranges open in the process (they belong to no
 * thread: NVTX lets another thread end them), the one opened last, i.e. by
 * start time (ranges are stored in opening order, so the highest index;
 * equal timestamps go by trace order). Ranges of different domains
 * interleave freely, so "innermost" can only mean "latest started".
 */
const char *dt_process_current_op(struct dt_process *p, int64_t vtid)
{
	size_t range = dt_process_current_range(p, vtid);
	return range == DT_NO_RANGE ? NULL : p->ranges[range].name;
}

size_t dt_process_current_range(struct dt_process *p, int64_t vtid)
{
	if (p->n_ranges == 0)
		return DT_NO_RANGE;   /* the common case without NVTX: no cost */
	/* closed start/end ranges leave the open list from its tail; the
	 * tail is then the latest opened one still open */
	while (p->n_open_by_id > 0 &&
	       p->ranges[p->open_by_id[p->n_open_by_id - 1]].end_ns != DT_NO_TIME)
		p->n_open_by_id--;
	bool found = p->n_open_by_id > 0;
	size_t best = found ? p->open_by_id[p->n_open_by_id - 1] : 0;
	for (size_t i = 0; i < p->n_range_stacks; i++) {
		const struct dt_range_stack *s = &p->range_stacks[i];
		if (s->vtid != vtid || s->n == 0)
			continue;
		size_t top = s->ranges[s->n - 1];
		if (!found || top > best) {
			best = top;
			found = true;
		}
	}
	return found ? best : DT_NO_RANGE;
}

const struct dt_range *dt_process_find_range(const struct dt_process *p,
		const char *name, size_t occurrence, size_t *count)
{
	const struct dt_range *match = NULL;
	size_t seen = 0;
	for (size_t i = 0; i < p->n_ranges; i++) {
		if (strcmp(p->ranges[i].name, name) != 0)
			continue;
		if (seen == occurrence)
			match = &p->ranges[i];
		seen++;
	}
	if (count)
		*count = seen;
	return match;
}

bool dt_range_is_step(const char *name, const char *step_range)
{
	if (!name)
		return false;
	if (step_range)
		return strcmp(name, step_range) == 0;
	size_t n = strlen(name);
	return strcasecmp(name, "step") == 0 ||
		(n > 5 && strcasecmp(name + n - 5, "_step") == 0);
}
