/*
 * The simulated runtime's execution-control entry points: streams, events,
 * device synchronisation and reset, device selection and properties,
 * versions, each over the driver entry points it got through
 * cuGetProcAddress (the timeline lives in libcuda.so.1). They must never
 * move memory contents.
 */
#include "simgpu/cudart_internal.h"

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

/* A plausible Hopper-class device (H100-like numbers), one of it. */
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
	snprintf(p.name, sizeof(p.name), "simgpu simulated device");
	for (int i = 0; i < 16; i++)
		p.uuid.bytes[i] = (char)(0x51 + i);
	CUresult r = cudart_drv.device_total_mem(&p.totalGlobalMem, device);
	if (r != CUDA_SUCCESS)
		return sim_return(cudart_error(r));
	p.sharedMemPerBlock = 48 * 1024;
	p.regsPerBlock = 65536;
	p.warpSize = 32;
	p.memPitch = 2147483647;
	p.maxThreadsPerBlock = 1024;
	p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
	p.maxGridSize[0] = 2147483647, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
	p.totalConstMem = 65536;
	p.major = 9;
	p.minor = 0;
	p.textureAlignment = 512;
	p.texturePitchAlignment = 32;
	p.multiProcessorCount = 132;
	p.canMapHostMemory = 1;
	p.concurrentKernels = 1;
	p.asyncEngineCount = 2;
	p.unifiedAddressing = 1;
	p.memoryBusWidth = 5120;
	p.l2CacheSize = 50 * 1024 * 1024;
	p.maxThreadsPerMultiProcessor = 2048;
	p.streamPrioritiesSupported = 1;
	p.globalL1CacheSupported = 1;
	p.localL1CacheSupported = 1;
	p.sharedMemPerMultiprocessor = 228 * 1024;
	p.regsPerMultiprocessor = 65536;
	p.managedMemory = 1;
	p.concurrentManagedAccess = 1;
	p.computePreemptionSupported = 1;
	p.cooperativeLaunch = 1;
	p.sharedMemPerBlockOptin = 227 * 1024;
	p.maxBlocksPerMultiProcessor = 32;
	p.reservedSharedMemPerBlock = 1024;
	p.memoryPoolsSupported = 1;
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
