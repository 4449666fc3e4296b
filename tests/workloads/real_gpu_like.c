/*
 * real_gpu_like.so: an LD_PRELOAD shim that makes a run on simgpu differ
 * from its ground truth the way the same run on a real GPU did (tests/gpu/
 * README.md), so that compare.py's real-GPU mode is tested without a GPU
 * (tests/e2e/test_compare_real_gpu.sh):
 *   - cublasCreate_v2 first allocates device memory of its own, 1 KiB and a
 *     32 MiB workspace, as real cuBLAS 13 does (cublasDestroy_v2 frees
 *     them after the real destroy): tensors the program never allocated,
 *     which shift the ids of every tensor allocated after them;
 *   - every kernel duration the program sets (simgpu_next_kernel_ns) is
 *     changed (ns / 64 + 1000): times are the GPU's, not the truth's; and
 *     at the fifth, 4 MiB more device memory is allocated, as a library
 *     allocating lazily outside any traced call would (a tensor of its
 *     own in the middle of the run: its own id between the program's).
 *     (Allocations inside a traced library call, e.g. cublasSgemm_v2, are
 *     not traced: the tracer forwards calls nested in its wrappers.)
 * Preloaded after the tracer (dnntrace record appends the caller's
 * LD_PRELOAD), so the tracer's cuBLAS wrappers call these, whose cudaMalloc
 * calls go through the tracer as a library's do. The functions wrapped
 * here are found in the library that has them (dlopen RTLD_NOLOAD), not
 * with dlsym(RTLD_NEXT): for a name the tracer wraps too, that lookup
 * resolves relative to libdnntrace.so and finds this shim again. Must
 * never change what the program computes, prints or returns.
 */
#include <dlfcn.h>
#include <stddef.h>

typedef int (*malloc_fn)(void **, size_t);
typedef int (*free_fn)(void *);
typedef int (*create_fn)(void **);
typedef int (*destroy_fn)(void *);
typedef void (*next_ns_fn)(unsigned long long);

static void *workspace[3];

/* The first definition in the global scope: the tracer's when traced. */
static void *global_symbol(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

/* name in the already loaded library soname (simgpu's). */
static void *real_in(const char *soname, const char *name)
{
	void *library = dlopen(soname, RTLD_NOLOAD | RTLD_LAZY);
	void *fn = library ? dlsym(library, name) : NULL;
	if (library)
		dlclose(library); /* NOLOAD took a reference; it stays loaded */
	return fn;
}

int cublasCreate_v2(void **handle)
{
	create_fn real = (create_fn)real_in("libcublas.so.13", "cublasCreate_v2");
	malloc_fn cuda_malloc = (malloc_fn)global_symbol("cudaMalloc");
	if (!real || !cuda_malloc)
		return 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
	if (!workspace[0] && (cuda_malloc(&workspace[0], 1024) != 0 ||
			      cuda_malloc(&workspace[1], (size_t)32 << 20) != 0))
		return 3; /* CUBLAS_STATUS_ALLOC_FAILED */
	return real(handle);
}

int cublasDestroy_v2(void *handle)
{
	destroy_fn real = (destroy_fn)real_in("libcublas.so.13", "cublasDestroy_v2");
	free_fn cuda_free = (free_fn)global_symbol("cudaFree");
	if (!real)
		return 1;
	int status = real(handle);
	if (cuda_free && workspace[0]) {
		for (int i = 2; i >= 0; i--)
			if (workspace[i])
				cuda_free(workspace[i]);
		workspace[0] = workspace[1] = workspace[2] = NULL;
	}
	return status;
}

void simgpu_next_kernel_ns(unsigned long long ns)
{
	static int calls;
	next_ns_fn real = (next_ns_fn)real_in("libcudart.so.13", "simgpu_next_kernel_ns");
	malloc_fn cuda_malloc = (malloc_fn)global_symbol("cudaMalloc");
	if (++calls == 5 && cuda_malloc && cuda_malloc(&workspace[2], (size_t)4 << 20) != 0)
		workspace[2] = NULL;
	if (real)
		real(ns / 64 + 1000);
}
