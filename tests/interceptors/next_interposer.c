/*
 * libnext_interposer.so: another interposer of cudaMalloc, preloaded beside
 * the tracer (as HAMi-core's libvgpu.so is in shared GPU clusters). It
 * finds the function it wraps the usual way, dlsym(RTLD_NEXT, "cudaMalloc"),
 * and counts its calls. Whatever the preload order, that lookup must not
 * answer its own cudaMalloc (it would call itself forever): it reports that
 * as cudaErrorUnknown and says so once on stderr. Must never depend on
 * libdnntrace.so.
 */
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int calls;

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	static __typeof__(&cudaMalloc) next;

	if (!next)
		next = (__typeof__(&cudaMalloc))dlsym(RTLD_NEXT, "cudaMalloc");
	if (!next || next == cudaMalloc) {
		fprintf(stderr, "next_interposer: dlsym(RTLD_NEXT, \"cudaMalloc\") answered %s\n",
			next ? "this interposer itself" : "nothing");
		return cudaErrorUnknown;
	}
	atomic_fetch_add(&calls, 1);
	return next(devPtr, size);
}

__attribute__((destructor)) static void report(void)
{
	fprintf(stderr, "next_interposer: %d cudaMalloc calls passed through\n", atomic_load(&calls));
}
