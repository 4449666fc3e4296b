/*
 * Allocation as the simulated device does it (in libcuda.so.1), below both
 * APIs: device and managed blocks, cudaFree-style release that waits for
 * the device, pinned host memory, stream-ordered allocation, memory pools,
 * and what a pointer is (cudaPointerGetAttributes). Size-0 and argument
 * rules that differ between runtime and driver stay in their entry points.
 * It must never hand out a block without taking sim_lock.
 */
#include "simgpu/core/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define POOL_MAGIC 0x504f4f4cU /* "POOL" */
/*
 * A pool's attributes are kept and read back; only its accounting acts:
 * freed blocks go back to the device at once whatever the release
 * threshold (first-fit then hands the same addresses out again, as a pool
 * reuses its memory), so reserved memory equals used memory.
 */
struct CUmemPoolHandle_st {
	uint32_t magic;
	struct CUmemPoolHandle_st *next;
	uint64_t release_threshold;
	int reuse_follow_event_dependencies;
	int reuse_allow_opportunistic;
	int reuse_allow_internal_dependencies;
	uint64_t used, used_high;
};
/* The defaults of a real pool (CUDA programming guide: "all on by default"). */
#define POOL_DEFAULTS .reuse_follow_event_dependencies = 1, \
	.reuse_allow_opportunistic = 1, .reuse_allow_internal_dependencies = 1
static struct CUmemPoolHandle_st default_pool = { .magic = POOL_MAGIC,
						   POOL_DEFAULTS };
static struct CUmemPoolHandle_st *created_pools;
/* Destroyed pools: kept (a stale allocation may still name one). */
static struct CUmemPoolHandle_st *destroyed_pools;

cudaError_t sim_alloc_device(void **dev, size_t size, enum sim_mem_kind kind)
{
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_mem_alloc(size, kind, NULL, dev);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* The free waits for the device first, as the real cudaFree/cuMemFree do. */
cudaError_t sim_free_device(void *dev)
{
	pthread_mutex_lock(&sim_lock);
	struct sim_instant end = sim_timeline_device_end();
	cudaError_t err;
	if (!sim_graph_mem_free(dev, &err)) /* a graph allocation, else a block */
		err = sim_mem_free(dev);
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess)
		sim_wait_device_time(end);
	return err;
}

cudaError_t sim_alloc_pinned(void **host, size_t size, unsigned int flags)
{
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = sim_host_alloc(size, flags, host);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaError_t sim_free_pinned(void *host)
{
	pthread_mutex_lock(&sim_lock);
	struct sim_instant end = sim_timeline_device_end();
	cudaError_t err = sim_host_free(host);
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess)
		sim_wait_device_time(end);
	return err;
}

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
 * the same stream). Pools have no size limit beyond the device's. Size 0
 * gives NULL once the stream is known good (assumed for the driver too).
 */
cudaError_t sim_alloc_async(void **dev, size_t size, const void *pool,
			    cudaStream_t stream, int per_thread_default)
{
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = cudaSuccess;
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (!pool_is_live(pool))
		err = cudaErrorInvalidValue;
	else if (size == 0)
		*dev = NULL;
	else if (s->capture) { /* an alloc node of the capture's graph */
		uint64_t va = 0;
		err = sim_graph_capture_alloc(s, size, &va);
		if (err == cudaSuccess)
			*dev = (void *)(uintptr_t)va;
		pthread_mutex_unlock(&sim_lock);
		return err;
	} else
		err = sim_mem_alloc(size, SIM_MEM_STREAM_ORDERED, pool, dev);
	if (err == cudaSuccess && size) {
		struct CUmemPoolHandle_st *p = (struct CUmemPoolHandle_st *)pool;
		p->used += sim_mem_find(*dev)->size;
		if (p->used > p->used_high)
			p->used_high = p->used;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaError_t sim_free_async(void *dev, cudaStream_t stream,
			   int per_thread_default)
{
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = cudaSuccess;
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (dev && s->capture) /* a free node of the capture's graph */
		err = sim_graph_capture_free(s, dev);
	else if (dev && sim_graph_mem_free(dev, &err))
		; /* a graph allocation: unmapped (the stream's order is the
		   * timeline's: nothing runs later than this call here) */
	else if (dev) {
		const struct sim_alloc *block = sim_mem_find(dev);
		struct CUmemPoolHandle_st *pool = block ?
			(struct CUmemPoolHandle_st *)block->pool : NULL;
		uint64_t bytes = block ? block->size : 0;
		err = sim_mem_free(dev);
		if (err == cudaSuccess && pool)
			pool->used -= bytes;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaMemPool_t sim_default_pool(void)
{
	return &default_pool;
}

cudaError_t sim_pool_create(cudaMemPool_t *out)
{
	struct CUmemPoolHandle_st *pool = calloc(1, sizeof(*pool));
	if (!pool)
		return cudaErrorMemoryAllocation;
	*pool = (struct CUmemPoolHandle_st){ .magic = POOL_MAGIC, POOL_DEFAULTS };
	pthread_mutex_lock(&sim_lock);
	pool->next = created_pools;
	created_pools = pool;
	pthread_mutex_unlock(&sim_lock);
	*out = pool;
	return cudaSuccess;
}

/* Blocks still allocated from a destroyed pool stay valid until freed. */
cudaError_t sim_pool_destroy(cudaMemPool_t handle)
{
	pthread_mutex_lock(&sim_lock);
	struct CUmemPoolHandle_st **link = &created_pools;
	while (*link && *link != handle)
		link = &(*link)->next;
	struct CUmemPoolHandle_st *pool = *link;
	if (pool) {
		*link = pool->next;
		pool->magic = 0;
		pool->next = destroyed_pools;
		destroyed_pools = pool;
	}
	pthread_mutex_unlock(&sim_lock);
	return pool ? cudaSuccess : cudaErrorInvalidValue;
}

/*
 * The attribute types are cudaMemPoolSetAttribute's: int for the reuse
 * flags, uint64_t (cuuint64_t) for the byte counts. The *High watermarks
 * may only be set to 0, which resets them to the current value; the
 * *Current figures are read-only (cudaErrorInvalidValue, as documented).
 */
cudaError_t sim_pool_set_attribute(cudaMemPool_t handle,
				   enum cudaMemPoolAttr attr, const void *value)
{
	if (!value)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = cudaSuccess;
	struct CUmemPoolHandle_st *pool = handle;
	uint64_t u64;
	int flag;
	if (!pool_is_live(pool)) {
		err = cudaErrorInvalidValue;
	} else switch (attr) {
	case cudaMemPoolAttrReleaseThreshold:
		memcpy(&u64, value, sizeof(u64));
		pool->release_threshold = u64;
		break;
	case cudaMemPoolReuseFollowEventDependencies:
	case cudaMemPoolReuseAllowOpportunistic:
	case cudaMemPoolReuseAllowInternalDependencies:
		memcpy(&flag, value, sizeof(flag));
		*(attr == cudaMemPoolReuseFollowEventDependencies ?
			  &pool->reuse_follow_event_dependencies :
		  attr == cudaMemPoolReuseAllowOpportunistic ?
			  &pool->reuse_allow_opportunistic :
			  &pool->reuse_allow_internal_dependencies) = flag != 0;
		break;
	case cudaMemPoolAttrReservedMemHigh:
	case cudaMemPoolAttrUsedMemHigh:
		memcpy(&u64, value, sizeof(u64));
		if (u64 != 0)
			err = cudaErrorInvalidValue;
		else
			pool->used_high = pool->used;
		break;
	default:
		err = cudaErrorInvalidValue;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaError_t sim_pool_get_attribute(cudaMemPool_t handle,
				   enum cudaMemPoolAttr attr, void *value)
{
	if (!value)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = cudaSuccess;
	const struct CUmemPoolHandle_st *pool = handle;
	uint64_t u64 = 0;
	int flag = -1;
	if (!pool_is_live(pool)) {
		err = cudaErrorInvalidValue;
	} else switch (attr) {
	case cudaMemPoolAttrReleaseThreshold: u64 = pool->release_threshold; break;
	case cudaMemPoolReuseFollowEventDependencies:
		flag = pool->reuse_follow_event_dependencies; break;
	case cudaMemPoolReuseAllowOpportunistic:
		flag = pool->reuse_allow_opportunistic; break;
	case cudaMemPoolReuseAllowInternalDependencies:
		flag = pool->reuse_allow_internal_dependencies; break;
	case cudaMemPoolAttrReservedMemCurrent:
	case cudaMemPoolAttrUsedMemCurrent: u64 = pool->used; break;
	case cudaMemPoolAttrReservedMemHigh:
	case cudaMemPoolAttrUsedMemHigh: u64 = pool->used_high; break;
	default:
		err = cudaErrorInvalidValue;
	}
	pthread_mutex_unlock(&sim_lock);
	if (err == cudaSuccess && flag >= 0)
		memcpy(value, &flag, sizeof(flag));
	else if (err == cudaSuccess)
		memcpy(value, &u64, sizeof(u64));
	return err;
}

void sim_pointer_attributes(const void *ptr, struct cudaPointerAttributes *out)
{
	struct cudaPointerAttributes a;
	memset(&a, 0, sizeof(a));
	/* Every simulated device shares one memory: the pointer's device is
	 * taken to be the caller's (a process drives one device). */
	a.device = sim_current_device();
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
	*out = a;
}
