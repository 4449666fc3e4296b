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
 * only forwards. Must never write to the caller's argument buffers.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"
#include "tracepoints/dnntrace_api.h"

DNNTRACE_SAME_PROTOTYPE(cuLaunchKernel_ptsz, cuLaunchKernel);
DNNTRACE_SAME_PROTOTYPE(cuLaunchKernelEx_ptsz, cuLaunchKernelEx);
DNNTRACE_SAME_PROTOTYPE(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel);
DNNTRACE_SAME_PROTOTYPE(cuGraphLaunch_ptsz, cuGraphLaunch);
DNNTRACE_SAME_PROTOTYPE(cudaGraphLaunch_ptsz, cudaGraphLaunch);

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

struct driver_launch {
	enum dnntrace_api_id api;
	CUfunction function;
	struct dnntrace_launch_geometry geometry;
	CUstream stream;
	void **params;
	void **extra;
};

static void record_launch(const struct traced_call *call, const struct driver_launch *launch,
			  const struct kernel_info *info, CUresult result)
{
	int64_t tensors[KERNEL_MAX_TENSORS];
	unsigned n_tensors = 0;
	size_t buffer_size = 0;
	const void *buffer;

	if (launch->params)
		n_tensors = kernel_scan_tensors(info, launch->params, &tracer_tensors, tensors);
	else if ((buffer = extra_buffer(launch->extra, &buffer_size)))
		n_tensors = kernel_scan_buffer(buffer, buffer_size, &tracer_tensors, tensors);
	kernel_info_announce(info);
	lttng_ust_tracepoint(dnntrace_api, launch, call->call_id, launch->api,
			     (const void *)launch->function, info->function_id, &launch->geometry,
			     launch->stream, tensors, n_tensors, (int)result, call->start_ns);
}

static struct dnntrace_launch_geometry geometry_of(unsigned gx, unsigned gy, unsigned gz,
						   unsigned bx, unsigned by, unsigned bz,
						   unsigned shared_mem)
{
	return (struct dnntrace_launch_geometry){
		.grid = { gx, gy, gz }, .block = { bx, by, bz }, .shared_mem = shared_mem,
	};
}

static CUresult launch_kernel(enum dnntrace_api_id api, __typeof__(&cuLaunchKernel) real,
			      CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
			      unsigned by, unsigned bz, unsigned shared_mem, CUstream stream,
			      void **params, void **extra)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(launch_enabled()))
		return real(f, gx, gy, gz, bx, by, bz, shared_mem, stream, params, extra);
	const struct kernel_info *info = kernel_info_get_driver(f);
	traced_call_begin(&call);
	CUresult result = real(f, gx, gy, gz, bx, by, bz, shared_mem, stream, params, extra);
	traced_call_end(&call);
	struct driver_launch launch = {
		.api = api, .function = f, .stream = stream, .params = params, .extra = extra,
		.geometry = geometry_of(gx, gy, gz, bx, by, bz, shared_mem),
	};
	record_launch(&call, &launch, info, result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
					unsigned int gridDimY, unsigned int gridDimZ,
					unsigned int blockDimX, unsigned int blockDimY,
					unsigned int blockDimZ, unsigned int sharedMemBytes,
					CUstream hStream, void **kernelParams, void **extra)
{
	return launch_kernel(DNNTRACE_API_cuLaunchKernel, REAL(cuLaunchKernel), f, gridDimX,
			     gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
			     hStream, kernelParams, extra);
}

DNNTRACE_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX,
					     unsigned int gridDimY, unsigned int gridDimZ,
					     unsigned int blockDimX, unsigned int blockDimY,
					     unsigned int blockDimZ, unsigned int sharedMemBytes,
					     CUstream hStream, void **kernelParams, void **extra)
{
	return launch_kernel(DNNTRACE_API_cuLaunchKernel_ptsz, REAL(cuLaunchKernel_ptsz), f,
			     gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
			     sharedMemBytes, hStream, kernelParams, extra);
}

static CUresult launch_kernel_ex(enum dnntrace_api_id api, __typeof__(&cuLaunchKernelEx) real,
				 const CUlaunchConfig *config, CUfunction f, void **params,
				 void **extra)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(launch_enabled()))
		return real(config, f, params, extra);
	const struct kernel_info *info = kernel_info_get_driver(f);
	traced_call_begin(&call);
	CUresult result = real(config, f, params, extra);
	traced_call_end(&call);
	struct driver_launch launch = {
		.api = api, .function = f, .params = params, .extra = extra,
	};
	if (config) {
		launch.geometry = geometry_of(config->gridDimX, config->gridDimY,
					      config->gridDimZ, config->blockDimX,
					      config->blockDimY, config->blockDimZ,
					      config->sharedMemBytes);
		launch.stream = config->hStream;
	}
	record_launch(&call, &launch, info, result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
					  void **kernelParams, void **extra)
{
	return launch_kernel_ex(DNNTRACE_API_cuLaunchKernelEx, REAL(cuLaunchKernelEx), config, f,
				kernelParams, extra);
}

DNNTRACE_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
					       void **kernelParams, void **extra)
{
	return launch_kernel_ex(DNNTRACE_API_cuLaunchKernelEx_ptsz, REAL(cuLaunchKernelEx_ptsz),
				config, f, kernelParams, extra);
}

static CUresult launch_cooperative(enum dnntrace_api_id api,
				   __typeof__(&cuLaunchCooperativeKernel) real, CUfunction f,
				   unsigned gx, unsigned gy, unsigned gz, unsigned bx,
				   unsigned by, unsigned bz, unsigned shared_mem,
				   CUstream stream, void **params)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(launch_enabled()))
		return real(f, gx, gy, gz, bx, by, bz, shared_mem, stream, params);
	const struct kernel_info *info = kernel_info_get_driver(f);
	traced_call_begin(&call);
	CUresult result = real(f, gx, gy, gz, bx, by, bz, shared_mem, stream, params);
	traced_call_end(&call);
	struct driver_launch launch = {
		.api = api, .function = f, .stream = stream, .params = params, .extra = NULL,
		.geometry = geometry_of(gx, gy, gz, bx, by, bz, shared_mem),
	};
	record_launch(&call, &launch, info, result);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
						   unsigned int gridDimY, unsigned int gridDimZ,
						   unsigned int blockDimX, unsigned int blockDimY,
						   unsigned int blockDimZ,
						   unsigned int sharedMemBytes, CUstream hStream,
						   void **kernelParams)
{
	return launch_cooperative(DNNTRACE_API_cuLaunchCooperativeKernel,
				  REAL(cuLaunchCooperativeKernel), f, gridDimX, gridDimY,
				  gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
				  hStream, kernelParams);
}

DNNTRACE_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
							unsigned int gridDimY,
							unsigned int gridDimZ,
							unsigned int blockDimX,
							unsigned int blockDimY,
							unsigned int blockDimZ,
							unsigned int sharedMemBytes,
							CUstream hStream, void **kernelParams)
{
	return launch_cooperative(DNNTRACE_API_cuLaunchCooperativeKernel_ptsz,
				  REAL(cuLaunchCooperativeKernel_ptsz), f, gridDimX, gridDimY,
				  gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes,
				  hStream, kernelParams);
}

/* --- graph launches ------------------------------------------------------ */

static CUresult graph_launch(enum dnntrace_api_id api, __typeof__(&cuGraphLaunch) real,
			     CUgraphExec exec, CUstream stream)
{
	struct traced_call call;

	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	if (!tracer_enter(graph_launch_enabled()))
		return real(exec, stream);
	traced_call_begin(&call);
	CUresult result = real(exec, stream);
	traced_call_end(&call);
	lttng_ust_tracepoint(dnntrace_api, graph_launch, call.call_id, api, exec, stream,
			     (int)result, call.start_ns);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
	return graph_launch(DNNTRACE_API_cuGraphLaunch, REAL(cuGraphLaunch), hGraphExec, hStream);
}

DNNTRACE_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	return graph_launch(DNNTRACE_API_cuGraphLaunch_ptsz, REAL(cuGraphLaunch_ptsz), hGraphExec,
			    hStream);
}

static cudaError_t runtime_graph_launch(enum dnntrace_api_id api,
					__typeof__(&cudaGraphLaunch) real,
					cudaGraphExec_t exec, cudaStream_t stream)
{
	struct traced_call call;

	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	if (!tracer_enter(graph_launch_enabled()))
		return real(exec, stream);
	traced_call_begin(&call);
	cudaError_t result = real(exec, stream);
	traced_call_end(&call);
	lttng_ust_tracepoint(dnntrace_api, graph_launch, call.call_id, api, exec, stream,
			     (int)result, call.start_ns);
	traced_call_leave(&call);
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	return runtime_graph_launch(DNNTRACE_API_cudaGraphLaunch, REAL(cudaGraphLaunch),
				    graphExec, stream);
}

DNNTRACE_EXPORT cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	return runtime_graph_launch(DNNTRACE_API_cudaGraphLaunch_ptsz,
				    REAL(cudaGraphLaunch_ptsz), graphExec, stream);
}
