/*
 * The tracer's process-wide state and its one-time start (see tracer.h).
 *
 * The start is non-blocking: the first traced call starts CUPTI while other
 * threads' first calls go on without waiting (their launches are just not
 * correlated during that window). pthread_once would make them wait, and a
 * thread CUPTI itself started could then deadlock against us. Must never
 * block a wrapper on another thread's progress.
 */
#include "interceptors/tracer.h"

#include <pthread.h>
#include <stdlib.h>

#include "interceptors/cupti_session.h"
#include "interceptors/kernel_info.h"
#include "interceptors/real_functions.h"

#include <cuda_runtime_api.h>

__thread unsigned tracer_nesting __attribute__((tls_model("initial-exec")));

struct tensor_map tracer_tensors = TENSOR_MAP_INITIALIZER;

atomic_int tracer_start_state;
enum { TRACER_NOT_STARTED = 0, TRACER_STARTING = 1 };

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
 * Runs from exit(), return from main, and the exit of the last thread
 * (glibc calls exit(0) then): before the loader's destructors, so CUPTI and
 * LTTng are both still alive while the last GPU records are written.
 */
static void tracer_at_exit(void)
{
	tracer_nesting++;
	cupti_session_flush();
	kernel_info_report_overflow();
	tracer_nesting--;
}

/* A fallback for when libdnntrace.so is unloaded without exit(). */
__attribute__((destructor)) static void tracer_unload(void)
{
	tracer_at_exit();
}

/* A forked child has no CUPTI threads: it must not push ids nor flush. */
static void tracer_in_child(void)
{
	cupti_session_forget();
}

void tracer_start_slow(void)
{
	int expected = TRACER_NOT_STARTED;

	if (!atomic_compare_exchange_strong(&tracer_start_state, &expected, TRACER_STARTING))
		return; /* started, or another thread is starting it */
	atexit(tracer_at_exit);
	pthread_atfork(NULL, NULL, tracer_in_child);
	cupti_session_start();
	atomic_store_explicit(&tracer_start_state, TRACER_STARTED, memory_order_release);
}
