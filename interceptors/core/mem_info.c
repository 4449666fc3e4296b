/*
 * Samples device memory in use (cuMemGetInfo_v2, through the real driver
 * function) after some traced allocations, as dnntrace_api:mem_info: the
 * analyzer compares it with the bytes the trace accounts for ("Untrackable":
 * CUDA contexts, library workspaces, allocator caches). Only every Nth
 * allocation of a thread pays for the driver call, counted per thread: no
 * lock, no shared counter, nothing allocated.
 * Must never change the program's CUDA state: cuMemGetInfo_v2 only reads,
 * and a driver call leaves the runtime's last error alone.
 * Assumed, not tested on a real GPU: after a successful allocation the
 * runtime's context is current on the calling thread, so cuMemGetInfo_v2
 * answers for the allocation's device (it fails, and nothing is emitted,
 * when no context is current).
 */
#include "interceptors/core/mem_info.h"

#include <cuda.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "interceptors/core/real_functions.h"
#include "tracepoints/dnntrace_api.h"

#define DEFAULT_EVERY 16

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

void mem_info_after_alloc(int device)
{
	if (!lttng_ust_tracepoint_enabled(dnntrace_api, mem_info))
		return;
	int n = every();
	if (n == 0 || allocs_seen++ % (unsigned)n != 0)
		return;
	__typeof__(&cuMemGetInfo_v2) get_info = REAL(cuMemGetInfo_v2);
	size_t free_bytes, total_bytes;
	if (!get_info || get_info(&free_bytes, &total_bytes) != CUDA_SUCCESS)
		return;
	lttng_ust_tracepoint(dnntrace_api, mem_info, device, free_bytes, total_bytes);
}
