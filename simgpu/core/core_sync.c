/*
 * Ordering and waiting on the simulated device (in libcuda.so.1), for
 * runtime and driver alike: stream and device synchronisation, stream
 * queries, events recorded on and waited for by streams, device reset.
 * It orders work on the timeline of core_timeline.c and must never move
 * memory contents nor sleep while holding sim_lock.
 */
#include "simgpu/core/sim_internal.h"

cudaError_t sim_stream_synchronize(cudaStream_t stream, int per_thread_default)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct sim_instant until = s ? s->ready : (struct sim_instant){ 0, 0 };
	pthread_mutex_unlock(&sim_lock);
	if (!s)
		return cudaErrorInvalidResourceHandle;
	sim_wait_device_time(until);
	return sim_enter();
}

/* cudaErrorNotReady is an answer, not a failure. */
cudaError_t sim_stream_query(cudaStream_t stream, int per_thread_default)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct sim_instant until = s ? s->ready : (struct sim_instant){ 0, 0 };
	pthread_mutex_unlock(&sim_lock);
	if (!s)
		return cudaErrorInvalidResourceHandle;
	return sim_device_time_reached(until) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t sim_stream_wait_event(cudaStream_t stream, cudaEvent_t event,
				  int per_thread_default)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct CUevent_st *e = sim_event_lookup(event);
	int captured = 0;
	if (!s || !e)
		err = cudaErrorInvalidResourceHandle;
	else if ((err = sim_graph_event_wait(s, e, &captured)) != cudaSuccess ||
		 captured)
		; /* a capture's dependency (core_graphs.c) */
	else if (e->recorded) { /* an unrecorded event is complete */
		if (e->time.v > s->ready.v)
			s->ready.v = e->time.v;
		if (e->time.trace > s->ready.trace)
			s->ready.trace = e->time.trace;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* An event is zero-length work: it completes when the stream gets there. */
cudaError_t sim_event_record(cudaEvent_t event, cudaStream_t stream,
			     int per_thread_default)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct CUevent_st *e = sim_event_lookup(event);
	int captured = 0;
	if (!s || !e) {
		err = cudaErrorInvalidResourceHandle;
	} else if ((err = sim_graph_event_record(s, e, &captured)) !=
			   cudaSuccess || captured) {
		; /* a capture's dependency (core_graphs.c) */
	} else {
		uint64_t start_ns, end_ns;
		e->time = sim_timeline_schedule(s, 0, &start_ns, &end_ns);
		e->recorded = 1;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* Reads an event's state; cudaErrorInvalidResourceHandle if dead. */
cudaError_t sim_event_state(cudaEvent_t event, int *recorded,
			    struct sim_instant *time, unsigned int *flags)
{
	pthread_mutex_lock(&sim_lock);
	struct CUevent_st *e = sim_event_lookup(event);
	if (e) {
		*recorded = e->recorded;
		*time = e->time;
		*flags = e->flags;
	}
	pthread_mutex_unlock(&sim_lock);
	return e ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t sim_device_synchronize(void)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	pthread_mutex_lock(&sim_lock);
	struct sim_instant until = sim_timeline_device_end();
	pthread_mutex_unlock(&sim_lock);
	sim_wait_device_time(until);
	return sim_enter();
}

/*
 * Frees every device allocation and destroys every stream and event. A
 * sticky error survives (a real broken context needs a new process).
 * Pinned host memory is left alone (see README.md).
 */
void sim_device_reset(void)
{
	pthread_mutex_lock(&sim_lock);
	struct sim_instant until = sim_timeline_device_end();
	sim_mem_free_all();
	sim_timeline_reset();
	pthread_mutex_unlock(&sim_lock);
	sim_wait_device_time(until);
}
