/*
 * real_driver_calls: driver API calls as frameworks make them, directly
 * linked (-lcuda), through cuGetProcAddress and through dlopen + dlsym, with
 * one `name result` line per call. There is no driver here: the toolkit's
 * link stub (lib64/stubs/libcuda.so, SONAME libcuda.so.1) is the only
 * libcuda, and it answers CUDA_ERROR_STUB_LIBRARY to everything once made
 * loadable as libcuda.so.1 (tests/e2e/test_real_libraries.sh does that); on
 * the simulated driver the same calls succeed. Either way the lines must be
 * identical untraced, preloaded and recorded.
 *
 * Must never print an address, nor touch memory a failed call did not give.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <cuda.h>

static void report(const char *call, int result)
{
	printf("%s %d\n", call, result);
	fflush(stdout);
}

typedef CUresult mem_alloc_fn(CUdeviceptr *, size_t);
typedef CUresult mem_free_fn(CUdeviceptr);

/* cuMemAlloc + cuMemFree through two functions obtained some other way. */
static void alloc_free(const char *how, mem_alloc_fn *alloc, mem_free_fn *release)
{
	char call[96];
	if (!alloc || !release) {
		printf("%s unresolved\n", how);
		return;
	}
	CUdeviceptr ptr = 0;
	CUresult result = alloc(&ptr, 1 << 16);
	snprintf(call, sizeof(call), "%s:cuMemAlloc_v2", how);
	report(call, result);
	if (result == CUDA_SUCCESS) {
		snprintf(call, sizeof(call), "%s:cuMemFree_v2", how);
		report(call, release(ptr));
	}
}

static void linked_calls(void)
{
	report("cuInit", cuInit(0));
	int version = 0;
	report("cuDriverGetVersion", cuDriverGetVersion(&version));

	CUdeviceptr ptr = 0;
	CUresult allocated = cuMemAlloc(&ptr, 1 << 20);
	report("cuMemAlloc_v2", allocated);
	report("cuMemFree_v2", cuMemFree(allocated == CUDA_SUCCESS ? ptr : 0));
	CUdeviceptr managed = 0;
	allocated = cuMemAllocManaged(&managed, 4096, CU_MEM_ATTACH_GLOBAL);
	report("cuMemAllocManaged", allocated);
	if (allocated == CUDA_SUCCESS)
		report("cuMemFree_v2", cuMemFree(managed));
	void *host = NULL;
	allocated = cuMemHostAlloc(&host, 4096, 0);
	report("cuMemHostAlloc", allocated);
	if (allocated == CUDA_SUCCESS)
		report("cuMemFreeHost", cuMemFreeHost(host));
	static char registered[4096];
	report("cuMemHostRegister_v2", cuMemHostRegister(registered, sizeof(registered), 0));
	report("cuMemHostUnregister", cuMemHostUnregister(registered));

	CUdeviceptr reserved = 0;
	report("cuMemAddressReserve", cuMemAddressReserve(&reserved, 2 << 20, 0, 0, 0));
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
	};
	CUmemGenericAllocationHandle handle = 0;
	report("cuMemCreate", cuMemCreate(&handle, 2 << 20, &prop, 0));

	/* No module could load, so no function: the launch fails in the driver. */
	report("cuLaunchKernel", cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
}

/* How libcudart, cuBLAS and cuDNN reach the driver since CUDA 11.3. */
static void proc_address_calls(void)
{
	void *alloc = NULL, *release = NULL;
	CUdriverProcAddressQueryResult status;
	report("cuGetProcAddress_v2:cuMemAlloc",
	       cuGetProcAddress("cuMemAlloc", &alloc, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
	report("cuGetProcAddress_v2:cuMemFree",
	       cuGetProcAddress("cuMemFree", &release, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
	mem_alloc_fn *alloc_fn;
	mem_free_fn *release_fn;
	*(void **)&alloc_fn = alloc;
	*(void **)&release_fn = release;
	alloc_free("procaddress", alloc_fn, release_fn);
}

/* How TensorFlow reaches the driver: its own dlopen and dlsym(handle, name). */
static void dlsym_calls(void)
{
	void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!driver) {
		printf("dlopen libcuda.so.1 absent\n");
		return;
	}
	mem_alloc_fn *alloc_fn;
	mem_free_fn *release_fn;
	*(void **)&alloc_fn = dlsym(driver, "cuMemAlloc_v2");
	*(void **)&release_fn = dlsym(driver, "cuMemFree_v2");
	alloc_free("dlsym", alloc_fn, release_fn);
	printf("dlsym cuNoSuchFunction %s\n",
	       dlsym(driver, "cuNoSuchFunction") ? "found" : "absent");
	dlclose(driver);
}

int main(int argc, char **argv)
{
	if (argc != 1) {
		fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
		return 2;
	}
	linked_calls();
	proc_address_calls();
	dlsym_calls();
	return 0;
}
