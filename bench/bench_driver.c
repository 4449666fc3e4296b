/*
 * Benchmark (g): ns per cuMemAlloc + cuMemFree pair (64 KiB) made through
 * the function pointers cuGetProcAddress hands back, as libcudart, cuBLAS
 * and cuDNN reach the driver; printed on one line.
 *   bench_driver N
 * run_bench.sh runs it bare and while a session records, on the simulated
 * libcuda.so.1, and compares the added ns with (a)'s cudaMalloc+cudaFree
 * pair. Never part of the test suite.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_clock.h"

enum { ALLOC_BYTES = 64 << 10 };

typedef CUresult mem_alloc_fn(CUdeviceptr *, size_t);
typedef CUresult mem_free_fn(CUdeviceptr);

static mem_alloc_fn *mem_alloc;
static mem_free_fn *mem_free;

static void *driver_function(const char *symbol)
{
	void *function = NULL;
	CUdriverProcAddressQueryResult status;
	/* CUDA 13.0 as the caller's version: "cuMemAlloc" is then cuMemAlloc_v2. */
	if (cuGetProcAddress(symbol, &function, 13000, CU_GET_PROC_ADDRESS_DEFAULT,
			     &status) != CUDA_SUCCESS ||
	    status != CU_GET_PROC_ADDRESS_SUCCESS || !function) {
		fprintf(stderr, "bench_driver: cuGetProcAddress(%s) failed\n", symbol);
		exit(1);
	}
	return function;
}

static void driver_pairs(long n)
{
	for (long i = 0; i < n; i++) {
		CUdeviceptr p = 0;
		if (mem_alloc(&p, ALLOC_BYTES) != CUDA_SUCCESS || mem_free(p) != CUDA_SUCCESS) {
			fprintf(stderr, "bench_driver: driver call failed\n");
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc == 2 ? atol(argv[1]) : 0;
	if (n <= 0) {
		fprintf(stderr, "usage: bench_driver ITERATIONS (positive)\n");
		return 1;
	}
	CUdevice device;
	CUcontext context;
	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(context) != CUDA_SUCCESS) {
		fprintf(stderr, "bench_driver: no device context\n");
		return 1;
	}
	*(void **)&mem_alloc = driver_function("cuMemAlloc");
	*(void **)&mem_free = driver_function("cuMemFree");
	driver_pairs(n / 10 + 1); /* warm-up: start CUPTI, fault pages */
	printf("%.1f\n", bench_best_ns(driver_pairs, n, 5));
	return 0;
}
