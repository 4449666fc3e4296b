/*
 * A plain CUDA program using only the public runtime API, built twice: once
 * linked against the REAL libcudart.so.13 and once against simgpu's
 * (simgpu/module.mk). test_real_abi.sh runs each against the other
 * library to show the two are interchangeable at the ABI level. It prints
 * what it saw, one fact per line; it never uses simgpu_* symbols.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

int main(void)
{
	int version = 0;
	cudaError_t err = cudaRuntimeGetVersion(&version);
	printf("runtime %d %s\n", version, cudaGetErrorName(err));
	void *d = NULL;
	err = cudaMalloc(&d, 1 << 20);
	printf("cudaMalloc %s %p\n", cudaGetErrorName(err), d);
	if (err != cudaSuccess)
		return 0; /* e.g. the real library with no driver: still ran */
	char in[64], out[64];
	memset(in, 0x3c, sizeof(in));
	memset(out, 0, sizeof(out));
	err = cudaMemcpy(d, in, sizeof(in), cudaMemcpyHostToDevice);
	if (err == cudaSuccess)
		err = cudaMemcpy(out, d, sizeof(out), cudaMemcpyDeviceToHost);
	printf("roundtrip %s %s\n", cudaGetErrorName(err),
	       memcmp(in, out, sizeof(in)) == 0 ? "equal" : "different");
	struct cudaDeviceProp prop;
	if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
		printf("device %s\n", prop.name);
	printf("cudaFree %s\n", cudaGetErrorName(cudaFree(d)));
	return 0;
}
