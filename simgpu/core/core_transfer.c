/*
 * Copies and sets on the simulated device (in libcuda.so.1), for runtime
 * and driver alike: each side checked against the allocations, bytes really
 * moved, the work placed on the timeline with the bandwidth model of
 * README.md and reported to CUPTI. This file must never let a bad pointer
 * reach memmove/memset: every range is checked first.
 */
#include "simgpu/core/sim_internal.h"

#include <cupti_activity.h>
#include <string.h>

/* Bandwidth model (README.md): a fixed part and bytes per ns. */
#define COPY_BASE_NS 2000ULL
#define PCIE_BYTES_PER_NS 25ULL   /* host <-> device: 25 GB/s */
#define DEVICE_BYTES_PER_NS 1000ULL /* device <-> device, memset: 1 TB/s */
#define HOST_BYTES_PER_NS 10ULL   /* host <-> host: 10 GB/s */
#define SET_BASE_NS 1000ULL

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* ---- copies and sets ---- */

struct side {
	uint8_t *view;     /* where the simulator reads or writes the bytes */
	int on_device;     /* device or managed memory */
	uint8_t mem_kind;  /* CUpti_ActivityMemoryKind */
};

/*
 * Checks one side of a copy or set: the region of `height` rows of `width`
 * bytes, `pitch` apart, starting at p. want: 1 device, 0 host, -1 either.
 * Managed memory counts as device memory but may also stand as host memory.
 * Caller holds sim_lock.
 */
static cudaError_t resolve_side(const void *p, size_t pitch, size_t width,
				size_t height, int want, struct side *out)
{
	if (!p)
		return cudaErrorInvalidValue;
	uint64_t extent;
	if (__builtin_mul_overflow((uint64_t)(height - 1), (uint64_t)pitch, &extent) ||
	    __builtin_add_overflow(extent, (uint64_t)width, &extent))
		return cudaErrorInvalidValue;
	if (sim_vmm_in_range(p)) {
		/* Mapped virtual memory is device memory (cuMemCreate). */
		if (want == 0)
			return cudaErrorInvalidValue;
		out->view = sim_vmm_view(p, extent);
		if (!out->view)
			return cudaErrorInvalidValue;
		out->on_device = 1;
		out->mem_kind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
		return cudaSuccess;
	}
	if (sim_mem_in_device_range(p)) {
		const struct sim_alloc *a = sim_mem_find(p);
		if (!a || sim_mem_find((const void *)((uintptr_t)p + extent - 1)) != a)
			return cudaErrorInvalidValue;
		if (want == 0 && a->kind != SIM_MEM_MANAGED)
			return cudaErrorInvalidValue;
		out->view = sim_mem_view(p);
		out->on_device = 1;
		out->mem_kind = a->kind == SIM_MEM_MANAGED
					? CUPTI_ACTIVITY_MEMORY_KIND_MANAGED
					: CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
		return cudaSuccess;
	}
	if (want == 1)
		return cudaErrorInvalidValue;
	out->view = (uint8_t *)p;
	out->on_device = 0;
	out->mem_kind = sim_host_find(p, NULL, NULL)
				? CUPTI_ACTIVITY_MEMORY_KIND_PINNED
				: CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
	return cudaSuccess;
}

static uint8_t copy_kind_of(int src_on_device, int dst_on_device)
{
	if (src_on_device)
		return dst_on_device ? CUPTI_ACTIVITY_MEMCPY_KIND_DTOD
				     : CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
	return dst_on_device ? CUPTI_ACTIVITY_MEMCPY_KIND_HTOD
			     : CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
}

static uint64_t copy_duration_ns(uint8_t copy_kind, uint64_t bytes)
{
	switch (copy_kind) {
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
		return COPY_BASE_NS + ceil_div(bytes, DEVICE_BYTES_PER_NS);
	case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
		return COPY_BASE_NS + ceil_div(bytes, HOST_BYTES_PER_NS);
	default:
		return COPY_BASE_NS + ceil_div(bytes, PCIE_BYTES_PER_NS);
	}
}

cudaError_t sim_copy_locked(struct CUstream_st *st, const struct sim_copy_args *c,
			    int run, struct simgpu_work *work,
			    struct sim_instant *end)
{
	if (c->height > 1 && (c->width > c->dpitch || c->width > c->spitch))
		return cudaErrorInvalidPitchValue;
	uint64_t bytes = (uint64_t)c->width * c->height;
	if (run)
		work->bytes = bytes;
	if (bytes == 0)
		return cudaSuccess; /* nothing to do, no GPU work */
	struct side s, d;
	cudaError_t err;
	if ((err = resolve_side(c->src, c->spitch, c->width, c->height,
				c->want_src, &s)) ||
	    (err = resolve_side(c->dst, c->dpitch, c->width, c->height,
				c->want_dst, &d)) || !run)
		return err;
	for (size_t row = 0; row < c->height; row++)
		memmove(d.view + row * c->dpitch, s.view + row * c->spitch,
			c->width);
	work->copy_kind = copy_kind_of(s.on_device, d.on_device);
	work->src_kind = s.mem_kind;
	work->dst_kind = d.mem_kind;
	*end = sim_timeline_schedule(st, copy_duration_ns(work->copy_kind, bytes),
				     &work->start_ns, &work->end_ns);
	work->stream_id = st->cupti_id;
	return cudaSuccess;
}

cudaError_t sim_memcpy2d(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 int want_src, int want_dst, cudaStream_t stream,
			 int per_thread_default, int is_async, int cbid)
{
	uint64_t api_start = sim_now_ns();
	cudaError_t sticky = sim_enter();
	if (sticky != cudaSuccess)
		return sticky;
	if (height > 1 && (width > dpitch || width > spitch))
		return cudaErrorInvalidPitchValue;
	struct sim_copy_args c = { dst, dpitch, src, spitch, width, height,
				   want_src, want_dst };
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_MEMCPY, .context_id = 1,
		.api_start_ns = api_start, .driver_cbid = cbid,
		.is_async = is_async,
	};
	struct sim_instant end = { 0, 0 };
	cudaError_t err = cudaSuccess;
	int captured = 0;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *st = sim_stream_resolve(stream, per_thread_default);
	if (!st)
		err = cudaErrorInvalidResourceHandle;
	else if (st->capture) {
		captured = 1;
		err = sim_graph_capture_copy(st, &c);
	} else if ((err = sim_copy_locked(st, &c, 1, &work, &end)) ==
			   cudaSuccess && work.bytes)
		work.correlation_id = sim_next_correlation_id();
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess || captured || work.bytes == 0)
		return err;
	sim_report_work(&work);
	/* Synchronous copies return when done, except device to device. */
	if (!is_async && work.copy_kind != CUPTI_ACTIVITY_MEMCPY_KIND_DTOD)
		sim_wait_device_time(end);
	return sim_enter();
}

/* Writes n elements of elem_size bytes holding value at p. */
static void fill(uint8_t *p, unsigned int value, size_t elem_size, size_t n)
{
	if (elem_size == 1) {
		memset(p, (int)(value & 0xff), n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		memcpy(p + i * elem_size, &value, elem_size); /* little endian */
}

cudaError_t sim_set_locked(struct CUstream_st *st, const struct sim_set_args *p,
			   int run, struct simgpu_work *work)
{
	size_t width_bytes = p->width * p->elem_size;
	if (p->height > 1 && width_bytes > p->pitch)
		return cudaErrorInvalidPitchValue;
	uint64_t bytes = (uint64_t)width_bytes * p->height;
	if (run) {
		work->bytes = bytes;
		work->value = p->elem_size == 1 ? (p->value & 0xff) : p->value;
	}
	if (bytes == 0)
		return cudaSuccess;
	struct side d;
	cudaError_t err = resolve_side(p->dst, p->pitch, width_bytes, p->height,
				       -1, &d);
	if (err != cudaSuccess)
		return err;
	if (!d.on_device && d.mem_kind != CUPTI_ACTIVITY_MEMORY_KIND_PINNED)
		return cudaErrorInvalidValue; /* pageable host memory */
	if (!run)
		return cudaSuccess;
	for (size_t row = 0; row < p->height; row++)
		fill(d.view + row * p->pitch, p->value, p->elem_size, p->width);
	work->memory_kind = d.mem_kind;
	sim_timeline_schedule(st, SET_BASE_NS + ceil_div(bytes, DEVICE_BYTES_PER_NS),
			      &work->start_ns, &work->end_ns);
	work->stream_id = st->cupti_id;
	return cudaSuccess;
}

cudaError_t sim_memset2d(void *dst, size_t pitch, unsigned int value,
			 size_t elem_size, size_t width, size_t height,
			 cudaStream_t stream, int per_thread_default,
			 int is_async, int cbid)
{
	uint64_t api_start = sim_now_ns();
	cudaError_t sticky = sim_enter();
	if (sticky != cudaSuccess)
		return sticky;
	if (height > 1 && width * elem_size > pitch)
		return cudaErrorInvalidPitchValue;
	struct sim_set_args p = { dst, pitch, value, elem_size, width, height };
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_MEMSET, .context_id = 1,
		.api_start_ns = api_start, .driver_cbid = cbid,
		.is_async = is_async,
	};
	cudaError_t err = cudaSuccess;
	int captured = 0;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *st = sim_stream_resolve(stream, per_thread_default);
	if (!st)
		err = cudaErrorInvalidResourceHandle;
	else if (st->capture) {
		captured = 1;
		err = sim_graph_capture_set(st, &p);
	} else if ((err = sim_set_locked(st, &p, 1, &work)) == cudaSuccess &&
		   work.bytes)
		work.correlation_id = sim_next_correlation_id();
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess || captured || work.bytes == 0)
		return err;
	sim_report_work(&work);
	return cudaSuccess;
}
