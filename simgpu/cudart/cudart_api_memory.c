/*
 * The simulated runtime's memory entry points: allocation and release of
 * device, managed, stream-ordered and pinned host memory, memory pools,
 * copies and sets, cudaMemGetInfo and cudaPointerGetAttributes. Each checks
 * what only the runtime checks (size 0, copy directions, pitches), then
 * calls the driver entry point it got through cuGetProcAddress, inside a
 * frame so CUPTI sees one call. It must never touch device memory itself.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <stdint.h>
#include <string.h>

#define PITCH_ALIGNMENT 512ULL
/* Any element size the driver accepts: the pitch does not depend on it. */
#define PITCH_ELEMENT_BYTES 4U

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

#define DEVPTR(p) ((CUdeviceptr)(uintptr_t)(p))

/* ---- allocation ---- */

/* Size 0 is not in the header; real runtimes answer success and NULL. */
static cudaError_t malloc_impl(void **devPtr, size_t size)
{
	ENTER();
	if (!devPtr)
		return sim_return(cudaErrorInvalidValue);
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	CUdeviceptr p;
	CUresult r = cudart_drv.mem_alloc(&p, size);
	if (r == CUDA_SUCCESS)
		*devPtr = (void *)(uintptr_t)p;
	return sim_return(cudart_error(r));
}

static cudaError_t malloc_managed_impl(void **devPtr, size_t size,
				       unsigned int flags)
{
	ENTER();
	if (!devPtr || size == 0 ||
	    (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
		return sim_return(cudaErrorInvalidValue);
	CUdeviceptr p;
	CUresult r = cudart_drv.mem_alloc_managed(&p, size, flags);
	if (r == CUDA_SUCCESS)
		*devPtr = (void *)(uintptr_t)p;
	return sim_return(cudart_error(r));
}

/* width x height bytes, pitch = width rounded up to 512; empty: NULL. */
static cudaError_t alloc_pitched(void **devPtr, size_t *pitch, size_t width,
				 size_t height)
{
	size_t p = (size_t)ceil_div(width, PITCH_ALIGNMENT) * PITCH_ALIGNMENT;
	if (height && p > SIZE_MAX / height)
		return cudaErrorMemoryAllocation;
	if (p * height == 0) {
		*devPtr = NULL;
		*pitch = p;
		return cudaSuccess;
	}
	CUdeviceptr d;
	size_t driver_pitch;
	CUresult r = cudart_drv.mem_alloc_pitch(&d, &driver_pitch, width, height,
						 PITCH_ELEMENT_BYTES);
	if (r != CUDA_SUCCESS)
		return cudart_error(r);
	*devPtr = (void *)(uintptr_t)d;
	*pitch = driver_pitch;
	return cudaSuccess;
}

static cudaError_t malloc_pitch_impl(void **devPtr, size_t *pitch, size_t width,
				     size_t height)
{
	ENTER();
	if (!devPtr || !pitch)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(alloc_pitched(devPtr, pitch, width, height));
}

static cudaError_t malloc_3d_impl(struct cudaPitchedPtr *pitchedDevPtr,
				  struct cudaExtent extent)
{
	ENTER();
	if (!pitchedDevPtr)
		return sim_return(cudaErrorInvalidValue);
	size_t rows = extent.height * extent.depth;
	if (extent.height && rows / extent.height != extent.depth)
		return sim_return(cudaErrorMemoryAllocation);
	void *ptr;
	size_t pitch;
	cudaError_t err = alloc_pitched(&ptr, &pitch, extent.width, rows);
	if (err == cudaSuccess)
		*pitchedDevPtr = (struct cudaPitchedPtr){
			.ptr = ptr, .pitch = pitch, .xsize = extent.width,
			.ysize = extent.height,
		};
	return sim_return(err);
}

static cudaError_t free_impl(void *devPtr)
{
	ENTER();
	if (!devPtr)
		return cudaSuccess;
	return sim_return(cudart_error(cudart_drv.mem_free(DEVPTR(devPtr))));
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
	/* cudaHostAlloc* flags have the values of CU_MEMHOSTALLOC_*. */
	return sim_return(cudart_error(cudart_drv.mem_host_alloc(pHost, size, flags)));
}

static cudaError_t free_host_impl(void *ptr)
{
	ENTER();
	if (!ptr)
		return cudaSuccess;
	return sim_return(cudart_error(cudart_drv.mem_free_host(ptr)));
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	RUNTIME_CALL(RT_CBID(cudaMalloc_v3020), 0, malloc_impl(devPtr, size));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	RUNTIME_CALL(RT_CBID(cudaMallocManaged_v6000), 0,
		     malloc_managed_impl(devPtr, size, flags));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
			    size_t height)
{
	RUNTIME_CALL(RT_CBID(cudaMallocPitch_v3020), 0,
		     malloc_pitch_impl(devPtr, pitch, width, height));
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
			 struct cudaExtent extent)
{
	RUNTIME_CALL(RT_CBID(cudaMalloc3D_v3020), 0,
		     malloc_3d_impl(pitchedDevPtr, extent));
}

cudaError_t cudaFree(void *devPtr)
{
	RUNTIME_CALL(RT_CBID(cudaFree_v3020), 0, free_impl(devPtr));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	RUNTIME_CALL(RT_CBID(cudaMallocHost_v3020), 0,
		     host_alloc_impl(ptr, size, cudaHostAllocDefault));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	RUNTIME_CALL(RT_CBID(cudaHostAlloc_v3020), 0,
		     host_alloc_impl(pHost, size, flags));
}

cudaError_t cudaFreeHost(void *ptr)
{
	RUNTIME_CALL(RT_CBID(cudaFreeHost_v3020), 0, free_host_impl(ptr));
}

/* ---- stream-ordered allocation and pools ---- */

static cudaError_t malloc_async_impl(void **dev, size_t size,
				     cudaMemPool_t pool, cudaStream_t stream,
				     int per_thread)
{
	ENTER();
	if (!dev)
		return sim_return(cudaErrorInvalidValue);
	const struct cudart_driver *drv = cudart_driver_for(per_thread);
	CUdeviceptr p = 0;
	CUresult r = pool ? drv->mem_alloc_from_pool_async(&p, size, pool, stream)
			  : drv->mem_alloc_async(&p, size, stream);
	if (r == CUDA_SUCCESS)
		*dev = (void *)(uintptr_t)p;
	return sim_return(cudart_error(r));
}

static cudaError_t free_async_impl(void *dev, cudaStream_t stream, int per_thread)
{
	ENTER();
	return sim_return(cudart_error(
		cudart_driver_for(per_thread)->mem_free_async(DEVPTR(dev), stream)));
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	RUNTIME_CALL(RT_CBID(cudaMallocAsync_v11020), 0,
		     malloc_async_impl(devPtr, size, NULL, hStream, 0));
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
	RUNTIME_CALL(RT_CBID(cudaMallocAsync_ptsz_v11020), 0,
		     malloc_async_impl(devPtr, size, NULL, hStream, 1));
}

/* A NULL pool is no pool: cudaErrorInvalidValue, as for a dead one. */
static cudaError_t malloc_from_pool_impl(void **ptr, size_t size,
					 cudaMemPool_t pool, cudaStream_t stream,
					 int per_thread)
{
	if (!pool) {
		ENTER();
		return sim_return(cudaErrorInvalidValue);
	}
	return malloc_async_impl(ptr, size, pool, stream, per_thread);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
				    cudaMemPool_t memPool, cudaStream_t stream)
{
	RUNTIME_CALL(RT_CBID(cudaMallocFromPoolAsync_v11020), 0,
		     malloc_from_pool_impl(ptr, size, memPool, stream, 0));
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
					 cudaMemPool_t memPool,
					 cudaStream_t stream)
{
	RUNTIME_CALL(RT_CBID(cudaMallocFromPoolAsync_ptsz_v11020), 0,
		     malloc_from_pool_impl(ptr, size, memPool, stream, 1));
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	RUNTIME_CALL(RT_CBID(cudaFreeAsync_v11020), 0,
		     free_async_impl(devPtr, hStream, 0));
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	RUNTIME_CALL(RT_CBID(cudaFreeAsync_ptsz_v11020), 0,
		     free_async_impl(devPtr, hStream, 1));
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	ENTER();
	if (!memPool)
		return sim_return(cudaErrorInvalidValue);
	CUmemoryPool pool;
	CUresult r = cudart_drv.device_get_default_mem_pool(&pool, device);
	if (r == CUDA_SUCCESS)
		*memPool = pool;
	return sim_return(cudart_error(r));
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
			      const struct cudaMemPoolProps *poolProps)
{
	ENTER();
	if (!memPool || !poolProps ||
	    poolProps->allocType != cudaMemAllocationTypePinned ||
	    poolProps->location.type != cudaMemLocationTypeDevice)
		return sim_return(cudaErrorInvalidValue);
	CUmemPoolProps props;
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.handleTypes = (CUmemAllocationHandleType)poolProps->handleTypes;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = poolProps->location.id;
	props.maxSize = poolProps->maxSize;
	CUmemoryPool pool;
	CUresult r = cudart_drv.mem_pool_create(&pool, &props);
	if (r == CUDA_SUCCESS)
		*memPool = pool;
	return sim_return(cudart_error(r));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.mem_pool_destroy(memPool)));
}

/* cudaMemPoolAttr and CUmemPool_attribute share their values. */
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
				    enum cudaMemPoolAttr attr, void *value)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.mem_pool_set_attribute(
		memPool, (CUmemPool_attribute)attr, value)));
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
				    enum cudaMemPoolAttr attr, void *value)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.mem_pool_get_attribute(
		memPool, (CUmemPool_attribute)attr, value)));
}

/* ---- information ---- */

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	ENTER();
	if (!free || !total)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.mem_get_info(free, total)));
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
				     const void *ptr)
{
	ENTER();
	if (!attributes)
		return sim_return(cudaErrorInvalidValue);
	cudart_priv.pointer_attributes(ptr, attributes);
	return cudaSuccess;
}

/* ---- copies ---- */

/*
 * The driver entry point for each direction: device sides must be device
 * (or managed) memory, host sides host (or managed) memory, as the runtime
 * checks a cudaMemcpyKind; cudaMemcpyDefault is unified addressing.
 */
static CUresult copy_1d(const struct cudart_driver *drv, void *dst,
			const void *src, size_t n, enum cudaMemcpyKind kind,
			cudaStream_t stream, int is_async)
{
	CUdeviceptr d = DEVPTR(dst), s = DEVPTR(src);
	switch (kind) {
	case cudaMemcpyHostToDevice:
		return is_async ? drv->memcpy_htod_async(d, src, n, stream)
				: drv->memcpy_htod(d, src, n);
	case cudaMemcpyDeviceToHost:
		return is_async ? drv->memcpy_dtoh_async(dst, s, n, stream)
				: drv->memcpy_dtoh(dst, s, n);
	case cudaMemcpyDeviceToDevice:
		return is_async ? drv->memcpy_dtod_async(d, s, n, stream)
				: drv->memcpy_dtod(d, s, n);
	case cudaMemcpyDefault:
		return is_async ? drv->memcpy_async(d, s, n, stream)
				: drv->memcpy(d, s, n);
	default: { /* host to host: a one-row 2D copy between host memory */
		CUDA_MEMCPY2D c = {
			.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = src,
			.srcPitch = n, .dstMemoryType = CU_MEMORYTYPE_HOST,
			.dstHost = dst, .dstPitch = n, .WidthInBytes = n,
			.Height = 1,
		};
		return is_async ? drv->memcpy_2d_async(&c, stream)
				: drv->memcpy_2d(&c);
	}
	}
}

CUmemorytype cudart_copy_side_type(enum cudaMemcpyKind kind, int is_src)
{
	if (kind == cudaMemcpyDefault)
		return CU_MEMORYTYPE_UNIFIED;
	int device = is_src ? (kind == cudaMemcpyDeviceToHost ||
			       kind == cudaMemcpyDeviceToDevice)
			    : (kind == cudaMemcpyHostToDevice ||
			       kind == cudaMemcpyDeviceToDevice);
	return device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
}

void cudart_copy_2d_side(CUDA_MEMCPY2D *c, int is_src, CUmemorytype type,
			 const void *p, size_t pitch)
{
	if (is_src) {
		c->srcMemoryType = type, c->srcPitch = pitch;
		if (type == CU_MEMORYTYPE_HOST)
			c->srcHost = p;
		else
			c->srcDevice = DEVPTR(p);
	} else {
		c->dstMemoryType = type, c->dstPitch = pitch;
		if (type == CU_MEMORYTYPE_HOST)
			c->dstHost = (void *)p;
		else
			c->dstDevice = DEVPTR(p);
	}
}

static cudaError_t memcpy_impl(void *dst, size_t dpitch, const void *src,
			       size_t spitch, size_t width, size_t height,
			       enum cudaMemcpyKind kind, cudaStream_t stream,
			       int per_thread, int is_async, int is_2d)
{
	ENTER();
	if ((unsigned int)kind > cudaMemcpyDefault)
		return sim_return(cudaErrorInvalidMemcpyDirection);
	if (height > 1 && (width > dpitch || width > spitch))
		return sim_return(cudaErrorInvalidPitchValue);
	const struct cudart_driver *drv = cudart_driver_for(per_thread);
	if (!is_2d)
		return sim_return(cudart_error(
			copy_1d(drv, dst, src, width, kind, stream, is_async)));
	CUDA_MEMCPY2D c;
	memset(&c, 0, sizeof(c));
	cudart_copy_2d_side(&c, 1, cudart_copy_side_type(kind, 1), src, spitch);
	cudart_copy_2d_side(&c, 0, cudart_copy_side_type(kind, 0), dst, dpitch);
	c.WidthInBytes = width;
	c.Height = height;
	return sim_return(cudart_error(is_async ? drv->memcpy_2d_async(&c, stream)
						: drv->memcpy_2d(&c)));
}

cudaError_t cudart_memcpy_1d(void *dst, const void *src, size_t count,
			     enum cudaMemcpyKind kind, cudaStream_t stream,
			     int per_thread, int is_async)
{
	return memcpy_impl(dst, count, src, count, count, 1, kind, stream,
			   per_thread, is_async, 0);
}

/* ---- peer copies and prefetches ---- */

#define COPY_CALL(cbid, impl) RUNTIME_CALL(RT_CBID(cbid), 1, impl)

/*
 * Every simulated device shares one address space (core_alloc.c), so a
 * peer copy is a device-to-device copy once both ordinals are valid; its
 * GPU record is a DtoD memcpy (assumed: a real GPU reports PtoP when the
 * devices differ, DtoD otherwise).
 */
static cudaError_t memcpy_peer_impl(void *dst, int dst_device, const void *src,
				    int src_device, size_t count, cudaStream_t stream)
{
	ENTER();
	cudaError_t err = cudart_check_device(dst_device);
	if (err == cudaSuccess)
		err = cudart_check_device(src_device);
	if (err != cudaSuccess)
		return sim_return(err);
	return memcpy_impl(dst, count, src, count, count, 1, cudaMemcpyDeviceToDevice,
			   stream, 0, 1, 0);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
				int srcDevice, size_t count, cudaStream_t stream)
{
	COPY_CALL(cudaMemcpyPeerAsync_v4000,
		  memcpy_peer_impl(dst, dstDevice, src, srcDevice, count, stream));
}

/*
 * cudaMemPrefetchAsync's contract (cuda_runtime_api.h): managed memory
 * only, flags 0, a device location that exists or a host one. Simulated
 * memory has one place, so the migration itself costs no time and
 * produces no GPU record (a real GPU reports it as unified-memory counter
 * records, which dnntrace does not read). Assumed for count 0: invalid.
 */
static cudaError_t prefetch_impl(const void *dev_ptr, size_t count,
				 struct cudaMemLocation location, unsigned int flags,
				 cudaStream_t stream, int per_thread)
{
	ENTER();
	if (flags != 0 || count == 0)
		return sim_return(cudaErrorInvalidValue);
	switch (location.type) {
	case cudaMemLocationTypeDevice: {
		cudaError_t err = cudart_check_device(location.id);
		if (err != cudaSuccess)
			return sim_return(err);
		break;
	}
	case cudaMemLocationTypeHost:
	case cudaMemLocationTypeHostNuma:
	case cudaMemLocationTypeHostNumaCurrent:
		break;
	default:
		return sim_return(cudaErrorInvalidValue);
	}
	struct cudaPointerAttributes first, last;
	cudart_priv.pointer_attributes(dev_ptr, &first);
	cudart_priv.pointer_attributes((const char *)dev_ptr + count - 1, &last);
	if (first.type != cudaMemoryTypeManaged || last.type != cudaMemoryTypeManaged)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t err = cudart_error(cudart_driver_for(per_thread)->stream_query(stream));
	return sim_return(err == cudaErrorNotReady ? cudaSuccess : err);
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
				 struct cudaMemLocation location, unsigned int flags,
				 cudaStream_t stream)
{
	COPY_CALL(cudaMemPrefetchAsync_v12020,
		  prefetch_impl(devPtr, count, location, flags, stream, 0));
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
				      struct cudaMemLocation location, unsigned int flags,
				      cudaStream_t stream)
{
	COPY_CALL(cudaMemPrefetchAsync_ptsz_v12020,
		  prefetch_impl(devPtr, count, location, flags, stream, 1));
}


#define COPY(cbid, ...) RUNTIME_CALL(RT_CBID(cbid), 1, memcpy_impl(__VA_ARGS__))

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	COPY(cudaMemcpy_v3020, dst, count, src, count, count, 1, kind, NULL,
	     0, 0, 0);
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind)
{
	COPY(cudaMemcpy_ptds_v7000, dst, count, src, count, count, 1, kind,
	     NULL, 1, 0, 0);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	COPY(cudaMemcpyAsync_v3020, dst, count, src, count, count, 1, kind,
	     stream, 0, 1, 0);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind, cudaStream_t stream)
{
	COPY(cudaMemcpyAsync_ptsz_v7000, dst, count, src, count, count, 1,
	     kind, stream, 1, 1, 0);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind)
{
	COPY(cudaMemcpy2D_v3020, dst, dpitch, src, spitch, width, height, kind,
	     NULL, 0, 0, 1);
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind)
{
	COPY(cudaMemcpy2D_ptds_v7000, dst, dpitch, src, spitch, width, height,
	     kind, NULL, 1, 0, 1);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	COPY(cudaMemcpy2DAsync_v3020, dst, dpitch, src, spitch, width, height,
	     kind, stream, 0, 1, 1);
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
				   size_t spitch, size_t width, size_t height,
				   enum cudaMemcpyKind kind, cudaStream_t stream)
{
	COPY(cudaMemcpy2DAsync_ptsz_v7000, dst, dpitch, src, spitch, width,
	     height, kind, stream, 1, 1, 1);
}

/* ---- sets ---- */

static cudaError_t memset_impl(void *dst, size_t pitch, int value, size_t width,
			       size_t height, cudaStream_t stream,
			       int per_thread, int is_async, int is_2d)
{
	ENTER();
	if (height > 1 && width > pitch)
		return sim_return(cudaErrorInvalidPitchValue);
	const struct cudart_driver *drv = cudart_driver_for(per_thread);
	CUdeviceptr d = DEVPTR(dst);
	unsigned char byte = (unsigned char)value;
	CUresult r;
	if (!is_2d)
		r = is_async ? drv->memset_d8_async(d, byte, width, stream)
			     : drv->memset_d8(d, byte, width);
	else
		r = is_async ? drv->memset_d2d8_async(d, pitch, byte, width,
						       height, stream)
			     : drv->memset_d2d8(d, pitch, byte, width, height);
	return sim_return(cudart_error(r));
}

#define SET(cbid, ...) RUNTIME_CALL(RT_CBID(cbid), 1, memset_impl(__VA_ARGS__))

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	SET(cudaMemset_v3020, devPtr, count, value, count, 1, NULL, 0, 0, 0);
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	SET(cudaMemset_ptds_v7000, devPtr, count, value, count, 1, NULL, 1, 0, 0);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
			    cudaStream_t stream)
{
	SET(cudaMemsetAsync_v3020, devPtr, count, value, count, 1, stream, 0,
	    1, 0);
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
				 cudaStream_t stream)
{
	SET(cudaMemsetAsync_ptsz_v7000, devPtr, count, value, count, 1, stream,
	    1, 1, 0);
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
			 size_t height)
{
	SET(cudaMemset2D_v3020, devPtr, pitch, value, width, height, NULL, 0,
	    0, 1);
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height)
{
	SET(cudaMemset2D_ptds_v7000, devPtr, pitch, value, width, height, NULL,
	    1, 0, 1);
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height, cudaStream_t stream)
{
	SET(cudaMemset2DAsync_v3020, devPtr, pitch, value, width, height,
	    stream, 0, 1, 1);
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
				   size_t width, size_t height,
				   cudaStream_t stream)
{
	SET(cudaMemset2DAsync_ptsz_v7000, devPtr, pitch, value, width, height,
	    stream, 1, 1, 1);
}
