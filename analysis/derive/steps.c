/*
 * A group's training steps (steps.h). Steps are numbered from 1 in the
 * order their ranges end, the still-open ones last in opening order: the
 * order in which the timeline meets their ends and numbers its
 * ProfilerStep#N slices (timeline_json.c), so step N here is ProfilerStep#N
 * there. A kernel belongs to every step whose host time span holds its
 * call (call_ns): a launch is asynchronous, so its GPU time may fall after
 * the step's end, but the step issued it.
 * Must never write or print.
 */
#include "analysis/derive/steps.h"

#include <stdlib.h>

#include "analysis/model/nvtx_ranges.h"
#include "analysis/util.h"

/* An open range ends after every closed one (DT_NO_TIME is the largest). */
static int by_end_then_start(const void *a, const void *b)
{
	const struct dt_step *x = a, *y = b;
	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct dt_step *const *x = a, *const *y = b;
	if ((*x)->start_ns != (*y)->start_ns)
		return (*x)->start_ns < (*y)->start_ns ? -1 : 1;
	return (*x)->number < (*y)->number ? -1 : (*x)->number > (*y)->number;
}

static void add_kernel(struct dt_step *s, size_t w, uint64_t live)
{
	s->n_kernels++;
	if (s->first_kernel == DT_NO_KERNEL || w < s->first_kernel)
		s->first_kernel = w;
	if (s->last_kernel == DT_NO_KERNEL || w > s->last_kernel)
		s->last_kernel = w;
	if (live > s->peak_bytes)
		s->peak_bytes = live;
}

struct dt_steps *dt_steps_new(const struct dt_group *g,
		const struct dt_process *p, const char *step_range)
{
	struct dt_steps *s = dt_xcalloc(1, sizeof(*s));
	size_t cap = 0;
	for (size_t i = 0; p && i < p->n_ranges; i++) {
		const struct dt_range *r = &p->ranges[i];
		if (!dt_range_is_step(r->name, step_range))
			continue;
		*DT_PUSH_SLOT(s->steps, s->n, cap) = (struct dt_step){
			.name = r->name, .start_ns = r->start_ns,
			.end_ns = r->end_ns, .first_kernel = DT_NO_KERNEL,
			.last_kernel = DT_NO_KERNEL};
	}
	if (s->n == 0)
		return s;
	/* ties in end and start: the same span, either number fits */
	qsort(s->steps, s->n, sizeof(*s->steps), by_end_then_start);
	for (size_t i = 0; i < s->n; i++)
		s->steps[i].number = i + 1;

	/* Each kernel's call against the steps sorted by start: the last
	 * step opened at or before the call, then back while an earlier one
	 * may still be open (the running maximum of the ends says so), so
	 * steps that do not overlap cost one look per kernel. */
	struct dt_step **starts = dt_xcalloc(s->n, sizeof(*starts));
	uint64_t *max_end = dt_xcalloc(s->n, sizeof(*max_end));
	for (size_t i = 0; i < s->n; i++)
		starts[i] = &s->steps[i];
	qsort(starts, s->n, sizeof(*starts), by_start);
	for (size_t i = 0; i < s->n; i++)
		max_end[i] = i && max_end[i - 1] > starts[i]->end_ns ?
			max_end[i - 1] : starts[i]->end_ns;
	for (size_t w = 0; w < g->win_count; w++) {
		uint64_t call = g->kernels[g->win_first + w].call_ns;
		if (call == DT_NO_TIME)
			continue;
		size_t lo = 0, hi = s->n;        /* first start > call */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (starts[mid]->start_ns <= call)
				lo = mid + 1;
			else
				hi = mid;
		}
		uint64_t live = g->live_bytes ? g->live_bytes[w] : 0;
		for (size_t j = lo; j-- > 0 && max_end[j] >= call;)
			if (starts[j]->end_ns >= call)
				add_kernel(starts[j], w, live);
	}
	free(max_end);
	free(starts);
	return s;
}

void dt_steps_free(struct dt_steps *s)
{
	if (!s)
		return;
	free(s->steps);
	free(s);
}
