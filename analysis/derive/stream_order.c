/*
 * When stream-ordered allocs and frees really take and give back their
 * memory (stream_order.h).
 *
 * An alloc or free enqueued on host stream S at host time t takes effect
 * when S has finished the work enqueued on it before t: at max(t, the
 * latest end of the GPU kernels, copies and sets on S whose host call came
 * before t), but never after the start of work enqueued after t (GPU
 * timestamps may overlap by a few ns: seen on the simulated GPU, possible
 * on a real one), so the work after it sees it done. Placing both allocs
 * and frees (not only the frees) keeps a stream's own order:
 * with the host ahead of the GPU, counting allocs at their calls and frees
 * at the stream would count more memory than the program ever held.
 * The trace names streams twice: the host calls give the cudaStream_t
 * pointer, the GPU records CUPTI's stream id. Each kernel linked to its
 * launch or library call binds that call's pointer to the kernel's CUPTI
 * stream, on the kernel's device, from the call's time on; a free uses the
 * latest binding made before it on its tensor's device, so a pointer that
 * a destroyed stream leaves for a new one is followed.
 *
 * Where nothing binds S before the call (no CUPTI, or nothing launched on
 * S yet), the call's time stands; a GPU record with no link to a host call
 * is not counted (it cannot be placed before or after the call).
 * Assumed, not tested on a real GPU: CUPTI stream ids are per context, so
 * (device, id) names one stream; the per-thread default stream of
 * different threads (pointer 0 with the _ptsz entry points, or
 * cudaStreamPerThread) is one pointer here, so the latest launch of any
 * thread binds it.
 *
 * Must never read the trace or change the model.
 */
#include "analysis/derive/stream_order.h"

#include <stdlib.h>

#include "analysis/util.h"

/* A GPU record on one CUPTI stream, placed by the host call that enqueued it. */
struct stream_work {
	uint32_t device, stream;
	uint64_t call_ns;
	uint64_t end;              /* after sorting: latest end so far on the stream */
	uint64_t start;            /* after sorting: earliest start from here on */
};

/* From call_ns on, host stream pointer host_stream on device means
 * CUPTI stream `stream`. */
struct stream_binding {
	uint64_t host_stream;
	uint32_t device, stream;
	uint64_t call_ns;
};

static int compare_u64(uint64_t x, uint64_t y)
{
	return x < y ? -1 : x > y;
}

static int compare_work_key(const struct stream_work *w, uint32_t device,
		uint32_t stream, uint64_t call_ns)
{
	int c = compare_u64(w->device, device);
	if (!c)
		c = compare_u64(w->stream, stream);
	return c ? c : compare_u64(w->call_ns, call_ns);
}

static int compare_work(const void *a, const void *b)
{
	const struct stream_work *y = b;
	return compare_work_key(a, y->device, y->stream, y->call_ns);
}

static int compare_binding_key(const struct stream_binding *s,
		uint64_t host_stream, uint32_t device, uint64_t call_ns)
{
	int c = compare_u64(s->host_stream, host_stream);
	if (!c)
		c = compare_u64(s->device, device);
	return c ? c : compare_u64(s->call_ns, call_ns);
}

static int compare_binding(const void *a, const void *b)
{
	const struct stream_binding *y = b;
	return compare_binding_key(a, y->host_stream, y->device, y->call_ns);
}

/* The host call (launch or library call) behind a GPU record: its time
 * and stream pointer. False without a link. */
static bool kernel_call(const struct dt_process *p, uint32_t correlation_id,
		uint64_t *call_ns, uint64_t *host_stream)
{
	uint64_t call_id, index;
	if (!dt_u64map_get(&p->call_of_correlation, correlation_id, &call_id))
		return false;
	if (dt_u64map_get(&p->launch_index, call_id, &index)) {
		*call_ns = p->launches[index].ts;
		*host_stream = p->launches[index].stream;
		return true;
	}
	if (dt_u64map_get(&p->lib_call_index, call_id, &index)) {
		*call_ns = p->lib_calls[index].ts;
		*host_stream = p->lib_calls[index].stream;
		return true;
	}
	return false;
}

static bool copy_call(const struct dt_process *p, uint32_t correlation_id,
		uint64_t *call_ns)
{
	uint64_t call_id;
	return dt_u64map_get(&p->call_of_correlation, correlation_id, &call_id) &&
		dt_u64map_get(&p->copy_call_ns, call_id, call_ns);
}

/* The CUPTI stream host_stream stood for on device at a call made at
 * time t, from the latest binding before t. */
static bool bound_stream(const struct stream_binding *bindings, size_t n,
		uint64_t host_stream, uint32_t device, uint64_t t,
		uint32_t *stream)
{
	size_t lo = 0, hi = n;         /* first binding at or after the key */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (compare_binding_key(&bindings[mid], host_stream, device, t) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || bindings[lo - 1].host_stream != host_stream ||
	    bindings[lo - 1].device != device)
		return false;
	*stream = bindings[lo - 1].stream;
	return true;
}

/* The point (device, stream) reached a call made at time t (above), or
 * 0 where t itself stands. */
static uint64_t stream_point_at(const struct stream_work *work, size_t n,
		uint32_t device, uint32_t stream, uint64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (compare_work_key(&work[mid], device, stream, t) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || work[lo - 1].device != device ||
	    work[lo - 1].stream != stream || work[lo - 1].end <= t)
		return 0;
	uint64_t point = work[lo - 1].end;
	if (lo < n && work[lo].device == device && work[lo].stream == stream &&
	    work[lo].start < point)
		point = work[lo].start;
	return point > t ? point : 0;
}

/* The point the stream of a stream-ordered call on f's tensor reached it,
 * or 0 where the call's time stands. */
static uint64_t stream_point(const struct dt_process *p,
		const struct dt_stream_call *call,
		const struct stream_binding *bindings, size_t n_bindings,
		const struct stream_work *work, size_t n_work)
{
	const struct dt_tensor *t = &p->tensors[call->tensor];
	uint64_t at = call->is_free ? t->free_ns : t->alloc_ns;
	uint32_t stream;
	if (t->device < 0 || at == DT_NO_TIME || !bound_stream(bindings,
			n_bindings, call->stream, (uint32_t)t->device, at, &stream))
		return 0;
	return stream_point_at(work, n_work, (uint32_t)t->device, stream, at);
}

struct dt_stream_points *dt_stream_points(const struct dt_process *p)
{
	if (p->n_stream_calls == 0)
		return NULL;
	struct stream_work *work = NULL;
	size_t n_work = 0, cap_work = 0;
	struct stream_binding *bindings = NULL;
	size_t n_bindings = 0, cap_bindings = 0;
	for (size_t i = 0; i < p->n_kernels; i++) {
		const struct dt_gpu_kernel *k = &p->kernels[i];
		uint64_t call_ns, host_stream;
		if (!kernel_call(p, k->correlation_id, &call_ns, &host_stream))
			continue;
		*DT_PUSH_SLOT(work, n_work, cap_work) = (struct stream_work){
			k->device, k->stream, call_ns, k->end, k->start};
		*DT_PUSH_SLOT(bindings, n_bindings, cap_bindings) =
			(struct stream_binding){host_stream, k->device,
				k->stream, call_ns};
	}
	for (size_t i = 0; i < p->n_gpu_copies; i++) {
		const struct dt_gpu_copy *c = &p->gpu_copies[i];
		uint64_t call_ns;
		if (copy_call(p, c->correlation_id, &call_ns))
			*DT_PUSH_SLOT(work, n_work, cap_work) = (struct stream_work){
				c->device, c->stream, call_ns, c->end, c->start};
	}
	dt_sort(work, n_work, sizeof(*work), compare_work);
	for (size_t i = 1; i < n_work; i++)
		if (work[i].device == work[i - 1].device &&
		    work[i].stream == work[i - 1].stream &&
		    work[i - 1].end > work[i].end)
			work[i].end = work[i - 1].end;
	for (size_t i = n_work; i-- > 1;)
		if (work[i].device == work[i - 1].device &&
		    work[i].stream == work[i - 1].stream &&
		    work[i].start < work[i - 1].start)
			work[i - 1].start = work[i].start;
	dt_sort(bindings, n_bindings, sizeof(*bindings), compare_binding);

	struct dt_stream_points *points = dt_xcalloc(p->n_tensors + 1,
			sizeof(*points));
	for (size_t i = 0; i < p->n_stream_calls; i++) {
		const struct dt_stream_call *call = &p->stream_calls[i];
		uint64_t point = stream_point(p, call, bindings, n_bindings,
				work, n_work);
		if (call->is_free)
			points[call->tensor].release_ns = point;
		else
			points[call->tensor].ready_ns = point;
	}
	free(work);
	free(bindings);
	return points;
}
