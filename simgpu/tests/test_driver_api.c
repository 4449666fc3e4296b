/*
 * The simulated driver on its own (linked to libcuda.so.1 only, no
 * runtime): cuInit first, the device and primary context, memory
 * (cuMemAlloc_v2, pitch, managed, stream-ordered from the default and a
 * created pool, pinned host, cuMemGetInfo_v2) with deterministic addresses
 * and exact free bytes, copies in every direction and sets of 8/16/32-bit
 * values checked byte for byte, launches of declared kernels through
 * CUfunction and CUkernel handles (cuModuleGetFunction, cuFuncGetName,
 * cuFuncGetParamInfo against the CUDA ABI layout), launch errors, streams,
 * events and a device fault's sticky error. Ground truth: what it wrote.
 */
#include <stdint.h>
#include <string.h>

#include "simgpu/tests/driver_test.h"
#include "simgpu/simgpu.h"

#define CAPACITY (4u << 20)
#define DEVICE_BASE 0x200000000000ULL

static char kernel_axpy, kernel_fill; /* host-side handles */

static void check_init_and_device(void)
{
	CUdeviceptr p;
	CHECK_CU_IS(cuMemAlloc_v2(&p, 16), CUDA_ERROR_NOT_INITIALIZED);
	CHECK_CU_IS(cuInit(1), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuInit(0));
	int version = 0, count = 0;
	CHECK_CU(cuDriverGetVersion(&version));
	CHECK_EQ_U64(version, 13000);
	CHECK_CU(cuDeviceGetCount(&count));
	CHECK_EQ_U64(count, 1);
	CUdevice dev = -1;
	CHECK_CU(cuDeviceGet(&dev, 0));
	CHECK_EQ_U64(dev, 0);
	CHECK_CU_IS(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
	char name[64];
	CHECK_CU(cuDeviceGetName(name, sizeof(name), 0));
	CHECK(strcmp(name, "simgpu simulated device") == 0);
	size_t total = 0;
	CHECK_CU(cuDeviceTotalMem_v2(&total, 0));
	CHECK_EQ_U64(total, CAPACITY);
	int v = 0;
	CHECK_CU(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
	CHECK_EQ_U64(v, 1024);
	CHECK_CU(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
	CHECK_EQ_U64(v, 1);

	CUcontext ctx = NULL, current = (CUcontext)0x1;
	CHECK_CU(cuCtxGetCurrent(&current));
	CHECK(current == NULL);
	CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(ctx != NULL);
	CHECK_CU(cuCtxSetCurrent(ctx));
	CHECK_CU(cuCtxGetCurrent(&current));
	CHECK(current == ctx);
	CHECK_CU(cuCtxGetDevice(&dev));
	CHECK_CU(cuDevicePrimaryCtxRelease_v2(0));
	CHECK_CU_IS(cuDevicePrimaryCtxRelease_v2(0), CUDA_ERROR_INVALID_CONTEXT);

	const char *s = NULL;
	CHECK_CU(cuGetErrorName(CUDA_ERROR_OUT_OF_MEMORY, &s));
	CHECK(strcmp(s, "CUDA_ERROR_OUT_OF_MEMORY") == 0);
	CHECK_CU_IS(cuGetErrorName((CUresult)123456, &s), CUDA_ERROR_INVALID_VALUE);
}

static void check_memory(void)
{
	size_t free_b, total_b;
	CHECK_CU(cuMemGetInfo_v2(&free_b, &total_b));
	CHECK_EQ_U64(free_b, CAPACITY);
	CHECK_EQ_U64(total_b, CAPACITY);

	CUdeviceptr a = 0, b = 0, untouched = 7;
	CHECK_CU(cuMemAlloc_v2(&a, 1000));
	CHECK_CU(cuMemAlloc_v2(&b, 1));
	CHECK_EQ_U64(a, DEVICE_BASE);
	CHECK_EQ_U64(b, DEVICE_BASE + 1024);
	CHECK_CU_IS(cuMemAlloc_v2(&untouched, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuMemAlloc_v2(&untouched, CAPACITY), CUDA_ERROR_OUT_OF_MEMORY);
	CHECK_EQ_U64(untouched, 7);
	CHECK_CU(cuMemGetInfo_v2(&free_b, &total_b));
	CHECK_EQ_U64(free_b, CAPACITY - 1024 - 256);
	CHECK_CU_IS(cuMemFree_v2(a + 256), CUDA_ERROR_INVALID_VALUE); /* interior */
	CHECK_CU(cuMemFree_v2(a));
	CHECK_CU_IS(cuMemFree_v2(a), CUDA_ERROR_INVALID_VALUE);       /* twice */
	CHECK_CU(cuMemFree_v2(b));

	CUdeviceptr pitched;
	size_t pitch = 0;
	CHECK_CU(cuMemAllocPitch_v2(&pitched, &pitch, 100, 3, 4));
	CHECK_EQ_U64(pitch, 512);
	CHECK_CU_IS(cuMemAllocPitch_v2(&pitched, &pitch, 100, 3, 3),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemFree_v2(pitched));

	CUdeviceptr managed;
	CHECK_CU(cuMemAllocManaged(&managed, 100, CU_MEM_ATTACH_GLOBAL));
	((volatile char *)(uintptr_t)managed)[99] = 42; /* host-accessible */
	CHECK_CU_IS(cuMemAllocManaged(&managed, 100, 7), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemFree_v2(managed));

	/* Stream-ordered: the default pool and a created one; a bad stream. */
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CUdeviceptr async_a, async_b;
	CHECK_CU(cuMemAllocAsync(&async_a, 300, s));
	CHECK_EQ_U64(async_a, DEVICE_BASE);
	CUmemoryPool pool, def;
	CUmemPoolProps props;
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	CHECK_CU(cuMemPoolCreate(&pool, &props));
	CHECK_CU(cuDeviceGetDefaultMemPool(&def, 0));
	CHECK(def != pool);
	CHECK_CU(cuMemAllocFromPoolAsync(&async_b, 10, pool, s));
	CHECK_EQ_U64(async_b, DEVICE_BASE + 512);
	CHECK_CU_IS(cuMemAllocAsync(&async_b, 10, (CUstream)&props),
		    CUDA_ERROR_INVALID_HANDLE);
	CHECK_CU(cuMemFreeAsync(async_a, s));
	CHECK_CU(cuMemFreeAsync(async_b, s));
	CHECK_CU(cuMemPoolDestroy(pool));
	CHECK_CU_IS(cuMemAllocFromPoolAsync(&async_b, 10, pool, s),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuStreamSynchronize(s));
	CHECK_CU(cuStreamDestroy_v2(s));

	void *host = NULL;
	CHECK_CU(cuMemHostAlloc(&host, 64, CU_MEMHOSTALLOC_PORTABLE));
	memset(host, 1, 64);
	CHECK_CU(cuMemFreeHost(host));
	CHECK_CU_IS(cuMemFreeHost(host), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemGetInfo_v2(&free_b, &total_b));
	CHECK_EQ_U64(free_b, CAPACITY);
}

static void check_copies_and_sets(void)
{
	CUdeviceptr d, e;
	CHECK_CU(cuMemAlloc_v2(&d, 4096));
	CHECK_CU(cuMemAlloc_v2(&e, 4096));
	uint8_t in[256], out[256];
	for (int i = 0; i < 256; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	CHECK_CU(cuMemcpyHtoD_v2(d, in, sizeof(in)));
	CHECK_CU(cuMemcpyDtoD_v2(e + 100, d, sizeof(in)));
	memset(out, 0, sizeof(out));
	CHECK_CU(cuMemcpyDtoH_v2(out, e + 100, sizeof(out)));
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	/* Directions are checked: a host pointer is no device pointer. */
	CHECK_CU_IS(cuMemcpyHtoD_v2((CUdeviceptr)(uintptr_t)out, in, 16),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuMemcpyDtoH_v2(out, d + 4000, 200), CUDA_ERROR_INVALID_VALUE);
	/* Unified addressing: cuMemcpy works out the direction. */
	memset(out, 0, sizeof(out));
	CHECK_CU(cuMemcpy((CUdeviceptr)(uintptr_t)out, d, sizeof(out)));
	CHECK(memcmp(in, out, sizeof(in)) == 0);

	CUstream s;
	CHECK_CU(cuStreamCreate(&s, 0));
	CHECK_CU(cuMemsetD8Async(d, 0xab, 10, s));
	CHECK_CU(cuMemsetD16_v2(d + 10, 0x1234, 3));
	CHECK_CU(cuMemsetD32Async(d + 16, 0xdeadbeef, 2, s));
	CHECK_CU_IS(cuMemsetD32_v2(d + 1, 0, 1), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemcpyDtoHAsync_v2(out, d, 24, s));
	CHECK_CU(cuStreamSynchronize(s));
	static const uint8_t want[24] = {
		0xab, 0xab, 0xab, 0xab, 0xab, 0xab, 0xab, 0xab, 0xab, 0xab,
		0x34, 0x12, 0x34, 0x12, 0x34, 0x12,
		0xef, 0xbe, 0xad, 0xde, 0xef, 0xbe, 0xad, 0xde,
	};
	CHECK(memcmp(out, want, sizeof(want)) == 0);

	/* 2D: three rows of 5 bytes, device pitch 64. */
	uint8_t grid[3][5] = { { 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10 },
			       { 11, 12, 13, 14, 15 } };
	CUDA_MEMCPY2D c;
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = grid, c.srcPitch = 5;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = e, c.dstPitch = 64;
	c.WidthInBytes = 5, c.Height = 3;
	CHECK_CU(cuMemsetD2D8_v2(e, 64, 0, 64, 3));
	CHECK_CU(cuMemcpy2D_v2(&c));
	uint8_t rows[3 * 64];
	CHECK_CU(cuMemcpyDtoH_v2(rows, e, sizeof(rows)));
	for (int r = 0; r < 3; r++) {
		CHECK(memcmp(rows + 64 * r, grid[r], 5) == 0);
		CHECK_EQ_U64(rows[64 * r + 5], 0);
	}
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY; /* without an array (dstArray NULL) */
	CHECK_CU_IS(cuMemcpy2D_v2(&c), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuStreamDestroy_v2(s));
	CHECK_CU(cuMemFree_v2(d));
	CHECK_CU(cuMemFree_v2(e));
}

static void check_kernels(void)
{
	size_t axpy_sizes[4] = { 4, 8, 8, 2 };
	simgpu_define_kernel(&kernel_axpy, "axpy", 4, axpy_sizes);
	simgpu_define_kernel(&kernel_fill, "fill", 0, NULL);

	CUmodule mod;
	CUfunction axpy, fill, missing;
	CHECK_CU_IS(cuModuleLoadData(&mod, NULL), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuModuleLoadData(&mod, "simgpu"));
	CHECK_CU(cuModuleGetFunction(&axpy, mod, "axpy"));
	CHECK_CU(cuModuleGetFunction(&fill, mod, "fill"));
	CHECK_CU_IS(cuModuleGetFunction(&missing, mod, "nope"), CUDA_ERROR_NOT_FOUND);
	CHECK(axpy != fill);
	CHECK((void *)axpy != (void *)&kernel_axpy); /* a device-side handle */

	const char *name = NULL;
	CHECK_CU(cuFuncGetName(&name, axpy));
	CHECK(strcmp(name, "axpy") == 0);
	size_t offset, size;
	static const size_t want_offsets[4] = { 0, 8, 16, 24 };
	for (size_t i = 0; i < 4; i++) {
		CHECK_CU(cuFuncGetParamInfo(axpy, i, &offset, &size));
		CHECK_EQ_U64(offset, want_offsets[i]);
		CHECK_EQ_U64(size, axpy_sizes[i]);
	}
	CHECK_CU_IS(cuFuncGetParamInfo(axpy, 4, &offset, &size), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuFuncGetParamInfo((CUfunction)&kernel_axpy, 0, &offset, &size),
		    CUDA_ERROR_INVALID_HANDLE); /* a host function is no CUfunction */

	float alpha = 2;
	CUdeviceptr x = 0, y = 0;
	short n = 3;
	void *args[4] = { &alpha, &x, &y, &n };
	CHECK_CU(cuLaunchKernel(axpy, 4, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
	CHECK_CU(cuLaunchKernel(fill, 1, 1, 1, 1, 1, 1, 0, CU_STREAM_PER_THREAD, NULL, NULL));
	CHECK_CU(cuLaunchCooperativeKernel(axpy, 1, 1, 1, 32, 1, 1, 0, NULL, args));
	CUlaunchConfig config;
	memset(&config, 0, sizeof(config));
	config.gridDimX = config.gridDimY = config.gridDimZ = 1;
	config.blockDimX = config.blockDimY = config.blockDimZ = 1;
	CHECK_CU(cuLaunchKernelEx(&config, axpy, args, NULL));
	CHECK_CU_IS(cuLaunchKernelEx(NULL, axpy, args, NULL), CUDA_ERROR_INVALID_VALUE);
	/* Errors: bad handle, geometry, missing arguments, dead stream. */
	CHECK_CU_IS(cuLaunchKernel((CUfunction)&kernel_axpy, 1, 1, 1, 1, 1, 1, 0,
				   NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE);
	CHECK_CU_IS(cuLaunchKernel(axpy, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuLaunchKernel(axpy, 0, 1, 1, 1, 1, 1, 0, NULL, args, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuLaunchKernel(axpy, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuLaunchKernel(axpy, 1, 1, 1, 1, 1, 1, 0, NULL, args, args),
		    CUDA_ERROR_INVALID_VALUE);
	CUstream dead;
	CHECK_CU(cuStreamCreate(&dead, 0));
	CHECK_CU(cuStreamDestroy_v2(dead));
	CHECK_CU_IS(cuLaunchKernel(axpy, 1, 1, 1, 1, 1, 1, 0, dead, args, NULL),
		    CUDA_ERROR_INVALID_HANDLE);

	/* Events time the simulated kernel exactly. */
	CUevent start, end;
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CHECK_CU(cuEventCreate(&start, 0));
	CHECK_CU(cuEventCreate(&end, 0));
	CHECK_CU(cuEventRecord(start, s));
	simgpu_next_kernel_ns(3000000);
	CHECK_CU(cuLaunchKernel(fill, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL));
	CHECK_CU(cuEventRecord(end, s));
	CHECK_CU(cuEventSynchronize(end));
	float ms = 0;
	CHECK_CU(cuEventElapsedTime_v2(&ms, start, end));
	CHECK(ms > 2.999f && ms < 3.001f);
	CHECK_CU(cuEventDestroy_v2(start));
	CHECK_CU(cuEventDestroy_v2(end));
	CHECK_CU(cuStreamDestroy_v2(s));

	/* A faulting kernel breaks the device for good. */
	simgpu_fail_next_kernel(CUDA_ERROR_ILLEGAL_ADDRESS);
	CHECK_CU(cuLaunchKernel(fill, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK_CU_IS(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
	CUdeviceptr p;
	CHECK_CU_IS(cuMemAlloc_v2(&p, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
}

/* Expandable-segments style: reserve, create, map, access, copy, give back. */
static void check_vmm(void)
{
	CUmemAllocationProp prop;
	memset(&prop, 0, sizeof(prop));
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	size_t g = 0;
	CHECK_CU(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	CHECK_EQ_U64(g, 2u << 20);
	CUdeviceptr base = 0;
	CHECK_CU(cuMemAddressReserve(&base, 4 * g, 0, 0, 0));
	CHECK(base != 0 && base % g == 0);
	CUmemGenericAllocationHandle h;
	CHECK_CU_IS(cuMemCreate(&h, g + 1, &prop, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemCreate(&h, g, &prop, 0));
	size_t free_b, total_b;
	CHECK_CU(cuMemGetInfo_v2(&free_b, &total_b));
	CHECK_EQ_U64(total_b - free_b, g); /* physical memory is device memory */
	uint8_t in[64], out[64];
	for (int i = 0; i < 64; i++)
		in[i] = (uint8_t)(255 - i);
	CUdeviceptr at = base + g;
	CHECK_CU_IS(cuMemcpyHtoD_v2(at, in, sizeof(in)), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuMemMap(at + 1, g, 0, h, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemMap(at, g, 0, h, 0));
	CHECK_CU_IS(cuMemMap(at, g, 0, h, 0), CUDA_ERROR_INVALID_VALUE); /* mapped */
	/* Mapped but not yet accessible: a copy is refused. */
	CHECK_CU_IS(cuMemcpyHtoD_v2(at, in, sizeof(in)), CUDA_ERROR_INVALID_VALUE);
	CUmemAccessDesc access = {
		.location = prop.location, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	};
	CHECK_CU(cuMemSetAccess(at, g, &access, 1));
	CHECK_CU(cuMemcpyHtoD_v2(at + g - 64, in, sizeof(in)));
	CHECK_CU(cuMemcpyDtoH_v2(out, at + g - 64, sizeof(out)));
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	CHECK_CU_IS(cuMemcpyDtoH_v2(out, at + g - 32, sizeof(out)), CUDA_ERROR_INVALID_VALUE);
	/* Released while mapped: the memory stays until unmapped. */
	CHECK_CU(cuMemRelease(h));
	CHECK_CU(cuMemcpyDtoH_v2(out, at + g - 64, sizeof(out)));
	CHECK_CU_IS(cuMemAddressFree(base, 4 * g), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemUnmap(at, g));
	CHECK_CU(cuMemGetInfo_v2(&free_b, &total_b));
	CHECK_EQ_U64(free_b, total_b);
	CHECK_CU_IS(cuMemcpyDtoH_v2(out, at, sizeof(out)), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuMemAddressFree(base, 4 * g));
	CHECK_CU_IS(cuMemAddressFree(base, 4 * g), CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
	simgpu_test_setup();
	setenv("SIMGPU_MEM_BYTES", "4M", 1);
	check_init_and_device();
	check_memory();
	check_copies_and_sets();
	check_vmm();
	check_kernels();
	printf("test_driver_api: ok\n");
	return 0;
}
