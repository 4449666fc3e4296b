/*
 * The runtime's registration ABI as nvcc's generated code drives it
 * (cudart_api_modules.c), called here by hand so that bad inputs can be
 * fed too: the real fatbin of tests/nvcc/nv_kernels.cu (built by make with
 * nvcc) wrapped as nvcc wraps it, kernels bound to host stubs by mangled
 * name with the C++ ABI's layouts, a variable with its initial value,
 * <<<>>>'s push/pop; and a wrapper with a bad magic, a fatbin with no sm_90
 * cubin, a kernel name the cubin lacks, an unknown symbol: each a clear
 * error code (launches fail with cudaErrorInvalidKernelImage or
 * cudaErrorNoKernelImageForDevice), never a crash. Skips (77) only when
 * nvcc is absent.
 */
#include <cuda_runtime_api.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simgpu/tests/simgpu_test.h"

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream);

struct wrapper {
	int magic;
	int version;
	const unsigned long long *data;
	void *filename_or_fatbins;
};

/* Host stubs and shadow variables: only their addresses matter. */
static const char stub_vadd, stub_pair, stub_missing, stub_bad, stub_old;
static int shadow_counter;

static dim3 dim3_of(unsigned int x, unsigned int y, unsigned int z)
{
	dim3 d = { x, y, z };
	return d;
}

static unsigned long long *read_fatbin(size_t *len)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(path, sizeof(path), "%.*s/../nvcc/nv_kernels.fatbin",
		 (int)(sizeof(exe) - 64), exe);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot read %s (built by make with nvcc)\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned long long *buf = malloc(*len + 8); /* 8-aligned, as in .nv_fatbin */
	CHECK(buf && fread(buf, 1, *len, f) == *len);
	fclose(f);
	return buf;
}

static void reg(void **h, const void *stub, const char *name)
{
	__cudaRegisterFunction(h, stub, (char *)name, name, -1, NULL, NULL, NULL,
			       NULL, NULL);
}

static cudaError_t launch(const void *stub)
{
	void *p = NULL;
	int n = 1;
	void *args[] = { &p, &p, &p, &n };
	return cudaLaunchKernel(stub, dim3_of(1, 1, 1), dim3_of(32, 1, 1), args, 0, NULL);
}

int main(void)
{
	const char *cuda_home = getenv("CUDA_HOME");
	char nvcc[PATH_MAX];
	snprintf(nvcc, sizeof(nvcc), "%s/bin/nvcc", cuda_home ? cuda_home : "/usr/local/cuda");
	if (access(nvcc, X_OK) != 0) {
		printf("SKIP: %s not found: no nvcc output to register\n", nvcc);
		return 77;
	}
	size_t len;
	unsigned long long *fatbin = read_fatbin(&len);

	/* A good module, as nvcc registers it. */
	struct wrapper good = { 0x466243b1, 1, fatbin, NULL };
	void **h = __cudaRegisterFatBinary(&good);
	CHECK(h != NULL);
	reg(h, &stub_vadd, "_Z4vaddPKfS0_Pfi");
	reg(h, &stub_pair, "_Z10apply_pair4Pairc");
	reg(h, &stub_missing, "_Z7missingv");
	__cudaRegisterVar(h, (char *)&shadow_counter, (char *)"d_counter", "d_counter",
			  0, sizeof(int), 0, 0);
	__cudaRegisterFatBinaryEnd(h);
	CHECK(__cudaInitModule(h) == 1);

	const char *name = NULL;
	CHECK_CUDA(cudaFuncGetName(&name, &stub_pair));
	CHECK(strcmp(name, "_Z10apply_pair4Pairc") == 0);
	size_t off, size;
	CHECK_CUDA(cudaFuncGetParamInfo(&stub_pair, 0, &off, &size));
	CHECK(off == 0 && size == 24);
	CHECK_CUDA(cudaFuncGetParamInfo(&stub_pair, 1, &off, &size));
	CHECK(off == 24 && size == 1);
	CHECK_CUDA(launch(&stub_vadd));
	cudaKernel_t k;
	CHECK_CUDA(cudaGetKernel(&k, &stub_vadd));
	CHECK_CUDA(cudaFuncGetName(&name, (const void *)k));
	CHECK(strcmp(name, "_Z4vaddPKfS0_Pfi") == 0);
	/* A name the cubin lacks: registered, but every launch fails. */
	CHECK(launch(&stub_missing) == cudaErrorInvalidKernelImage);
	CHECK(cudaGetLastError() == cudaErrorInvalidKernelImage);

	int counter = 0;
	CHECK_CUDA(cudaMemcpyFromSymbol(&counter, &shadow_counter, sizeof(int), 0,
					cudaMemcpyDeviceToHost));
	CHECK(counter == 7);
	counter = 41;
	CHECK_CUDA(cudaMemcpyToSymbol(&shadow_counter, &counter, sizeof(int), 0,
				      cudaMemcpyHostToDevice));
	counter = 0;
	CHECK_CUDA(cudaMemcpyFromSymbol(&counter, &shadow_counter, sizeof(int), 0,
					cudaMemcpyDefault));
	CHECK(counter == 41);
	void *addr = NULL;
	CHECK_CUDA(cudaGetSymbolAddress(&addr, &shadow_counter));
	CHECK(addr != NULL && addr != (void *)&shadow_counter);
	CHECK(cudaMemcpyToSymbol(&counter, &counter, 4, 0, cudaMemcpyHostToDevice) ==
	      cudaErrorInvalidSymbol);
	CHECK(cudaMemcpyToSymbol(&shadow_counter, &counter, 4, 1, cudaMemcpyHostToDevice) ==
	      cudaErrorInvalidValue);
	CHECK(cudaMemcpyToSymbol(&shadow_counter, &counter, 4, 0, cudaMemcpyDeviceToHost) ==
	      cudaErrorInvalidMemcpyDirection);
	(void)cudaGetLastError();

	/* <<<>>>: pushed configurations pop in reverse order. */
	dim3 g, b;
	size_t shmem;
	cudaStream_t s = (cudaStream_t)(uintptr_t)1;
	CHECK(__cudaPopCallConfiguration(&g, &b, &shmem, &s) == cudaErrorMissingConfiguration);
	CHECK(__cudaPushCallConfiguration(dim3_of(2, 3, 4), dim3_of(5, 6, 1), 7, NULL) == 0);
	CHECK(__cudaPushCallConfiguration(dim3_of(9, 1, 1), dim3_of(32, 1, 1), 0, NULL) == 0);
	CHECK_CUDA(__cudaPopCallConfiguration(&g, &b, &shmem, &s));
	CHECK(g.x == 9 && b.x == 32 && shmem == 0 && s == NULL);
	CHECK_CUDA(__cudaPopCallConfiguration(&g, &b, &shmem, &s));
	CHECK(g.x == 2 && g.y == 3 && g.z == 4 && b.y == 6 && shmem == 7);

	/* Not a wrapper: a handle all the same, kernels that cannot launch. */
	struct wrapper bad = { 0x12345678, 1, fatbin, NULL };
	void **hb = __cudaRegisterFatBinary(&bad);
	CHECK(hb != NULL);
	reg(hb, &stub_bad, "_Z4vaddPKfS0_Pfi");
	CHECK(__cudaInitModule(hb) == 0);
	CHECK(launch(&stub_bad) == cudaErrorInvalidKernelImage);

	/* A fatbin whose only sm_90 cubin claims another SM. */
	unsigned long long *other = malloc(len + 8);
	memcpy(other, fatbin, len);
	uint32_t sm = 80;
	memcpy((char *)other + 16 + 28, &sm, sizeof(sm));
	struct wrapper old = { 0x466243b1, 1, other, NULL };
	void **ho = __cudaRegisterFatBinary(&old);
	reg(ho, &stub_old, "_Z4vaddPKfS0_Pfi");
	CHECK(launch(&stub_old) == cudaErrorNoKernelImageForDevice);
	CHECK(cudaFuncGetParamInfo(&stub_old, 0, &off, &size) ==
	      cudaErrorNoKernelImageForDevice);
	(void)cudaGetLastError();

	CHECK_CUDA(cudaDeviceSynchronize());
	__cudaUnregisterFatBinary(h);
	__cudaUnregisterFatBinary(hb);
	__cudaUnregisterFatBinary(ho);
	/* Kernels stay registered after unregistration (late records). */
	CHECK_CUDA(cudaFuncGetName(&name, &stub_vadd));
	free(other);
	free(fatbin);
	printf("registration: nvcc's fatbin bound by name; bad inputs are error codes\n");
	return 0;
}
