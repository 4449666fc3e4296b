/*
 * Test program for the driver API wrappers: linked to libcuda.so.1 by
 * SONAME (the toolkit's stub at link time; the test runs it on the stub or
 * on simgpu's driver with LD_LIBRARY_PATH). Prints one line per call:
 *
 *   NAME RESULT [PTR]              a direct call or one through a pointer
 *   proc SYMBOL RESULT WHERE       cuGetProcAddress_v2's answer: WHERE is
 *                                  "ours:<symbol>" (libdnntrace.so's
 *                                  function of that name), "real", or "NULL"
 *
 * Must never depend on libdnntrace.so: it is the traced program.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

static const char *where(void *fn, char *buf, size_t size)
{
	Dl_info info;

	if (!fn)
		return "NULL";
	if (dladdr(fn, &info) && info.dli_fname && strstr(info.dli_fname, "libdnntrace") &&
	    info.dli_sname) {
		snprintf(buf, size, "ours:%s", info.dli_sname);
		return buf;
	}
	return "real";
}

static void *proc(const char *symbol, int version, cuuint64_t flags)
{
	void *fn = NULL;
	CUdriverProcAddressQueryResult status;
	char buf[128];
	CUresult rc = cuGetProcAddress_v2(symbol, &fn, version, flags, &status);
	printf("proc %s@%d%s %d %s\n", symbol, version,
	       flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM ? "/ptds" : "", (int)rc,
	       where(rc == CUDA_SUCCESS ? fn : NULL, buf, sizeof(buf)));
	return rc == CUDA_SUCCESS ? fn : NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("cuInit %d\n", (int)cuInit(0));
	CUdevice device = 0;
	CUcontext context = NULL;
	if (cuDeviceGet(&device, 0) == CUDA_SUCCESS &&
	    cuDevicePrimaryCtxRetain(&context, device) == CUDA_SUCCESS)
		cuCtxSetCurrent(context);

	/* Direct calls: tensor 0 when the driver works. */
	CUdeviceptr direct = 0;
	CUresult rc = cuMemAlloc_v2(&direct, 4096);
	printf("cuMemAlloc_v2 %d 0x%llx\n", (int)rc, (unsigned long long)direct);
	rc = cuMemsetD8_v2(direct, 7, 4096);
	printf("cuMemsetD8_v2 %d\n", (int)rc);
	rc = cuMemFree_v2(direct);
	printf("cuMemFree_v2 %d 0x%llx\n", (int)rc, (unsigned long long)direct);

	/* Through cuGetProcAddress, as libcudart, cuBLAS and cuDNN do. */
	PFN_cuMemAlloc_v3020 alloc_fn = (PFN_cuMemAlloc_v3020)proc("cuMemAlloc", 13000, 0);
	PFN_cuMemFree_v3020 free_fn = (PFN_cuMemFree_v3020)proc("cuMemFree", 13000, 0);
	proc("cuMemAlloc", 2000, 0);          /* the 32-bit ABI: never substituted */
	proc("cuLaunchKernel", 13000, 0);
	proc("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
	proc("cuMemcpyHtoD", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
	proc("cuDeviceGetCount", 13000, 0);   /* not wrapped */
	if (alloc_fn && free_fn) {
		CUdeviceptr dev = 0;
		rc = alloc_fn(&dev, 8192);
		printf("proc_alloc %d 0x%llx\n", (int)rc, (unsigned long long)dev);
		rc = free_fn(dev);
		printf("proc_free %d 0x%llx\n", (int)rc, (unsigned long long)dev);
	}
	return 0;
}
