/*
 * simgpu: memory pool attributes as PyTorch's cudaMallocAsync backend sets
 * them (release threshold UINT64_MAX, the three reuse flags), the pool's
 * used/high accounting, address reuse by stream-ordered allocations, and
 * several device ordinals (SIMGPU_DEVICE_COUNT=3): cudaSetDevice, a
 * thread's own current device, the driver's view of it. Must never depend
 * on a GPU: it runs on the simulated stack only.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "simgpu/tests/simgpu_test.h"

static void check_pool_attributes(void)
{
	cudaMemPool_t pool;
	CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
	uint64_t u64 = 1;
	int flag = 0;
	/* A real pool's defaults: threshold 0, reuse flags on. */
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &u64));
	CHECK_EQ_U64(u64, 0);
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag));
	CHECK_EQ_U64(flag, 1);

	/* What c10's lazy_init_device does. */
	u64 = UINT64_MAX;
	CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &u64));
	u64 = 0;
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &u64));
	CHECK_EQ_U64(u64, UINT64_MAX);
	flag = 0;
	CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &flag));
	flag = 7;
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &flag));
	CHECK_EQ_U64(flag, 0);
	flag = 1;
	CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &flag));

	/* Accounting: used and its watermark, in 256-byte blocks. */
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	void *a, *b, *c;
	CHECK_CUDA(cudaMallocAsync(&a, 1000, s));
	CHECK_CUDA(cudaMallocAsync(&b, 256, s));
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &u64));
	CHECK_EQ_U64(u64, 1024 + 256);
	CHECK_CUDA(cudaFreeAsync(a, s));
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &u64));
	CHECK_EQ_U64(u64, 256);
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &u64));
	CHECK_EQ_U64(u64, 1024 + 256);
	/* The freed block's address is handed out again (first fit). */
	CHECK_CUDA(cudaMallocAsync(&c, 512, s));
	CHECK(c == a);
	CHECK_CUDA(cudaFreeAsync(c, s));
	CHECK_CUDA(cudaFreeAsync(b, s));
	u64 = 0;
	CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &u64));
	CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &u64));
	CHECK_EQ_U64(u64, 0);

	/* Bad input: read-only figures, a non-zero watermark, NULL, no pool. */
	u64 = 5;
	CHECK_CUDA_IS(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &u64),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &u64),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, NULL),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemPoolGetAttribute((cudaMemPool_t)&u64,
					      cudaMemPoolAttrReleaseThreshold, &u64),
		      cudaErrorInvalidValue);
	(void)cudaGetLastError();
	CHECK_CUDA(cudaStreamDestroy(s));
}

static void *other_thread(void *arg)
{
	int *device = arg;
	/* A new thread starts on device 0, whatever another thread chose. */
	CHECK_CUDA(cudaGetDevice(device));
	return NULL;
}

static void check_devices(void)
{
	int count = 0, device = -1;
	CHECK_CUDA(cudaGetDeviceCount(&count));
	CHECK_EQ_U64(count, 3);
	CHECK_CUDA(cudaGetDevice(&device));
	CHECK_EQ_U64(device, 0);
	CHECK_CUDA(cudaSetDevice(2));
	CHECK_CUDA(cudaGetDevice(&device));
	CHECK_EQ_U64(device, 2);
	CUdevice cu_device = -1;
	CHECK(cuCtxGetDevice(&cu_device) == CUDA_SUCCESS);
	CHECK_EQ_U64(cu_device, 2);
	CHECK_CUDA_IS(cudaSetDevice(3), cudaErrorInvalidDevice);
	(void)cudaGetLastError();
	CHECK_CUDA(cudaGetDevice(&device));
	CHECK_EQ_U64(device, 2);

	pthread_t thread;
	int thread_device = -1;
	CHECK(pthread_create(&thread, NULL, other_thread, &thread_device) == 0);
	CHECK(pthread_join(thread, NULL) == 0);
	CHECK_EQ_U64(thread_device, 0);

	/* Work on device 2 runs as before; a pointer names the caller's device. */
	void *p;
	CHECK_CUDA(cudaMalloc(&p, 64));
	struct cudaPointerAttributes attributes;
	CHECK_CUDA(cudaPointerGetAttributes(&attributes, p));
	CHECK_EQ_U64(attributes.device, 2);
	CHECK_CUDA(cudaFree(p));
	cudaMemPool_t pool;
	CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 2));
	CHECK_CUDA_IS(cudaDeviceGetDefaultMemPool(&pool, 3), cudaErrorInvalidDevice);
	(void)cudaGetLastError();
}

int main(void)
{
	simgpu_test_setup();
	setenv("SIMGPU_DEVICE_COUNT", "3", 1);
	check_pool_attributes();
	check_devices();
	puts("ok");
	return 0;
}
