/*
 * Samples device memory in use (cuMemGetInfo_v2, through the real driver
 * function) after some traced allocations, as dnntrace_api:mem_info: the
 * analyzer compares it with the bytes the trace accounts for ("Untrackable":
 * CUDA contexts, library workspaces, allocator caches). A thread's 1st,
 * 2nd, 4th, ... allocations below N, then every Nth, pay for the driver
 * call, counted per thread: no lock, no shared counter, nothing allocated.
 * N is 128 by default: on an H100 (driver 580.159) a traced
 * cudaMalloc+cudaFree pair cost 2-3 us more with a sample every 16th
 * allocation than with none (6.2-8.5 against 4.1-6.1 us; 2.2-4.2 us
 * untraced), so each cuMemGetInfo_v2 costs some 30-50 us there; every
 * 128th keeps that near 0.3 us per allocation, and the doubling steps
 * before it still sample a small program a few times.
 * Must never change the program's CUDA state: cuMemGetInfo_v2 only reads,
 * and a driver call leaves the runtime's last error alone.
 * Seen on an H100 (PyTorch, nvcc programs): after a successful allocation
 * the runtime's context is current on the calling thread and
 * cuMemGetInfo_v2 answers for its device (it fails, and nothing is
 * emitted, when no context is current).
 */
#include "interceptors/core/mem_info.h"
#include "interceptors/core/event_count.h"

#include <cuda.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "interceptors/core/real_functions.h"
#include "tracepoints/dnntrace_api.h"

#define DEFAULT_EVERY 128

static atomic_int sample_every = -1;   /* -1: the environment not read yet */
static __thread unsigned allocs_seen __attribute__((tls_model("initial-exec")));

/* Read once; a bad value warns once and keeps the default. */
static int every(void)
{
	int n = atomic_load_explicit(&sample_every, memory_order_relaxed);
	if (n >= 0)
		return n;
	n = DEFAULT_EVERY;
	const char *text = getenv("DNNTRACE_MEMINFO_EVERY");
	if (text && *text) {
		char *end;
		long v = strtol(text, &end, 10);
		if (*end == '\0' && v >= 0 && v <= 1000000000L)
			n = (int)v;
		else
			fprintf(stderr, "dnntrace: DNNTRACE_MEMINFO_EVERY='%s' is "
				"not a count >= 0; sampling every %d allocations\n",
				text, DEFAULT_EVERY);
	}
	int expected = -1;
	if (!atomic_compare_exchange_strong(&sample_every, &expected, n))
		n = expected;   /* another thread read it first: same value */
	return n;
}

/* Whether a thread's count-th allocation (from 1) is sampled, every n. */
static bool sample_due(unsigned count, unsigned n)
{
	return n != 0 && (count % n == 0 || (count < n && (count & (count - 1)) == 0));
}

void mem_info_after_alloc(int device)
{
	if (!lttng_ust_tracepoint_enabled(dnntrace_api, mem_info))
		return;
	if (!sample_due(++allocs_seen, (unsigned)every()))
		return;
	__typeof__(&cuMemGetInfo_v2) get_info = REAL(cuMemGetInfo_v2);
	size_t free_bytes, total_bytes;
	if (!get_info || get_info(&free_bytes, &total_bytes) != CUDA_SUCCESS)
		return;
	DNNTRACE_EMIT(dnntrace_api, mem_info, device, free_bytes, total_bytes);
}
