/*
 * The simulated device's clock and queues (in libcuda.so.1): process-wide
 * setup from the environment, streams, events, the rule that decides when
 * each piece of GPU work starts and ends, and waiting for it. It decides
 * times only; it must never touch memory contents nor sleep while holding
 * sim_lock.
 */
#include "simgpu/core/sim_internal.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

pthread_mutex_t sim_lock = PTHREAD_MUTEX_INITIALIZER;

void sim_mem_init(uint64_t capacity, uint64_t context_bytes);

/* CUPTI stream ids: the legacy stream is 7 as on real GPUs, the rest count up. */
#define LEGACY_STREAM_CUPTI_ID 7
#define FIRST_STREAM_CUPTI_ID 13

static double time_scale = 1.0;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static struct CUstream_st legacy_stream = {
	.magic = SIM_STREAM_MAGIC,
	.cupti_id = LEGACY_STREAM_CUPTI_ID,
	.is_legacy = 1,
};
static struct CUstream_st *created_streams;      /* cudaStreamCreate* */
static struct CUstream_st *per_thread_streams;   /* never freed */
static struct CUevent_st *live_events;
static uint32_t next_stream_cupti_id = FIRST_STREAM_CUPTI_ID;
static _Thread_local struct CUstream_st *my_per_thread_stream;

/* When all blocking streams' queued work ends. */
static struct sim_instant blocking_streams_end;
/* When everything queued ends. */
static struct sim_instant device_end;
/*
 * The host's position on the virtual timeline: the furthest point it has
 * seen the device reach (a wait, a query that answered done). New work
 * starts no earlier. Written without sim_lock, hence atomic.
 */
static _Atomic uint64_t host_v;
/* The same point on the trace clock. */
static _Atomic uint64_t host_trace;
/*
 * trace = v + trace_offset for work scheduled from now on, and never
 * before the work it follows (same stream, or waited for) ends on the
 * trace clock either. Guarded by sim_lock.
 */
static uint64_t trace_offset;

static uint64_t parse_bytes(const char *variable, const char *text,
			    int allow_zero)
{
	char *end;
	errno = 0;
	unsigned long long value = strtoull(text, &end, 10);
	uint64_t unit = 1;
	if (*end == 'K' || *end == 'k') unit = 1ULL << 10, end++;
	else if (*end == 'M' || *end == 'm') unit = 1ULL << 20, end++;
	else if (*end == 'G' || *end == 'g') unit = 1ULL << 30, end++;
	if (errno || end == text || *end != '\0' || (value == 0 && !allow_zero) ||
	    value > (1ULL << 46) / unit || text[0] == '-') {
		fprintf(stderr, "simgpu: %s='%s' is not a size (bytes, optional "
			"K/M/G suffix, %s .. 64 TiB)\n", variable, text,
			allow_zero ? "0" : "1 byte");
		exit(2);
	}
	return value * unit;
}

static void init_from_environment(void)
{
	uint64_t capacity = 16ULL << 30;
	const char *mem = getenv("SIMGPU_MEM_BYTES");
	if (mem && *mem)
		capacity = parse_bytes("SIMGPU_MEM_BYTES", mem, 0);
	/* What the CUDA context itself takes (a real one: a few hundred MiB):
	 * in use from the start, as cudaMemGetInfo reports it, but no
	 * allocation of the program's. */
	uint64_t context_bytes = 0;
	const char *context = getenv("SIMGPU_CONTEXT_BYTES");
	if (context && *context)
		context_bytes = parse_bytes("SIMGPU_CONTEXT_BYTES", context, 1);
	if (context_bytes > capacity) {
		fprintf(stderr, "simgpu: SIMGPU_CONTEXT_BYTES='%s' is more than "
			"the device's %llu bytes\n", context,
			(unsigned long long)capacity);
		exit(2);
	}
	const char *scale = getenv("SIMGPU_TIME_SCALE");
	if (scale && *scale) {
		char *end;
		double v = strtod(scale, &end);
		if (end == scale || *end != '\0' || !(v >= 0) || isinf(v)) {
			fprintf(stderr, "simgpu: SIMGPU_TIME_SCALE='%s' is not a "
				"number >= 0\n", scale);
			exit(2);
		}
		time_scale = v;
	}
	sim_mem_init(capacity, context_bytes);
}

void sim_init(void)
{
	pthread_once(&init_once, init_from_environment);
}

uint64_t sim_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static struct sim_instant later_of(struct sim_instant a, struct sim_instant b)
{
	return (struct sim_instant){ max_u64(a.v, b.v), max_u64(a.trace, b.trace) };
}

static void atomic_raise(_Atomic uint64_t *x, uint64_t value)
{
	uint64_t seen = atomic_load(x);
	while (seen < value && !atomic_compare_exchange_weak(x, &seen, value))
		;
}

static struct CUstream_st *this_threads_default_stream(void)
{
	if (!my_per_thread_stream) {
		struct CUstream_st *s = calloc(1, sizeof(*s));
		if (!s)
			return NULL;
		s->magic = SIM_STREAM_MAGIC;
		s->is_per_thread = 1;
		s->cupti_id = next_stream_cupti_id++;
		s->next = per_thread_streams;
		per_thread_streams = s;
		my_per_thread_stream = s;
	}
	return my_per_thread_stream;
}

struct CUstream_st *sim_stream_resolve(cudaStream_t handle,
				       int per_thread_default)
{
	if (handle == cudaStreamLegacy)
		return &legacy_stream;
	if (handle == cudaStreamPerThread ||
	    (handle == NULL && per_thread_default))
		return this_threads_default_stream();
	if (handle == NULL)
		return &legacy_stream;
	for (struct CUstream_st *s = created_streams; s; s = s->next)
		if (s == handle)
			return s;
	return NULL;
}

/*
 * The legacy default stream waits for all work queued on blocking streams,
 * and blocking streams wait for all work queued on it. Non-blocking streams
 * only follow their own order. Nothing starts before the host's position.
 *
 * Placement on the trace clock: with SIMGPU_TIME_SCALE > 0 (real time) no
 * work starts before the host call that queued it, as on a GPU: when the
 * host comes late, the offset grows and the device shows idle time; work
 * queued on a device that has finished everything starts at the call. At 0
 * (as fast as possible) the host is taken to be infinitely fast: the
 * offset is re-anchored to the host clock only when the device is idle
 * (nothing queued past the host's position), so a busy period keeps its
 * exact shape however slowly a loaded machine issued it.
 */
struct sim_instant sim_timeline_schedule(struct CUstream_st *s,
					 uint64_t duration_ns,
					 uint64_t *start_ns, uint64_t *end_ns)
{
	struct sim_instant after = s->ready;
	int blocking = !(s->flags & cudaStreamNonBlocking);
	if (s->is_legacy)
		after = later_of(after, blocking_streams_end);
	else if (blocking)
		after = later_of(after, legacy_stream.ready);
	uint64_t host = atomic_load(&host_v);
	uint64_t start_v = max_u64(after.v, host);
	uint64_t now = sim_now_ns();
	if (time_scale > 0 && device_end.trace <= now)
		trace_offset = now - start_v; /* idle since: starts at the call */
	else if ((time_scale > 0 || device_end.v <= host) &&
		 start_v + trace_offset < now)
		trace_offset = now - start_v;
	uint64_t start_trace = max_u64(start_v + trace_offset, after.trace);
	struct sim_instant end = { start_v + duration_ns,
				   start_trace + duration_ns };
	s->ready = end;
	if (blocking && !s->is_legacy)
		blocking_streams_end = later_of(blocking_streams_end, end);
	device_end = later_of(device_end, end);
	*start_ns = start_trace;
	*end_ns = end.trace;
	return end;
}

struct sim_instant sim_timeline_device_end(void)
{
	return device_end;
}

void sim_wait_device_time(struct sim_instant t)
{
	if (time_scale > 0) {
		uint64_t now = sim_now_ns();
		if (t.trace > now) {
			double wait = (double)(t.trace - now) * time_scale;
			struct timespec ts = {
				.tv_sec = (time_t)(wait / 1e9),
				.tv_nsec = (long)fmod(wait, 1e9),
			};
			while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
				;
		}
	}
	atomic_raise(&host_v, t.v);
	atomic_raise(&host_trace, t.trace);
}

int sim_device_time_reached(struct sim_instant t)
{
	if (time_scale == 0 || t.v <= atomic_load(&host_v) ||
	    t.trace <= sim_now_ns()) {
		atomic_raise(&host_v, t.v);
		atomic_raise(&host_trace, t.trace);
		return 1;
	}
	return 0;
}

/* For CUPTI, which knows a record by its end on the trace clock only. */
int simgpu_internal_work_complete(uint64_t end_ns);
int simgpu_internal_work_complete(uint64_t end_ns)
{
	return time_scale == 0 || end_ns <= atomic_load(&host_trace) ||
	       end_ns <= sim_now_ns();
}

cudaError_t sim_stream_create(cudaStream_t *out, unsigned int flags, int priority)
{
	if (!out || (flags & ~(unsigned int)cudaStreamNonBlocking))
		return cudaErrorInvalidValue;
	struct CUstream_st *s = calloc(1, sizeof(*s));
	if (!s)
		return cudaErrorMemoryAllocation;
	s->magic = SIM_STREAM_MAGIC;
	s->flags = flags;
	s->priority = priority;
	pthread_mutex_lock(&sim_lock);
	s->cupti_id = next_stream_cupti_id++;
	s->next = created_streams;
	created_streams = s;
	pthread_mutex_unlock(&sim_lock);
	*out = s;
	return cudaSuccess;
}

/*
 * Destroying a stream with queued work is legal: the work still runs, so its
 * end stays in the device-wide end time. The handle becomes invalid at once.
 */
cudaError_t sim_stream_destroy(cudaStream_t handle)
{
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st **link = &created_streams;
	while (*link && *link != handle)
		link = &(*link)->next;
	struct CUstream_st *s = *link;
	if (s)
		*link = s->next;
	pthread_mutex_unlock(&sim_lock);
	if (!s)
		return cudaErrorInvalidResourceHandle;
	s->magic = 0;
	free(s->capture_deps);
	free(s);
	return cudaSuccess;
}

cudaError_t sim_event_create(cudaEvent_t *out, unsigned int flags)
{
	unsigned int known = cudaEventBlockingSync | cudaEventDisableTiming |
			     cudaEventInterprocess;
	if (!out || (flags & ~known))
		return cudaErrorInvalidValue;
	/* Interprocess events must also disable timing (as documented). */
	if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
		return cudaErrorInvalidValue;
	struct CUevent_st *e = calloc(1, sizeof(*e));
	if (!e)
		return cudaErrorMemoryAllocation;
	e->magic = SIM_EVENT_MAGIC;
	e->flags = flags;
	pthread_mutex_lock(&sim_lock);
	e->next = live_events;
	live_events = e;
	pthread_mutex_unlock(&sim_lock);
	*out = e;
	return cudaSuccess;
}

cudaError_t sim_event_destroy(cudaEvent_t handle)
{
	pthread_mutex_lock(&sim_lock);
	struct CUevent_st **link = &live_events;
	while (*link && *link != handle)
		link = &(*link)->next;
	struct CUevent_st *e = *link;
	if (e)
		*link = e->next;
	pthread_mutex_unlock(&sim_lock);
	if (!e)
		return cudaErrorInvalidResourceHandle;
	e->magic = 0;
	free(e->capture_deps);
	free(e);
	return cudaSuccess;
}

struct CUevent_st *sim_event_lookup(cudaEvent_t handle)
{
	for (struct CUevent_st *e = live_events; e; e = e->next)
		if (e == handle)
			return e;
	return NULL;
}

void sim_timeline_reset(void)
{
	while (created_streams) {
		struct CUstream_st *s = created_streams;
		created_streams = s->next;
		s->magic = 0;
		free(s->capture_deps);
		free(s);
	}
	while (live_events) {
		struct CUevent_st *e = live_events;
		live_events = e->next;
		e->magic = 0;
		free(e->capture_deps);
		free(e);
	}
}


