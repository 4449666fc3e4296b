/*
 * Error reporting of the simulated runtime: error names and strings,
 * per-thread last error (cudaGetLastError resets, cudaPeekAtLastError does
 * not), versions and device queries, and a sticky error after an injected
 * device fault: returned by every later call and never cleared.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

static void *other_thread(void *arg)
{
	(void)arg;
	/* Last errors are per thread: this thread has none. */
	return (void *)(intptr_t)cudaPeekAtLastError();
}

static char kernel;

int main(void)
{
	simgpu_test_setup();
	CHECK(strcmp(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation") == 0);
	CHECK(strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0);
	CHECK(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
	CHECK(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
	CHECK(strcmp(cudaGetErrorString((cudaError_t)123456), "unrecognized error code") == 0);
	CHECK(cudaErrorInvalidValue == 1 && cudaErrorMemoryAllocation == 2 &&
	      cudaErrorInvalidConfiguration == 9 && cudaErrorInvalidDeviceFunction == 98 &&
	      cudaErrorInvalidResourceHandle == 400 && cudaErrorIllegalAddress == 700);

	int v = 0;
	CHECK_CUDA(cudaRuntimeGetVersion(&v));
	CHECK_EQ_U64(v, 13000);
	CHECK_CUDA(cudaDriverGetVersion(&v));
	CHECK_EQ_U64(v, 13000);
	CHECK_CUDA(cudaGetDeviceCount(&v));
	CHECK_EQ_U64(v, 1);
	CHECK_CUDA(cudaGetDevice(&v));
	CHECK_EQ_U64(v, 0);
	CHECK_CUDA(cudaSetDevice(0));
	struct cudaDeviceProp prop;
	CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
	CHECK(strstr(prop.name, "simgpu") && prop.major == 9 && prop.maxThreadsPerBlock == 1024);
	CHECK_EQ_U64(prop.totalGlobalMem, 16ULL << 30);

	CHECK_CUDA_IS(cudaSetDevice(1), cudaErrorInvalidDevice);
	CHECK_CUDA_IS(cudaPeekAtLastError(), cudaErrorInvalidDevice);
	CHECK_CUDA_IS(cudaPeekAtLastError(), cudaErrorInvalidDevice);
	pthread_t t;
	void *seen;
	CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
	CHECK(pthread_join(t, &seen) == 0);
	CHECK((intptr_t)seen == cudaSuccess);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidDevice);
	CHECK_CUDA(cudaGetLastError());
	/* A later success does not clear an earlier error. */
	CHECK_CUDA_IS(cudaGetDeviceProperties(&prop, 3), cudaErrorInvalidDevice);
	CHECK_CUDA(cudaGetDevice(&v));
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidDevice);

	/* A device fault: the launch succeeds, everything after fails. */
	simgpu_define_kernel(&kernel, "faulting_kernel", 0, NULL);
	void *p;
	CHECK_CUDA(cudaMalloc(&p, 64));
	simgpu_fail_next_kernel(cudaErrorIllegalAddress);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	CHECK_CUDA_IS(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
	CHECK_CUDA_IS(cudaMalloc(&p, 64), cudaErrorIllegalAddress);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorIllegalAddress);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorIllegalAddress);
	CHECK_CUDA_IS(cudaDeviceReset(), cudaErrorIllegalAddress);
	CHECK_CUDA_IS(cudaFree(p), cudaErrorIllegalAddress);
	return 0;
}
