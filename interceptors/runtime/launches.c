/*
 * Wrappers of cudaLaunchKernel and cudaLaunchKernelExC (and their _ptsz
 * twins), and of __cudaLaunchKernel[_ptsz], what nvcc 13 compiles <<<>>>
 * into (cuda_nvcc13.h). Each forwards with the same arguments and returns
 * the real result; when recording it emits dnntrace_api:launch with the
 * kernel's function id (its handle and name come once, in
 * dnntrace_api:function) and the live tensors its parameter bytes point
 * into; its grid and block are in the GPU kernel record. __cudaGetKernel, which nvcc 13's code calls once per kernel before
 * launching, submits no GPU work: it is not wrapped.
 *
 * The kernel's layout is learnt BEFORE forwarding (kernel_info.c keeps the
 * thread's last CUDA error as the launch left it): the `before` step of
 * core/wrapper.h's DNNTRACE_LAUNCH_CALL, whose bracket every wrapper here
 * is. Must never write to the caller's argument buffers.
 */
#include <cuda_runtime_api.h>

#include "interceptors/runtime/cuda_nvcc13.h"
#include "interceptors/core/event_count.h"
#include "interceptors/runtime/cuda_ptds.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cudaLaunchKernel_ptsz, cudaLaunchKernel);
DNNTRACE_SAME_PROTOTYPE(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC);
DNNTRACE_SAME_PROTOTYPE(__cudaLaunchKernel_ptsz, __cudaLaunchKernel);

#define NOT_FOUND cudaErrorSharedObjectSymbolNotFound

static bool launch_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, launch);
}

/* The grid and block are not the event's: the GPU kernel record has them. */
static void record_launch(const struct traced_call *call, enum dnntrace_api_id api,
			  const struct kernel_info *info, void **args, cudaStream_t stream,
			  cudaError_t result)
{
	int64_t tensors[KERNEL_MAX_TENSORS];
	unsigned n_tensors = kernel_scan_tensors(info, args, &tracer_tensors, tensors);

	kernel_info_announce(info);
	DNNTRACE_EMIT(dnntrace_api, launch, call->call_id, api, info->function_id, stream,
			     tensors, n_tensors, (int)result, call->start_ns);
	if (result == cudaSuccess)
		graph_capture_note(stream, (int)api, call->call_id);
}

/* cudaLaunchKernel and its _ptsz twin: the kernel by its host function. */
#define LAUNCH(name)                                                                      \
	DNNTRACE_LAUNCH_CALL(cudaError_t, name,                                            \
		(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, \
		 cudaStream_t stream),                                                      \
		(func, gridDim, blockDim, args, sharedMem, stream), NOT_FOUND,              \
		launch_enabled(), const struct kernel_info *info = kernel_info_get(func),   \
		record_launch(&call, api, info, args, stream, result))

LAUNCH(cudaLaunchKernel)
LAUNCH(cudaLaunchKernel_ptsz)

/* The configuration is optional (NULL: the real call fails; nothing to describe). */
#define LAUNCH_EX(name)                                                                   \
	DNNTRACE_LAUNCH_CALL(cudaError_t, name,                                            \
		(const cudaLaunchConfig_t *config, const void *func, void **args),         \
		(config, func, args), NOT_FOUND, launch_enabled(),                          \
		const struct kernel_info *info = kernel_info_get(func),                     \
		record_launch(&call, api, info, args, config ? config->stream : NULL,       \
			      result))

LAUNCH_EX(cudaLaunchKernelExC)
LAUNCH_EX(cudaLaunchKernelExC_ptsz)

/*
 * nvcc 13's launch through a kernel handle. The handle, cast to void *, is
 * the event's func and what the kernel's name and layout are asked with:
 * cudaFuncGetName and cudaFuncGetParamInfo accept a cudaKernel_t so cast
 * (cuda_runtime_api.h, \note_cudaKernel_t). The real runtime answers
 * them for the handles __cudaGetKernel returns: seen on an H100 with CUDA
 * 13 (tests/gpu: the nvcc programs' kernel names and tensors equal their
 * ground truth).
 */
#define LAUNCH_KERNEL_HANDLE(name)                                                        \
	DNNTRACE_LAUNCH_CALL(cudaError_t, name,                                            \
		(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,             \
		 size_t sharedMem, cudaStream_t stream),                                    \
		(kernel, gridDim, blockDim, args, sharedMem, stream), NOT_FOUND,            \
		launch_enabled(),                                                           \
		const struct kernel_info *info = kernel_info_get((const void *)kernel),     \
		record_launch(&call, api, info, args, stream, result))

LAUNCH_KERNEL_HANDLE(__cudaLaunchKernel)
LAUNCH_KERNEL_HANDLE(__cudaLaunchKernel_ptsz)
