/*
 * The created contexts (context_owner.h): a fixed table of atomic slots,
 * written at cuCtxCreate and cuCtxDestroy (rare), read at each allocation
 * while any exists. Must never call CUDA but cuCtxGetCurrent.
 */
#include <cuda.h>
#include <stdatomic.h>
#include <stdio.h>

#include "interceptors/core/context_owner.h"
#include "interceptors/core/real_functions.h"

/* Programs create a context per device or per worker: 256 is ample. */
#define CONTEXT_SLOTS 256

static _Atomic uintptr_t created[CONTEXT_SLOTS];
static _Atomic int created_count;
/* contexts made while the table was full: their tensors count as the
 * primary context's (said on stderr at exit, never silently) */
static _Atomic uint64_t unowned_contexts;

bool context_owner_add(uintptr_t ctx)
{
	if (!ctx)
		return false;
	for (int i = 0; i < CONTEXT_SLOTS; i++) {
		uintptr_t empty = 0;
		if (atomic_compare_exchange_strong(&created[i], &empty, ctx)) {
			atomic_fetch_add(&created_count, 1);
			return true;
		}
	}
	atomic_fetch_add(&unowned_contexts, 1);
	return false;
}

void context_owner_report_overflow(void)
{
	uint64_t n = atomic_load(&unowned_contexts);

	if (n)
		fprintf(stderr, "dnntrace: %llu contexts were created while %d others lived; "
			"their tensors are counted as their device's primary context's, so "
			"cuCtxDestroy did not end them\n",
			(unsigned long long)n, CONTEXT_SLOTS);
}

bool context_owner_remove(uintptr_t ctx)
{
	if (!ctx)
		return false;
	for (int i = 0; i < CONTEXT_SLOTS; i++) {
		uintptr_t expected = ctx;
		if (atomic_compare_exchange_strong(&created[i], &expected, 0)) {
			atomic_fetch_sub(&created_count, 1);
			return true;
		}
	}
	return false;
}

uintptr_t context_owner_current(void)
{
	if (atomic_load_explicit(&created_count, memory_order_acquire) == 0)
		return 0;
	__typeof__(&cuCtxGetCurrent) get_current = REAL(cuCtxGetCurrent);
	CUcontext current = NULL;
	if (!get_current || get_current(&current) != CUDA_SUCCESS || !current)
		return 0;
	for (int i = 0; i < CONTEXT_SLOTS; i++)
		if (atomic_load_explicit(&created[i], memory_order_relaxed) == (uintptr_t)current)
			return (uintptr_t)current;
	return 0;
}
