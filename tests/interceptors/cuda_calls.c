/*
 * Test program for the preloaded tracer: calls the CUDA runtime the way an
 * application does and prints one line per call, `name result errno`, so two
 * runs (with and without LD_PRELOAD=libdnntrace.so) can be compared line by
 * line. Linked to libcudart.so.13 by SONAME; the test picks the real or the
 * simulated runtime with LD_LIBRARY_PATH.
 *
 *   cuda_calls api                  every wrapped entry point once
 *   cuda_calls kernels END          (simgpu) tensors in struct params; END is
 *                                   return | exit | pthread_exit
 *   cuda_calls kernels_after_init   (simgpu) the kernels scenario after an
 *                                   untraced cudaGetDeviceCount, which
 *                                   initialises CUDA (cuInit) before the
 *                                   tracer's first traced call, as
 *                                   frameworks do
 *   cuda_calls nvcc13               (simgpu) the kernels scenario launched as
 *                                   nvcc 13's <<<>>> code does: __cudaGetKernel
 *                                   once, then __cudaLaunchKernel and
 *                                   __cudaLaunchKernel_ptsz with the handle
 *   cuda_calls threads N            (simgpu) N threads alloc/launch/free
 *   cuda_calls layers runtime|driver (simgpu) the same work, through the
 *                                   runtime or straight to the driver:
 *                                   alloc, stream-ordered alloc, copy in, set,
 *                                   launch, copy out, frees
 *   cuda_calls driver_launch        (simgpu) the kernels scenario's tensors
 *                                   given to cuLaunchKernel, cuLaunchKernelEx
 *                                   (kernelParams and extra's packed buffer)
 *                                   and cuLaunchCooperativeKernel, with the
 *                                   CUfunction from cudaGetFuncBySymbol
 *   cuda_calls last_thread HOW      (simgpu) the kernels scenario in a worker
 *                                   while main ends with pthread_exit; HOW:
 *                                   main_first (main exits while the worker
 *                                   runs; the worker returns), worker_exit
 *                                   (same; the worker calls pthread_exit),
 *                                   main_last (main joins it, then exits)
 *
 * Must never depend on libdnntrace.so: it is the traced program.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_nvcc13.h"
#include "interceptors/runtime/cuda_ptds.h"

#define SHOW(name, call) do { \
	errno = 0; \
	cudaError_t shown_rc = (call); \
	int shown_errno = errno; \
	printf("%s %d %d\n", name, (int)shown_rc, shown_errno); \
} while (0)

/* A free also prints its pointer: the tracer records frees of non-NULL ones only. */
#define SHOW_FREE(name, ptr, call) do { \
	errno = 0; \
	cudaError_t shown_rc = (call); \
	int shown_errno = errno; \
	printf("%s %d %d %p\n", name, (int)shown_rc, shown_errno, (void *)(ptr)); \
} while (0)

static void kernel_a(void) {}

static void api_calls(void)
{
	void *dev = NULL, *host = NULL;
	char src[64] = "source", dst[64];
	size_t pitch = 0;
	struct cudaPitchedPtr pitched = { 0 };
	struct cudaExtent extent = { .width = 64, .height = 4, .depth = 2 };
	dim3 grid = { 2, 1, 1 }, block = { 32, 1, 1 };
	int n = 7;
	void *args[] = { &dev, &n };
	cudaLaunchConfig_t config = { .gridDim = grid, .blockDim = block, .dynamicSmemBytes = 16 };

	SHOW("cudaMalloc", cudaMalloc(&dev, 1 << 20));
	SHOW_FREE("cudaFree", dev, cudaFree(dev));
	SHOW_FREE("cudaFree", (void *)0x1000, cudaFree((void *)0x1000));
	SHOW_FREE("cudaFree", NULL, cudaFree(NULL));
	dev = NULL;
	SHOW("cudaMallocAsync", cudaMallocAsync(&dev, 4096, 0));
	SHOW_FREE("cudaFreeAsync", dev, cudaFreeAsync(dev, 0));
	dev = NULL;
	SHOW("cudaMallocAsync_ptsz", cudaMallocAsync_ptsz(&dev, 4096, 0));
	SHOW_FREE("cudaFreeAsync_ptsz", dev, cudaFreeAsync_ptsz(dev, 0));
	SHOW("cudaMallocFromPoolAsync", cudaMallocFromPoolAsync(&dev, 4096, NULL, 0));
	SHOW("cudaMallocFromPoolAsync_ptsz", cudaMallocFromPoolAsync_ptsz(&dev, 4096, NULL, 0));
	dev = NULL;
	SHOW("cudaMallocManaged", cudaMallocManaged(&dev, 4096, cudaMemAttachGlobal));
	SHOW("cudaMallocPitch", cudaMallocPitch(&dev, &pitch, 100, 10));
	SHOW("cudaMalloc3D", cudaMalloc3D(&pitched, extent));
	SHOW("cudaMallocHost", cudaMallocHost(&host, 4096));
	SHOW_FREE("cudaFreeHost", host, cudaFreeHost(host));
	host = NULL;
	SHOW("cudaHostAlloc", cudaHostAlloc(&host, 4096, cudaHostAllocDefault));
	SHOW_FREE("cudaFreeHost", host, cudaFreeHost(host));
	/* the program's own memory pinned and unpinned; then a flag no CUDA
	 * defines (0x80) and an unregistration of unregistered memory, refused */
	SHOW("cudaHostRegister", cudaHostRegister(dst, sizeof(dst), cudaHostRegisterDefault));
	SHOW_FREE("cudaHostUnregister", dst, cudaHostUnregister(dst));
	SHOW("cudaHostRegister", cudaHostRegister(dst, sizeof(dst), 0x80));
	SHOW_FREE("cudaHostUnregister", dst, cudaHostUnregister(dst));
	SHOW("cudaMemcpy", cudaMemcpy(dst, src, 16, cudaMemcpyHostToHost));
	SHOW("cudaMemcpy_ptds", cudaMemcpy_ptds(dst, src, 16, cudaMemcpyHostToHost));
	SHOW("cudaMemcpyAsync", cudaMemcpyAsync(dst, src, 16, cudaMemcpyHostToHost, 0));
	SHOW("cudaMemcpyAsync_ptsz", cudaMemcpyAsync_ptsz(dst, src, 16, cudaMemcpyHostToHost, 0));
	SHOW("cudaMemcpy2D", cudaMemcpy2D(dst, 16, src, 16, 8, 2, cudaMemcpyHostToHost));
	SHOW("cudaMemcpy2D_ptds", cudaMemcpy2D_ptds(dst, 16, src, 16, 8, 2, cudaMemcpyHostToHost));
	SHOW("cudaMemcpy2DAsync",
	     cudaMemcpy2DAsync(dst, 16, src, 16, 8, 2, cudaMemcpyHostToHost, 0));
	SHOW("cudaMemcpy2DAsync_ptsz",
	     cudaMemcpy2DAsync_ptsz(dst, 16, src, 16, 8, 2, cudaMemcpyHostToHost, 0));
	SHOW("cudaMemset", cudaMemset(dev, 1, 16));
	SHOW("cudaMemset_ptds", cudaMemset_ptds(dev, 1, 16));
	SHOW("cudaMemsetAsync", cudaMemsetAsync(dev, 2, 16, 0));
	SHOW("cudaMemsetAsync_ptsz", cudaMemsetAsync_ptsz(dev, 2, 16, 0));
	SHOW("cudaMemset2D", cudaMemset2D(dev, 16, 3, 8, 2));
	SHOW("cudaMemset2D_ptds", cudaMemset2D_ptds(dev, 16, 3, 8, 2));
	SHOW("cudaMemset2DAsync", cudaMemset2DAsync(dev, 16, 4, 8, 2, 0));
	SHOW("cudaMemset2DAsync_ptsz", cudaMemset2DAsync_ptsz(dev, 16, 4, 8, 2, 0));
	/* issue 10's two catalogue additions; the last prefetch is of device
	 * memory, which the runtime refuses (managed memory only) */
	void *managed = NULL, *peer = NULL;
	struct cudaMemLocation on_device = { .type = cudaMemLocationTypeDevice, .id = 0 };
	struct cudaMemLocation on_host = { .type = cudaMemLocationTypeHost, .id = 0 };
	SHOW("cudaMallocManaged", cudaMallocManaged(&managed, 8192, cudaMemAttachGlobal));
	SHOW("cudaMalloc", cudaMalloc(&peer, 4096));
	SHOW("cudaMemcpyPeerAsync", cudaMemcpyPeerAsync(peer, 0, dev, 0, 16, 0));
	SHOW("cudaMemPrefetchAsync", cudaMemPrefetchAsync(managed, 8192, on_device, 0, 0));
	SHOW("cudaMemPrefetchAsync_ptsz", cudaMemPrefetchAsync_ptsz(managed, 4096, on_host, 0, 0));
	SHOW("cudaMemPrefetchAsync", cudaMemPrefetchAsync(peer, 4096, on_device, 0, 0));
	SHOW("cudaLaunchKernel", cudaLaunchKernel((const void *)kernel_a, grid, block, args, 0, 0));
	SHOW("cudaLaunchKernel_ptsz",
	     cudaLaunchKernel_ptsz((const void *)kernel_a, grid, block, args, 0, 0));
	SHOW("cudaLaunchKernelExC", cudaLaunchKernelExC(&config, (const void *)kernel_a, args));
	SHOW("cudaLaunchKernelExC_ptsz",
	     cudaLaunchKernelExC_ptsz(&config, (const void *)kernel_a, args));
	cudaKernel_t handle = NULL;
	SHOW("__cudaGetKernel", __cudaGetKernel(&handle, (const void *)kernel_a));
	SHOW("__cudaLaunchKernel", __cudaLaunchKernel(handle, grid, block, args, 0, 0));
	SHOW("__cudaLaunchKernel_ptsz", __cudaLaunchKernel_ptsz(handle, grid, block, args, 0, 0));
	SHOW("cudaGetLastError", cudaGetLastError());
}

/* --- simgpu scenarios --------------------------------------------------- */

typedef void (*define_kernel_fn)(const void *, const char *, size_t, const size_t *);

struct pair_param {        /* 24 bytes: pointer, int (+pad), pointer */
	float *in;
	int n;
	float *out;
};

static void kernel_struct(void) {}

static int need_simgpu(define_kernel_fn *define)
{
	*define = (define_kernel_fn)dlsym(RTLD_DEFAULT, "simgpu_define_kernel");
	if (!*define) {
		fprintf(stderr, "cuda_calls: this mode needs the simulated runtime (simgpu)\n");
		return 0;
	}
	return 1;
}

/*
 * What nvcc 13 compiles kernel_struct<<<grid, block, 0, stream>>>(...) into
 * (crt/host_runtime.h): the handle is fetched once, into a static, then
 * every launch goes through it; _ptsz under --default-stream per-thread.
 */
static void nvcc13_launches(void **args, dim3 grid, dim3 block)
{
	static cudaKernel_t handle;
	static int fetched;
	if (!fetched) {
		SHOW("__cudaGetKernel", __cudaGetKernel(&handle, (const void *)kernel_struct));
		fetched = 1;
	}
	printf("kernel_handle %p %p\n", (void *)handle, (void *)kernel_struct);
	SHOW("__cudaLaunchKernel", __cudaLaunchKernel(handle, grid, block, args, 0, 0));
	SHOW("__cudaLaunchKernel_ptsz", __cudaLaunchKernel_ptsz(handle, grid, block, args, 0, 0));
}

/*
 * Three tensors; the launch passes t0 and t1+64 inside a struct, t2 plain.
 * nvcc13: launched through a kernel handle, twice (see nvcc13_launches).
 */
static int kernel_calls(int nvcc13)
{
	define_kernel_fn define;
	if (!need_simgpu(&define))
		return 77;
	static const size_t sizes[] = { sizeof(struct pair_param), sizeof(float *), sizeof(int) };
	define((const void *)kernel_struct, "pair_kernel", 3, sizes);

	float *t[3];
	for (int i = 0; i < 3; i++)
		SHOW("cudaMalloc", cudaMalloc((void **)&t[i], 4096));
	struct pair_param pair = { .in = t[0], .n = 1, .out = t[1] + 16 };
	int scale = 3;
	void *args[] = { &pair, &t[2], &scale };
	dim3 grid = { 4, 1, 1 }, block = { 128, 1, 1 };
	if (nvcc13)
		nvcc13_launches(args, grid, block);
	else
		SHOW("cudaLaunchKernel",
		     cudaLaunchKernel((const void *)kernel_struct, grid, block, args, 0, 0));
	float host[16] = { 0 };
	SHOW("cudaMemcpy", cudaMemcpy(host, t[1] + 4, sizeof(host), cudaMemcpyDeviceToHost));
	SHOW("cudaMemset", cudaMemset(t[2], 0, 128));
	printf("tensor_ptrs %p %p %p\n", (void *)t[0], (void *)t[1], (void *)t[2]);
	SHOW_FREE("cudaFree", t[0], cudaFree(t[0]));
	return 0;
}

static void *thread_calls(void *arg)
{
	dim3 grid = { 1, 1, 1 }, block = { 32, 1, 1 };
	(void)arg;
	for (int i = 0; i < 50; i++) {
		float *a = NULL, *b = NULL;
		cudaMalloc((void **)&a, 256);
		cudaMalloc((void **)&b, 256);
		struct pair_param pair = { .in = a, .n = i, .out = b };
		int scale = 1;
		void *args[] = { &pair, &b, &scale };
		cudaLaunchKernel((const void *)kernel_struct, grid, block, args, 0, 0);
		cudaFree(a);
		cudaFree(b);
	}
	return NULL;
}

static int threaded_calls(int n)
{
	define_kernel_fn define;
	pthread_t threads[64];
	if (!need_simgpu(&define))
		return 77;
	static const size_t sizes[] = { sizeof(struct pair_param), sizeof(float *), sizeof(int) };
	define((const void *)kernel_struct, "pair_kernel", 3, sizes);
	if (n < 1 || n > 64)
		n = 8;
	for (int i = 0; i < n; i++)
		pthread_create(&threads[i], NULL, thread_calls, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}

/* --- the driver, reached from the program itself ------------------------- */

/*
 * The driver entry points the program calls itself. This program is linked
 * to libcudart only, so it reaches libcuda.so.1 as TensorFlow does: dlopen
 * and dlsym (a preloaded tracer hands back its wrappers there).
 */
static struct {
	__typeof__(&cuMemAlloc_v2) mem_alloc;
	__typeof__(&cuMemAllocAsync) mem_alloc_async;
	__typeof__(&cuMemcpyHtoD_v2) memcpy_htod;
	__typeof__(&cuMemcpyDtoH_v2) memcpy_dtoh;
	__typeof__(&cuMemsetD8_v2) memset_d8;
	__typeof__(&cuLaunchKernel) launch;
	__typeof__(&cuLaunchKernelEx) launch_ex;
	__typeof__(&cuLaunchCooperativeKernel) launch_cooperative;
	__typeof__(&cuMemFreeAsync) mem_free_async;
	__typeof__(&cuMemFree_v2) mem_free;
	__typeof__(&cuStreamSynchronize) stream_synchronize;
} drv;

static int load_driver(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "cuda_calls: %s\n", dlerror());
		return 0;
	}
#define DRIVER_FN(field, name) \
	if (!(drv.field = (__typeof__(drv.field))dlsym(lib, name))) { \
		fprintf(stderr, "cuda_calls: libcuda.so.1 lacks %s\n", name); \
		return 0; \
	}
	DRIVER_FN(mem_alloc, "cuMemAlloc_v2")
	DRIVER_FN(mem_alloc_async, "cuMemAllocAsync")
	DRIVER_FN(memcpy_htod, "cuMemcpyHtoD_v2")
	DRIVER_FN(memcpy_dtoh, "cuMemcpyDtoH_v2")
	DRIVER_FN(memset_d8, "cuMemsetD8_v2")
	DRIVER_FN(launch, "cuLaunchKernel")
	DRIVER_FN(launch_ex, "cuLaunchKernelEx")
	DRIVER_FN(launch_cooperative, "cuLaunchCooperativeKernel")
	DRIVER_FN(mem_free_async, "cuMemFreeAsync")
	DRIVER_FN(mem_free, "cuMemFree_v2")
	DRIVER_FN(stream_synchronize, "cuStreamSynchronize")
#undef DRIVER_FN
	return 1;
}

#define SHOW_DRIVER(name, call) printf("%s %d 0\n", name, (int)(call))
#define SHOW_DRIVER_FREE(name, ptr, call) \
	printf("%s %d 0 %p\n", name, (int)(call), (void *)(uintptr_t)(ptr))

static void kernel_layers(void) {}

/*
 * The same work at either level. At the runtime level simgpu's libcudart
 * does each step with the driver call the driver level makes (README:
 * "Layers"): the trace must still show one event per runtime call.
 */
static int layered_calls(const char *level)
{
	define_kernel_fn define;
	if (!need_simgpu(&define))
		return 77;
	static const size_t sizes[] = { sizeof(float *), sizeof(float *) };
	define((const void *)kernel_layers, "layers_kernel", 2, sizes);
	int driver = strcmp(level, "driver") == 0;
	if (!driver && strcmp(level, "runtime") != 0)
		return 2;
	/* The runtime's first call sets up the context the driver calls use. */
	cudaFunction_t function = NULL;
	SHOW("cudaGetFuncBySymbol", cudaGetFuncBySymbol(&function, (const void *)kernel_layers));
	if (driver && !load_driver())
		return 3;

	float host[64] = { 1 };
	float *a = NULL, *b = NULL;
	void *args[] = { &a, &b };
	dim3 grid = { 3, 1, 1 }, block = { 64, 1, 1 };
	if (driver) {
		CUdeviceptr pa = 0, pb = 0;
		SHOW_DRIVER("cuMemAlloc_v2", drv.mem_alloc(&pa, 8192));
		SHOW_DRIVER("cuMemAllocAsync", drv.mem_alloc_async(&pb, 4096, NULL));
		a = (float *)(uintptr_t)pa;
		b = (float *)(uintptr_t)pb;
		SHOW_DRIVER("cuMemcpyHtoD_v2", drv.memcpy_htod(pa, host, sizeof(host)));
		SHOW_DRIVER("cuMemsetD8_v2", drv.memset_d8(pb, 0, 512));
		SHOW_DRIVER("cuLaunchKernel", drv.launch((CUfunction)function, grid.x, grid.y, grid.z,
							 block.x, block.y, block.z, 0, NULL, args, NULL));
		SHOW_DRIVER("cuMemcpyDtoH_v2", drv.memcpy_dtoh(host, pa + 256, sizeof(host)));
		SHOW_DRIVER_FREE("cuMemFreeAsync", pb, drv.mem_free_async(pb, NULL));
		SHOW_DRIVER("cuStreamSynchronize", drv.stream_synchronize(NULL));
		SHOW_DRIVER_FREE("cuMemFree_v2", pa, drv.mem_free(pa));
	} else {
		SHOW("cudaMalloc", cudaMalloc((void **)&a, 8192));
		SHOW("cudaMallocAsync", cudaMallocAsync((void **)&b, 4096, 0));
		SHOW("cudaMemcpy", cudaMemcpy(a, host, sizeof(host), cudaMemcpyHostToDevice));
		SHOW("cudaMemset", cudaMemset(b, 0, 512));
		SHOW("cudaLaunchKernel",
		     cudaLaunchKernel((const void *)kernel_layers, grid, block, args, 0, 0));
		SHOW("cudaMemcpy", cudaMemcpy(host, a + 64, sizeof(host), cudaMemcpyDeviceToHost));
		SHOW_FREE("cudaFreeAsync", b, cudaFreeAsync(b, 0));
		SHOW("cudaStreamSynchronize", cudaStreamSynchronize(0));
		SHOW_FREE("cudaFree", a, cudaFree(a));
	}
	printf("tensor_ptrs %p %p\n", (void *)a, (void *)b);
	return 0;
}

/*
 * The kernels scenario (three tensors; t0 and t1+16 inside a struct, t2
 * plain) launched at the driver level five ways; the packed buffer of
 * `extra` follows the CUDA ABI (struct at 0, pointer at 24, int at 32).
 */
static int driver_launch_calls(void)
{
	define_kernel_fn define;
	if (!need_simgpu(&define))
		return 77;
	static const size_t sizes[] = { sizeof(struct pair_param), sizeof(float *), sizeof(int) };
	define((const void *)kernel_struct, "pair_kernel", 3, sizes);
	cudaFunction_t function = NULL;
	SHOW("cudaGetFuncBySymbol", cudaGetFuncBySymbol(&function, (const void *)kernel_struct));
	if (!load_driver())
		return 3;
	CUfunction f = (CUfunction)function;
	printf("function %p\n", (void *)f);

	float *t[3];
	for (int i = 0; i < 3; i++)
		SHOW("cudaMalloc", cudaMalloc((void **)&t[i], 4096));
	struct pair_param pair = { .in = t[0], .n = 1, .out = t[1] + 16 };
	int scale = 3;
	void *args[] = { &pair, &t[2], &scale };
	struct { struct pair_param pair; float *plain; int scale; } packed = {
		.pair = pair, .plain = t[2], .scale = scale,
	};
	_Static_assert(offsetof(__typeof__(packed), plain) == 24 &&
		       offsetof(__typeof__(packed), scale) == 32, "CUDA ABI offsets");
	size_t packed_size = sizeof(packed);
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
		CU_LAUNCH_PARAM_END,
	};
	CUlaunchConfig config = {
		.gridDimX = 4, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 128, .blockDimY = 1, .blockDimZ = 1,
	};

	SHOW_DRIVER("cuLaunchKernel", drv.launch(f, 4, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
	SHOW_DRIVER("cuLaunchKernel", drv.launch(f, 4, 1, 1, 128, 1, 1, 0, NULL, NULL, extra));
	SHOW_DRIVER("cuLaunchKernelEx", drv.launch_ex(&config, f, args, NULL));
	SHOW_DRIVER("cuLaunchKernelEx", drv.launch_ex(&config, f, NULL, extra));
	SHOW_DRIVER("cuLaunchCooperativeKernel",
		    drv.launch_cooperative(f, 4, 1, 1, 128, 1, 1, 0, NULL, args));
	SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
	printf("tensor_ptrs %p %p %p\n", (void *)t[0], (void *)t[1], (void *)t[2]);
	return 0;
}

/* --- last-thread exit ---------------------------------------------------- */

static int worker_calls_pthread_exit;

static void *kernels_worker(void *arg)
{
	int *wait_for_main = arg;
	if (*wait_for_main)
		usleep(100 * 1000); /* main's pthread_exit has happened by then */
	int rc = kernel_calls(0);
	if (rc != 0)
		exit(rc);
	if (worker_calls_pthread_exit)
		pthread_exit(NULL);
	return NULL;
}

/* Never returns: the process ends when its last thread does (status 0). */
static int last_thread_calls(const char *how)
{
	static int wait_for_main;
	pthread_t worker;

	wait_for_main = strcmp(how, "main_last") != 0;
	worker_calls_pthread_exit = strcmp(how, "worker_exit") == 0;
	if (strcmp(how, "main_first") && strcmp(how, "worker_exit") && strcmp(how, "main_last"))
		return 2;
	if (pthread_create(&worker, NULL, kernels_worker, &wait_for_main) != 0)
		return 3;
	if (!wait_for_main)
		pthread_join(worker, NULL);
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && strcmp(argv[1], "api") == 0) {
		api_calls();
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "kernels") == 0) {
		int rc = kernel_calls(0);
		if (rc != 0 || strcmp(argv[2], "return") == 0)
			return rc;
		if (strcmp(argv[2], "exit") == 0)
			exit(0);
		if (strcmp(argv[2], "pthread_exit") == 0)
			pthread_exit(NULL);
	}
	if (argc >= 2 && strcmp(argv[1], "kernels_after_init") == 0) {
		int count = 0;
		if (cudaGetDeviceCount(&count) != cudaSuccess)
			return 1;
		return kernel_calls(0);
	}
	if (argc >= 2 && strcmp(argv[1], "nvcc13") == 0)
		return kernel_calls(1);
	if (argc >= 3 && strcmp(argv[1], "layers") == 0)
		return layered_calls(argv[2]);
	if (argc >= 2 && strcmp(argv[1], "driver_launch") == 0)
		return driver_launch_calls();
	if (argc >= 3 && strcmp(argv[1], "threads") == 0)
		return threaded_calls(atoi(argv[2]));
	if (argc >= 3 && strcmp(argv[1], "last_thread") == 0 && last_thread_calls(argv[2]) != 2)
		return 3;
	fprintf(stderr, "usage: cuda_calls api | kernels return|exit|pthread_exit | "
		"kernels_after_init | nvcc13 | "
		"threads N | layers runtime|driver | driver_launch | "
		"last_thread main_first|worker_exit|main_last\n");
	return 2;
}
