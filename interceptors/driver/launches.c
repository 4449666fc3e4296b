/*
 * Wrappers of the driver's kernel launches (cuLaunchKernel, cuLaunchKernelEx,
 * cuLaunchCooperativeKernel and their _ptsz twins) and of graph launches
 * (cuGraphLaunch, and the runtime's cudaGraphLaunch, with _ptsz twins).
 * Each forwards with the same arguments and returns the real result.
 *
 * A kernel launch is recorded as dnntrace_api:launch, like a runtime one:
 * name and parameter layout from cuFuncGetName / cuFuncGetParamInfo
 * (cached per CUfunction), the live tensors its parameters point into
 * (kernelParams, or the packed buffer of extra), and a call id pushed as
 * CUPTI's external correlation id around the call. A graph launch is
 * recorded as dnntrace_api:graph_launch: the kernels it runs are known only
 * from CUPTI's records, which link back through the pushed call id.
 *
 * A cudaLaunchKernel that libcudart implements with cuLaunchKernel is one
 * launch: the runtime wrapper is active (tracer_nesting), the driver one
 * only forwards. The brackets are core/wrapper.h's: DNNTRACE_LAUNCH_CALL
 * (the kernel's layout learnt before forwarding) and DNNTRACE_TRACED_CALL.
 * Must never write to the caller's argument buffers.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/graph_capture.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cuLaunchKernel_ptsz, cuLaunchKernel);
DNNTRACE_SAME_PROTOTYPE(cuLaunchKernelEx_ptsz, cuLaunchKernelEx);
DNNTRACE_SAME_PROTOTYPE(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel);
DNNTRACE_SAME_PROTOTYPE(cuGraphLaunch_ptsz, cuGraphLaunch);
DNNTRACE_SAME_PROTOTYPE(cudaGraphLaunch_ptsz, cudaGraphLaunch);

#define NOT_FOUND CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND

static bool launch_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, launch);
}

static bool graph_launch_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_api, graph_launch);
}

enum { MAX_EXTRA_PAIRS = 64 };

/* The packed parameter buffer cuLaunchKernel's extra names, if any. */
static const void *extra_buffer(void **extra, size_t *size)
{
	const void *buffer = NULL;
	const size_t *buffer_size = NULL;

	for (int i = 0; extra && i < 2 * MAX_EXTRA_PAIRS && extra[i] != CU_LAUNCH_PARAM_END;
	     i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			buffer = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			buffer_size = extra[i + 1];
	}
	if (!buffer || !buffer_size)
		return NULL;
	*size = *buffer_size;
	return buffer;
}

/*
 * The parameters come as kernelParams, or packed in extra's buffer. The
 * grid and block are not the event's: the GPU kernel record has them.
 */
static void record_launch(const struct traced_call *call, enum dnntrace_api_id api,
			  const struct kernel_info *info, CUstream stream, void **params,
			  void **extra, CUresult result)
{
	int64_t tensors[KERNEL_MAX_TENSORS];
	unsigned n_tensors = 0;
	size_t buffer_size = 0;
	const void *buffer;

	if (params)
		n_tensors = kernel_scan_tensors(info, params, &tracer_tensors, tensors);
	else if ((buffer = extra_buffer(extra, &buffer_size)))
		n_tensors = kernel_scan_buffer(buffer, buffer_size, &tracer_tensors, tensors);
	kernel_info_announce(info);
	DNNTRACE_EMIT(dnntrace_api, launch, call->call_id, api, info->function_id, stream,
			     tensors, n_tensors, (int)result, call->start_ns);
	if (result == CUDA_SUCCESS)
		graph_capture_note(stream, (int)api, call->call_id);
}

#define LAUNCH_KERNEL(name)                                                                \
	DNNTRACE_LAUNCH_CALL(CUresult, name,                                                \
		(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,                 \
		 unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,      \
		 unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,      \
		 void **kernelParams, void **extra),                                         \
		(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,           \
		 sharedMemBytes, hStream, kernelParams, extra),                              \
		NOT_FOUND, launch_enabled(),                                                 \
		const struct kernel_info *info = kernel_info_get_driver(f),                  \
		record_launch(&call, api, info, hStream, kernelParams, extra, result))

LAUNCH_KERNEL(cuLaunchKernel)
LAUNCH_KERNEL(cuLaunchKernel_ptsz)

/* The configuration is optional (NULL: the real call fails; nothing to describe). */
#define LAUNCH_KERNEL_EX(name)                                                             \
	DNNTRACE_LAUNCH_CALL(CUresult, name,                                                \
		(const CUlaunchConfig *config, CUfunction f, void **kernelParams,            \
		 void **extra),                                                              \
		(config, f, kernelParams, extra), NOT_FOUND, launch_enabled(),               \
		const struct kernel_info *info = kernel_info_get_driver(f),                  \
		record_launch(&call, api, info, config ? config->hStream : NULL, kernelParams, \
			      extra, result))

LAUNCH_KERNEL_EX(cuLaunchKernelEx)
LAUNCH_KERNEL_EX(cuLaunchKernelEx_ptsz)

#define LAUNCH_COOPERATIVE(name)                                                           \
	DNNTRACE_LAUNCH_CALL(CUresult, name,                                                \
		(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,                 \
		 unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,      \
		 unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,      \
		 void **kernelParams),                                                       \
		(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,           \
		 sharedMemBytes, hStream, kernelParams),                                     \
		NOT_FOUND, launch_enabled(),                                                 \
		const struct kernel_info *info = kernel_info_get_driver(f),                  \
		record_launch(&call, api, info, hStream, kernelParams, NULL, result))

LAUNCH_COOPERATIVE(cuLaunchCooperativeKernel)
LAUNCH_COOPERATIVE(cuLaunchCooperativeKernel_ptsz)

/* --- graph launches ------------------------------------------------------ */

#define GRAPH_LAUNCH(ret, name, exec_type, stream_type, missing)                           \
	DNNTRACE_TRACED_CALL(ret, name, (exec_type graphExec, stream_type stream),           \
		(graphExec, stream), missing, graph_launch_enabled(),                        \
		DNNTRACE_EMIT(dnntrace_api, graph_launch, call.call_id, api,          \
				     graphExec, stream, (int)result, call.start_ns))

GRAPH_LAUNCH(CUresult, cuGraphLaunch, CUgraphExec, CUstream, NOT_FOUND)
GRAPH_LAUNCH(CUresult, cuGraphLaunch_ptsz, CUgraphExec, CUstream, NOT_FOUND)
GRAPH_LAUNCH(cudaError_t, cudaGraphLaunch, cudaGraphExec_t, cudaStream_t,
	     cudaErrorSharedObjectSymbolNotFound)
GRAPH_LAUNCH(cudaError_t, cudaGraphLaunch_ptsz, cudaGraphExec_t, cudaStream_t,
	     cudaErrorSharedObjectSymbolNotFound)
