/*
 * The real CUDA runtime functions behind our wrappers, found at run time
 * through the dynamic linker (libdnntrace.so has no link-time dependency on
 * any CUDA library) and cached in one table with atomics.
 *
 * Must never guess a library path, and never return one of our own wrappers.
 */
#ifndef DNNTRACE_REAL_FUNCTIONS_H
#define DNNTRACE_REAL_FUNCTIONS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "tracepoints/entry_points.h"

/*
 * One slot per entry point of the catalogue (tracepoints/entry_points.h):
 * the ones we wrap and trace, the ones we wrap only, and the helpers we only
 * call. A wrapped one warns once when it cannot be found.
 */
#define DT_REAL_ID_API(id, name, kind, proc, cbid) REAL_##name,
#define DT_REAL_ID_LIB(id, name, args, params) REAL_##name,
#define DT_REAL_ID_WRAPPED(name, proc) REAL_##name,
#define DT_REAL_ID_HELPER(name) REAL_##name,
enum real_function_id {
	DNNTRACE_API_ENTRIES(DT_REAL_ID_API)
	DNNTRACE_LIB_ENTRIES(DT_REAL_ID_LIB)
	DNNTRACE_WRAPPED_ENTRIES(DT_REAL_ID_WRAPPED)
	REAL_FIRST_HELPER,
	REAL_BEFORE_FIRST_HELPER = REAL_FIRST_HELPER - 1,
	DNNTRACE_HELPER_ENTRIES(DT_REAL_ID_HELPER)
	REAL_FUNCTION_COUNT
};
#undef DT_REAL_ID_API
#undef DT_REAL_ID_LIB
#undef DT_REAL_ID_WRAPPED
#undef DT_REAL_ID_HELPER

extern _Atomic(void *) real_function_table[REAL_FUNCTION_COUNT];

/* Slow path: finds the function (see real_functions.c); NULL if nowhere. */
void *real_function_resolve(enum real_function_id id);

static inline void *real_function(enum real_function_id id)
{
	void *fn = atomic_load_explicit(&real_function_table[id], memory_order_acquire);
	return fn ? fn : real_function_resolve(id);
}

/*
 * The real function, typed by the prototype the CUDA header gives `name`, so
 * the compiler checks every forwarded call. NULL when it cannot be found.
 */
#define REAL(name) ((__typeof__(&name))real_function(REAL_##name))

/*
 * The path of the object the real `id` lives in (the libcudart the process
 * actually loaded), or NULL. Copies at most size bytes into path. Never
 * warns, unlike REAL().
 */
const char *real_function_library(enum real_function_id id, char *path, size_t size);

/*
 * The id of the WRAPPED function (required entry) named exactly name, or
 * REAL_FUNCTION_COUNT. Used by the dlsym and cuGetProcAddress wrappers.
 */
enum real_function_id real_function_id_of(const char *name);

/* The name of id, as its library exports it. */
const char *real_function_name(enum real_function_id id);

/*
 * Records fn as the real id when none is known yet (a pointer the program
 * got through dlsym or cuGetProcAddress, which we replaced by our wrapper):
 * the wrapper then forwards to exactly what the program asked for. Ignores
 * a pointer into libdnntrace.so itself.
 */
void real_function_offer(enum real_function_id id, void *fn);

/* Whether the real id can be found now; never warns (unlike REAL()). */
bool real_function_available(enum real_function_id id);

/* Whether fn is code of libdnntrace.so itself (one of our wrappers). */
bool real_function_is_ours(const void *fn);

#endif
