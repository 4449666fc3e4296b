/*
 * The simulated runtime reaches its driver as the real one does: through
 * dlsym(libcuda, "cuGetProcAddress_v2") and the entry points that hands
 * out, resolved once. Run under a preloaded spy that wraps dlsym (as a
 * tracer does; proc_spy.c): each cudaMalloc / cudaFree / cudaMallocAsync /
 * cudaMallocFromPoolAsync / cudaMemcpy / cudaMemset / cudaLaunchKernel
 * (and its _ptsz twin) reaches exactly one spied driver call, the lookups
 * happen once however many calls follow, and results are unchanged; the
 * first runtime call of a thread makes the primary context current there
 * (driver calls that follow find it), as the real runtime does.
 * Re-executes itself with LD_PRELOAD set.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "simgpu/tests/driver_test.h"
#include "simgpu/simgpu.h"

static char kernel;

static void *current_context_of_new_thread(void *runtime_call_first)
{
	CUcontext ctx = (CUcontext)0x1;
	if (runtime_call_first) {
		int device;
		CHECK_CUDA(cudaGetDevice(&device));
	}
	CHECK_CU(cuCtxGetCurrent(&ctx));
	return ctx;
}

static void check_context_binding(void)
{
	pthread_t t;
	void *ctx;
	CHECK(pthread_create(&t, NULL, current_context_of_new_thread, NULL) == 0);
	CHECK(pthread_join(t, &ctx) == 0);
	CHECK(ctx == NULL);
	static int runtime_first = 1;
	CHECK(pthread_create(&t, NULL, current_context_of_new_thread, &runtime_first) == 0);
	CHECK(pthread_join(t, &ctx) == 0);
	CUcontext primary;
	CHECK_CU(cuDevicePrimaryCtxRetain(&primary, 0));
	CHECK(ctx == primary);
	CHECK_CU(cuDevicePrimaryCtxRelease_v2(0));
}

static int count(const char *name)
{
	int (*spy_count)(const char *) =
		(int (*)(const char *))dlsym(RTLD_DEFAULT, "simgpu_spy_count");
	CHECK(spy_count != NULL);
	return spy_count(name);
}

static void reexec_under_spy(char **argv)
{
	char self[PATH_MAX], spy[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0);
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(spy, sizeof(spy), "%s/simgpu_driver/libproc_spy.so", self);
	CHECK(access(spy, R_OK) == 0);
	const char *old = getenv("LD_PRELOAD");
	char preload[2 * PATH_MAX + 80];
	snprintf(preload, sizeof(preload), "%s%s%s", old ? old : "",
		 old ? " " : "", spy);
	setenv("LD_PRELOAD", preload, 1);
	setenv("SIMGPU_SPY_ACTIVE", "1", 1);
	/* A sanitizer build: the spy comes before the sanitizer runtime. */
	setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 0);
	execv("/proc/self/exe", argv);
	perror("execv");
	exit(1);
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

int main(int argc, char **argv)
{
	(void)argc;
	if (SANITIZED) {
		/* The sanitizer runtime's own dlsym calls meet the spy's
		 * wrapper before either is set up. */
		printf("skip: the dlsym spy cannot run under AddressSanitizer\n");
		return 77;
	}
	if (!getenv("SIMGPU_SPY_ACTIVE"))
		reexec_under_spy(argv);
	simgpu_test_setup();
	size_t sizes[1] = { 8 };
	simgpu_define_kernel(&kernel, "k", 1, sizes);

	void *a, *b;
	CHECK_CUDA(cudaMalloc(&a, 1000));
	int resolved = count("cuGetProcAddress_v2");
	CHECK(resolved > 10); /* the runtime's table, legacy and per-thread */
	CHECK_EQ_U64(count("lookup:cuMemAlloc"), 2);
	CHECK_CUDA(cudaMalloc(&b, 1000));
	CHECK_EQ_U64(count("cuMemAlloc_v2"), 2);
	CHECK_CUDA_IS(cudaMalloc(&b, 1ULL << 50), cudaErrorMemoryAllocation);
	CHECK_EQ_U64(count("cuMemAlloc_v2"), 3);
	void *zero;
	CHECK_CUDA(cudaMalloc(&zero, 0)); /* answered by the runtime itself */
	CHECK_EQ_U64(count("cuMemAlloc_v2"), 3);

	CHECK_CUDA(cudaFree(a));
	CHECK_CUDA(cudaFree(NULL));
	CHECK_EQ_U64(count("cuMemFree_v2"), 1);

	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	void *c;
	CHECK_CUDA(cudaMallocAsync(&c, 64, s));
	CHECK_EQ_U64(count("cuMemAllocAsync"), 1);
	cudaMemPool_t pool;
	CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
	void *d;
	CHECK_CUDA(cudaMallocFromPoolAsync(&d, 64, pool, s));
	CHECK_EQ_U64(count("cuMemAllocFromPoolAsync"), 1);

	char host[64] = { 1 };
	CHECK_CUDA(cudaMemcpy(b, host, sizeof(host), cudaMemcpyHostToDevice));
	CHECK_EQ_U64(count("cuMemcpyHtoD_v2"), 1);
	CHECK_CUDA(cudaMemset(b, 0, 64));
	CHECK_EQ_U64(count("cuMemsetD8_v2"), 1);

	void *args[1] = { &b };
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(1, 1, 1), args, 0, s));
	CHECK_EQ_U64(count("cuLaunchKernel"), 1);
	__typeof__(&cudaLaunchKernel) launch_ptsz =
		(__typeof__(&cudaLaunchKernel))dlsym(RTLD_DEFAULT, "cudaLaunchKernel_ptsz");
	CHECK(launch_ptsz != NULL);
	CHECK_CUDA(launch_ptsz(&kernel, D3(1, 1, 1), D3(1, 1, 1), args, 0, NULL));
	CHECK_EQ_U64(count("cuLaunchKernel_ptsz"), 1);
	CHECK_EQ_U64(count("cuLaunchKernel"), 1);
	/* An undeclared kernel never reaches the driver. */
	CHECK_CUDA_IS(cudaLaunchKernel(&zero, D3(1, 1, 1), D3(1, 1, 1), args, 0, s),
		      cudaErrorInvalidDeviceFunction);
	CHECK_EQ_U64(count("cuLaunchKernel"), 1);

	CHECK_CUDA(cudaFreeAsync(c, s));
	CHECK_CUDA(cudaFreeAsync(d, s));
	CHECK_CUDA(cudaStreamSynchronize(s));
	CHECK_CUDA(cudaStreamDestroy(s));
	CHECK_CUDA(cudaFree(b));
	check_context_binding();
	/* Resolved once: no lookups since the first call. */
	CHECK_EQ_U64(count("cuGetProcAddress_v2"), resolved);
	printf("test_driver_runtime_path: ok (%d lookups)\n", resolved);
	return 0;
}
