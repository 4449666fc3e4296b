/*
 * The simulated runtime's memory entry points: allocation and release of
 * device, managed, stream-ordered and pinned host memory, memory pools,
 * copies and sets (which really move bytes, checked against the
 * allocations), cudaMemGetInfo and cudaPointerGetAttributes. Copies and sets
 * go on the timeline with the bandwidth model of README.md. This file must
 * never let a bad pointer reach memmove/memset: every range is checked first.
 */
#include "tests/simgpu/sim_internal.h"

#include <cupti_activity.h>
#include <cupti_runtime_cbid.h>
#include <stdlib.h>
#include <string.h>

/* Bandwidth model (README.md): a fixed part and bytes per ns. */
#define COPY_BASE_NS 2000ULL
#define PCIE_BYTES_PER_NS 25ULL   /* host <-> device: 25 GB/s */
#define DEVICE_BYTES_PER_NS 1000ULL /* device <-> device, memset: 1 TB/s */
#define HOST_BYTES_PER_NS 10ULL   /* host <-> host: 10 GB/s */
#define SET_BASE_NS 1000ULL
#define PITCH_ALIGNMENT 512ULL

#define POOL_MAGIC 0x504f4f4cU /* "POOL" */
struct CUmemPoolHandle_st {
	uint32_t magic;
	struct CUmemPoolHandle_st *next;
};
static struct CUmemPoolHandle_st default_pool = { .magic = POOL_MAGIC };
static struct CUmemPoolHandle_st *created_pools;

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

#define ENTER()                                                    \
	do {                                                       \
		cudaError_t sticky_ = sim_enter();                 \
		if (sticky_ != cudaSuccess)                        \
			return sim_return(sticky_);                \
	} while (0)

/* ---- allocation ---- */

static cudaError_t device_alloc(void **dev, size_t size, enum sim_mem_kind kind,
				const void *pool)
{
	if (!dev)
		return cudaErrorInvalidValue;
	if (size == 0) {
		/* Not in the header; real runtimes answer success and NULL. */
		*dev = NULL;
		return cudaSuccess;
	}
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_mem_alloc(size, kind, pool, dev);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

static cudaError_t malloc_impl(void **devPtr, size_t size)
{
	ENTER();
	return sim_return(device_alloc(devPtr, size, SIM_MEM_DEVICE, NULL));
}

static cudaError_t malloc_managed_impl(void **devPtr, size_t size, unsigned int flags)
{
	ENTER();
	if (!devPtr || size == 0 ||
	    (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
		return sim_return(cudaErrorInvalidValue);
	return sim_return(device_alloc(devPtr, size, SIM_MEM_MANAGED, NULL));
}

static cudaError_t malloc_pitch_impl(void **devPtr, size_t *pitch, size_t width,
			    size_t height)
{
	ENTER();
	if (!devPtr || !pitch)
		return sim_return(cudaErrorInvalidValue);
	size_t p = (size_t)ceil_div(width, PITCH_ALIGNMENT) * PITCH_ALIGNMENT;
	if (height && p > SIZE_MAX / height)
		return sim_return(cudaErrorMemoryAllocation);
	cudaError_t err = device_alloc(devPtr, p * height, SIM_MEM_DEVICE, NULL);
	if (err == cudaSuccess)
		*pitch = p;
	return sim_return(err);
}

static cudaError_t malloc_3d_impl(struct cudaPitchedPtr *pitchedDevPtr,
			 struct cudaExtent extent)
{
	ENTER();
	if (!pitchedDevPtr)
		return sim_return(cudaErrorInvalidValue);
	size_t p = (size_t)ceil_div(extent.width, PITCH_ALIGNMENT) * PITCH_ALIGNMENT;
	size_t rows = extent.height * extent.depth;
	if ((extent.height && rows / extent.height != extent.depth) ||
	    (rows && p > SIZE_MAX / rows))
		return sim_return(cudaErrorMemoryAllocation);
	void *ptr;
	cudaError_t err = device_alloc(&ptr, p * rows, SIM_MEM_DEVICE, NULL);
	if (err == cudaSuccess)
		*pitchedDevPtr = (struct cudaPitchedPtr){
			.ptr = ptr, .pitch = p, .xsize = extent.width,
			.ysize = extent.height,
		};
	return sim_return(err);
}

/* cudaFree waits for the device first, as the real one does. */
static cudaError_t free_device(void *devPtr)
{
	if (!devPtr)
		return cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	uint64_t end = sim_timeline_device_end();
	cudaError_t err = sim_mem_free(devPtr);
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess)
		sim_wait_device_time(end);
	return err;
}

static cudaError_t free_impl(void *devPtr)
{
	ENTER();
	return sim_return(free_device(devPtr));
}

static cudaError_t host_alloc_impl(void **pHost, size_t size, unsigned int flags)
{
	ENTER();
	unsigned int known = cudaHostAllocPortable | cudaHostAllocMapped |
			     cudaHostAllocWriteCombined;
	if (!pHost || (flags & ~known))
		return sim_return(cudaErrorInvalidValue);
	if (size == 0) {
		*pHost = NULL;
		return cudaSuccess;
	}
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_host_alloc(size, flags, pHost);
	pthread_mutex_unlock(&sim_lock);
	return sim_return(err);
}

static cudaError_t free_host_impl(void *ptr)
{
	ENTER();
	if (!ptr)
		return cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	uint64_t end = sim_timeline_device_end();
	cudaError_t err = sim_host_free(ptr);
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess)
		sim_wait_device_time(end);
	return sim_return(err);
}

/*
 * The allocation entry points: each call is also reported to the simulated
 * CUPTI, which writes a RUNTIME API record for it when its cbid is enabled.
 */
#define CBID(name) CUPTI_RUNTIME_TRACE_CBID_##name
cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	uint64_t t = sim_api_begin(CBID(cudaMalloc_v3020));
	return sim_api_end(CBID(cudaMalloc_v3020), t, malloc_impl(devPtr, size));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	uint64_t t = sim_api_begin(CBID(cudaMallocManaged_v6000));
	return sim_api_end(CBID(cudaMallocManaged_v6000), t,
			   malloc_managed_impl(devPtr, size, flags));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
			    size_t height)
{
	uint64_t t = sim_api_begin(CBID(cudaMallocPitch_v3020));
	return sim_api_end(CBID(cudaMallocPitch_v3020), t,
			   malloc_pitch_impl(devPtr, pitch, width, height));
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
			 struct cudaExtent extent)
{
	uint64_t t = sim_api_begin(CBID(cudaMalloc3D_v3020));
	return sim_api_end(CBID(cudaMalloc3D_v3020), t,
			   malloc_3d_impl(pitchedDevPtr, extent));
}

cudaError_t cudaFree(void *devPtr)
{
	uint64_t t = sim_api_begin(CBID(cudaFree_v3020));
	return sim_api_end(CBID(cudaFree_v3020), t, free_impl(devPtr));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	uint64_t t = sim_api_begin(CBID(cudaMallocHost_v3020));
	return sim_api_end(CBID(cudaMallocHost_v3020), t,
			   host_alloc_impl(ptr, size, cudaHostAllocDefault));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	uint64_t t = sim_api_begin(CBID(cudaHostAlloc_v3020));
	return sim_api_end(CBID(cudaHostAlloc_v3020), t,
			   host_alloc_impl(pHost, size, flags));
}

cudaError_t cudaFreeHost(void *ptr)
{
	uint64_t t = sim_api_begin(CBID(cudaFreeHost_v3020));
	return sim_api_end(CBID(cudaFreeHost_v3020), t, free_host_impl(ptr));
}

/* ---- stream-ordered allocation and pools ---- */

static int pool_is_live(const struct CUmemPoolHandle_st *pool)
{
	if (pool == &default_pool)
		return 1;
	for (struct CUmemPoolHandle_st *p = created_pools; p; p = p->next)
		if (p == pool)
			return 1;
	return 0;
}

/*
 * The block is reserved at once; the stream only orders its use. A freed
 * block may be handed out again at once (as a pool reuses memory freed on
 * the same stream). Pools have no size limit beyond the device's.
 */
static cudaError_t malloc_async_impl(void **dev, size_t size, const void *pool,
				     cudaStream_t stream, int per_thread_default)
{
	ENTER();
	if (!dev)
		return sim_return(cudaErrorInvalidValue);
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = cudaSuccess;
	if (!sim_stream_resolve(stream, per_thread_default))
		err = cudaErrorInvalidResourceHandle;
	else if (!pool_is_live(pool))
		err = cudaErrorInvalidValue;
	else if (size == 0)
		*dev = NULL;
	else
		err = sim_mem_alloc(size, SIM_MEM_STREAM_ORDERED, pool, dev);
	pthread_mutex_unlock(&sim_lock);
	return sim_return(err);
}

static cudaError_t free_async_impl(void *dev, cudaStream_t stream,
				   int per_thread_default)
{
	ENTER();
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = cudaSuccess;
	if (!sim_stream_resolve(stream, per_thread_default))
		err = cudaErrorInvalidResourceHandle;
	else if (dev)
		err = sim_mem_free(dev);
	pthread_mutex_unlock(&sim_lock);
	return sim_return(err);
}

cudaError_t sim_malloc_async(void **dev, size_t size, const void *pool,
			     cudaStream_t stream, int per_thread_default, int cbid)
{
	uint64_t t = sim_api_begin(cbid);
	return sim_api_end(cbid, t, malloc_async_impl(dev, size, pool, stream,
						      per_thread_default));
}

cudaError_t sim_free_async(void *dev, cudaStream_t stream,
			   int per_thread_default, int cbid)
{
	uint64_t t = sim_api_begin(cbid);
	return sim_api_end(cbid, t, free_async_impl(dev, stream,
						    per_thread_default));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	return sim_malloc_async(devPtr, size, &default_pool, hStream, 0,
				CBID(cudaMallocAsync_v11020));
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
	return sim_malloc_async(devPtr, size, &default_pool, hStream, 1,
				CBID(cudaMallocAsync_ptsz_v11020));
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
				    cudaMemPool_t memPool, cudaStream_t stream)
{
	return sim_malloc_async(ptr, size, memPool, stream, 0,
				CBID(cudaMallocFromPoolAsync_v11020));
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
					 cudaMemPool_t memPool,
					 cudaStream_t stream)
{
	return sim_malloc_async(ptr, size, memPool, stream, 1,
				CBID(cudaMallocFromPoolAsync_ptsz_v11020));
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	return sim_free_async(devPtr, hStream, 0, CBID(cudaFreeAsync_v11020));
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	return sim_free_async(devPtr, hStream, 1, CBID(cudaFreeAsync_ptsz_v11020));
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	ENTER();
	if (!memPool)
		return sim_return(cudaErrorInvalidValue);
	if (device != 0)
		return sim_return(cudaErrorInvalidDevice);
	*memPool = &default_pool;
	return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
			      const struct cudaMemPoolProps *poolProps)
{
	ENTER();
	if (!memPool || !poolProps ||
	    poolProps->allocType != cudaMemAllocationTypePinned ||
	    poolProps->location.type != cudaMemLocationTypeDevice)
		return sim_return(cudaErrorInvalidValue);
	if (poolProps->location.id != 0)
		return sim_return(cudaErrorInvalidDevice);
	struct CUmemPoolHandle_st *pool = calloc(1, sizeof(*pool));
	if (!pool)
		return sim_return(cudaErrorMemoryAllocation);
	pool->magic = POOL_MAGIC;
	pthread_mutex_lock(&sim_lock);
	pool->next = created_pools;
	created_pools = pool;
	pthread_mutex_unlock(&sim_lock);
	*memPool = pool;
	return cudaSuccess;
}

/* Blocks still allocated from a destroyed pool stay valid until freed. */
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	ENTER();
	pthread_mutex_lock(&sim_lock);
	struct CUmemPoolHandle_st **link = &created_pools;
	while (*link && *link != memPool)
		link = &(*link)->next;
	struct CUmemPoolHandle_st *pool = *link;
	if (pool)
		*link = pool->next;
	pthread_mutex_unlock(&sim_lock);
	if (!pool)
		return sim_return(cudaErrorInvalidValue);
	pool->magic = 0;
	/* Never freed: a stale allocation may still name it. */
	return cudaSuccess;
}

/* ---- information ---- */

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	ENTER();
	if (!free || !total)
		return sim_return(cudaErrorInvalidValue);
	pthread_mutex_lock(&sim_lock);
	*total = sim_mem_capacity();
	*free = sim_mem_capacity() - sim_mem_used();
	pthread_mutex_unlock(&sim_lock);
	return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
				     const void *ptr)
{
	ENTER();
	if (!attributes)
		return sim_return(cudaErrorInvalidValue);
	struct cudaPointerAttributes a;
	memset(&a, 0, sizeof(a));
	a.device = 0;
	pthread_mutex_lock(&sim_lock);
	const struct sim_alloc *block = sim_mem_find(ptr);
	if (block && block->kind == SIM_MEM_MANAGED) {
		a.type = cudaMemoryTypeManaged;
		a.devicePointer = (void *)ptr;
		a.hostPointer = (void *)ptr;
	} else if (block) {
		a.type = cudaMemoryTypeDevice;
		a.devicePointer = (void *)ptr;
	} else if (sim_host_find(ptr, NULL, NULL)) {
		/* Pinned memory is mapped at the same address (UVA). */
		a.type = cudaMemoryTypeHost;
		a.devicePointer = (void *)ptr;
		a.hostPointer = (void *)ptr;
	} else {
		/* Assumed, not tested on a GPU: device -2 for unregistered. */
		a.type = cudaMemoryTypeUnregistered;
		a.device = -2;
	}
	pthread_mutex_unlock(&sim_lock);
	*attributes = a;
	return cudaSuccess;
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

cudaError_t sim_memcpy2d(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind, cudaStream_t stream,
			 int per_thread_default, int is_async, int cbid)
{
	uint64_t api_start = sim_now_ns();
	ENTER();
	if ((unsigned int)kind > cudaMemcpyDefault)
		return sim_return(cudaErrorInvalidMemcpyDirection);
	if (height > 1 && (width > dpitch || width > spitch))
		return sim_return(cudaErrorInvalidPitchValue);
	int want_src = kind == cudaMemcpyDefault ? -1
		       : (kind == cudaMemcpyDeviceToHost ||
			  kind == cudaMemcpyDeviceToDevice);
	int want_dst = kind == cudaMemcpyDefault ? -1
		       : (kind == cudaMemcpyHostToDevice ||
			  kind == cudaMemcpyDeviceToDevice);
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_MEMCPY, .context_id = 1,
		.api_start_ns = api_start, .api_cbid = cbid,
		.is_async = is_async, .bytes = (uint64_t)width * height,
	};
	struct side s, d;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *st = sim_stream_resolve(stream, per_thread_default);
	if (!st)
		err = cudaErrorInvalidResourceHandle;
	else if (work.bytes == 0)
		; /* nothing to do, no GPU work */
	else if ((err = resolve_side(src, spitch, width, height, want_src, &s)) ||
		 (err = resolve_side(dst, dpitch, width, height, want_dst, &d)))
		;
	else {
		for (size_t row = 0; row < height; row++)
			memmove(d.view + row * dpitch, s.view + row * spitch, width);
		work.copy_kind = copy_kind_of(s.on_device, d.on_device);
		work.src_kind = s.mem_kind;
		work.dst_kind = d.mem_kind;
		sim_timeline_schedule(st, copy_duration_ns(work.copy_kind, work.bytes),
				      &work.start_ns, &work.end_ns);
		work.stream_id = st->cupti_id;
		work.correlation_id = sim_next_correlation_id();
	}
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess || work.bytes == 0)
		return sim_return(err);
	sim_report_work(&work);
	/* Synchronous copies return when done, except device to device. */
	if (!is_async && work.copy_kind != CUPTI_ACTIVITY_MEMCPY_KIND_DTOD)
		sim_wait_device_time(work.end_ns);
	return sim_return(sim_enter());
}

cudaError_t sim_memset2d(void *dst, size_t pitch, int value, size_t width,
			 size_t height, cudaStream_t stream,
			 int per_thread_default, int is_async, int cbid)
{
	uint64_t api_start = sim_now_ns();
	ENTER();
	if (height > 1 && width > pitch)
		return sim_return(cudaErrorInvalidPitchValue);
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_MEMSET, .context_id = 1,
		.api_start_ns = api_start, .api_cbid = cbid,
		.is_async = is_async, .bytes = (uint64_t)width * height,
		.value = (uint32_t)(unsigned char)value,
	};
	struct side d;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *st = sim_stream_resolve(stream, per_thread_default);
	if (!st)
		err = cudaErrorInvalidResourceHandle;
	else if (work.bytes == 0)
		;
	else if ((err = resolve_side(dst, pitch, width, height, -1, &d)))
		;
	else if (!d.on_device && d.mem_kind != CUPTI_ACTIVITY_MEMORY_KIND_PINNED)
		err = cudaErrorInvalidValue; /* pageable host memory */
	else {
		for (size_t row = 0; row < height; row++)
			memset(d.view + row * pitch, value, width);
		work.memory_kind = d.mem_kind;
		sim_timeline_schedule(st, SET_BASE_NS +
					  ceil_div(work.bytes, DEVICE_BYTES_PER_NS),
				      &work.start_ns, &work.end_ns);
		work.stream_id = st->cupti_id;
		work.correlation_id = sim_next_correlation_id();
	}
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess || work.bytes == 0)
		return sim_return(err);
	sim_report_work(&work);
	return cudaSuccess;
}


cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	return sim_memcpy2d(dst, count, src, count, count, 1, kind, NULL, 0, 0,
			    CBID(cudaMemcpy_v3020));
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind)
{
	return sim_memcpy2d(dst, count, src, count, count, 1, kind, NULL, 1, 0,
			    CBID(cudaMemcpy_ptds_v7000));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return sim_memcpy2d(dst, count, src, count, count, 1, kind, stream, 0, 1,
			    CBID(cudaMemcpyAsync_v3020));
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return sim_memcpy2d(dst, count, src, count, count, 1, kind, stream, 1, 1,
			    CBID(cudaMemcpyAsync_ptsz_v7000));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind)
{
	return sim_memcpy2d(dst, dpitch, src, spitch, width, height, kind, NULL,
			    0, 0, CBID(cudaMemcpy2D_v3020));
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind)
{
	return sim_memcpy2d(dst, dpitch, src, spitch, width, height, kind, NULL,
			    1, 0, CBID(cudaMemcpy2D_ptds_v7000));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return sim_memcpy2d(dst, dpitch, src, spitch, width, height, kind,
			    stream, 0, 1, CBID(cudaMemcpy2DAsync_v3020));
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
				   size_t spitch, size_t width, size_t height,
				   enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return sim_memcpy2d(dst, dpitch, src, spitch, width, height, kind,
			    stream, 1, 1, CBID(cudaMemcpy2DAsync_ptsz_v7000));
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return sim_memset2d(devPtr, count, value, count, 1, NULL, 0, 0,
			    CBID(cudaMemset_v3020));
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return sim_memset2d(devPtr, count, value, count, 1, NULL, 1, 0,
			    CBID(cudaMemset_ptds_v7000));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
			    cudaStream_t stream)
{
	return sim_memset2d(devPtr, count, value, count, 1, stream, 0, 1,
			    CBID(cudaMemsetAsync_v3020));
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
				 cudaStream_t stream)
{
	return sim_memset2d(devPtr, count, value, count, 1, stream, 1, 1,
			    CBID(cudaMemsetAsync_ptsz_v7000));
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
			 size_t height)
{
	return sim_memset2d(devPtr, pitch, value, width, height, NULL, 0, 0,
			    CBID(cudaMemset2D_v3020));
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height)
{
	return sim_memset2d(devPtr, pitch, value, width, height, NULL, 1, 0,
			    CBID(cudaMemset2D_ptds_v7000));
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height, cudaStream_t stream)
{
	return sim_memset2d(devPtr, pitch, value, width, height, stream, 0, 1,
			    CBID(cudaMemset2DAsync_v3020));
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
				   size_t width, size_t height,
				   cudaStream_t stream)
{
	return sim_memset2d(devPtr, pitch, value, width, height, stream, 1, 1,
			    CBID(cudaMemset2DAsync_ptsz_v7000));
}
