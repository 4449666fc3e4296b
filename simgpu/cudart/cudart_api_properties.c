/*
 * What ordinary CUDA programs ask the runtime about the device and their
 * kernels beside launching them: cudaDeviceGetAttribute (the driver's
 * cuDeviceGetAttribute), device flags and limits, cache configuration,
 * function attributes, occupancy, the profiler switches. The values are an
 * H100-like device's (simgpu/README.md); nothing here changes how
 * the simulator runs work, and it must never claim a capability the
 * simulator's launch checks refuse.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <cuda_profiler_api.h>
#include <stdatomic.h>

/* An H100-like SM (assumed, not measured): 2048 threads, 32 blocks, 228 KiB. */
#define SM_MAX_THREADS 2048
#define SM_MAX_BLOCKS 32
#define SM_SHARED_BYTES (228 * 1024)
#define BLOCK_SHARED_DEFAULT (48 * 1024)

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
	ENTER();
	if (!value)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t bad = cudart_check_device(device);
	if (bad != cudaSuccess)
		return sim_return(bad);
	/* cudaDeviceAttr and CUdevice_attribute share their values. */
	return sim_return(cudart_error(cudart_drv.device_get_attribute(
		value, (CUdevice_attribute)attr, device)));
}

static _Atomic unsigned int device_flags;

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	ENTER();
	if (flags & ~(unsigned int)cudaDeviceMask)
		return sim_return(cudaErrorInvalidValue);
	atomic_store(&device_flags, flags);
	return cudaSuccess;
}

/* As on a real device, mapped pinned memory is always on (UVA). */
cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	ENTER();
	if (!flags)
		return sim_return(cudaErrorInvalidValue);
	*flags = atomic_load(&device_flags) | cudaDeviceMapHost;
	return cudaSuccess;
}

/* Limits are kept and reported; the simulator runs no device code to
 * which they could apply. Defaults as documented for CUDA 13 (assumed). */
static _Atomic size_t limits[] = {
	[cudaLimitStackSize] = 1024,
	[cudaLimitPrintfFifoSize] = 1 << 20,
	[cudaLimitMallocHeapSize] = 8 << 20,
	[cudaLimitDevRuntimeSyncDepth] = 2,
	[cudaLimitDevRuntimePendingLaunchCount] = 2048,
	[cudaLimitMaxL2FetchGranularity] = 64,
	[cudaLimitPersistingL2CacheSize] = 0,
};

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	ENTER();
	if ((unsigned int)limit >= sizeof(limits) / sizeof(limits[0]))
		return sim_return(cudaErrorUnsupportedLimit);
	atomic_store(&limits[limit], value);
	return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
	ENTER();
	if (!pValue)
		return sim_return(cudaErrorInvalidValue);
	if ((unsigned int)limit >= sizeof(limits) / sizeof(limits[0]))
		return sim_return(cudaErrorUnsupportedLimit);
	*pValue = atomic_load(&limits[limit]);
	return cudaSuccess;
}

static _Atomic int cache_config = cudaFuncCachePreferNone;

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
	ENTER();
	if ((unsigned int)cacheConfig > cudaFuncCachePreferEqual)
		return sim_return(cudaErrorInvalidValue);
	atomic_store(&cache_config, cacheConfig);
	return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
	ENTER();
	if (!pCacheConfig)
		return sim_return(cudaErrorInvalidValue);
	*pCacheConfig = (enum cudaFuncCache)atomic_load(&cache_config);
	return cudaSuccess;
}

/* ---- functions ---- */

static cudaError_t known_function(const void *func)
{
	return cudart_priv.function_of(func, 0) ? cudaSuccess
						: cudaErrorInvalidDeviceFunction;
}

/*
 * Register and local-memory figures are assumed (device code is not
 * compiled for a real SM): 32 registers, no static shared or local memory.
 */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
	ENTER();
	if (!attr)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t err = known_function(func);
	if (err != cudaSuccess)
		return sim_return(err);
	*attr = (struct cudaFuncAttributes){
		.maxThreadsPerBlock = (int)SIM_MAX_BLOCK_THREADS,
		.numRegs = 32,
		.ptxVersion = 90,
		.binaryVersion = 90,
		.maxDynamicSharedSizeBytes = BLOCK_SHARED_DEFAULT,
		.preferredShmemCarveout = -1,
	};
	return cudaSuccess;
}

/* Accepted and checked, not kept: the simulator allows any dynamic shared
 * memory up to the opt-in maximum anyway. */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
	ENTER();
	cudaError_t err = known_function(func);
	if (err != cudaSuccess)
		return sim_return(err);
	switch (attr) {
	case cudaFuncAttributeMaxDynamicSharedMemorySize:
		return sim_return(value < 0 || (unsigned int)value > SIM_MAX_SHARED_MEM_OPTIN
					  ? cudaErrorInvalidValue : cudaSuccess);
	case cudaFuncAttributePreferredSharedMemoryCarveout:
		return sim_return(value < -1 || value > 100 ? cudaErrorInvalidValue
							     : cudaSuccess);
	default:
		return sim_return((unsigned int)attr < cudaFuncAttributeMax
					  ? cudaSuccess : cudaErrorInvalidValue);
	}
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
	ENTER();
	cudaError_t err = known_function(func);
	if (err == cudaSuccess && (unsigned int)cacheConfig > cudaFuncCachePreferEqual)
		err = cudaErrorInvalidValue;
	return sim_return(err);
}

/*
 * Blocks of blockSize threads resident on one SM: limited by threads (in
 * warps), blocks and shared memory per SM; 32 registers a thread never
 * limit (65536 registers). blockSize outside 1..1024: cudaErrorInvalidValue
 * (assumed).
 */
static cudaError_t occupancy(int *numBlocks, const void *func, int blockSize,
			     size_t dynamicSMemSize)
{
	ENTER();
	if (!numBlocks || blockSize <= 0 || (unsigned int)blockSize > SIM_MAX_BLOCK_THREADS ||
	    dynamicSMemSize > SIM_MAX_SHARED_MEM_OPTIN)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t err = known_function(func);
	if (err != cudaSuccess)
		return sim_return(err);
	int warps = (blockSize + 31) / 32;
	int blocks = SM_MAX_THREADS / (warps * 32);
	if (blocks > SM_MAX_BLOCKS)
		blocks = SM_MAX_BLOCKS;
	if (dynamicSMemSize) {
		/* 1 KiB per block is reserved by the system on sm_90. */
		int by_shared = (int)(SM_SHARED_BYTES / (dynamicSMemSize + 1024));
		if (by_shared < blocks)
			blocks = by_shared;
	}
	*numBlocks = blocks;
	return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
							  int blockSize,
							  size_t dynamicSMemSize)
{
	return occupancy(numBlocks, func, blockSize, dynamicSMemSize);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
								   const void *func,
								   int blockSize,
								   size_t dynamicSMemSize,
								   unsigned int flags)
{
	if (flags & ~(unsigned int)cudaOccupancyDisableCachingOverride)
		return sim_return(cudaErrorInvalidValue);
	return occupancy(numBlocks, func, blockSize, dynamicSMemSize);
}

/* ---- profiler: there is no profiler to start ---- */

cudaError_t cudaProfilerStart(void)
{
	ENTER();
	return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
	ENTER();
	return cudaSuccess;
}
