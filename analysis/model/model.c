/*
 * Feeds the event model (model.h): one decoded event at a time
 * (dt_model_on_event), one handler per kind.
 * Each call is O(1) amortised and keeps only what the analysis needs later.
 * Must never fail on odd input (unknown ids, repeated frees, events before
 * their alloc): the trace is what it is; such events are ignored or kept as
 * far as they make sense.
 */
#include "analysis/model/model.h"

#include "analysis/model/graph_nodes.h"

#include "analysis/model/api_names.h"
#include "analysis/model/nvtx_ranges.h"
#include "analysis/model/power_samples.h"

#include <stdlib.h>
#include <string.h>

#include "tracepoints/dnntrace_enums.h"
#include "tracepoints/memory_kinds.h"

void dt_model_init(struct dt_model *m)
{
	memset(m, 0, sizeof(*m));
}

static void process_free(struct dt_process *p)
{
	free(p->tensors);
	dt_u64map_free(&p->tensor_index);
	dt_u64map_free(&p->first_write);
	free(p->launches);
	dt_u64map_free(&p->launch_index);
	free(p->launch_tensors);
	free(p->lib_calls);
	dt_u64map_free(&p->lib_call_index);
	free(p->lib_args);
	free(p->lib_dims);
	free(p->kernels);
	dt_u64map_free(&p->call_of_correlation);
	free(p->stream_calls);
	free(p->gpu_copies);
	dt_u64map_free(&p->copy_call_ns);
	dt_u64map_free(&p->gpu_record_seen);
	free(p->damaged_kernel_correlations);
	free(p->devices);
	dt_process_free_ranges(p);
	free(p->mem_samples);
	free(p->power_samples);
	dt_u64map_free(&p->function_names);
	free(p->unnamed_launches);
	dt_u64map_free(&p->kernel_names);
	free(p->unnamed_kernels);
	dt_process_free_graphs(p);
}

/* free(*array) and its count and capacity, through the macro below */
#define DROP_ARRAY(p, name) do { free((p)->name); (p)->name = NULL; \
	(p)->n_##name = (p)->cap_##name = 0; } while (0)

void dt_model_drop_built(struct dt_model *m)
{
	for (size_t i = 0; i < m->n_processes; i++) {
		struct dt_process *p = &m->processes[i];
		if (!p->tensors_lent)
			DROP_ARRAY(p, tensors);
		dt_u64map_free(&p->tensor_index);
		dt_u64map_free(&p->first_write);
		DROP_ARRAY(p, launch_tensors);
		DROP_ARRAY(p, lib_args);
		DROP_ARRAY(p, lib_dims);
		DROP_ARRAY(p, stream_calls);
		DROP_ARRAY(p, gpu_copies);
		dt_u64map_free(&p->copy_call_ns);
		dt_u64map_free(&p->gpu_record_seen);
		dt_u64map_free(&p->function_names);
		DROP_ARRAY(p, unnamed_launches);
		dt_u64map_free(&p->kernel_names);
		DROP_ARRAY(p, unnamed_kernels);
	}
}

void dt_model_drop_calls(struct dt_model *m)
{
	dt_model_drop_built(m);
	for (size_t i = 0; i < m->n_processes; i++) {
		struct dt_process *p = &m->processes[i];
		DROP_ARRAY(p, launches);
		dt_u64map_free(&p->launch_index);
		DROP_ARRAY(p, lib_calls);
		dt_u64map_free(&p->lib_call_index);
		DROP_ARRAY(p, kernels);
		DROP_ARRAY(p, damaged_kernel_correlations);
		dt_u64map_free(&p->call_of_correlation);
	}
}

void dt_model_free(struct dt_model *m)
{
	for (size_t i = 0; i < m->n_processes; i++)
		process_free(&m->processes[i]);
	free(m->processes);
	dt_strpool_free(&m->names);
	memset(m, 0, sizeof(*m));
}

struct dt_process *dt_model_process(struct dt_model *m, int64_t vpid)
{
	if (m->last_process < m->n_processes &&
	    m->processes[m->last_process].vpid == vpid)
		return &m->processes[m->last_process];
	for (size_t i = 0; i < m->n_processes; i++) {
		if (m->processes[i].vpid == vpid) {
			m->last_process = i;
			return &m->processes[i];
		}
	}
	struct dt_process *p = DT_PUSH_SLOT(m->processes, m->n_processes,
			m->cap_processes);
	memset(p, 0, sizeof(*p));
	p->vpid = vpid;
	p->cupti_ok = -1;
	p->last_alloc_device = -1;
	p->trace_format = 1;
	p->rank = -1;
	m->last_process = m->n_processes - 1;
	return p;
}

const struct dt_process *dt_model_find_process(const struct dt_model *m,
		int64_t vpid)
{
	for (size_t i = 0; i < m->n_processes; i++)
		if (m->processes[i].vpid == vpid)
			return &m->processes[i];
	return NULL;
}

struct dt_device_stats *dt_process_device(struct dt_process *p, int32_t device)
{
	for (size_t i = 0; i < p->n_devices; i++)
		if (p->devices[i].device == device)
			return &p->devices[i];
	struct dt_device_stats *d = DT_PUSH_SLOT(p->devices, p->n_devices,
			p->cap_devices);
	memset(d, 0, sizeof(*d));
	d->device = device;
	return d;
}

struct dt_tensor *dt_process_find_tensor(const struct dt_process *p, int64_t id)
{
	uint64_t index;
	if (id < 0 || !dt_u64map_get(&p->tensor_index, (uint64_t)id, &index))
		return NULL;
	return &p->tensors[index];
}

struct dt_tensor *dt_process_tensor(struct dt_process *p, int64_t id)
{
	struct dt_tensor *t = dt_process_find_tensor(p, id);
	if (t)
		return t;
	t = DT_PUSH_SLOT(p->tensors, p->n_tensors, p->cap_tensors);
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->alloc_ns = DT_NO_TIME;
	t->free_ns = DT_NO_TIME;
	t->device = -1;
	dt_u64map_put(&p->tensor_index, (uint64_t)id, p->n_tensors - 1);
	return t;
}

static void on_alloc(struct dt_model *m, const struct dt_event *e)
{
	int kind = e->mem_kind;
	int32_t device = e->device;
	uint64_t bytes = e->bytes;
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	/* Counted on the device the event names, even -1 (a failed call may
	 * not know it): group_build.c decides which group reports the count. */
	struct dt_device_stats *stats = dt_process_device(p, device);
	if (e->result == 0 && device >= 0)
		p->last_alloc_device = device;
	if (e->result != 0) {
		stats->failed_allocs++;
		return;
	}
	if (kind == DNNTRACE_MEM_PINNED_HOST) {
		stats->pinned_allocs++;
		stats->pinned_bytes += bytes;
		if (dt_api_is_host_register(e->api)) {
			stats->registered_allocs++;
			stats->registered_bytes += bytes;
		}
		return;
	}
	/* Physical VMM memory is counted like pinned host memory: a tensor
	 * is only the range cuMemMap maps onto it (kind vmm_mapped). A
	 * reserved address range (vmm_reserved) holds no memory: ignored. */
	if (kind == DNNTRACE_MEM_VMM_PHYSICAL) {
		stats->vmm_physical_allocs++;
		stats->vmm_physical_bytes += bytes;
		return;
	}
	if (e->tensor < 0)
		return;
	struct dt_tensor *t = dt_process_tensor(p, e->tensor);
	t->bytes = bytes;
	t->device = device;
	/* a kind past this reader's (a newer tracer's) stays unknown, never
	 * wraps onto a known one */
	t->kind = kind >= 0 && kind < DT_TENSOR_KIND_UNKNOWN ?
		(uint8_t)kind : DT_TENSOR_KIND_UNKNOWN;
	t->ptr = e->ptr;
	t->stream = e->stream;
	t->alloc_ns = e->ts;
	t->allocated = true;
	if (dnntrace_api_is_stream_ordered(e->api))
		*DT_PUSH_SLOT(p->stream_calls, p->n_stream_calls,
				p->cap_stream_calls) = (struct dt_stream_call){
			(size_t)(t - p->tensors), e->stream, false};
}

static void on_free(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	/* Pinned host memory is on no device (-1), as its registration was. */
	if (e->result == 0 && dt_api_is_host_unregister(e->api)) {
		dt_process_device(p, -1)->unregistrations++;
		return;
	}
	/* a graph allocation's free ends its live lifetime */
	int64_t id = e->result == 0 ? dt_graph_on_free(p, e->tensor) : e->tensor;
	struct dt_tensor *t = dt_process_find_tensor(p, id);
	if (!t || e->result != 0 || t->free_ns != DT_NO_TIME)
		return;
	t->free_ns = e->ts;
	/* Decided by the entry point, not the event's kind (the allocation's):
	 * an async free of cudaMalloc memory is stream-ordered too, and
	 * cudaFree of pool memory is not. */
	if (dnntrace_api_is_stream_ordered(e->api))
		*DT_PUSH_SLOT(p->stream_calls, p->n_stream_calls,
				p->cap_stream_calls) = (struct dt_stream_call){
			(size_t)(t - p->tensors), e->stream, true};
}

uint64_t dt_process_first_write(const struct dt_process *p, int64_t id)
{
	uint64_t ts;
	return id >= 0 && dt_u64map_get(&p->first_write, (uint64_t)id, &ts) ?
		ts : DT_NO_TIME;
}

void dt_process_note_write(struct dt_process *p, int64_t id, uint64_t ts)
{
	if (ts != DT_NO_TIME && dt_process_find_tensor(p, id) &&
	    ts < dt_process_first_write(p, id))
		dt_u64map_put(&p->first_write, (uint64_t)id, ts);
}

/* A copy or set that went to the GPU: its call time, for stream points. */
static void note_copy_call(struct dt_process *p, uint64_t call_id, uint64_t ts)
{
	if (call_id != DT_MAP_EMPTY)
		dt_u64map_put(&p->copy_call_ns, call_id, ts);
}

/* A memcpy (dst: tensor) or memset. */
static void on_copy_call(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	if (e->result != 0)
		return;
	struct dt_process *p = dt_model_process(m, e->vpid);
	if (e->kind == DT_EVENT_MEMSET || !dt_api_is_prefetch(e->api))
		dt_process_note_write(p, e->tensor, e->ts);
	note_copy_call(p, e->call_id, e->ts);
}

/*
 * Impossible GPU records. CUPTI gives each record a start and end on the
 * GPU's clock; one with end before start, or a time at 0, is not a kernel
 * that ran (a real GPU's records are assumed never to be so; seen only in
 * scripted and damaged traces), and one delivered twice is one kernel, not
 * two. Duplicates are found by a hash set of the kept records (any order,
 * O(1) each): CUPTI hands buffers over per context, not per stream, and a
 * buffer delivered twice need not come next to its first copy, so a
 * comparison with the stream's previous record would miss it.
 */
static uint64_t mix64(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static uint64_t gpu_record_key(const struct dt_event *e)
{
	uint64_t h = mix64(0, (uint64_t)e->kind);
	h = mix64(h, e->correlation_id);
	h = mix64(h, ((uint64_t)e->gpu_device << 32) | e->gpu_stream);
	h = mix64(h, e->gpu_start);
	h = mix64(h, e->gpu_end);
	return h == DT_MAP_EMPTY ? 0 : h;
}

static bool same_kernel(const struct dt_gpu_kernel *k, const struct dt_event *e)
{
	return k->correlation_id == e->correlation_id &&
		k->device == e->gpu_device && k->stream == e->gpu_stream &&
		k->start == e->gpu_start && k->end == e->gpu_end;
}

static bool same_copy(const struct dt_gpu_copy *c, const struct dt_event *e)
{
	return c->correlation_id == e->correlation_id &&
		c->device == e->gpu_device && c->stream == e->gpu_stream &&
		c->start == e->gpu_start && c->end == e->gpu_end;
}

/* Whether the record is possible; if not, counted under its fault. A
 * possible one's key is *key, to enter once it is kept. */
static bool gpu_record_possible(struct dt_process *p, const struct dt_event *e,
		uint64_t *key)
{
	enum dt_gpu_fault fault;
	uint64_t at;
	*key = gpu_record_key(e);
	if (e->gpu_start == 0 || e->gpu_end == 0)
		fault = DT_GPU_FAULT_ZERO_TIME;
	else if (e->gpu_end < e->gpu_start)
		fault = DT_GPU_FAULT_END_BEFORE_START;
	else if (dt_u64map_get(&p->gpu_record_seen, *key, &at) &&
	         (e->kind == DT_EVENT_GPU_KERNEL ?
	          at < p->n_kernels && same_kernel(&p->kernels[at], e) :
	          at < p->n_gpu_copies && same_copy(&p->gpu_copies[at], e)))
		fault = DT_GPU_FAULT_DUPLICATE;
	else
		return true;
	dt_process_device(p, (int32_t)e->gpu_device)->damaged_gpu_records[fault]++;
	if (e->kind == DT_EVENT_GPU_KERNEL && fault != DT_GPU_FAULT_DUPLICATE)
		*DT_PUSH_SLOT(p->damaged_kernel_correlations, p->n_damaged_kernel_correlations,
				p->cap_damaged_kernel_correlations) = e->correlation_id;
	return false;
}

/* dnntrace_gpu:memcpy and dnntrace_gpu:memset alike. */
static bool on_gpu_copy(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	uint64_t key;
	if (!gpu_record_possible(p, e, &key))
		return false;
	*DT_PUSH_SLOT(p->gpu_copies, p->n_gpu_copies, p->cap_gpu_copies) =
		(struct dt_gpu_copy){e->correlation_id, e->gpu_device,
			e->gpu_stream, e->gpu_start, e->gpu_end};
	/* a hash collision with a different record keeps the first entry:
	 * a later twin of this one would then go uncounted, never wrongly cut */
	uint64_t at;
	if (!dt_u64map_get(&p->gpu_record_seen, key, &at))
		dt_u64map_put(&p->gpu_record_seen, key, p->n_gpu_copies - 1);
	return true;
}

/* A launch, or a graph launch (no name, no tensors). */
static void on_launch(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	struct dt_launch *l = DT_PUSH_SLOT(p->launches, p->n_launches,
			p->cap_launches);
	bool graph = e->kind == DT_EVENT_GRAPH_LAUNCH;
	uint32_t n_tensors = graph ? 0 : e->n_tensors;
	l->call_id = e->call_id;
	l->ts = e->ts;
	l->api = e->api;
	l->name = dt_strpool_intern(&m->names, !graph && e->name ? e->name : "");
	l->op = dt_process_current_op(p, e->vtid);
	l->stream = e->stream;
	l->result = e->result;
	l->tensors_at = p->n_launch_tensors;
	l->n_tensors = n_tensors;
	l->nodes_at = 0;
	l->n_nodes = 0;
	for (uint32_t i = 0; i < n_tensors; i++)
		*DT_PUSH_SLOT(p->launch_tensors, p->n_launch_tensors,
				p->cap_launch_tensors) = dt_graph_live_tensor(p, e->tensors[i]);
	dt_u64map_put(&p->launch_index, e->call_id, p->n_launches - 1);
	if (!graph && e->name_later)   /* named at the end */
		*DT_PUSH_SLOT(p->unnamed_launches, p->n_unnamed_launches,
				p->cap_unnamed_launches) = (struct dt_unnamed){
			.index = p->n_launches - 1, .id = e->name_id};
}

/*
 * Stored as a launch with no tensors, so a graph kernel links, orders and
 * merges into an op like a launch's kernels (group_build.c) and binds the
 * launch's stream (stream_order.c). Which tensors a graph node touches is
 * given by its node (graph_nodes.c, format 4). Assumed, not tested on a real GPU:
 * CUPTI gives every kernel, copy and set of a graph launch the launch's
 * correlation id (CUDA 12/13 CUPTI documents graph node records carrying
 * the cudaGraphLaunch correlation id).
 */
static void on_graph_launch(struct dt_model *m, const struct dt_event *e)
{
	on_launch(m, e);
	struct dt_process *p = dt_model_process(m, e->vpid);
	if (e->result == 0)
		note_copy_call(p, e->call_id, e->ts);
	/* format 4: which call each node of the exec has its tensors from */
	dt_graph_on_launch(p, e->ts, e->start_ns, e->graph_exec);
}

static void on_lib_call(struct dt_model *m, const struct dt_event *c)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, c->vpid);
	struct dt_lib_call *call = DT_PUSH_SLOT(p->lib_calls, p->n_lib_calls,
			p->cap_lib_calls);
	call->call_id = c->call_id;
	call->ts = c->ts;
	call->api = c->api;
	call->result = c->result;
	call->stream = c->stream;
	call->op = dt_process_current_op(p, c->vtid);
	call->args_at = p->n_lib_args;
	call->n_args = c->n_tensors;
	/* dims of argument i follow those of arguments 0..i-1; a rank that
	 * runs past the dims the event holds (a corrupt or truncated event)
	 * makes that shape unknown, never a read out of bounds */
	uint64_t dims_used = 0;
	for (uint32_t i = 0; i < c->n_tensors; i++) {
		struct dt_lib_arg *a = DT_PUSH_SLOT(p->lib_args, p->n_lib_args,
				p->cap_lib_args);
		a->tensor = dt_graph_live_tensor(p, c->tensors[i]);
		a->ptr = c->ptrs[i];
		a->role = c->roles[i];
		a->dtype = c->dtypes[i];
		a->rank = 0;
		a->dims_at = 0;
		uint8_t rank = c->ranks[i];
		if (dims_used + rank <= c->n_dims &&
		    p->n_lib_dims + rank <= UINT32_MAX) {
			a->rank = rank;
			a->dims_at = (uint32_t)p->n_lib_dims;
			for (uint8_t d = 0; d < rank; d++)
				*DT_PUSH_SLOT(p->lib_dims, p->n_lib_dims,
						p->cap_lib_dims) = c->dims[dims_used + d];
		}
		dims_used += rank;
	}
	dt_u64map_put(&p->lib_call_index, c->call_id, p->n_lib_calls - 1);
}

static void on_tag(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	if (e->tensor < 0 || !e->name)
		return;
	struct dt_tensor *t = dt_process_tensor(dt_model_process(m, e->vpid), e->tensor);
	t->name = dt_strpool_intern(&m->names, e->name);
}

static void on_mem_info(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	if (e->free_bytes > e->total_bytes)
		return;   /* not a reading of anything */
	*DT_PUSH_SLOT(p->mem_samples, p->n_mem_samples, p->cap_mem_samples) =
		(struct dt_mem_sample){e->ts, e->device,
			e->total_bytes - e->free_bytes};
}

static void on_status(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	p->cupti_ok = e->cupti_ok != 0;
	p->cupti_message = e->name ? dt_strpool_intern(&m->names, e->name) : NULL;
	if (e->has_format)
		p->trace_format = e->format;
	if (e->rank >= 0)
		p->rank = e->rank;
}

/* A name event (function or GPU kernel name): id -> interned name; a
 * second event for an id is the tracer's harmless duplicate (two threads
 * racing on a new kernel): the first one stands. Id 0 is never named. */
static void note_name(struct dt_model *m, struct dt_u64map *names, uint64_t id,
		const char *name)
{
	uint64_t known;
	if (id == 0 || dt_u64map_get(names, id, &known))
		return;
	const char *interned = dt_strpool_intern(&m->names, name ? name : "");
	dt_u64map_put(names, id, (uint64_t)(uintptr_t)interned);
}

/* The interned name of id; "" for 0 (the tracer could not learn it); NULL
 * while no event named it. */
static const char *name_of(const struct dt_u64map *names, uint64_t id)
{
	uint64_t name;
	if (id == 0)
		return "";
	if (!dt_u64map_get(names, id, &name))
		return NULL;
	return (const char *)(uintptr_t)name;
}

/* function, kernel_name */
static void on_name(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	note_name(m, e->kind == DT_EVENT_FUNCTION ? &p->function_names :
			&p->kernel_names, e->id, e->name);
}

const char *dt_model_function_name(const struct dt_model *m, int64_t vpid,
		uint64_t function_id)
{
	const struct dt_process *p = dt_model_find_process(m, vpid);
	if (function_id == 0)
		return "";
	return p ? name_of(&p->function_names, function_id) : NULL;
}

const char *dt_model_kernel_name(const struct dt_model *m, int64_t vpid,
		uint32_t name_id)
{
	const struct dt_process *p = dt_model_find_process(m, vpid);
	if (name_id == 0)
		return "";
	return p ? name_of(&p->kernel_names, name_id) : NULL;
}


void dt_model_finish(struct dt_model *m)
{
	dt_model_resolve_function_names(m);
	for (size_t i = 0; i < m->n_processes; i++) {
		dt_graph_resolve_flattened(&m->processes[i],
				m->discarded_events || m->discarded_unknown);
		dt_graph_finish(&m->processes[i]);
	}
}

/* A name event that never came (a lossy channel dropped it) leaves the
 * launch's or kernel's name "", as an unknown name always was. */
void dt_model_resolve_function_names(struct dt_model *m)
{
	for (size_t i = 0; i < m->n_processes; i++) {
		struct dt_process *p = &m->processes[i];
		for (size_t u = 0; u < p->n_unnamed_launches; u++) {
			const char *name = name_of(&p->function_names,
					p->unnamed_launches[u].id);
			if (name)
				p->launches[p->unnamed_launches[u].index].name = name;
		}
		p->n_unnamed_launches = 0;
		for (size_t u = 0; u < p->n_unnamed_kernels; u++) {
			const char *name = name_of(&p->kernel_names,
					p->unnamed_kernels[u].id);
			if (name)
				p->kernels[p->unnamed_kernels[u].index].name = name;
		}
		p->n_unnamed_kernels = 0;
	}
}

static bool on_gpu_kernel(struct dt_model *m, const struct dt_event *e)
{
	m->dnntrace_events++;
	struct dt_process *p = dt_model_process(m, e->vpid);
	uint64_t key, at;
	if (!gpu_record_possible(p, e, &key))
		return false;
	if (!dt_u64map_get(&p->gpu_record_seen, key, &at))
		dt_u64map_put(&p->gpu_record_seen, key, p->n_kernels);
	struct dt_gpu_kernel *k = DT_PUSH_SLOT(p->kernels, p->n_kernels,
			p->cap_kernels);
	k->correlation_id = e->correlation_id;
	k->device = e->gpu_device;
	k->stream = e->gpu_stream;
	k->start = e->gpu_start;
	k->end = e->gpu_end;
	k->name = dt_strpool_intern(&m->names, e->name ? e->name : "");
	k->graph_node_id = e->node_id;   /* format 4: the graph node that ran it */
	if (e->name_later)   /* named at the end */
		*DT_PUSH_SLOT(p->unnamed_kernels, p->n_unnamed_kernels,
				p->cap_unnamed_kernels) = (struct dt_unnamed){
			.index = p->n_kernels - 1, .id = e->name_id};
	return true;
}

/* Every event of a process the model knows (a left-out GPU record's
 * too) moves its end (last_ns); an event that made no process makes none. */
static void note_last_event(struct dt_model *m, const struct dt_event *e)
{
	struct dt_process *p = NULL;
	if (m->last_process < m->n_processes &&
	    m->processes[m->last_process].vpid == e->vpid)
		p = &m->processes[m->last_process];
	else
		p = (struct dt_process *)dt_model_find_process(m, e->vpid);
	if (p && e->ts > p->last_ns)
		p->last_ns = e->ts;
}

bool dt_model_on_event(struct dt_model *m, const struct dt_event *e)
{
	bool kept = true;
	switch (e->kind) {
	case DT_EVENT_ALLOC:
		on_alloc(m, e);
		break;
	case DT_EVENT_FREE:
		on_free(m, e);
		break;
	case DT_EVENT_MEMCPY:
	case DT_EVENT_MEMSET:
		on_copy_call(m, e);
		break;
	case DT_EVENT_LAUNCH:
		on_launch(m, e);
		break;
	case DT_EVENT_GRAPH_LAUNCH:
		on_graph_launch(m, e);
		break;
	case DT_EVENT_LIB_CALL:
		on_lib_call(m, e);
		break;
	case DT_EVENT_GPU_KERNEL:
		kept = on_gpu_kernel(m, e);
		break;
	case DT_EVENT_GPU_MEMCPY:
	case DT_EVENT_GPU_MEMSET:
		kept = on_gpu_copy(m, e);
		break;
	case DT_EVENT_EXTERNAL_CORRELATION:
		m->dnntrace_events++;
		dt_u64map_put(&dt_model_process(m, e->vpid)->call_of_correlation,
				e->correlation_id, e->call_id);
		break;
	case DT_EVENT_NVTX_PUSH:
	case DT_EVENT_NVTX_POP:
	case DT_EVENT_NVTX_START:
	case DT_EVENT_NVTX_END:
		dt_model_on_nvtx_event(m, e);
		break;
	case DT_EVENT_LIB_SET_STREAM:
		m->dnntrace_events++;
		break;
	case DT_EVENT_TAG:
		on_tag(m, e);
		break;
	case DT_EVENT_MEM_INFO:
		on_mem_info(m, e);
		break;
	case DT_EVENT_STATUS:
		on_status(m, e);
		break;
	case DT_EVENT_FUNCTION:
	case DT_EVENT_KERNEL_NAME:
		on_name(m, e);
		break;
	case DT_EVENT_RECORDS_DROPPED:
		m->dnntrace_events++;
		dt_model_process(m, e->vpid)->records_dropped += e->count;
		break;
	case DT_EVENT_POWER:
		dt_model_on_power_event(m, e);
		break;
	case DT_EVENT_CAPTURED_NODE:
	case DT_EVENT_GRAPH_NODE:
	case DT_EVENT_GRAPH_NODE_CLONE:
	case DT_EVENT_GRAPH_EXEC_UPDATE:
	case DT_EVENT_GRAPH_MEM_NODE:
	case DT_EVENT_GRAPH_NODE_ENABLE:
		m->dnntrace_events++;
		dt_graph_on_event(dt_model_process(m, e->vpid), e);
		break;
	case DT_EVENT_DISCARDED:
		if (e->count_known)
			m->discarded_events += e->count;
		else
			m->discarded_unknown = true;
		return true;
	}
	note_last_event(m, e);
	return kept;
}
