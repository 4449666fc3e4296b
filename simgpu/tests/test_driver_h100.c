/*
 * What programs ask the simulated driver about the device and their
 * kernels: the H100 SXM5 attributes deviceQuery prints (clocks, memory
 * clock and bus, texture and surface limits; values from h100_attributes.h,
 * checked here against an H100's published figures, not against that
 * file), an attribute cuda.h does not have, the occupancy calls against
 * the arithmetic of 2048 threads / 32 blocks / 228 KiB per SM, and
 * cuStreamAttachMemAsync's argument rules (cuda.h); cuGetProcAddress
 * handing out exported entry points its table lacks (the "not supported"
 * stubs: a program gets their status, not a NULL pointer), but still no
 * variant names.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "simgpu/tests/driver_test.h"
#include "simgpu/simgpu.h"

static int kernel_axpy;

static int attr(CUdevice_attribute a)
{
	int v = -1;
	CHECK_CU(cuDeviceGetAttribute(&v, a, 0));
	return v;
}

static size_t shared_for_block(int block_size)
{
	return (size_t)block_size * 64; /* 64 bytes a thread */
}

int main(void)
{
	setenv("SIMGPU_TIME_SCALE", "0", 1);
	CHECK_CU(cuInit(0));
	CUdevice dev;
	CHECK_CU(cuDeviceGet(&dev, 0));

	/* An H100 SXM5: 1980 MHz boost, HBM3 at 2619 MHz on 5120 bits, 50 MiB L2. */
	CHECK(attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) == 1980000);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) == 2619000);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH) == 5120);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) == 52428800);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) == 132);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH) == 131072);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH) == 131072);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT) == 65536);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH) == 16384);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS) == 2048);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH) == 131072);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY) == 65536);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) == 233472);
	CHECK(attr(CU_DEVICE_ATTRIBUTE_INTEGRATED) == 0);
	int v = 7;
	CHECK_CU_IS(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK(v == 7);

	/* Occupancy of a kernel of the built-in module. */
	static const size_t axpy_sizes[] = { 4, 4, 8, 8 };
	simgpu_define_kernel(&kernel_axpy, "axpy", 4, axpy_sizes);
	CUmodule mod;
	CUfunction f;
	CHECK_CU(cuModuleLoadData(&mod, "simgpu"));
	CHECK_CU(cuModuleGetFunction(&f, mod, "axpy"));
	int blocks = -1;
	CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 256, 0));
	CHECK(blocks == 8);  /* 2048 threads / 256 */
	CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 32, 0));
	CHECK(blocks == 32); /* the block limit */
	CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 100, 0));
	CHECK(blocks == 16); /* 4 warps a block */
	CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, f, 128, 48 * 1024,
								      CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE));
	CHECK(blocks == 4);  /* 228 KiB / (48 + 1) KiB */
	CHECK_CU_IS(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 0, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 1025, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 128, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, f, 128, 0, 2),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (CUfunction)&kernel_axpy, 128, 0),
		    CUDA_ERROR_INVALID_HANDLE);

	int grid = -1, block = -1;
	CHECK_CU(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0));
	CHECK(block == 1024 && grid == 2 * 132); /* full occupancy, largest block */
	/* Limit 200: 200 threads (7 warps) give 9 blocks, 1800 threads; 192
	   give 10 (1920); 128 give 16, the whole SM, and end the search. */
	CHECK_CU(cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 200));
	CHECK(block == 128 && grid == 16 * 132);
	/* 64 bytes of shared memory a thread (and 1 KiB reserved a block). */
	CHECK_CU(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, shared_for_block, 0, 0, 0));
	CHECK(block > 0 && block % 32 == 0 && grid > 0);
	{
		int expect_best = 0, expect_size = 0;
		for (int size = 1024; size > 0; size -= 32) {
			int by_threads = 2048 / size > 32 ? 32 : 2048 / size;
			int by_shared = (int)((228 * 1024) / (shared_for_block(size) + 1024));
			int b = by_threads < by_shared ? by_threads : by_shared;
			if (b * size > expect_best)
				expect_best = b * size, expect_size = size;
		}
		CHECK(block == expect_size);
	}
	CHECK_CU_IS(cuOccupancyMaxPotentialBlockSize(NULL, &block, f, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuOccupancyMaxPotentialBlockSize(&grid, &block, NULL, NULL, 0, 0), CUDA_ERROR_INVALID_HANDLE);

	size_t avail = 0;
	CHECK_CU(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 4, 256));
	CHECK(avail == 228 * 1024 / 4 - 1024);
	CHECK_CU(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 1, 256));
	CHECK(avail == 227 * 1024); /* the opt-in maximum */
	CHECK_CU(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 16, 256));
	CHECK(avail == 0); /* 4096 threads never fit */
	CHECK_CU_IS(cuOccupancyAvailableDynamicSMemPerBlock(&avail, f, 0, 256), CUDA_ERROR_INVALID_VALUE);

	/* cuStreamAttachMemAsync. */
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, 0));
	CUdeviceptr managed, device;
	CHECK_CU(cuMemAllocManaged(&managed, 4096, CU_MEM_ATTACH_GLOBAL));
	CHECK_CU(cuMemAlloc_v2(&device, 4096));
	CHECK_CU(cuStreamAttachMemAsync(s, managed, 0, CU_MEM_ATTACH_SINGLE));
	CHECK_CU(cuStreamAttachMemAsync(s, managed, 4096, CU_MEM_ATTACH_HOST));
	CHECK_CU(cuStreamAttachMemAsync(NULL, managed, 0, CU_MEM_ATTACH_GLOBAL));
	CHECK_CU_IS(cuStreamAttachMemAsync(NULL, managed, 0, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuStreamAttachMemAsync(s, managed, 100, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuStreamAttachMemAsync(s, managed + 256, 4096, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuStreamAttachMemAsync(s, managed, 0, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuStreamAttachMemAsync(s, managed, 0, CU_MEM_ATTACH_SINGLE | CU_MEM_ATTACH_HOST),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuStreamAttachMemAsync(s, device, 0, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuStreamDestroy_v2(s));
	CHECK_CU_IS(cuStreamAttachMemAsync(s, managed, 0, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_HANDLE);
	CHECK_CU(cuMemFree_v2(managed));
	CHECK_CU(cuMemFree_v2(device));
	/* Entry points outside cuGetProcAddress's table: the exports. */
	void *self = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	CHECK(self != NULL);
	void *fn = NULL;
	CUdriverProcAddressQueryResult q = (CUdriverProcAddressQueryResult)77;
	CHECK_CU(cuGetProcAddress_v2("cuTensorMapEncodeTiled", &fn, 13000, 0, &q));
	CHECK(fn == dlsym(self, "cuTensorMapEncodeTiled") && q == CU_GET_PROC_ADDRESS_SUCCESS);
	CHECK(((CUresult (*)(void))fn)() == CUDA_ERROR_NOT_SUPPORTED);
	CHECK_CU(cuGetProcAddress_v2("cuGraphicsMapResources", &fn, 13000,
				     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &q));
	CHECK(fn == dlsym(self, "cuGraphicsMapResources_ptsz"));
	CHECK_CU(cuGetProcAddress_v2("cuGraphicsResourceGetMappedPointer", &fn, 13000, 0, &q));
	CHECK(fn == dlsym(self, "cuGraphicsResourceGetMappedPointer_v2")); /* newest variant */
	CHECK_CU_IS(cuGetProcAddress_v2("cuTensorMapEncodeTiled_v2", &fn, 13000, 0, &q),
		    CUDA_ERROR_NOT_FOUND); /* no such export */
	CHECK_CU_IS(cuGetProcAddress_v2("cuGraphicsMapResources_ptsz", &fn, 13000, 0, &q),
		    CUDA_ERROR_NOT_FOUND); /* a variant, not a base name */
	CHECK(fn == NULL && q == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
	CHECK_CU_IS(cuGetProcAddress_v2("simgpu_define_kernel", &fn, 13000, 0, &q),
		    CUDA_ERROR_NOT_FOUND);
	dlclose(self);
	printf("driver: H100 attributes, occupancy, stream attach, exported entry points\n");
	return 0;
}
