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

#include "interceptors/real_cublas.h"
#include "interceptors/real_cudnn.h"
#include "interceptors/real_driver.h"

/* X(name, required): required ones warn once when missing; others are optional helpers. */
#define DNNTRACE_REAL_FUNCTIONS(X) \
	X(cudaMalloc, 1) X(cudaFree, 1) X(cudaMallocAsync, 1) X(cudaFreeAsync, 1) \
	X(cudaMallocFromPoolAsync, 1) X(cudaMallocManaged, 1) X(cudaMallocPitch, 1) \
	X(cudaMalloc3D, 1) X(cudaMallocHost, 1) X(cudaHostAlloc, 1) X(cudaFreeHost, 1) \
	X(cudaMemcpy, 1) X(cudaMemcpyAsync, 1) X(cudaMemcpy2D, 1) X(cudaMemcpy2DAsync, 1) \
	X(cudaMemset, 1) X(cudaMemsetAsync, 1) X(cudaMemset2D, 1) X(cudaMemset2DAsync, 1) \
	X(cudaLaunchKernel, 1) X(cudaLaunchKernelExC, 1) \
	X(cudaMemcpy_ptds, 1) X(cudaMemcpyAsync_ptsz, 1) X(cudaMemcpy2D_ptds, 1) \
	X(cudaMemcpy2DAsync_ptsz, 1) X(cudaMemset_ptds, 1) X(cudaMemsetAsync_ptsz, 1) \
	X(cudaMemset2D_ptds, 1) X(cudaMemset2DAsync_ptsz, 1) X(cudaLaunchKernel_ptsz, 1) \
	X(cudaLaunchKernelExC_ptsz, 1) X(cudaMallocAsync_ptsz, 1) X(cudaFreeAsync_ptsz, 1) \
	X(cudaMallocFromPoolAsync_ptsz, 1) \
	X(__cudaLaunchKernel, 1) X(__cudaLaunchKernel_ptsz, 1) \
	X(cudaGetDevice, 0) X(cudaFuncGetParamInfo, 0) X(cudaFuncGetName, 0) \
	X(cudaGetLastError, 0) X(cudaPeekAtLastError, 0) \
	DNNTRACE_REAL_CUDNN_FUNCTIONS(X) DNNTRACE_REAL_CUBLAS_FUNCTIONS(X) \
	DNNTRACE_REAL_DRIVER_FUNCTIONS(X)

enum real_function_id {
#define DNNTRACE_REAL_ENUM(name, required) REAL_##name,
	DNNTRACE_REAL_FUNCTIONS(DNNTRACE_REAL_ENUM)
#undef DNNTRACE_REAL_ENUM
	REAL_FUNCTION_COUNT
};

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
 * actually loaded), or NULL. Copies at most size bytes into path.
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
