/*
 * Builds the analysis groups from the event model and analyzes a window of
 * kernels (group.h). This is where kernel order, launch links, tensor roles
 * and global/local are decided. Must never read the trace or write output.
 */
#include "analysis/group.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void dt_group_free(struct dt_group *g)
{
	free(g->tensors);
	free(g->kernels);
	free(g->touches);
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

/* A kernel before sorting, with the launch it links to (or SIZE_MAX). */
struct pending_kernel {
	struct dt_kernel kernel;
	size_t launch;
	uint64_t call_id;            /* fallback order */
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

/*
 * Without GPU kernel records, a launch has no device field: take the device
 * of the first tensor it touches, else the device of the process's latest
 * allocation, else 0. Assumed, not observed: on a real GPU the launch went
 * to the calling thread's current device, which the trace does not record.
 */
static int32_t fallback_launch_device(const struct dt_process *p,
		const struct dt_launch *l)
{
	for (uint32_t i = 0; i < l->n_tensors; i++) {
		const struct dt_tensor *t = dt_process_find_tensor(p,
				p->launch_tensors[l->tensors_at + i]);
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
	return false;
}

static size_t collect_kernels(const struct dt_process *p, int32_t device,
		bool fallback, struct pending_kernel **out)
{
	struct pending_kernel *pending = NULL;
	size_t n = 0, cap = 0;
	if (fallback) {
		/* Launches stand in for kernels, in call order, duration 0. */
		for (size_t i = 0; i < p->n_launches; i++) {
			const struct dt_launch *l = &p->launches[i];
			if (l->result != 0 || fallback_launch_device(p, l) != device)
				continue;
			struct pending_kernel *pk = DT_PUSH_SLOT(pending, n, cap);
			memset(pk, 0, sizeof(*pk));
			pk->kernel.start = pk->kernel.end = l->ts;
			pk->kernel.device = (uint32_t)device;
			pk->kernel.name = l->name;
			pk->kernel.api = l->api;
			/* the call id stands in for the correlation id as tie-breaker */
			pk->kernel.correlation_id = (uint32_t)l->call_id;
			pk->launch = i;
			pk->call_id = l->call_id;
		}
	} else {
		for (size_t i = 0; i < p->n_kernels; i++) {
			const struct dt_gpu_kernel *k = &p->kernels[i];
			if ((int32_t)k->device != device)
				continue;
			struct pending_kernel *pk = DT_PUSH_SLOT(pending, n, cap);
			memset(pk, 0, sizeof(*pk));
			pk->kernel.start = k->start;
			pk->kernel.end = k->end;
			pk->kernel.correlation_id = k->correlation_id;
			pk->kernel.device = k->device;
			pk->kernel.stream = k->stream;
			pk->kernel.name = k->name;
			pk->kernel.api = -1;
			pk->launch = SIZE_MAX;
			uint64_t call_id, launch_index;
			if (dt_u64map_get(&p->call_of_correlation, k->correlation_id,
					&call_id) &&
			    dt_u64map_get(&p->launch_index, call_id, &launch_index)) {
				pk->launch = launch_index;
				pk->kernel.api = p->launches[launch_index].api;
			}
		}
	}
	/* fallback: call order; else GPU start, then end, then correlation id */
	dt_sort(pending, n, sizeof(*pending),
			fallback ? compare_call_order : compare_pending);
	*out = pending;
	return n;
}

/*
 * The role of each use. Launch events do not say whether a kernel reads or
 * writes a tensor, so, as G10's notes prescribe for unknown roles, a use
 * counts as read AND write. One sound refinement: the first kernel use of a
 * tensor whose memory nothing wrote before (no memcpy/memset into it before
 * the kernel started, no earlier kernel touched it) cannot be a read, since
 * it would read uninitialised memory; it counts as a write only. Managed
 * memory is excluded: the host can write it directly, without any event.
 */
static uint8_t decide_roles(const struct dt_tensor *t, bool *touched_before,
		uint64_t kernel_start)
{
	bool written = *touched_before || t->kind == DNNTRACE_MEM_MANAGED ||
		(t->first_write_ns != DT_NO_TIME && t->first_write_ns < kernel_start);
	*touched_before = true;
	return written ? (DT_ROLE_READ | DT_ROLE_WRITE) : DT_ROLE_WRITE;
}

static void build_group(const struct dt_model *m, const struct dt_process *p,
		int32_t device, bool fallback, struct dt_group *g)
{
	dt_group_init(g, p->vpid, device);
	g->kernel_times_missing = fallback;
	g->cupti_message = p->cupti_message;
	g->events_lost = m->discarded_events + p->records_dropped;
	g->events_lost_unknown = m->discarded_unknown;
	for (size_t i = 0; i < p->n_devices; i++)
		if (p->devices[i].device == device)
			g->stats = p->devices[i];

	for (size_t i = 0; i < p->n_tensors; i++)
		if (p->tensors[i].allocated && p->tensors[i].device == device)
			dt_group_add_tensor(g, &p->tensors[i]);
	dt_sort(g->tensors, g->n_tensors, sizeof(*g->tensors), compare_tensor_ids);
	struct dt_u64map index_of_id = {0};
	for (size_t i = 0; i < g->n_tensors; i++)
		dt_u64map_put(&index_of_id, (uint64_t)g->tensors[i].id, i);

	struct pending_kernel *pending;
	size_t n_pending = collect_kernels(p, device, fallback, &pending);
	bool *touched_before = dt_xcalloc(g->n_tensors, sizeof(bool));
	struct dt_touch *touches = NULL;
	size_t cap_touches = 0;
	for (size_t k = 0; k < n_pending; k++) {
		size_t n_touches = 0;
		if (pending[k].launch != SIZE_MAX) {
			const struct dt_launch *l = &p->launches[pending[k].launch];
			for (uint32_t i = 0; i < l->n_tensors; i++) {
				int64_t id = p->launch_tensors[l->tensors_at + i];
				uint64_t index;
				/* tensors of other devices (peer access) are not
				 * part of this group */
				if (id < 0 || !dt_u64map_get(&index_of_id,
						(uint64_t)id, &index))
					continue;
				bool seen = false;
				for (size_t j = 0; j < n_touches; j++)
					seen |= touches[j].tensor == index;
				if (seen)
					continue;
				struct dt_touch *t = DT_PUSH_SLOT(touches,
						n_touches, cap_touches);
				t->tensor = (uint32_t)index;
				t->roles = decide_roles(&g->tensors[index],
						&touched_before[index],
						pending[k].kernel.start);
			}
		}
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
}

static bool has_device(const int32_t *devices, size_t n, int32_t d)
{
	for (size_t i = 0; i < n; i++)
		if (devices[i] == d)
			return true;
	return false;
}

size_t dt_groups_build(const struct dt_model *m, struct dt_group **groups)
{
	struct dt_group *out = NULL;
	size_t n = 0, cap = 0;
	for (size_t pi = 0; pi < m->n_processes; pi++) {
		const struct dt_process *p = &m->processes[pi];
		bool fallback = process_uses_fallback(p);
		int32_t *devices = NULL;
		size_t n_devices = 0, cap_devices = 0;
		for (size_t i = 0; i < p->n_tensors; i++)
			if (p->tensors[i].allocated)
				add_device(&devices, &n_devices, &cap_devices,
						p->tensors[i].device);
		for (size_t i = 0; i < p->n_kernels; i++)
			add_device(&devices, &n_devices, &cap_devices,
					(int32_t)p->kernels[i].device);
		if (fallback)
			for (size_t i = 0; i < p->n_launches; i++)
				if (p->launches[i].result == 0)
					add_device(&devices, &n_devices, &cap_devices,
							fallback_launch_device(p,
								&p->launches[i]));
		/* successful pinned host allocations on a known device */
		for (size_t i = 0; i < p->n_devices; i++)
			if (p->devices[i].device >= 0 && p->devices[i].pinned_allocs)
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
			build_group(m, p, devices[d], fallback,
					DT_PUSH_SLOT(out, n, cap));
		for (size_t i = 0; i < p->n_devices; i++)
			if (n_devices > 0 && !has_device(devices, n_devices,
					p->devices[i].device))
				merge_stats(&out[first_group].stats, &p->devices[i]);
		free(devices);
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
 * (alloc <= start < free), by one sweep over allocs/frees in time order. */
static void compute_live_bytes(struct dt_group *g)
{
	const struct dt_kernel *window = &g->kernels[g->win_first];
	size_t n_events = 0;
	struct memory_event *events = dt_xmalloc(2 * g->n_tensors *
			sizeof(*events) + 1);
	for (size_t i = 0; i < g->n_tensors; i++) {
		const struct dt_tensor *t = &g->tensors[i];
		events[n_events++] = (struct memory_event){t->alloc_ns,
			(int64_t)t->bytes};
		if (t->free_ns != DT_NO_TIME)
			events[n_events++] = (struct memory_event){
				t->free_ns < t->alloc_ns ? t->alloc_ns : t->free_ns,
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

void dt_group_analyze(struct dt_group *g, size_t first, size_t count)
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
	 * freed before its kernels have all ended. */
	uint64_t first_start = nk ? window[0].start : 0, last_end = 0;
	for (size_t k = 0; k < nk; k++) {
		if (window[k].start < first_start)
			first_start = window[k].start;
		if (window[k].end > last_end)
			last_end = window[k].end;
	}
	uint64_t *prefix_ns = dt_xcalloc(nk + 1, sizeof(uint64_t));
	for (size_t k = 0; k < nk; k++)
		prefix_ns[k + 1] = prefix_ns[k] + (window[k].end - window[k].start);

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
		r->global = tensor->alloc_ns < first_start &&
			(tensor->free_ns == DT_NO_TIME || tensor->free_ns >= last_end);
		r->in_g10 = tn > 0 || (tensor->alloc_ns <= last_end &&
			(tensor->free_ns == DT_NO_TIME || tensor->free_ns > first_start));
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
