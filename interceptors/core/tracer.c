/*
 * The tracer's process-wide state and its one-time start (see tracer.h).
 *
 * The start runs once (pthread_once): other threads' first traced calls
 * wait for it, so no launch goes uncorrelated. It runs with the nesting
 * counter raised, so CUDA calls CUPTI makes from this thread only forward.
 * Assumed: CUPTI does not wait, while starting, on another thread that makes
 * a traced CUDA call (that thread would wait for us). Must never hold a lock
 * of ours while it runs.
 */
#include "interceptors/core/tracer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "interceptors/core/crash_flush.h"
#include "interceptors/core/context_owner.h"
#include "interceptors/core/cupti_session.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/nvml_sampler.h"
#include "interceptors/core/real_functions.h"

#include <cuda_runtime_api.h>

__thread unsigned tracer_nesting __attribute__((tls_model("initial-exec")));

struct tensor_map tracer_tensors = TENSOR_MAP_INITIALIZER;

atomic_int tracer_start_state;

static atomic_uint_fast64_t next_call_id = 1;
static atomic_int_fast64_t next_tensor_id = 0;

uint64_t tracer_next_call_id(void)
{
	return atomic_fetch_add_explicit(&next_call_id, 1, memory_order_relaxed);
}

int64_t tracer_next_tensor_id(void)
{
	return atomic_fetch_add_explicit(&next_tensor_id, 1, memory_order_relaxed);
}

int tracer_current_device(void)
{
	int device = -1;
	__typeof__(&cudaGetDevice) get_device = REAL(cudaGetDevice);

	if (!get_device || get_device(&device) != cudaSuccess)
		return -1;
	return device;
}

int64_t tracer_tensor_of(const void *ptr)
{
	struct tensor_map_entry entry;

	if (!tensor_map_find(&tracer_tensors, (uintptr_t)ptr, &entry))
		return -1;
	return entry.tensor_id;
}

/*
 * Runs from exit() and return from main (atexit), and before the exit(0)
 * that last_thread_exit.c makes when the last application thread ends:
 * before the loader's destructors, so CUPTI and LTTng are both still alive
 * while the last GPU records are written. Later calls do nothing.
 */
void tracer_flush_for_exit(void)
{
	tracer_nesting++;
	nvml_sampler_stop();
	cupti_session_flush();
	kernel_info_report_overflow();
	context_owner_report_overflow();
	tracer_nesting--;
}

static void tracer_at_exit(void)
{
	tracer_flush_for_exit();
}

/* A fallback for when libdnntrace.so is unloaded without exit(). */
__attribute__((destructor)) static void tracer_unload(void)
{
	tracer_flush_for_exit();
}

/* A forked child has no CUPTI threads nor power sampler: it must not push
 * ids, flush, or join. */
static void tracer_in_child(void)
{
	cupti_session_forget();
	nvml_sampler_forget();
	kernel_info_forget_announcements();
}

static pthread_once_t start_once = PTHREAD_ONCE_INIT;

static void tracer_start(void)
{
	/* Loading CUPTI sets errno (failed dlopen tries); the caller's is not ours. */
	int saved_errno = errno;
	atexit(tracer_at_exit);
	pthread_atfork(NULL, NULL, tracer_in_child);
	cupti_session_start();
	nvml_sampler_start();
	/* Also for the sampler alone: it must be stopped before a crash ends the process. */
	if (atomic_load(&cupti_session_running) || nvml_sampler_running())
		crash_flush_start();
	atomic_store_explicit(&tracer_start_state, TRACER_STARTED, memory_order_release);
	errno = saved_errno;
}

void tracer_start_slow(void)
{
	pthread_once(&start_once, tracer_start);
}
