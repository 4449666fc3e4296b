/*
 * T1..T5 host overheads per op (overheads.h). During the pass each
 * successful launch, graph launch, async copy or set, or library call (a
 * "call" below) is charged to the
 * innermost NVTX range at its call (the model decides it, as for
 * kernels.csv's op): T4 = its duration (start_ns to its event; 0 when the
 * trace has no start_ns), T5 = the gap since the previous call charged to
 * the same range instance; the instance keeps its first call's start and
 * last call's end. After the pass each closed range that is an op gives
 * T1, T2, T3 (and T5 when it has fewer than two calls) from its start and
 * end. Statistics: count, mean and population standard deviation
 * (numpy.std), in µs. Ranges still open at the end are no op instances.
 * Must never keep a sample: sums and sums of squares only.
 */
#include "analysis/derive/overheads.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/model/api_names.h"
#include "analysis/model/nvtx_ranges.h"
#include "analysis/util.h"

/* What the calls charged to one range instance left. */
struct ov_range {
	uint64_t first_start, last_end;
	uint64_t n_calls;
};

struct ov_process {
	int64_t vpid;
	struct ov_range *ranges;     /* by model range index */
	size_t cap_ranges;
	struct dt_overheads_row *rows;
	size_t n_rows, cap_rows;
	struct dt_u64map row_of;     /* name pointer -> row */
};

struct dt_overheads {
	struct ov_process *processes;
	size_t n_processes, cap_processes;
};

struct dt_overheads *dt_overheads_new(void)
{
	return dt_xcalloc(1, sizeof(struct dt_overheads));
}

static struct ov_process *process_of(struct dt_overheads *o, int64_t vpid,
		bool create)
{
	for (size_t i = 0; i < o->n_processes; i++)
		if (o->processes[i].vpid == vpid)
			return &o->processes[i];
	if (!create)
		return NULL;
	struct ov_process *p = DT_PUSH_SLOT(o->processes, o->n_processes,
			o->cap_processes);
	memset(p, 0, sizeof(*p));
	p->vpid = vpid;
	return p;
}

/* Rows are keyed by the name's pointer: range names are interned by the
 * model, library names are the api_names tables' own strings. */
static struct dt_overheads_row *row_of(struct ov_process *p, const char *name)
{
	uint64_t i;
	if (dt_u64map_get(&p->row_of, (uint64_t)(uintptr_t)name, &i))
		return &p->rows[i];
	dt_u64map_put(&p->row_of, (uint64_t)(uintptr_t)name, p->n_rows);
	struct dt_overheads_row *row = DT_PUSH_SLOT(p->rows, p->n_rows, p->cap_rows);
	memset(row, 0, sizeof(*row));
	row->name = name;
	return row;
}

static void add(struct dt_overhead_stat *s, double ns)
{
	s->n++;
	s->sum += ns;
	s->sum_sq += ns * ns;
}

static struct ov_range *range_state(struct ov_process *p, size_t index)
{
	if (index >= p->cap_ranges) {
		size_t cap = p->cap_ranges ? p->cap_ranges : 64;
		while (cap <= index)
			cap *= 2;
		p->ranges = dt_xrealloc(p->ranges, cap * sizeof(*p->ranges));
		memset(p->ranges + p->cap_ranges, 0,
				(cap - p->cap_ranges) * sizeof(*p->ranges));
		p->cap_ranges = cap;
	}
	return &p->ranges[index];
}

void dt_overheads_on_event(struct dt_overheads *o, struct dt_model *m,
		const struct dt_event *e)
{
	/* what submits GPU work without waiting for it: launches, library
	 * calls, and (as the seed counts cudaMemcpyAsync) async copies and
	 * sets; a synchronous copy's duration is mostly waiting */
	bool async_copy = (e->kind == DT_EVENT_MEMCPY || e->kind == DT_EVENT_MEMSET) &&
		dt_api_is_async_copy(e->api);
	if ((e->kind != DT_EVENT_LAUNCH && e->kind != DT_EVENT_GRAPH_LAUNCH &&
	     e->kind != DT_EVENT_LIB_CALL && !async_copy) || e->result != 0)
		return;
	struct ov_process *p = process_of(o, e->vpid, true);
	uint64_t end = e->ts;
	uint64_t start = e->start_ns && e->start_ns <= end ? e->start_ns : end;
	if (e->kind == DT_EVENT_LIB_CALL) {
		struct dt_overheads_row *lib = row_of(p, dt_lib_api_name(e->api));
		lib->count++;
		add(&lib->t[DT_T4], (double)(end - start));
	}
	struct dt_process *mp = dt_model_process(m, e->vpid);
	size_t r = dt_process_current_range(mp, e->vtid);
	if (r == DT_NO_RANGE)
		return;   /* outside every range: no op to charge */
	struct ov_range *st = range_state(p, r);
	struct dt_overheads_row *row = row_of(p, mp->ranges[r].name);
	add(&row->t[DT_T4], (double)(end - start));
	if (st->n_calls > 0)
		add(&row->t[DT_T5], (double)start - (double)st->last_end);
	else
		st->first_start = start;
	st->last_end = end;
	st->n_calls++;
}

/* The latest op end among the children of one parent (per thread for
 * ranges with no parent). */
struct sibling_end {
	int64_t vtid;
	size_t parent;               /* DT_NO_RANGE: top level of vtid */
	uint64_t end;
};

static uint64_t *sibling_end_of(struct sibling_end **ends, size_t *n,
		size_t *cap, int64_t vtid, size_t parent)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ends)[i].vtid == vtid && (*ends)[i].parent == parent)
			return &(*ends)[i].end;
	struct sibling_end *s = DT_PUSH_SLOT(*ends, *n, *cap);
	*s = (struct sibling_end){vtid, parent, DT_NO_TIME};
	return &s->end;
}

static void finish_process(struct ov_process *p, const struct dt_process *mp)
{
	size_t n = mp->n_ranges;
	if (n == 0)
		return;
	range_state(p, n - 1);
	size_t *parent = dt_xmalloc(n * sizeof(*parent));
	bool *has_child = dt_xcalloc(n, sizeof(*has_child));
	/* Parents: per opening thread, the innermost range still open when
	 * this one opened (ranges are stored in opening order). Each thread's
	 * stack of open ranges is its latest range and the parent links. */
	struct sibling_end *tops = NULL;   /* end holds the thread's latest */
	size_t n_tops = 0, cap_tops = 0;
	for (size_t r = 0; r < n; r++) {
		const struct dt_range *range = &mp->ranges[r];
		uint64_t *top = sibling_end_of(&tops, &n_tops, &cap_tops,
				range->vtid, DT_NO_RANGE);
		size_t q = *top == DT_NO_TIME ? DT_NO_RANGE : (size_t)*top;
		while (q != DT_NO_RANGE && mp->ranges[q].end_ns != DT_NO_TIME &&
		       mp->ranges[q].end_ns <= range->start_ns)
			q = parent[q];
		parent[r] = q;
		if (q != DT_NO_RANGE)
			has_child[q] = true;
		*top = r;
	}
	free(tops);

	struct sibling_end *ends = NULL;
	size_t n_ends = 0, cap_ends = 0;
	for (size_t r = 0; r < n; r++) {
		const struct dt_range *range = &mp->ranges[r];
		const struct ov_range *st = &p->ranges[r];
		if (range->end_ns == DT_NO_TIME || range->end_ns < range->start_ns ||
		    (st->n_calls == 0 && has_child[r]))
			continue;   /* open, or a container: no op instance */
		struct dt_overheads_row *row = row_of(p, range->name);
		row->count++;
		uint64_t *last = sibling_end_of(&ends, &n_ends, &cap_ends,
				range->vtid, parent[r]);
		if (*last != DT_NO_TIME && *last <= range->start_ns)
			add(&row->t[DT_T1], (double)(range->start_ns - *last));
		if (*last == DT_NO_TIME || range->end_ns > *last)
			*last = range->end_ns;
		if (st->n_calls == 0) {
			add(&row->t[DT_T5], (double)(range->end_ns - range->start_ns));
			continue;
		}
		add(&row->t[DT_T2], (double)st->first_start - (double)range->start_ns);
		add(&row->t[DT_T3], (double)range->end_ns - (double)st->last_end);
		if (st->n_calls == 1)
			add(&row->t[DT_T5], 0.0);
	}
	free(ends);
	free(parent);
	free(has_child);
}

void dt_overheads_finish(struct dt_overheads *o, const struct dt_model *m)
{
	for (size_t i = 0; i < m->n_processes; i++) {
		const struct dt_process *mp = &m->processes[i];
		if (mp->n_ranges > 0)
			finish_process(process_of(o, mp->vpid, true), mp);
	}
}

const struct dt_overheads_row *dt_overheads_rows(const struct dt_overheads *o,
		int64_t vpid, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < o->n_processes; i++) {
		if (o->processes[i].vpid == vpid) {
			*n = o->processes[i].n_rows;
			return o->processes[i].rows;
		}
	}
	return NULL;
}

void dt_overheads_free(struct dt_overheads *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n_processes; i++) {
		free(o->processes[i].ranges);
		free(o->processes[i].rows);
		dt_u64map_free(&o->processes[i].row_of);
	}
	free(o->processes);
	free(o);
}
