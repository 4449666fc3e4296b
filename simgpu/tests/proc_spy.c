/*
 * A preloaded spy for test_driver_runtime_path: it wraps dlsym as a tracer
 * would, hands out its own cuGetProcAddress_v2 when someone looks that name
 * up, and that one hands out counting wrappers for the driver entry points
 * the simulated runtime must reach through it. Counts are read with
 * simgpu_spy_count(name). Test-only; it must never change a result.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

typedef void *(*dlsym_fn)(void *, const char *);
static dlsym_fn real_dlsym;
static __typeof__(&cuGetProcAddress_v2) real_get_proc;

enum spied {
	SPY_GET_PROC, SPY_MEM_ALLOC, SPY_MEM_FREE, SPY_MEM_ALLOC_ASYNC,
	SPY_MEM_ALLOC_FROM_POOL, SPY_MEMCPY_HTOD, SPY_MEMSET_D8,
	SPY_LAUNCH, SPY_LAUNCH_PTSZ, SPY_LOOKUP_MEM_ALLOC, SPY_COUNT
};
static const char *const spied_names[SPY_COUNT] = {
	"cuGetProcAddress_v2", "cuMemAlloc_v2", "cuMemFree_v2",
	"cuMemAllocAsync", "cuMemAllocFromPoolAsync", "cuMemcpyHtoD_v2",
	"cuMemsetD8_v2", "cuLaunchKernel", "cuLaunchKernel_ptsz",
	"lookup:cuMemAlloc",
};
static _Atomic int counts[SPY_COUNT];

int simgpu_spy_count(const char *name);
int simgpu_spy_count(const char *name)
{
	for (int i = 0; i < SPY_COUNT; i++)
		if (strcmp(spied_names[i], name) == 0)
			return atomic_load(&counts[i]);
	return -1;
}

static __typeof__(&cuMemAlloc_v2) real_mem_alloc;
static CUresult spy_mem_alloc(CUdeviceptr *p, size_t n)
{
	atomic_fetch_add(&counts[SPY_MEM_ALLOC], 1);
	return real_mem_alloc(p, n);
}

static __typeof__(&cuMemFree_v2) real_mem_free;
static CUresult spy_mem_free(CUdeviceptr p)
{
	atomic_fetch_add(&counts[SPY_MEM_FREE], 1);
	return real_mem_free(p);
}

static __typeof__(&cuMemAllocAsync) real_mem_alloc_async;
static CUresult spy_mem_alloc_async(CUdeviceptr *p, size_t n, CUstream s)
{
	atomic_fetch_add(&counts[SPY_MEM_ALLOC_ASYNC], 1);
	return real_mem_alloc_async(p, n, s);
}

static __typeof__(&cuMemAllocFromPoolAsync) real_mem_alloc_from_pool;
static CUresult spy_mem_alloc_from_pool(CUdeviceptr *p, size_t n,
					CUmemoryPool pool, CUstream s)
{
	atomic_fetch_add(&counts[SPY_MEM_ALLOC_FROM_POOL], 1);
	return real_mem_alloc_from_pool(p, n, pool, s);
}

static __typeof__(&cuMemcpyHtoD_v2) real_memcpy_htod;
static CUresult spy_memcpy_htod(CUdeviceptr d, const void *h, size_t n)
{
	atomic_fetch_add(&counts[SPY_MEMCPY_HTOD], 1);
	return real_memcpy_htod(d, h, n);
}

static __typeof__(&cuMemsetD8_v2) real_memset_d8;
static CUresult spy_memset_d8(CUdeviceptr d, unsigned char v, size_t n)
{
	atomic_fetch_add(&counts[SPY_MEMSET_D8], 1);
	return real_memset_d8(d, v, n);
}

#define LAUNCH_ARGS CUfunction f, unsigned int gx, unsigned int gy,        \
	unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, \
	unsigned int shm, CUstream s, void **params, void **extra
static __typeof__(&cuLaunchKernel) real_launch, real_launch_ptsz;
static CUresult spy_launch(LAUNCH_ARGS)
{
	atomic_fetch_add(&counts[SPY_LAUNCH], 1);
	return real_launch(f, gx, gy, gz, bx, by, bz, shm, s, params, extra);
}

static CUresult spy_launch_ptsz(LAUNCH_ARGS)
{
	atomic_fetch_add(&counts[SPY_LAUNCH_PTSZ], 1);
	return real_launch_ptsz(f, gx, gy, gz, bx, by, bz, shm, s, params, extra);
}

/* Swaps in a wrapper for a real pointer of the given export's name. */
#define SWAP(export, real, spy)                                             \
	if (strcmp(name, export) == 0) {                                   \
		real = (__typeof__(real))*pfn;                             \
		*pfn = (void *)spy;                                        \
		return;                                                    \
	}

static void swap_in(void **pfn)
{
	Dl_info info;
	if (!*pfn || !dladdr(*pfn, &info) || !info.dli_sname)
		return;
	const char *name = info.dli_sname;
	SWAP("cuMemAlloc_v2", real_mem_alloc, spy_mem_alloc)
	SWAP("cuMemFree_v2", real_mem_free, spy_mem_free)
	SWAP("cuMemAllocAsync", real_mem_alloc_async, spy_mem_alloc_async)
	SWAP("cuMemAllocFromPoolAsync", real_mem_alloc_from_pool,
	     spy_mem_alloc_from_pool)
	SWAP("cuMemcpyHtoD_v2", real_memcpy_htod, spy_memcpy_htod)
	SWAP("cuMemsetD8_v2", real_memset_d8, spy_memset_d8)
	SWAP("cuLaunchKernel", real_launch, spy_launch)
	SWAP("cuLaunchKernel_ptsz", real_launch_ptsz, spy_launch_ptsz)
}

static CUresult spy_get_proc(const char *symbol, void **pfn, int version,
			     cuuint64_t flags,
			     CUdriverProcAddressQueryResult *status)
{
	atomic_fetch_add(&counts[SPY_GET_PROC], 1);
	if (symbol && strcmp(symbol, "cuMemAlloc") == 0)
		atomic_fetch_add(&counts[SPY_LOOKUP_MEM_ALLOC], 1);
	CUresult r = real_get_proc(symbol, pfn, version, flags, status);
	if (r == CUDA_SUCCESS && pfn)
		swap_in(pfn);
	return r;
}

void *dlsym(void *handle, const char *name)
{
	if (!real_dlsym) {
		real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
		if (!real_dlsym)
			real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	}
	void *fn = real_dlsym(handle, name);
	if (fn && strcmp(name, "cuGetProcAddress_v2") == 0) {
		real_get_proc = (__typeof__(real_get_proc))fn;
		return (void *)spy_get_proc;
	}
	return fn;
}
