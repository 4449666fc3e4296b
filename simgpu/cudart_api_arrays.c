/*
 * CUDA arrays, channel descriptors, texture and surface objects of the
 * simulated runtime: host-side bookkeeping and copies (kernels compute
 * nothing, so nothing ever samples a texture). Must never touch device
 * state except through the driver entry points it calls.
 */
#include "simgpu/cudart_internal.h"

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
							      enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = { x, y, z, w, f };
	return desc;
}
