/*
 * The simulated libcupti.so.13: the CUPTI activity API over the simulated
 * GPU. It attaches to the simulated driver libcuda.so.1
 * (simgpu_cupti_hook.h), receives each kernel, copy and set as it is
 * submitted and each reported API call, and writes the
 * toolkit's own record structs (CUpti_ActivityKernel10, Memcpy6, Memset4,
 * ExternalCorrelation, API; as the CUDA 12 variant, Kernel9 for kernels)
 * into the client's buffers exactly as laid out in cupti_activity.h and
 * cupti_activity_deprecated.h. As on real CUPTI, full buffers are handed to
 * bufferCompleted by a CUPTI worker thread, and cuptiActivityFlushAll
 * delivers in its caller's thread. Buffers reach the client strictly in the
 * order they were filled. It must never call a client callback while holding
 * its lock, except bufferRequested (see README.md).
 */
#include <cupti.h>
#include <stdatomic.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "simgpu/cupti/cupti_callbacks.h"
#include "simgpu/core/simgpu_cupti_hook.h"
#include "simgpu/core/simgpu_open_driver.h"

/*
 * The CUPTI API version this library claims (cuptiGetVersion), and with it
 * the record layouts it writes, as the real CUPTI of that version does:
 * default, the headers' own (CUDA 13); the CUDA 12 variant is built with
 * -DSIMGPU_CUPTI_API_VERSION=26, CUDA 12.8's (module.mk, README.md).
 */
#ifndef SIMGPU_CUPTI_API_VERSION
#define SIMGPU_CUPTI_API_VERSION CUPTI_API_VERSION
#endif
/* CUDA 12.0 (API version 19) introduced Kernel9; CUDA 13.0 (130000) Kernel10. */
#if SIMGPU_CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kernel_record;
#elif SIMGPU_CUPTI_API_VERSION >= 19
typedef CUpti_ActivityKernel9 kernel_record;
#else
#error "simgpu writes no records older than CUDA 12.0's"
#endif
/*
 * CUDA 12.8 (API version 26) introduced Memcpy6: cupti_activity_deprecated.h
 * says Memcpy5 is "deprecated in CUDA 12.8", and CUPTI Python 12.8.0 dropped
 * ActivityMemcpy5 for ActivityMemcpy6. So CUPTI 12.8 writes Memcpy6.
 */
#if SIMGPU_CUPTI_API_VERSION >= 26
typedef CUpti_ActivityMemcpy6 memcpy_record;
#define SIMGPU_MEMCPY_HAS_COPY_COUNT 1
#else
typedef CUpti_ActivityMemcpy5 memcpy_record;
#define SIMGPU_MEMCPY_HAS_COPY_COUNT 0
#endif

/* CUPTI clock = device clock (CLOCK_MONOTONIC) + this, with no callback. */
#define SIMGPU_CUPTI_CLOCK_OFFSET_NS 1000000000000000000ULL

struct code_name {
	int value;
	const char *name;
};
static const struct code_name result_names[] = {
#include "cupti_result_names.h"
};

struct buffer {
	uint8_t *base;
	size_t size;
	size_t valid;        /* bytes from base through the last record */
	size_t records;
	size_t max_records;  /* 0: no limit */
	uint64_t last_end_ns; /* device time its last work ends */
};

static pthread_mutex_t cupti_lock = PTHREAD_MUTEX_INITIALIZER;
/* Wakes the worker (a buffer is ready) and flushers (a delivery ended). */
static pthread_cond_t delivery_cond = PTHREAD_COND_INITIALIZER;
static int attached;
static simgpu_work_complete_fn work_complete;
static simgpu_next_correlation_id_fn next_correlation_id;
static simgpu_driver_initialized_fn driver_initialized;
static CUpti_BuffersCallbackRequestFunc buffer_requested;
static CUpti_BuffersCallbackCompleteFunc buffer_completed;
static CUpti_TimestampCallbackFunc timestamp_callback;
static unsigned char enabled[CUPTI_ACTIVITY_KIND_COUNT];
/*
 * API records are chosen per function (cuptiActivityEnableRuntimeApi /
 * DriverApi); enabling the RUNTIME or DRIVER kind sets every entry, so the
 * later of the two settings wins, as cupti_activity.h says. Read without the
 * lock on the path of every traced call.
 */
static _Atomic unsigned char runtime_api_on[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static _Atomic unsigned char driver_api_on[CUPTI_DRIVER_TRACE_CBID_SIZE];
static struct buffer current;
static int have_current;
static struct buffer *ready; /* completed, waiting to be handed back */
static size_t n_ready, cap_ready;
static size_t dropped;

/*
 * One thread at a time hands buffers to the client (the "deliverer": the
 * worker or a flushing thread), always taking the oldest ready buffer first,
 * so the client sees buffers in the order they were filled.
 */
static int delivering;
static _Thread_local int in_delivery; /* this thread is inside bufferCompleted */
enum worker_state { WORKER_NONE, WORKER_RUNNING, WORKER_FAILED };
static enum worker_state worker = WORKER_NONE;
static int worker_stopped; /* process exit: leave the rest to a flush */
static uint64_t retired_count;   /* buffers ever put on the ready list */
static uint64_t delivered_count; /* buffers ever handed to the client */
static int flushers_waiting;     /* flushes waiting for the delivery claim */
static void start_worker(void);
static int64_t next_grid_id = 1;
/* Cached so that API records cost no system call (reset in a forked child). */
static uint32_t process_id;
static _Thread_local uint32_t thread_id;

struct id_stack {
	uint64_t *ids;
	size_t n, cap;
};
static _Thread_local struct id_stack external_ids[CUPTI_EXTERNAL_CORRELATION_KIND_SIZE];

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cupti_busy(void)
{
	const char *busy = getenv("SIMGPU_CUPTI_BUSY");
	return busy && strcmp(busy, "1") == 0;
}

static void sink(const struct simgpu_work *work);
static int api_wanted(int runtime_cbid, int driver_cbid);


/* Finds the simulated driver and subscribes to its work. */
static CUptiResult attach(void)
{
	if (attached)
		return CUPTI_SUCCESS;
	void *driver = simgpu_open_driver();
	if (!driver)
		return CUPTI_ERROR_NOT_INITIALIZED;
	simgpu_attach_cupti_fn attach_fn =
		(simgpu_attach_cupti_fn)dlsym(driver, SIMGPU_ATTACH_CUPTI_SYMBOL);
	work_complete = (simgpu_work_complete_fn)dlsym(driver,
						       SIMGPU_WORK_COMPLETE_SYMBOL);
	next_correlation_id = (simgpu_next_correlation_id_fn)dlsym(
		driver, SIMGPU_NEXT_CORRELATION_ID_SYMBOL);
	driver_initialized = (simgpu_driver_initialized_fn)dlsym(
		driver, SIMGPU_DRIVER_INITIALIZED_SYMBOL);
	/* A real driver has none: no simulated device to profile. */
	if (!attach_fn || !work_complete || !next_correlation_id || !driver_initialized ||
	    attach_fn(SIMGPU_CUPTI_HOOK_VERSION, sink, api_wanted) != 0) {
		dlclose(driver);
		return CUPTI_ERROR_NOT_INITIALIZED;
	}
	attached = 1; /* the handle stays open for the process lifetime */
	return CUPTI_SUCCESS;
}

CUptiResult simgpu_cupti_attach(void)
{
	return attach();
}

static size_t record_size(CUpti_ActivityKind kind)
{
	switch (kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return sizeof(kernel_record);
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return sizeof(memcpy_record);
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return sizeof(CUpti_ActivityMemset4);
	case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
		return sizeof(CUpti_ActivityExternalCorrelation);
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_DRIVER:
		return sizeof(CUpti_ActivityAPI);
	default:
		return 0;
	}
}

static uint8_t *first_record_slot(uint8_t *base)
{
	uintptr_t a = ((uintptr_t)base + ACTIVITY_RECORD_ALIGNMENT - 1) &
		      ~(uintptr_t)(ACTIVITY_RECORD_ALIGNMENT - 1);
	return (uint8_t *)a;
}

/* Moves the current buffer to the ready list. Holds cupti_lock. */
static void retire_current(void)
{
	if (!have_current)
		return;
	if (n_ready == cap_ready) {
		size_t n = cap_ready ? cap_ready * 2 : 8;
		struct buffer *grown = realloc(ready, n * sizeof(*grown));
		if (!grown)
			return; /* keep it current; it will be retried */
		ready = grown;
		cap_ready = n;
	}
	ready[n_ready++] = current;
	have_current = 0;
	retired_count++;
	if (worker == WORKER_NONE)
		start_worker();
	pthread_cond_broadcast(&delivery_cond);
}

/*
 * Room for one record of `size` bytes, or NULL (record dropped and counted).
 * Asks the client for a new buffer when needed. Holds cupti_lock.
 */
static void *reserve_record(size_t size, uint64_t end_ns)
{
	if (have_current) {
		int full = current.valid + size > current.size ||
			   (current.max_records &&
			    current.records >= current.max_records);
		if (full)
			retire_current();
	}
	if (!have_current) {
		uint8_t *base = NULL;
		size_t bytes = 0, max_records = 0;
		if (buffer_requested)
			buffer_requested(&base, &bytes, &max_records);
		if (!base) {
			dropped++;
			return NULL;
		}
		current = (struct buffer){
			.base = base, .size = bytes,
			.valid = (size_t)(first_record_slot(base) - base),
			.max_records = max_records,
		};
		have_current = 1;
		if (current.valid + size > current.size) {
			/* Too small for even one record: hand it straight back. */
			retire_current();
			dropped++;
			return NULL;
		}
	}
	void *slot = current.base + current.valid;
	memset(slot, 0, size);
	current.valid += size;
	current.records++;
	if (end_ns > current.last_end_ns)
		current.last_end_ns = end_ns;
	return slot;
}

/*
 * Device time -> CUPTI time. With a timestamp callback, its clock is sampled
 * once, right after a read of the device clock, when the callback is
 * registered, and every record is shifted by that one difference. Sampling
 * per piece of work would add a few ns of jitter to each record, enough to
 * make back-to-back work on one stream overlap or reorder; one shift keeps
 * the timeline's order and gaps exact (both clocks run at the same rate).
 */
struct clock_map {
	int64_t shift;
};

static _Atomic int64_t callback_shift;

/*
 * The callback's reading is paired with the device clock read just BEFORE
 * it: the shift may then be a few ns too large, never too small, so a
 * record is never stamped earlier than the host saw its work submitted.
 */
static int64_t sample_callback_shift(CUpti_TimestampCallbackFunc cb)
{
	uint64_t before = monotonic_ns();
	uint64_t user = cb();
	return (int64_t)(user - before);
}

static struct clock_map clock_map_now(void)
{
	struct clock_map map;
	map.shift = timestamp_callback ? callback_shift : (int64_t)SIMGPU_CUPTI_CLOCK_OFFSET_NS;
	return map;
}

static uint64_t to_cupti_time(struct clock_map map, uint64_t device_ns)
{
	return (uint64_t)((int64_t)device_ns + map.shift);
}

static void write_external_correlations(uint32_t correlation_id, uint64_t end_ns)
{
	for (int kind = 0; kind < CUPTI_EXTERNAL_CORRELATION_KIND_SIZE; kind++) {
		struct id_stack *stack = &external_ids[kind];
		if (!stack->n)
			continue;
		CUpti_ActivityExternalCorrelation *r =
			reserve_record(sizeof(*r), end_ns);
		if (!r)
			continue;
		r->kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
		r->externalKind = (CUpti_ExternalCorrelationKind)kind;
		r->externalId = stack->ids[stack->n - 1];
		r->correlationId = correlation_id;
	}
}

static void write_api_record(CUpti_ActivityKind kind, int cbid, int result,
			     const struct simgpu_work *w,
			     uint32_t correlation_id, struct clock_map map)
{
	CUpti_ActivityAPI *r = reserve_record(sizeof(*r), w->end_ns);
	if (!r)
		return;
	r->kind = kind;
	r->cbid = (CUpti_CallbackId)cbid;
	r->start = to_cupti_time(map, w->api_start_ns);
	r->end = to_cupti_time(map, monotonic_ns());
	r->processId = process_id;
	if (!thread_id)
		thread_id = (uint32_t)syscall(SYS_gettid);
	r->threadId = thread_id;
	r->correlationId = correlation_id;
	r->returnValue = (uint32_t)result;
}

static int api_on(_Atomic unsigned char *table, int size, int cbid)
{
	return cbid > 0 && cbid < size &&
	       atomic_load_explicit(&table[cbid], memory_order_relaxed);
}

static void write_kernel(CUpti_ActivityKind kind, const struct simgpu_work *w,
			 struct clock_map map)
{
	kernel_record *r = reserve_record(sizeof(*r), w->end_ns);
	if (!r)
		return;
	r->kind = kind;
	r->registersPerThread = 32;
	r->start = to_cupti_time(map, w->start_ns);
	r->end = to_cupti_time(map, w->end_ns);
	r->completed = r->end;
	r->deviceId = w->device_id;
	r->contextId = w->context_id;
	r->streamId = w->stream_id;
	r->gridX = (int32_t)w->grid[0];
	r->gridY = (int32_t)w->grid[1];
	r->gridZ = (int32_t)w->grid[2];
	r->blockX = (int32_t)w->block[0];
	r->blockY = (int32_t)w->block[1];
	r->blockZ = (int32_t)w->block[2];
	r->dynamicSharedMemory = (int32_t)w->dynamic_shared_mem;
	r->correlationId = w->correlation_id;
	r->gridId = next_grid_id++;
	r->name = w->name;
	r->queued = CUPTI_TIMESTAMP_UNKNOWN;
	r->submitted = CUPTI_TIMESTAMP_UNKNOWN;
	r->launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
	r->graphId = w->graph_id;
	r->graphNodeId = w->graph_node_id;
	r->clusterX = r->clusterY = r->clusterZ = 1;
}

static void write_memcpy(const struct simgpu_work *w, struct clock_map map)
{
	memcpy_record *r = reserve_record(sizeof(*r), w->end_ns);
	if (!r)
		return;
	r->kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	r->copyKind = w->copy_kind;
	r->srcKind = w->src_kind;
	r->dstKind = w->dst_kind;
	r->flags = w->is_async ? CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC : 0;
	r->bytes = w->bytes;
	r->start = to_cupti_time(map, w->start_ns);
	r->end = to_cupti_time(map, w->end_ns);
	r->deviceId = w->device_id;
	r->contextId = w->context_id;
	r->streamId = w->stream_id;
	r->correlationId = w->correlation_id;
	r->runtimeCorrelationId = w->correlation_id;
	r->graphId = w->graph_id;
	r->graphNodeId = w->graph_node_id;
#if SIMGPU_MEMCPY_HAS_COPY_COUNT
	r->copyCount = 1;
#endif
}

static void write_memset(const struct simgpu_work *w, struct clock_map map)
{
	CUpti_ActivityMemset4 *r = reserve_record(sizeof(*r), w->end_ns);
	if (!r)
		return;
	r->kind = CUPTI_ACTIVITY_KIND_MEMSET;
	r->value = w->value;
	r->bytes = w->bytes;
	r->start = to_cupti_time(map, w->start_ns);
	r->end = to_cupti_time(map, w->end_ns);
	r->deviceId = w->device_id;
	r->contextId = w->context_id;
	r->streamId = w->stream_id;
	r->correlationId = w->correlation_id;
	r->flags = w->is_async ? CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC : 0;
	r->memoryKind = w->memory_kind;
	r->graphId = w->graph_id;
	r->graphNodeId = w->graph_node_id;
}

/* Takes the ready list out from under the lock. Holds cupti_lock. */
static struct buffer *take_ready(size_t *n)
{
	struct buffer *list = ready;
	*n = n_ready;
	ready = NULL;
	n_ready = cap_ready = 0;
	return list;
}

static void release_delivery(void)
{
	delivering = 0;
	pthread_cond_broadcast(&delivery_cond);
}

/*
 * The deliverer hands the buffers ready now to the client, oldest first,
 * dropping cupti_lock around bufferCompleted so that the callback may call
 * CUPTI and CUDA (work it submits may fill more buffers: they go to the next
 * delivery). Holds cupti_lock and the delivery claim.
 */
static void deliver_ready_batch(void)
{
	CUpti_BuffersCallbackCompleteFunc completed = buffer_completed;
	size_t n;
	struct buffer *list = take_ready(&n);
	pthread_mutex_unlock(&cupti_lock);
	in_delivery = 1;
	for (size_t i = 0; i < n; i++)
		if (completed)
			completed(NULL, 0, list[i].base, list[i].size,
				  list[i].valid);
	in_delivery = 0;
	free(list);
	pthread_mutex_lock(&cupti_lock);
	delivered_count += n;
}

/*
 * The simulated CUPTI worker thread: delivers full buffers. Detached, with
 * every signal blocked; it never keeps the process alive, and at exit
 * whatever it has not delivered is left for the tracer's forced flush.
 * A flusher waiting for the claim goes first, so flushes cannot starve.
 */
static void *worker_main(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&cupti_lock);
	for (;;) {
		while (!n_ready || delivering || flushers_waiting ||
		       worker_stopped)
			pthread_cond_wait(&delivery_cond, &cupti_lock);
		delivering = 1;
		deliver_ready_batch();
		release_delivery();
	}
	return NULL;
}

/* Starts the worker when the first buffer is retired. Holds cupti_lock. */
static void start_worker(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t thread;
	worker = WORKER_FAILED;
	if (pthread_attr_init(&attr) != 0)
		return;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* inherited by the worker */
	if (pthread_create(&thread, &attr, worker_main, NULL) == 0)
		worker = WORKER_RUNNING;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

static int worker_delivers(void)
{
	return worker == WORKER_RUNNING && !worker_stopped;
}

/*
 * Full buffers go to the worker. Without one (it could not be started, or
 * the process is exiting), the filling thread delivers them itself unless a
 * delivery is under way. Holds cupti_lock; returns without it.
 */
static void hand_over_full_buffers(void)
{
	if (n_ready && !worker_delivers() && !delivering) {
		delivering = 1;
		while (n_ready)
			deliver_ready_batch();
		release_delivery();
	}
	pthread_mutex_unlock(&cupti_lock);
}

/* At exit the worker stops taking buffers: a forced flush delivers them. */
__attribute__((destructor)) static void stop_worker(void)
{
	pthread_mutex_lock(&cupti_lock);
	worker_stopped = 1;
	pthread_mutex_unlock(&cupti_lock);
}

/*
 * A forked child has no worker and no deliverer (they were threads of the
 * parent); it keeps the parent's undelivered buffers and starts its own
 * worker when one fills.
 */
static void before_fork(void)
{
	pthread_mutex_lock(&cupti_lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&cupti_lock);
}

static void after_fork_child(void)
{
	process_id = (uint32_t)getpid();
	thread_id = 0;
	worker = WORKER_NONE;
	delivering = 0;
	in_delivery = 0;
	pthread_mutex_unlock(&cupti_lock);
}

__attribute__((constructor)) static void register_fork_handlers(void)
{
	process_id = (uint32_t)getpid();
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* The filter for calls that submit no GPU work: API records only. */
static int api_wanted(int runtime_cbid, int driver_cbid)
{
	return api_on(runtime_api_on, CUPTI_RUNTIME_TRACE_CBID_SIZE, runtime_cbid) ||
	       api_on(driver_api_on, CUPTI_DRIVER_TRACE_CBID_SIZE, driver_cbid) ||
	       simgpu_cupti_callback_wanted(runtime_cbid, driver_cbid);
}

/*
 * Real CUPTI only writes EXTERNAL_CORRELATION records next to API records,
 * so a call gets them only when its runtime or driver function is enabled.
 * A runtime call and the driver call it made share one correlation id, and
 * one external record per kind serves both (assumed).
 */
static void sink(const struct simgpu_work *w)
{
	int runtime_record = api_on(runtime_api_on, CUPTI_RUNTIME_TRACE_CBID_SIZE,
				    w->api_cbid);
	int driver_cbid = w->driver_cbid;
	int driver_record = api_on(driver_api_on, CUPTI_DRIVER_TRACE_CBID_SIZE,
				   driver_cbid);
	int call_back = simgpu_cupti_callback_wanted(w->api_cbid, driver_cbid);
	if (w->kind == SIMGPU_WORK_NONE && !runtime_record && !driver_record && !call_back)
		return; /* the common case for cudaMalloc/cudaFree: no lock */
	uint32_t correlation_id = w->kind == SIMGPU_WORK_NONE
					  ? next_correlation_id()
					  : w->correlation_id;
	if (call_back) /* cupti_callbacks.c: without our lock */
		simgpu_cupti_call_back(w, correlation_id);
	if (w->kind == SIMGPU_WORK_NONE && !runtime_record && !driver_record)
		return;
	pthread_mutex_lock(&cupti_lock);
	struct clock_map map = clock_map_now();
	if (enabled[CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION] &&
	    (runtime_record || driver_record))
		write_external_correlations(correlation_id, w->end_ns);
	if (runtime_record)
		write_api_record(CUPTI_ACTIVITY_KIND_RUNTIME, w->api_cbid,
				 w->api_result, w, correlation_id, map);
	if (driver_record)
		write_api_record(CUPTI_ACTIVITY_KIND_DRIVER, driver_cbid,
				 w->driver_result, w, correlation_id, map);
	switch (w->kind) {
	case SIMGPU_WORK_KERNEL:
		if (enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL])
			write_kernel(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, w, map);
		else if (enabled[CUPTI_ACTIVITY_KIND_KERNEL])
			write_kernel(CUPTI_ACTIVITY_KIND_KERNEL, w, map);
		break;
	case SIMGPU_WORK_MEMCPY:
		if (enabled[CUPTI_ACTIVITY_KIND_MEMCPY])
			write_memcpy(w, map);
		break;
	case SIMGPU_WORK_MEMSET:
		if (enabled[CUPTI_ACTIVITY_KIND_MEMSET])
			write_memset(w, map);
		break;
	case SIMGPU_WORK_NONE:
	case SIMGPU_WORK_GRAPH_LAUNCH: /* its kernels are reported next */
		break;
	}
	hand_over_full_buffers();
}

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc funcBufferRequested,
					   CUpti_BuffersCallbackCompleteFunc funcBufferCompleted)
{
	if (!funcBufferRequested || !funcBufferCompleted)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (cupti_busy())
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	pthread_mutex_lock(&cupti_lock);
	CUptiResult res = attach();
	if (res == CUPTI_SUCCESS) {
		buffer_requested = funcBufferRequested;
		buffer_completed = funcBufferCompleted;
	}
	pthread_mutex_unlock(&cupti_lock);
	return res;
}

static void set_all(_Atomic unsigned char *table, int size, unsigned char on)
{
	for (int i = 0; i < size; i++)
		atomic_store_explicit(&table[i], on, memory_order_relaxed);
}

static CUptiResult set_enabled(CUpti_ActivityKind kind, unsigned char on)
{
	if ((int)kind <= CUPTI_ACTIVITY_KIND_INVALID ||
	    (int)kind >= CUPTI_ACTIVITY_KIND_COUNT)
		return CUPTI_ERROR_INVALID_KIND;
	if (on && cupti_busy())
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	pthread_mutex_lock(&cupti_lock);
	CUptiResult res = attach();
	if (res == CUPTI_SUCCESS) {
		enabled[kind] = on;
		if (kind == CUPTI_ACTIVITY_KIND_RUNTIME)
			set_all(runtime_api_on, CUPTI_RUNTIME_TRACE_CBID_SIZE, on);
		if (kind == CUPTI_ACTIVITY_KIND_DRIVER)
			set_all(driver_api_on, CUPTI_DRIVER_TRACE_CBID_SIZE, on);
	}
	pthread_mutex_unlock(&cupti_lock);
	return res;
}

/* Kinds the sim has no records for are accepted and stay silent. */
CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind)
{
	return set_enabled(kind, 1);
}

CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind)
{
	return set_enabled(kind, 0);
}

/*
 * One API function on or off. The header lists no error for a bad cbid;
 * the sim answers CUPTI_ERROR_INVALID_PARAMETER (assumed).
 *
 * Once the driver is initialised (cuInit, which the runtime calls at its
 * first call), a selection is accepted and changes nothing: measured on a
 * real H100 (CUPTI 13.0.1, driver 580.159), per-function API records chosen
 * after a cudaFree(0) never came, nor their external correlation records,
 * while the same selection made before any CUDA call gave both (the RUNTIME
 * and DRIVER kinds, enabled late, still worked). Whether the real cut-off
 * is cuInit or the first context is not known; cuInit is the earlier one.
 */
static CUptiResult set_api_enabled(_Atomic unsigned char *table, int size,
				   CUpti_CallbackId cbid, uint8_t enable)
{
	if ((int)cbid <= 0 || (int)cbid >= size)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (enable && cupti_busy())
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	pthread_mutex_lock(&cupti_lock);
	CUptiResult res = attach();
	if (res == CUPTI_SUCCESS && !driver_initialized())
		atomic_store_explicit(&table[cbid], enable ? 1 : 0,
				      memory_order_relaxed);
	pthread_mutex_unlock(&cupti_lock);
	return res;
}

CUptiResult cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable)
{
	return set_api_enabled(runtime_api_on, CUPTI_RUNTIME_TRACE_CBID_SIZE,
			       cbid, enable);
}

CUptiResult cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable)
{
	return set_api_enabled(driver_api_on, CUPTI_DRIVER_TRACE_CBID_SIZE,
			       cbid, enable);
}

CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer,
				       size_t validBufferSizeBytes,
				       CUpti_Activity **record)
{
	if (!buffer || !record)
		return CUPTI_ERROR_INVALID_PARAMETER;
	uint8_t *end = buffer + validBufferSizeBytes;
	uint8_t *next;
	if (!*record) {
		next = first_record_slot(buffer);
	} else {
		size_t size = record_size((*record)->kind);
		if (!size)
			return CUPTI_ERROR_INVALID_KIND;
		next = (uint8_t *)*record + size;
	}
	if (next >= end || (size_t)(end - next) < sizeof(CUpti_Activity))
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	size_t size = record_size(((CUpti_Activity *)next)->kind);
	if (!size || (size_t)(end - next) < size)
		return CUPTI_ERROR_INVALID_KIND;
	*record = (CUpti_Activity *)next;
	return CUPTI_SUCCESS;
}

/*
 * Delivers, in the caller's thread, every full buffer the worker has not
 * taken yet (after waiting for a delivery under way to end) and the current
 * buffer: with flag 0 only if all its work has completed (full or not);
 * with CUPTI_ACTIVITY_FLAG_FLUSH_FORCED always, even empty, so the client
 * gets all its memory back. Called from bufferCompleted, it cannot wait for
 * its own delivery: the buffers it completes are delivered right after the
 * callback returns, by the same loop.
 */
CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
	pthread_mutex_lock(&cupti_lock);
	if (!buffer_requested) {
		pthread_mutex_unlock(&cupti_lock);
		return CUPTI_ERROR_INVALID_OPERATION;
	}
	int nested = in_delivery;
	if (!nested) {
		/* First the worker delivers the buffers it already holds... */
		uint64_t held = retired_count;
		while (worker_delivers() && delivered_count < held)
			pthread_cond_wait(&delivery_cond, &cupti_lock);
		/* ...then this thread delivers the rest, in order after them. */
		flushers_waiting++;
		while (delivering)
			pthread_cond_wait(&delivery_cond, &cupti_lock);
		flushers_waiting--;
		delivering = 1;
	}
	int forced = (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0;
	if (have_current &&
	    (forced || (current.records && work_complete(current.last_end_ns))))
		retire_current();
	if (!nested) {
		do
			deliver_ready_batch();
		while (n_ready && !worker_delivers());
		release_delivery();
	}
	pthread_mutex_unlock(&cupti_lock);
	return CUPTI_SUCCESS;
}

/* The worker delivers full buffers only: the period has no effect. */
CUptiResult cuptiActivityFlushPeriod(uint32_t time)
{
	(void)time;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext context,
					      uint32_t streamId,
					      size_t *count)
{
	(void)context;
	(void)streamId;
	if (!count)
		return CUPTI_ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&cupti_lock);
	*count = dropped;
	dropped = 0;
	pthread_mutex_unlock(&cupti_lock);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityPushExternalCorrelationId(CUpti_ExternalCorrelationKind kind,
						   uint64_t id)
{
	if ((int)kind <= CUPTI_EXTERNAL_CORRELATION_KIND_INVALID ||
	    (int)kind >= CUPTI_EXTERNAL_CORRELATION_KIND_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	struct id_stack *stack = &external_ids[kind];
	if (stack->n == stack->cap) {
		size_t n = stack->cap ? stack->cap * 2 : 8;
		uint64_t *grown = realloc(stack->ids, n * sizeof(*grown));
		if (!grown)
			return CUPTI_ERROR_OUT_OF_MEMORY;
		stack->ids = grown;
		stack->cap = n;
	}
	stack->ids[stack->n++] = id;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityPopExternalCorrelationId(CUpti_ExternalCorrelationKind kind,
						  uint64_t *lastId)
{
	if ((int)kind <= CUPTI_EXTERNAL_CORRELATION_KIND_INVALID ||
	    (int)kind >= CUPTI_EXTERNAL_CORRELATION_KIND_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	struct id_stack *stack = &external_ids[kind];
	if (!stack->n)
		return CUPTI_ERROR_QUEUE_EMPTY;
	uint64_t id = stack->ids[--stack->n];
	if (lastId)
		*lastId = id;
	if (!stack->n) {
		/* Nothing outlives the thread once its stack is empty. */
		free(stack->ids);
		stack->ids = NULL;
		stack->cap = 0;
	}
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc funcTimestamp)
{
	if (!funcTimestamp)
		return CUPTI_ERROR_INVALID_PARAMETER;
	int64_t shift = sample_callback_shift(funcTimestamp); /* not under the lock */
	pthread_mutex_lock(&cupti_lock);
	callback_shift = shift;
	timestamp_callback = funcTimestamp;
	pthread_mutex_unlock(&cupti_lock);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetTimestamp(uint64_t *timestamp)
{
	if (!timestamp)
		return CUPTI_ERROR_INVALID_PARAMETER;
	CUpti_TimestampCallbackFunc cb = timestamp_callback;
	*timestamp = cb ? cb() : monotonic_ns() + SIMGPU_CUPTI_CLOCK_OFFSET_NS;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetResultString(CUptiResult result, const char **str)
{
	if (!str)
		return CUPTI_ERROR_INVALID_PARAMETER;
	for (size_t i = 0; i < sizeof(result_names) / sizeof(result_names[0]); i++) {
		if (result_names[i].value == (int)result) {
			*str = result_names[i].name;
			return CUPTI_SUCCESS;
		}
	}
	return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult cuptiGetVersion(uint32_t *version)
{
	if (!version)
		return CUPTI_ERROR_INVALID_PARAMETER;
	*version = SIMGPU_CUPTI_API_VERSION;
	return CUPTI_SUCCESS;
}

/* Delivers everything, stops all collection and forgets the callbacks. */
CUptiResult cuptiFinalize(void)
{
	if (buffer_requested)
		cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&cupti_lock);
	memset(enabled, 0, sizeof(enabled));
	set_all(runtime_api_on, CUPTI_RUNTIME_TRACE_CBID_SIZE, 0);
	set_all(driver_api_on, CUPTI_DRIVER_TRACE_CBID_SIZE, 0);
	buffer_requested = NULL;
	buffer_completed = NULL;
	timestamp_callback = NULL;
	pthread_mutex_unlock(&cupti_lock);
	return CUPTI_SUCCESS;
}
