/*
 * The simulated runtime's execution-control entry points: streams, events,
 * device synchronisation and reset, device selection and properties,
 * versions, each over the driver entry points it got through
 * cuGetProcAddress (the timeline lives in libcuda.so.1). They must never
 * move memory contents.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>
#include <string.h>

#define DRV(per_thread, call) cudart_error(cudart_driver_for(per_thread)->call)

/* ---- streams ---- */

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	ENTER();
	return sim_return(DRV(0, stream_create(pStream, cudaStreamDefault)));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
	ENTER();
	return sim_return(DRV(0, stream_create(pStream, flags)));
}

/* Priorities are accepted and reported, but do not change the timeline. */
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
					 unsigned int flags, int priority)
{
	ENTER();
	return sim_return(DRV(0, stream_create_with_priority(pStream, flags,
							     priority)));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
					     int *greatestPriority)
{
	ENTER();
	if (leastPriority)
		*leastPriority = 0;
	if (greatestPriority)
		*greatestPriority = -5;
	return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	ENTER();
	return sim_return(DRV(0, stream_destroy(stream)));
}

static cudaError_t stream_synchronize(cudaStream_t stream, int per_thread)
{
	ENTER();
	return sim_return(DRV(per_thread, stream_synchronize(stream)));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	return stream_synchronize(stream, 0);
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return stream_synchronize(stream, 1);
}

/* cudaErrorNotReady is an answer, not a failure: it is not a last error. */
static cudaError_t stream_query(cudaStream_t stream, int per_thread)
{
	ENTER();
	cudaError_t err = DRV(per_thread, stream_query(stream));
	return err == cudaErrorNotReady ? err : sim_return(err);
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	return stream_query(stream, 0);
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return stream_query(stream, 1);
}

/* cudaEventWaitExternal has the value of CU_EVENT_WAIT_EXTERNAL. */
static cudaError_t stream_wait_event(cudaStream_t stream, cudaEvent_t event,
				     unsigned int flags, int per_thread)
{
	ENTER();
	if (flags & ~(unsigned int)cudaEventWaitExternal)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(DRV(per_thread, stream_wait_event(stream, event, flags)));
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned int flags)
{
	return stream_wait_event(stream, event, flags, 0);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
				     unsigned int flags)
{
	return stream_wait_event(stream, event, flags, 1);
}

static cudaError_t stream_get_flags(cudaStream_t stream, unsigned int *flags,
				    int per_thread)
{
	ENTER();
	if (!flags)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(DRV(per_thread, stream_get_flags(stream, flags)));
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
	return stream_get_flags(hStream, flags, 0);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
	return stream_get_flags(hStream, flags, 1);
}

/* Through cuStreamAttachMemAsync[_ptsz] (driver/cuda_api_attach.c). */
static cudaError_t stream_attach_mem(cudaStream_t stream, void *devPtr, size_t length,
				     unsigned int flags, int per_thread)
{
	ENTER();
	return sim_return(DRV(per_thread, stream_attach_mem_async(
		stream, (CUdeviceptr)(uintptr_t)devPtr, length, flags)));
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
				     unsigned int flags)
{
	return stream_attach_mem(stream, devPtr, length, flags, 0);
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
					  unsigned int flags)
{
	return stream_attach_mem(stream, devPtr, length, flags, 1);
}

static cudaError_t stream_get_priority(cudaStream_t stream, int *priority,
				       int per_thread)
{
	ENTER();
	if (!priority)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(DRV(per_thread, stream_get_priority(stream, priority)));
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
	return stream_get_priority(hStream, priority, 0);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
	return stream_get_priority(hStream, priority, 1);
}

/* ---- events ---- */

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	ENTER();
	return sim_return(DRV(0, event_create(event, cudaEventDefault)));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	ENTER();
	return sim_return(DRV(0, event_create(event, flags)));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	ENTER();
	return sim_return(DRV(0, event_destroy(event)));
}

static cudaError_t event_record(cudaEvent_t event, cudaStream_t stream,
				int per_thread)
{
	ENTER();
	return sim_return(DRV(per_thread, event_record(event, stream)));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	return event_record(event, stream, 0);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	return event_record(event, stream, 1);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned int flags)
{
	if (flags & ~(unsigned int)cudaEventRecordExternal)
		return sim_return(cudaErrorInvalidValue);
	return event_record(event, stream, 0);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event,
					  cudaStream_t stream,
					  unsigned int flags)
{
	if (flags & ~(unsigned int)cudaEventRecordExternal)
		return sim_return(cudaErrorInvalidValue);
	return event_record(event, stream, 1);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	ENTER();
	return sim_return(DRV(0, event_synchronize(event)));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	ENTER();
	cudaError_t err = DRV(0, event_query(event));
	return err == cudaErrorNotReady ? err : sim_return(err);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	ENTER();
	if (!ms)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(DRV(0, event_elapsed_time(ms, start, end)));
}

/* ---- device ---- */

cudaError_t cudaDeviceSynchronize(void)
{
	ENTER();
	return sim_return(DRV(0, ctx_synchronize()));
}

/*
 * Frees every device allocation and destroys every stream and event. A
 * sticky error survives (a real broken context needs a new process).
 * Pinned host memory is left alone (see README.md).
 */
cudaError_t cudaDeviceReset(void)
{
	ENTER();
	cudart_priv.device_reset();
	return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
	ENTER();
	if (!count)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.device_get_count(count)));
}

/* The device of the thread's current context (the primary context of
 * device 0 unless cudaSetDevice or the driver chose another). */
cudaError_t cudaGetDevice(int *device)
{
	ENTER();
	if (!device)
		return sim_return(cudaErrorInvalidValue);
	CUdevice d = 0;
	CUresult r = cudart_drv.ctx_get_device(&d);
	if (r == CUDA_ERROR_INVALID_CONTEXT) /* the program unset it: device 0 */
		d = 0, r = CUDA_SUCCESS;
	if (r == CUDA_SUCCESS)
		*device = d;
	return sim_return(cudart_error(r));
}

cudaError_t cudaSetDevice(int device)
{
	ENTER();
	return sim_return(cudart_set_device(device));
}

/* Each int field of cudaDeviceProp that a device attribute answers, as
   the real runtime fills it: from cuDeviceGetAttribute (the driver's
   h100_attributes.h is the one source of these numbers). */
#define PROP_INT(field, attribute) { offsetof(struct cudaDeviceProp, field), sizeof(((struct cudaDeviceProp *)0)->field), attribute }
static const struct {
	size_t offset, size;
	CUdevice_attribute attribute;
} prop_attributes[] = {
	PROP_INT(sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
	PROP_INT(regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
	PROP_INT(warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE),
	PROP_INT(memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH),
	PROP_INT(maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
	PROP_INT(maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
	PROP_INT(maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
	PROP_INT(maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z),
	PROP_INT(maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
	PROP_INT(maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
	PROP_INT(maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z),
	PROP_INT(totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
	PROP_INT(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
	PROP_INT(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
	PROP_INT(textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
	PROP_INT(texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
	PROP_INT(multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
	PROP_INT(integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED),
	PROP_INT(canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY),
	PROP_INT(maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH),
	PROP_INT(maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
	PROP_INT(maxTexture2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH),
	PROP_INT(maxTexture2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT),
	PROP_INT(maxTexture2DMipmap[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
	PROP_INT(maxTexture2DMipmap[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
	PROP_INT(maxTexture2DLinear[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
	PROP_INT(maxTexture2DLinear[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
	PROP_INT(maxTexture2DLinear[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH),
	PROP_INT(maxTexture2DGather[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH),
	PROP_INT(maxTexture2DGather[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
	PROP_INT(maxTexture3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH),
	PROP_INT(maxTexture3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT),
	PROP_INT(maxTexture3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH),
	PROP_INT(maxTexture3DAlt[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
	PROP_INT(maxTexture3DAlt[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
	PROP_INT(maxTexture3DAlt[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
	PROP_INT(maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH),
	PROP_INT(maxTexture1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
	PROP_INT(maxTexture1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
	PROP_INT(maxTexture2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
	PROP_INT(maxTexture2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
	PROP_INT(maxTexture2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
	PROP_INT(maxTextureCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
	PROP_INT(maxTextureCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
	PROP_INT(maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH),
	PROP_INT(maxSurface2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH),
	PROP_INT(maxSurface2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT),
	PROP_INT(maxSurface3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH),
	PROP_INT(maxSurface3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT),
	PROP_INT(maxSurface3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH),
	PROP_INT(maxSurface1DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH),
	PROP_INT(maxSurface1DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS),
	PROP_INT(maxSurface2DLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH),
	PROP_INT(maxSurface2DLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
	PROP_INT(maxSurface2DLayered[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS),
	PROP_INT(maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH),
	PROP_INT(maxSurfaceCubemapLayered[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
	PROP_INT(maxSurfaceCubemapLayered[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
	PROP_INT(surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT),
	PROP_INT(concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS),
	PROP_INT(ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED),
	PROP_INT(pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
	PROP_INT(pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
	PROP_INT(pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
	PROP_INT(tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER),
	PROP_INT(asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT),
	PROP_INT(unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING),
	PROP_INT(memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
	PROP_INT(l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
	PROP_INT(persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE),
	PROP_INT(maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
	PROP_INT(streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
	PROP_INT(globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED),
	PROP_INT(localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED),
	PROP_INT(sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
	PROP_INT(regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
	PROP_INT(managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY),
	PROP_INT(isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD),
	PROP_INT(multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID),
	PROP_INT(hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED),
	PROP_INT(pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS),
	PROP_INT(concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
	PROP_INT(computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED),
	PROP_INT(canUseHostPointerForRegisteredMem, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
	PROP_INT(cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH),
	PROP_INT(sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
	PROP_INT(maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
	PROP_INT(accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE),
	PROP_INT(reservedSharedMemPerBlock, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
	PROP_INT(hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED),
	PROP_INT(memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED),
	PROP_INT(clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH),
};
#undef PROP_INT

/* The driver's device (h100_attributes.h), one of it. */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	ENTER();
	if (!prop)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t bad = cudart_check_device(device);
	if (bad != cudaSuccess)
		return sim_return(bad);
	struct cudaDeviceProp p;
	memset(&p, 0, sizeof(p));
	CUresult r = cudart_drv.device_total_mem(&p.totalGlobalMem, device);
	if (r == CUDA_SUCCESS)
		r = cudart_drv.device_get_name(p.name, (int)sizeof(p.name), device);
	for (size_t i = 0; r == CUDA_SUCCESS && i < sizeof(prop_attributes) / sizeof(prop_attributes[0]); i++) {
		int v = 0;
		r = cudart_drv.device_get_attribute(&v, prop_attributes[i].attribute, device);
		char *field = (char *)&p + prop_attributes[i].offset;
		if (prop_attributes[i].size == sizeof(int)) {
			memcpy(field, &v, sizeof v);
		} else { /* size_t fields: non-negative attributes */
			size_t wide = (size_t)(unsigned)v;
			memcpy(field, &wide, sizeof wide);
		}
	}
	if (r != CUDA_SUCCESS)
		return sim_return(cudart_error(r));
	for (int i = 0; i < 16; i++)
		p.uuid.bytes[i] = (char)(0x51 + i);
	p.hostNumaId = -1;
	p.deviceNumaId = -1;
	*prop = p;
	return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	if (!runtimeVersion)
		return sim_return(cudaErrorInvalidValue);
	*runtimeVersion = SIMGPU_RUNTIME_VERSION;
	return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return sim_return(cudaErrorInvalidValue);
	/* As documented: 0 when no (usable) driver is installed. */
	*driverVersion = 0;
	if (cudart_init() == cudaSuccess)
		cudart_drv.driver_get_version(driverVersion);
	return cudaSuccess;
}
