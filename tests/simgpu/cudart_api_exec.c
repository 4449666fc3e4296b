/*
 * The simulated runtime's execution-control entry points: streams, events,
 * device synchronisation and reset, device selection and properties,
 * versions. They order and wait on the timeline of cudart_timeline.c; they
 * must never move memory contents.
 */
#include "tests/simgpu/sim_internal.h"

#include <stdio.h>
#include <string.h>

#define SIM_DRIVER_VERSION 13000 /* the simulated driver supports CUDA 13.0 */

#define ENTER()                                                    \
	do {                                                       \
		cudaError_t sticky_ = sim_enter();                 \
		if (sticky_ != cudaSuccess)                        \
			return sim_return(sticky_);                \
	} while (0)

/* ---- streams ---- */

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	ENTER();
	return sim_return(sim_stream_create(pStream, cudaStreamDefault, 0));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
	ENTER();
	return sim_return(sim_stream_create(pStream, flags, 0));
}

/* Priorities are accepted and reported, but do not change the timeline. */
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
					 unsigned int flags, int priority)
{
	ENTER();
	if (priority > 0)
		priority = 0;
	if (priority < -5)
		priority = -5;
	return sim_return(sim_stream_create(pStream, flags, priority));
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
	return sim_return(sim_stream_destroy(stream));
}

cudaError_t sim_stream_synchronize(cudaStream_t stream, int per_thread_default)
{
	ENTER();
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	uint64_t until = s ? s->ready_ns : 0;
	pthread_mutex_unlock(&sim_lock);
	if (!s)
		return sim_return(cudaErrorInvalidResourceHandle);
	sim_wait_device_time(until);
	return sim_return(sim_enter());
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	return sim_stream_synchronize(stream, 0);
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return sim_stream_synchronize(stream, 1);
}

/* cudaErrorNotReady is an answer, not a failure: it is not a last error. */
cudaError_t sim_stream_query(cudaStream_t stream, int per_thread_default)
{
	ENTER();
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	uint64_t until = s ? s->ready_ns : 0;
	pthread_mutex_unlock(&sim_lock);
	if (!s)
		return sim_return(cudaErrorInvalidResourceHandle);
	return sim_device_time_reached(until) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	return sim_stream_query(stream, 0);
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return sim_stream_query(stream, 1);
}

cudaError_t sim_stream_wait_event(cudaStream_t stream, cudaEvent_t event,
				  unsigned int flags, int per_thread_default)
{
	ENTER();
	if (flags & ~(unsigned int)cudaEventWaitExternal)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct CUevent_st *e = sim_event_lookup(event);
	if (!s || !e)
		err = cudaErrorInvalidResourceHandle;
	else if (e->recorded && e->time_ns > s->ready_ns)
		s->ready_ns = e->time_ns; /* an unrecorded event is complete */
	pthread_mutex_unlock(&sim_lock);
	return sim_return(err);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned int flags)
{
	return sim_stream_wait_event(stream, event, flags, 0);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
				     unsigned int flags)
{
	return sim_stream_wait_event(stream, event, flags, 1);
}

static cudaError_t stream_get_flags(cudaStream_t stream, unsigned int *flags,
				    int per_thread_default)
{
	ENTER();
	if (!flags)
		return sim_return(cudaErrorInvalidValue);
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	if (s)
		*flags = s->flags;
	pthread_mutex_unlock(&sim_lock);
	return sim_return(s ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
	return stream_get_flags(hStream, flags, 0);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
	return stream_get_flags(hStream, flags, 1);
}

/* ---- events ---- */

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	ENTER();
	return sim_return(sim_event_create(event, cudaEventDefault));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	ENTER();
	return sim_return(sim_event_create(event, flags));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	ENTER();
	return sim_return(sim_event_destroy(event));
}

/* An event is zero-length work: it completes when the stream gets there. */
cudaError_t sim_event_record(cudaEvent_t event, cudaStream_t stream,
			     int per_thread_default)
{
	ENTER();
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct CUevent_st *e = sim_event_lookup(event);
	if (!s || !e) {
		err = cudaErrorInvalidResourceHandle;
	} else {
		uint64_t start, end;
		sim_timeline_schedule(s, 0, &start, &end);
		e->time_ns = end;
		e->recorded = 1;
	}
	pthread_mutex_unlock(&sim_lock);
	return sim_return(err);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	return sim_event_record(event, stream, 0);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	return sim_event_record(event, stream, 1);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned int flags)
{
	if (flags & ~(unsigned int)cudaEventRecordExternal)
		return sim_return(cudaErrorInvalidValue);
	return sim_event_record(event, stream, 0);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event,
					  cudaStream_t stream,
					  unsigned int flags)
{
	if (flags & ~(unsigned int)cudaEventRecordExternal)
		return sim_return(cudaErrorInvalidValue);
	return sim_event_record(event, stream, 1);
}

/* Reads an event's state; 0 and cudaErrorInvalidResourceHandle if dead. */
static cudaError_t event_state(cudaEvent_t event, int *recorded,
			       uint64_t *time_ns, unsigned int *flags)
{
	pthread_mutex_lock(&sim_lock);
	struct CUevent_st *e = sim_event_lookup(event);
	if (e) {
		*recorded = e->recorded;
		*time_ns = e->time_ns;
		*flags = e->flags;
	}
	pthread_mutex_unlock(&sim_lock);
	return e ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	ENTER();
	int recorded;
	uint64_t t;
	unsigned int flags;
	cudaError_t err = event_state(event, &recorded, &t, &flags);
	if (err != cudaSuccess)
		return sim_return(err);
	if (recorded)
		sim_wait_device_time(t);
	return sim_return(sim_enter());
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	ENTER();
	int recorded;
	uint64_t t;
	unsigned int flags;
	cudaError_t err = event_state(event, &recorded, &t, &flags);
	if (err != cudaSuccess)
		return sim_return(err);
	return !recorded || sim_device_time_reached(t) ? cudaSuccess
						       : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	ENTER();
	if (!ms)
		return sim_return(cudaErrorInvalidValue);
	int rec_a, rec_b;
	uint64_t t_a, t_b;
	unsigned int flags_a, flags_b;
	cudaError_t err = event_state(start, &rec_a, &t_a, &flags_a);
	if (err == cudaSuccess)
		err = event_state(end, &rec_b, &t_b, &flags_b);
	if (err != cudaSuccess)
		return sim_return(err);
	if (!rec_a || !rec_b || ((flags_a | flags_b) & cudaEventDisableTiming))
		return sim_return(cudaErrorInvalidResourceHandle);
	if (!sim_device_time_reached(t_a) || !sim_device_time_reached(t_b))
		return sim_return(cudaErrorNotReady);
	*ms = (float)(((double)t_b - (double)t_a) / 1e6);
	return cudaSuccess;
}

/* ---- device ---- */

cudaError_t cudaDeviceSynchronize(void)
{
	ENTER();
	pthread_mutex_lock(&sim_lock);
	uint64_t until = sim_timeline_device_end();
	pthread_mutex_unlock(&sim_lock);
	sim_wait_device_time(until);
	return sim_return(sim_enter());
}

/*
 * Frees every device allocation and destroys every stream and event. A
 * sticky error survives (a real broken context needs a new process).
 * Pinned host memory is left alone (see README.md).
 */
cudaError_t cudaDeviceReset(void)
{
	ENTER();
	pthread_mutex_lock(&sim_lock);
	uint64_t until = sim_timeline_device_end();
	sim_mem_free_all();
	sim_timeline_reset();
	pthread_mutex_unlock(&sim_lock);
	sim_wait_device_time(until);
	return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
	ENTER();
	if (!count)
		return sim_return(cudaErrorInvalidValue);
	*count = 1;
	return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
	ENTER();
	if (!device)
		return sim_return(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	ENTER();
	return sim_return(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

/* A plausible Hopper-class device (H100-like numbers), one of it. */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	ENTER();
	if (!prop)
		return sim_return(cudaErrorInvalidValue);
	if (device != 0)
		return sim_return(cudaErrorInvalidDevice);
	struct cudaDeviceProp p;
	memset(&p, 0, sizeof(p));
	snprintf(p.name, sizeof(p.name), "simgpu simulated device");
	for (int i = 0; i < 16; i++)
		p.uuid.bytes[i] = (char)(0x51 + i);
	pthread_mutex_lock(&sim_lock);
	p.totalGlobalMem = sim_mem_capacity();
	pthread_mutex_unlock(&sim_lock);
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
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return sim_return(cudaErrorInvalidValue);
	*driverVersion = SIM_DRIVER_VERSION;
	return cudaSuccess;
}
