/*
 * The driver's occupancy calls (cuOccupancy*): blocks of a kernel resident
 * on one SM of the simulated H100 (2048 threads, 32 blocks, 228 KiB shared
 * memory and 1 KiB reserved per block, 65536 registers: the figures
 * h100_attributes.h reports), and the block size that maximises it. Every
 * simulated kernel uses 32 registers a thread and no static shared memory
 * (the figures cudaFuncGetAttributes gives), so registers never limit.
 * Pure arithmetic on a checked CUfunction: never touches device state.
 */
#include "simgpu/driver/driver_internal.h"

#define SM_THREADS 2048
#define SM_BLOCKS 32
#define SM_SHARED (228 * 1024)
#define BLOCK_RESERVED_SHARED 1024
#define SM_COUNT 132

/* Blocks of block_size threads with `shared` dynamic bytes on one SM. */
static int blocks_per_sm(int block_size, size_t shared)
{
	int warps = (block_size + 31) / 32;
	int blocks = SM_THREADS / (warps * 32);
	if (blocks > SM_BLOCKS)
		blocks = SM_BLOCKS;
	if (shared > SIM_MAX_SHARED_MEM_OPTIN)
		return 0;
	int by_shared = (int)(SM_SHARED / (shared + BLOCK_RESERVED_SHARED));
	return by_shared < blocks ? by_shared : blocks;
}

/* NULL outputs or a block size outside 1..1024: CUDA_ERROR_INVALID_VALUE;
   a CUfunction the driver does not know: CUDA_ERROR_INVALID_HANDLE. */
static CUresult max_active_blocks(int *numBlocks, CUfunction func, int blockSize,
				  size_t dynamicSMemSize, unsigned int flags)
{
	DRIVER_ENTER();
	if (!numBlocks || blockSize <= 0 || (unsigned int)blockSize > SIM_MAX_BLOCK_THREADS ||
	    (flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(func, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	*numBlocks = blocks_per_sm(blockSize, dynamicSMemSize);
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
						     int blockSize, size_t dynamicSMemSize)
{
	return max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
							      int blockSize,
							      size_t dynamicSMemSize,
							      unsigned int flags)
{
	return max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags);
}

/*
 * As cuda_occupancy.h's cudaOccupancyMaxPotentialBlockSize computes it:
 * every multiple of the warp size from the limit down, the one with the
 * most resident threads per SM (the largest such block on a tie); the
 * minimum grid fills every SM with as many of them.
 */
static CUresult max_potential_block_size(int *minGridSize, int *blockSize, CUfunction func,
					 CUoccupancyB2DSize blockSizeToDynamicSMemSize,
					 size_t dynamicSMemSize, int blockSizeLimit,
					 unsigned int flags)
{
	DRIVER_ENTER();
	if (!minGridSize || !blockSize || blockSizeLimit < 0 ||
	    (flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(func, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	int limit = (int)SIM_MAX_BLOCK_THREADS;
	if (blockSizeLimit > 0 && blockSizeLimit < limit)
		limit = blockSizeLimit;
	int best_size = 0, best_blocks = 0, best_threads = 0;
	int start = limit % 32 ? limit - limit % 32 + 32 : limit;
	for (int size = start; size > 0; size -= 32) {
		int threads_in_block = size > limit ? limit : size;
		size_t shared = blockSizeToDynamicSMemSize
			? blockSizeToDynamicSMemSize(threads_in_block) : dynamicSMemSize;
		int blocks = blocks_per_sm(threads_in_block, shared);
		if (blocks * threads_in_block > best_threads) {
			best_threads = blocks * threads_in_block;
			best_blocks = blocks;
			best_size = threads_in_block;
		}
		if (best_threads == SM_THREADS)
			break; /* full occupancy: no smaller block does better */
	}
	*minGridSize = best_blocks * SM_COUNT;
	*blockSize = best_size;
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
					  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
					  size_t dynamicSMemSize, int blockSizeLimit)
{
	return max_potential_block_size(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
					dynamicSMemSize, blockSizeLimit, 0);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
						   CUfunction func,
						   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
						   size_t dynamicSMemSize, int blockSizeLimit,
						   unsigned int flags)
{
	return max_potential_block_size(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
					dynamicSMemSize, blockSizeLimit, flags);
}

/* The dynamic shared memory each of numBlocks blocks can have on one SM;
   0 when that many blocks cannot be resident at all (assumed: the header
   names no error for it). */
CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
						 int numBlocks, int blockSize)
{
	DRIVER_ENTER();
	if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0 ||
	    (unsigned int)blockSize > SIM_MAX_BLOCK_THREADS)
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(func, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	size_t available = 0;
	if (blocks_per_sm(blockSize, 0) >= numBlocks) {
		available = (size_t)SM_SHARED / (size_t)numBlocks - BLOCK_RESERVED_SHARED;
		if (available > SIM_MAX_SHARED_MEM_OPTIN)
			available = SIM_MAX_SHARED_MEM_OPTIN;
	}
	*dynamicSmemSize = available;
	return CUDA_SUCCESS;
}
