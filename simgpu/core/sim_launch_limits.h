/*
 * Launch limits of the simulated device and the geometry check both the
 * simulated runtime and driver apply (each maps the verdict to its own
 * error code). cudaGetDeviceProperties and cuDeviceGetAttribute agree with
 * these numbers. Header-only; it must never hold state.
 */
#ifndef SIMGPU_SIM_LAUNCH_LIMITS_H
#define SIMGPU_SIM_LAUNCH_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#define SIM_MAX_BLOCK_THREADS 1024U
#define SIM_MAX_BLOCK_X 1024U
#define SIM_MAX_BLOCK_Y 1024U
#define SIM_MAX_BLOCK_Z 64U
#define SIM_MAX_GRID_X 2147483647U
#define SIM_MAX_GRID_YZ 65535U
#define SIM_MAX_SHARED_MEM_OPTIN (227U * 1024U)

/* cudaErrorInvalidConfiguration, cudaErrorInvalidValue or cudaSuccess. */
static inline cudaError_t sim_check_launch_geometry(dim3 grid, dim3 block,
						    size_t shared_mem)
{
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
		return cudaErrorInvalidConfiguration;
	if (block.x > SIM_MAX_BLOCK_X || block.y > SIM_MAX_BLOCK_Y ||
	    block.z > SIM_MAX_BLOCK_Z ||
	    (uint64_t)block.x * block.y * block.z > SIM_MAX_BLOCK_THREADS)
		return cudaErrorInvalidConfiguration;
	if (grid.x > SIM_MAX_GRID_X || grid.y > SIM_MAX_GRID_YZ ||
	    grid.z > SIM_MAX_GRID_YZ)
		return cudaErrorInvalidConfiguration;
	/* Assumed, not tested on a GPU: too much dynamic shared memory is
	 * reported as an invalid value. */
	if (shared_mem > SIM_MAX_SHARED_MEM_OPTIN)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

#endif
