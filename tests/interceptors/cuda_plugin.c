/*
 * A plugin like a Python extension module: linked to libcudart.so.13 and
 * loaded by plugin_host with dlopen(RTLD_LOCAL), so the runtime is outside
 * the global scope and dlsym(RTLD_NEXT, ...) from a preloaded library cannot
 * see it. Prints `name result` per call, like cuda_calls. Must never be
 * linked into the host program.
 */
#include <errno.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

static void plugin_kernel(void) {}

__attribute__((visibility("default"))) int plugin_run(void)
{
	void *dev = NULL;
	int n = 5;
	void *args[] = { &dev, &n };
	dim3 grid = { 1, 1, 1 }, block = { 64, 1, 1 };

	errno = 0; /* so the lines show what each call did to errno */
	int rc = cudaMalloc(&dev, 8192);
	printf("cudaMalloc %d %d\n", rc, errno);
	errno = 0;
	rc = cudaLaunchKernel((const void *)plugin_kernel, grid, block, args, 0, 0);
	printf("cudaLaunchKernel %d %d\n", rc, errno);
	errno = 0;
	rc = cudaMemset(dev, 0, 64);
	printf("cudaMemset %d %d\n", rc, errno);
	void *freed = dev;
	errno = 0;
	rc = cudaFree(dev);
	printf("cudaFree %d %d %p\n", rc, errno, freed);
	return 0;
}
