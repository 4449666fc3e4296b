/*
 * Wrappers of cudaLaunchKernel and cudaLaunchKernelExC (and their _ptsz
 * twins), and of __cudaLaunchKernel[_ptsz], what nvcc 13 compiles <<<>>>
 * into (cuda_nvcc13.h). Each forwards with the same arguments and returns
 * the real result; when recording it emits dnntrace_api:launch with the
 * kernel's function id (its name comes once, in dnntrace_api:function),
 * geometry, and the live tensors its parameter bytes point into. __cudaGetKernel, which nvcc 13's code calls once per kernel before
 * launching, submits no GPU work: it is not wrapped.
 *
 * The kernel's layout is learnt BEFORE forwarding (kernel_info.c keeps the
 * thread's last CUDA error as the launch left it). Must never write to the
 * caller's argument buffers.
 */
#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_nvcc13.h"
#include "interceptors/runtime/cuda_ptds.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cudaLaunchKernel_ptsz, cudaLaunchKernel);
DNNTRACE_SAME_PROTOTYPE(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC);
DNNTRACE_SAME_PROTOTYPE(__cudaLaunchKernel_ptsz, __cudaLaunchKernel);

static bool launch_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, launch);
}

static void record_launch(const struct traced_call *call, enum dnntrace_api_id api,
			  const void *func, const struct kernel_info *info,
			  const struct dnntrace_launch_geometry *geometry, void **args,
			  cudaStream_t stream, cudaError_t result)
{
	int64_t tensors[KERNEL_MAX_TENSORS];
	unsigned n_tensors = kernel_scan_tensors(info, args, &tracer_tensors, tensors);

	kernel_info_announce(info);
	lttng_ust_tracepoint(dnntrace_api, launch, call->call_id, api, func, info->function_id,
			     geometry, stream, tensors, n_tensors, (int)result, call->start_ns);
}

static struct dnntrace_launch_geometry geometry_of(dim3 grid, dim3 block, size_t shared_mem)
{
	return (struct dnntrace_launch_geometry){
		.grid = { grid.x, grid.y, grid.z },
		.block = { block.x, block.y, block.z },
		.shared_mem = shared_mem,
	};
}

static cudaError_t launch(enum dnntrace_api_id api, __typeof__(&cudaLaunchKernel) real,
			  const void *func, dim3 grid, dim3 block, void **args,
			  size_t shared_mem, cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(launch_enabled()))
		return real(func, grid, block, args, shared_mem, stream);
	const struct kernel_info *info = kernel_info_get(func);
	traced_call_begin(&call);
	cudaError_t result = real(func, grid, block, args, shared_mem, stream);
	traced_call_end(&call);
	struct dnntrace_launch_geometry geometry = geometry_of(grid, block, shared_mem);
	record_launch(&call, api, func, info, &geometry, args, stream, result);
	traced_call_leave(&call);
	return result;
}

/*
 * nvcc 13's launch through a kernel handle. The handle, cast to void *, is
 * the event's func and what the kernel's name and layout are asked with:
 * cudaFuncGetName and cudaFuncGetParamInfo accept a cudaKernel_t so cast
 * (cuda_runtime_api.h, \note_cudaKernel_t). Assumed, tested only on
 * simgpu: the real runtime answers them for the handles __cudaGetKernel
 * returns.
 */
static cudaError_t launch_kernel_handle(enum dnntrace_api_id api,
					__typeof__(&__cudaLaunchKernel) real, cudaKernel_t kernel,
					dim3 grid, dim3 block, void **args, size_t shared_mem,
					cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(launch_enabled()))
		return real(kernel, grid, block, args, shared_mem, stream);
	const void *func = (const void *)kernel;
	const struct kernel_info *info = kernel_info_get(func);
	traced_call_begin(&call);
	cudaError_t result = real(kernel, grid, block, args, shared_mem, stream);
	traced_call_end(&call);
	struct dnntrace_launch_geometry geometry = geometry_of(grid, block, shared_mem);
	record_launch(&call, api, func, info, &geometry, args, stream, result);
	traced_call_leave(&call);
	return result;
}

static cudaError_t launch_ex(enum dnntrace_api_id api, __typeof__(&cudaLaunchKernelExC) real,
			     const cudaLaunchConfig_t *config, const void *func, void **args)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(launch_enabled()))
		return real(config, func, args);
	const struct kernel_info *info = kernel_info_get(func);
	traced_call_begin(&call);
	cudaError_t result = real(config, func, args);
	traced_call_end(&call);
	struct dnntrace_launch_geometry geometry = { .shared_mem = 0 };
	cudaStream_t stream = NULL;
	if (config) {
		geometry = (struct dnntrace_launch_geometry){
			.grid = { config->gridDim.x, config->gridDim.y, config->gridDim.z },
			.block = { config->blockDim.x, config->blockDim.y, config->blockDim.z },
			.shared_mem = config->dynamicSmemBytes,
		};
		stream = config->stream;
	}
	record_launch(&call, api, func, info, &geometry, args, stream, result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
					     void **args, size_t sharedMem, cudaStream_t stream)
{
	return launch(DNNTRACE_API_cudaLaunchKernel, REAL(cudaLaunchKernel), func, gridDim,
		      blockDim, args, sharedMem, stream);
}

DNNTRACE_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
						  dim3 blockDim, void **args, size_t sharedMem,
						  cudaStream_t stream)
{
	return launch(DNNTRACE_API_cudaLaunchKernel_ptsz, REAL(cudaLaunchKernel_ptsz), func,
		      gridDim, blockDim, args, sharedMem, stream);
}

DNNTRACE_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
						const void *func, void **args)
{
	return launch_ex(DNNTRACE_API_cudaLaunchKernelExC, REAL(cudaLaunchKernelExC), config,
			 func, args);
}

DNNTRACE_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
						     const void *func, void **args)
{
	return launch_ex(DNNTRACE_API_cudaLaunchKernelExC_ptsz, REAL(cudaLaunchKernelExC_ptsz),
			 config, func, args);
}

DNNTRACE_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
					       void **args, size_t sharedMem, cudaStream_t stream)
{
	return launch_kernel_handle(DNNTRACE_API___cudaLaunchKernel, REAL(__cudaLaunchKernel),
				    kernel, gridDim, blockDim, args, sharedMem, stream);
}

DNNTRACE_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
						    dim3 blockDim, void **args, size_t sharedMem,
						    cudaStream_t stream)
{
	return launch_kernel_handle(DNNTRACE_API___cudaLaunchKernel_ptsz,
				    REAL(__cudaLaunchKernel_ptsz), kernel, gridDim, blockDim,
				    args, sharedMem, stream);
}
