/*
 * Energy attribution (energy.h): one sweep over the device's kernels and
 * power samples in time order, keeping the set of kernels running. Rows
 * are made for the window's kernels (this device's GPU kernels whose start
 * lies in the window); the others still share the power while they run.
 * A kernel's op is the library call that launched it (cuDNN/cuBLAS entry
 * point: the innermost op), else the innermost NVTX range around its
 * launch, else none.
 * Units: energy in mJ, time in ns, power in W (W x ns = 1e-6 mJ).
 * Must never read the trace or print: the model in, numbers out.
 */
#include "analysis/derive/energy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/api_names.h"
#include "analysis/derive/group.h"
#include "analysis/util.h"

/* Rows, pairs, runs and kernel indices are kept in 32 bits (a device's
 * kernels number far below 2^30): the per-kernel records of a
 * million-kernel trace are the analyzer's largest transient memory. */
#define NO_ROW UINT32_MAX

struct window_kernel {
	uint64_t start, end;
	double mj;                 /* counter method */
	uint32_t name_row, op_row;
	uint32_t pair;             /* power method: its (op, kernel name) */
	bool sampled;              /* power method: a sample fell inside it */
};

struct values {                    /* power method: samples of one row */
	double *v;
	size_t n, cap;
};

struct sweep_event {
	uint64_t t;
	uint32_t index;
	uint8_t type;              /* 0 kernel end, 1 kernel start, 2 sample */
};

static int compare_events(const void *a, const void *b)
{
	const struct sweep_event *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->type != y->type)
		return (int)x->type - (int)y->type;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int compare_samples(const void *a, const void *b)
{
	const struct dt_power_sample *x = a, *y = b;
	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

static int compare_rows(const void *a, const void *b)
{
	const struct dt_energy_row *x = a, *y = b;
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	if (x->energy_mj != y->energy_mj)
		return x->energy_mj > y->energy_mj ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct rows {
	struct dt_energy *e;
	size_t cap;
	struct dt_u64map index[2];   /* name pointer -> row, per kind */
};

/* Names are interned (or static): one pointer per distinct name. */
static size_t row_of(struct rows *r, enum dt_energy_kind kind, const char *name)
{
	uint64_t at;
	if (dt_u64map_get(&r->index[kind], (uint64_t)(uintptr_t)name, &at))
		return (size_t)at;
	struct dt_energy *e = r->e;
	*DT_PUSH_SLOT(e->rows, e->n_rows, r->cap) = (struct dt_energy_row){
		.kind = kind, .name = name};
	dt_u64map_put(&r->index[kind], (uint64_t)(uintptr_t)name, e->n_rows - 1);
	return e->n_rows - 1;
}

/* The op of a GPU kernel (see the top of this file), or NULL; *call_id
 * gets the host call's id (0: no link). */
static const char *op_of(const struct dt_process *p,
		const struct dt_gpu_kernel *k, uint64_t *call_id)
{
	uint64_t call, at;
	*call_id = 0;
	if (!dt_u64map_get(&p->call_of_correlation, k->correlation_id, &call))
		return NULL;
	*call_id = call;
	if (dt_u64map_get(&p->lib_call_index, call, &at)) {
		const char *name = dt_lib_api_name(p->lib_calls[at].api);
		return *name ? name : p->lib_calls[at].op;
	}
	if (dt_u64map_get(&p->launch_index, call, &at))
		return p->launches[at].op;
	return NULL;
}

static void push_value(struct values *vals, size_t row, double w)
{
	if (row == NO_ROW)
		return;
	struct values *v = &vals[row];
	*DT_PUSH_SLOT(v->v, v->n, v->cap) = w;
}

/* ml-operator-profiling's rule: the mean of the values within 3 standard
 * deviations of the mean (all of them when they are all equal). */
static double mean_within_3_sigma(const struct values *v, size_t *kept)
{
	double sum = 0, sq = 0;
	for (size_t i = 0; i < v->n; i++)
		sum += v->v[i];
	double mean = sum / (double)v->n;
	for (size_t i = 0; i < v->n; i++)
		sq += (v->v[i] - mean) * (v->v[i] - mean);
	/* the slack keeps equal values (sd 0, rounding in the mean) */
	double limit = 3 * sqrt(sq / (double)v->n) + 1e-9 * fabs(mean);
	double kept_sum = 0;
	*kept = 0;
	for (size_t i = 0; i < v->n; i++) {
		if (fabs(v->v[i] - mean) <= limit) {
			kept_sum += v->v[i];
			(*kept)++;
		}
	}
	return *kept ? kept_sum / (double)*kept : mean;
}

static double sample_w(const struct dt_power_sample *s)
{
	return s->power_mw / 1000.0;
}

/* Mean power of interval i (between samples i and i+1), counter method:
 * the counter's delta; where it went backwards (a driver reload) or the
 * two samples share a time, the mean of their power readings. */
static double interval_w(const struct dt_power_sample *s, size_t i)
{
	uint64_t dt = s[i + 1].ns - s[i].ns;
	if (dt > 0 && s[i + 1].energy_mj >= s[i].energy_mj)
		return (double)(s[i + 1].energy_mj - s[i].energy_mj) * 1e6 / (double)dt;
	double sum = 0;
	int n = 0;
	for (size_t j = i; j <= i + 1; j++)
		if (s[j].power_ok) {
			sum += sample_w(&s[j]);
			n++;
		}
	return n ? sum / n : 0;
}

static size_t nearest_powered_sample(const struct dt_power_sample *s, size_t n,
		uint64_t t)
{
	size_t best = SIZE_MAX;
	uint64_t best_gap = UINT64_MAX;
	/* binary search for the first sample at or after t, then look around */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n; i++)
		if (s[i].power_ok) {
			best = i;
			best_gap = s[i].ns - t;
			break;
		}
	for (size_t i = lo; i-- > 0;)
		if (s[i].power_ok) {
			if (t - s[i].ns <= best_gap)
				best = i;
			break;
		}
	return best;
}

struct segment {
	uint64_t len;
	uint32_t iv;               /* interval (samples iv, iv+1); NO_ROW:
	                            * before the first sample; n-1: after the last */
	uint32_t run;
};

/* A stretch of time with one set of running kernels (empty: idle). */
struct run {
	size_t kernels_at, n_kernels;  /* into run_kernels */
	double full_mj;            /* energy of the intervals wholly inside it */
	uint64_t full_ns;
	double mj;
};

struct sweep {
	const struct dt_power_sample *s;
	size_t n;
	struct window_kernel *k;
	size_t n_k;
	struct segment *segs;
	size_t n_segs, cap_segs;
	struct run *runs;
	size_t n_runs, cap_runs;
	size_t *run_kernels;
	size_t n_run_kernels, cap_run_kernels;
};

/* Energy of interval i in mJ: the counter's delta (or, where it went
 * backwards, the mean power reading times its length). */
static double interval_mj(const struct dt_power_sample *s, size_t i)
{
	if (s[i + 1].energy_mj >= s[i].energy_mj)
		return (double)(s[i + 1].energy_mj - s[i].energy_mj);
	return interval_w(s, i) * (double)(s[i + 1].ns - s[i].ns) * 1e-6;
}

/*
 * Counter method. Each interval's energy is exact; inside an interval
 * where the running set changed, it is split among the pieces in
 * proportion to each piece's length times its run's own power, measured
 * over the intervals wholly inside that run (where a run has none, the
 * interval's mean power stands in). With a run per kernel and each kernel
 * longer than two sampling periods this is exact; otherwise its error is
 * at most the interval's length times the spread of the power.
 */
static void counter_method(struct sweep *w, struct dt_energy *e)
{
	const struct dt_power_sample *s = w->s;
	size_t n = w->n, n_iv = n - 1;
	size_t *only_run = dt_xcalloc(n_iv + 1, sizeof(*only_run));
	for (size_t i = 0; i < n_iv; i++)
		only_run[i] = NO_ROW;
	const size_t MIXED = NO_ROW - 1;
	for (size_t j = 0; j < w->n_segs; j++) {
		size_t iv = w->segs[j].iv;
		if (iv >= n_iv)
			continue;
		if (only_run[iv] == NO_ROW)
			only_run[iv] = w->segs[j].run;
		else if (only_run[iv] != w->segs[j].run)
			only_run[iv] = MIXED;
	}
	for (size_t i = 0; i < n_iv; i++) {
		e->total_mj += interval_mj(s, i);
		if (only_run[i] == NO_ROW || only_run[i] == MIXED)
			continue;
		w->runs[only_run[i]].full_mj += interval_mj(s, i);
		w->runs[only_run[i]].full_ns += s[i + 1].ns - s[i].ns;
	}
	/* mJ per ns of each piece: its run's own, else its interval's mean */
	double *weight_sum = dt_xcalloc(n_iv + 1, sizeof(*weight_sum));
	double *rate = dt_xcalloc(w->n_segs + 1, sizeof(*rate));
	for (size_t j = 0; j < w->n_segs; j++) {
		const struct segment *g = &w->segs[j];
		const struct run *r = &w->runs[g->run];
		size_t iv = g->iv == NO_ROW ? 0 : g->iv < n_iv ? g->iv : n_iv - 1;
		rate[j] = r->full_ns ? r->full_mj / (double)r->full_ns :
			interval_w(s, iv) * 1e-6;
		if (g->iv < n_iv)
			weight_sum[g->iv] += rate[j] * (double)g->len;
	}
	for (size_t j = 0; j < w->n_segs; j++) {
		const struct segment *g = &w->segs[j];
		double mj = rate[j] * (double)g->len;   /* outside the samples */
		if (g->iv < n_iv) {
			double sum = weight_sum[g->iv];
			uint64_t dt = s[g->iv + 1].ns - s[g->iv].ns;
			mj = interval_mj(s, g->iv) * (sum > 0 ? mj / sum :
				(double)g->len / (double)(dt ? dt : 1));
		}
		w->runs[g->run].mj += mj;
	}
	for (size_t r = 0; r < w->n_runs; r++) {
		const struct run *run = &w->runs[r];
		for (size_t a = 0; a < run->n_kernels; a++)
			w->k[w->run_kernels[run->kernels_at + a]].mj +=
				run->mj / (double)run->n_kernels;
	}
	free(rate);
	free(weight_sum);
	free(only_run);
}

/* Whether a kernel started or ended while sample i was being read (its
 * power then belongs to neither side for sure). edges: sorted times. */
static bool read_straddles(const struct dt_power_sample *x,
		const uint64_t *edges, size_t n_edges)
{
	uint64_t lo = x->ns > x->half_read_ns ? x->ns - x->half_read_ns : 0;
	uint64_t hi = x->ns + x->half_read_ns;
	size_t a = 0, b = n_edges;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (edges[mid] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < n_edges && edges[a] <= hi;
}

/* The sweep's events of the samples (in time order) before time t, from
 * *next on. */
static void add_samples_before(struct sweep_event *ev, size_t *n_ev,
		const struct dt_power_sample *s, size_t n, size_t *next,
		uint64_t t)
{
	for (; *next < n && s[*next].ns < t; ++*next)
		ev[(*n_ev)++] = (struct sweep_event){.t = s[*next].ns,
			.type = 2, .index = (uint32_t)*next};
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void dt_energy_compute(const struct dt_process *p, int32_t device,
		uint64_t from_ns, uint64_t to_ns, struct dt_energy *e)
{
	memset(e, 0, sizeof(*e));
	/* this device's samples, in time order */
	struct dt_power_sample *s = NULL;
	size_t n = 0, cap = 0;
	bool all_counter = true, any_power = false;
	for (size_t i = 0; i < p->n_power_samples; i++) {
		const struct dt_power_sample *x = &p->power_samples[i];
		if ((int64_t)x->device != device)
			continue;
		*DT_PUSH_SLOT(s, n, cap) = *x;
		all_counter &= x->energy_ok;
		any_power |= x->power_ok;
	}
	dt_sort(s, n, sizeof(*s), compare_samples);
	e->n_samples = n;
	if (n >= 2 && all_counter)
		e->method = DT_ENERGY_COUNTER;
	else if (any_power)
		e->method = DT_ENERGY_POWER;
	if (n > 0) {
		e->first_ns = s[0].ns;
		e->last_ns = s[n - 1].ns;
	}

	/* the window's kernels, their rows and op counts */
	struct rows rows = {.e = e};
	struct dt_u64map calls_seen = {0};
	struct window_kernel *k = NULL;
	size_t n_k = 0, cap_k = 0;
	for (size_t i = 0; i < p->n_kernels && e->method != DT_ENERGY_NONE; i++) {
		const struct dt_gpu_kernel *g = &p->kernels[i];
		if ((int64_t)g->device != device || g->end < g->start)
			continue;
		/* kernels outside the window draw power too: they share it,
		 * but have no row */
		struct window_kernel *w = DT_PUSH_SLOT(k, n_k, cap_k);
		*w = (struct window_kernel){.start = g->start, .end = g->end,
			.name_row = NO_ROW, .op_row = NO_ROW};
		if (g->start < from_ns || g->start > to_ns)
			continue;
		uint64_t call_id;
		const char *op = op_of(p, g, &call_id);
		w->name_row = (uint32_t)row_of(&rows, DT_ENERGY_KERNEL, g->name);
		w->op_row = op ? (uint32_t)row_of(&rows, DT_ENERGY_OP, op) : NO_ROW;
		uint64_t d = g->end - g->start;
		e->rows[w->name_row].count++;
		e->rows[w->name_row].time_ns += d;
		e->kernels_ns += d;
		if (w->op_row != NO_ROW) {
			uint64_t seen;
			if (call_id == 0 || !dt_u64map_get(&calls_seen, call_id, &seen)) {
				e->rows[w->op_row].count++;
				if (call_id)
					dt_u64map_put(&calls_seen, call_id, 1);
			}
			e->rows[w->op_row].time_ns += d;
		}
	}
	dt_u64map_free(&calls_seen);

	/* power method: (op, kernel name) pairs, each a homogeneous group */
	struct pair { size_t op_row; uint64_t time_ns; } *pairs = NULL;
	size_t n_pairs = 0, cap_pairs = 0;
	struct dt_u64map pair_index = {0};
	for (size_t i = 0; i < n_k; i++) {
		k[i].pair = NO_ROW;
		if (k[i].op_row == NO_ROW)
			continue;
		uint64_t key = (uint64_t)k[i].op_row * (e->n_rows + 1) + k[i].name_row, at;
		if (!dt_u64map_get(&pair_index, key, &at)) {
			*DT_PUSH_SLOT(pairs, n_pairs, cap_pairs) =
				(struct pair){k[i].op_row, 0};
			at = n_pairs - 1;
			dt_u64map_put(&pair_index, key, at);
		}
		k[i].pair = (uint32_t)at;
		pairs[at].time_ns += k[i].end - k[i].start;
	}
	dt_u64map_free(&pair_index);

	/* the sweep: ends before starts before samples at one time, so a
	 * kernel runs in [start, end) */
	struct sweep_event *ev = dt_xcalloc(2 * n_k + n + 1, sizeof(*ev));
	/* every kernel start and end, sorted: the power method's straddle
	 * test alone reads them */
	bool power = e->method == DT_ENERGY_POWER;
	uint64_t *edges = power ? dt_xcalloc(2 * n_k + 1, sizeof(*edges)) : NULL;
	/* Samples (in time order) go in among the kernels' events where they
	 * sort: when the kernels come in order, as they mostly do, the
	 * events are sorted already and the sort is one check. */
	size_t n_ev = 0, next_sample = 0;
	for (size_t i = 0; i < n_k; i++) {
		if (power) {
			edges[2 * i] = k[i].start;
			edges[2 * i + 1] = k[i].end;
		}
		add_samples_before(ev, &n_ev, s, n, &next_sample, k[i].start);
		ev[n_ev++] = (struct sweep_event){.t = k[i].start, .type = 1,
			.index = (uint32_t)i};
		add_samples_before(ev, &n_ev, s, n, &next_sample, k[i].end);
		ev[n_ev++] = (struct sweep_event){.t = k[i].end, .type = 0,
			.index = (uint32_t)i};
	}
	if (power)
		dt_sort(edges, 2 * n_k, sizeof(*edges), compare_u64);
	for (; next_sample < n && n_k > 0; next_sample++)
		ev[n_ev++] = (struct sweep_event){.t = s[next_sample].ns,
			.type = 2, .index = (uint32_t)next_sample};
	dt_sort(ev, n_ev, sizeof(*ev), compare_events);
	/* rows' values, then pairs' values from e->n_rows on */
	struct values *vals = dt_xcalloc(e->n_rows + n_pairs + 1, sizeof(*vals));
	size_t *active = dt_xcalloc(n_k + 1, sizeof(*active));
	size_t n_active = 0;
	struct sweep w = {.s = s, .n = n, .k = k, .n_k = n_k};
	size_t last_sample = NO_ROW;     /* latest sample at or before now */
	bool new_run = true;
	uint64_t now = n_ev ? ev[0].t : 0;
	for (size_t i = 0; i < n_ev; i++) {
		const struct sweep_event *x = &ev[i];
		if (x->t > now && e->method == DT_ENERGY_COUNTER) {
			if (new_run) {
				*DT_PUSH_SLOT(w.runs, w.n_runs, w.cap_runs) =
					(struct run){.kernels_at = w.n_run_kernels,
						.n_kernels = n_active};
				for (size_t a = 0; a < n_active; a++)
					*DT_PUSH_SLOT(w.run_kernels, w.n_run_kernels,
						w.cap_run_kernels) = active[a];
				new_run = false;
			}
			*DT_PUSH_SLOT(w.segs, w.n_segs, w.cap_segs) =
				(struct segment){.len = x->t - now,
					.iv = (uint32_t)last_sample,
					.run = (uint32_t)(w.n_runs - 1)};
		}
		now = x->t;
		if (x->type == 0) {
			for (size_t a = 0; a < n_active; a++)
				if (active[a] == x->index) {
					active[a] = active[--n_active];
					break;
				}
			new_run = true;
		} else if (x->type == 1) {
			active[n_active++] = x->index;
			new_run = true;
		} else {
			last_sample = x->index;
			const struct dt_power_sample *y = &s[x->index];
			if (e->method != DT_ENERGY_POWER || !y->power_ok ||
			    n_active == 0 || read_straddles(y, edges, 2 * n_k))
				continue;
			double pw = sample_w(y) / (double)n_active;
			for (size_t a = 0; a < n_active; a++) {
				struct window_kernel *wk = &k[active[a]];
				wk->sampled = true;   /* push_value skips NO_ROW */
				push_value(vals, wk->name_row, pw);
				if (wk->pair != NO_ROW)
					push_value(vals, e->n_rows + wk->pair, pw);
			}
		}
	}
	/* what the sweep alone needed goes before the methods allocate */
	free(active);
	free(edges);
	free(ev);

	if (e->method == DT_ENERGY_COUNTER) {
		counter_method(&w, e);
		for (size_t i = 0; i < n_k; i++) {
			if (k[i].name_row == NO_ROW)
				continue;
			e->rows[k[i].name_row].energy_mj += k[i].mj;
			if (k[i].op_row != NO_ROW)
				e->rows[k[i].op_row].energy_mj += k[i].mj;
			else
				e->outside_op_mj += k[i].mj;
			e->kernels_mj += k[i].mj;
		}
	} else if (e->method == DT_ENERGY_POWER) {
		/* a kernel no sample fell in: the nearest sample stands for it */
		for (size_t i = 0; i < n_k; i++) {
			if (k[i].sampled || k[i].name_row == NO_ROW)
				continue;
			size_t at = nearest_powered_sample(s, n,
					k[i].start + (k[i].end - k[i].start) / 2);
			if (at == SIZE_MAX)
				continue;
			push_value(vals, k[i].name_row, sample_w(&s[at]));
			if (k[i].pair != NO_ROW)
				push_value(vals, e->n_rows + k[i].pair,
						sample_w(&s[at]));
		}
		/* kernel rows: their own samples; op rows: the sum over their
		 * (op, kernel) pairs, so that an op of unlike kernels weighs
		 * each by its time, not by how many samples fell in it */
		double in_ops = 0;
		for (size_t r = 0; r < e->n_rows + n_pairs; r++) {
			if (vals[r].n == 0)
				continue;
			size_t kept;
			double pw = mean_within_3_sigma(&vals[r], &kept);
			struct dt_energy_row *row = r < e->n_rows ? &e->rows[r] :
				&e->rows[pairs[r - e->n_rows].op_row];
			uint64_t time_ns = r < e->n_rows ? row->time_ns :
				pairs[r - e->n_rows].time_ns;
			if (r < e->n_rows && row->kind == DT_ENERGY_OP)
				continue;   /* ops have no values of their own */
			double mj = pw * (double)time_ns * 1e-6;
			row->samples += kept;
			row->outliers += vals[r].n - kept;
			row->energy_mj += mj;
			if (r < e->n_rows) {
				e->kernels_mj += mj;
				e->outliers += vals[r].n - kept;
			} else {
				in_ops += mj;
			}
		}
		e->outside_op_mj = e->kernels_mj > in_ops ? e->kernels_mj - in_ops : 0;
		const struct dt_power_sample *prev = NULL;
		for (size_t i = 0; i < n; i++) {
			if (!s[i].power_ok)
				continue;
			if (prev)
				e->total_mj += (sample_w(prev) + sample_w(&s[i])) / 2 *
					(double)(s[i].ns - prev->ns) * 1e-6;
			prev = &s[i];
		}
	}
	for (size_t r = 0; r < e->n_rows; r++) {
		struct dt_energy_row *row = &e->rows[r];
		row->mean_power_w = row->time_ns ?
			row->energy_mj * 1e6 / (double)row->time_ns : 0;
	}
	for (size_t r = 0; r < e->n_rows + n_pairs; r++)
		free(vals[r].v);
	free(pairs);
	dt_sort(e->rows, e->n_rows, sizeof(*e->rows), compare_rows);
	free(w.segs);
	free(w.runs);
	free(w.run_kernels);
	free(vals);
	free(k);
	free(s);
	dt_u64map_free(&rows.index[0]);
	dt_u64map_free(&rows.index[1]);
}

void dt_energy_free(struct dt_energy *e)
{
	free(e->rows);
	memset(e, 0, sizeof(*e));
}

void dt_energy_of_group(const struct dt_model *m, const struct dt_group *g,
		struct dt_energy *e)
{
	const struct dt_process *p = dt_model_find_process(m, g->vpid);
	uint64_t from = UINT64_MAX, to = 0;
	for (size_t k = g->win_first; k < g->win_first + g->win_count; k++) {
		if (g->kernels[k].start < from)
			from = g->kernels[k].start;
		if (g->kernels[k].end > to)
			to = g->kernels[k].end;
	}
	if (!p || g->kernel_times_missing)
		from = UINT64_MAX, to = 0;
	dt_energy_compute(p ? p : &(const struct dt_process){0}, g->device,
			from, to, e);
}
