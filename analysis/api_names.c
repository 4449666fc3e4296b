/*
 * Entry point names (api_names.h), one table per provider, indexed by the
 * stable enum values of tracepoints/dnntrace_enums.h. Must never index a
 * table without checking the id: traces come from any tracer version.
 */
#include "analysis/api_names.h"

#include <stddef.h>

#include "tracepoints/dnntrace_enums.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * By value. Each entry is written from its enum constant (API(x) places
 * "x" at DNNTRACE_API_x), so a name can never sit at another entry point's
 * value, and the trace's enum labels (dnntrace_api.h) spell the same
 * names. An entry point appended to the enum without its name here stops
 * the build (static assert below); a gap inside would read as "" and is
 * caught by test_analysis_model.
 */
#define API(x) [DNNTRACE_API_##x] = #x
static const char *const launch_api_names[] = {
	API(cudaMalloc),
	API(cudaFree),
	API(cudaMallocAsync),
	API(cudaFreeAsync),
	API(cudaMallocFromPoolAsync),
	API(cudaMallocManaged),
	API(cudaMallocPitch),
	API(cudaMalloc3D),
	API(cudaMallocHost),
	API(cudaHostAlloc),
	API(cudaFreeHost),
	API(cudaMemcpy),
	API(cudaMemcpyAsync),
	API(cudaMemcpy2D),
	API(cudaMemcpy2DAsync),
	API(cudaMemset),
	API(cudaMemsetAsync),
	API(cudaMemset2D),
	API(cudaMemset2DAsync),
	API(cudaLaunchKernel),
	API(cudaLaunchKernelExC),
	API(cudaMemcpy_ptds),
	API(cudaMemcpyAsync_ptsz),
	API(cudaMemcpy2D_ptds),
	API(cudaMemcpy2DAsync_ptsz),
	API(cudaMemset_ptds),
	API(cudaMemsetAsync_ptsz),
	API(cudaMemset2D_ptds),
	API(cudaMemset2DAsync_ptsz),
	API(cudaLaunchKernel_ptsz),
	API(cudaLaunchKernelExC_ptsz),
	API(cudaMallocAsync_ptsz),
	API(cudaFreeAsync_ptsz),
	API(cudaMallocFromPoolAsync_ptsz),
	API(__cudaLaunchKernel),
	API(__cudaLaunchKernel_ptsz),
	API(cuMemAlloc_v2),
	API(cuMemAllocPitch_v2),
	API(cuMemAllocManaged),
	API(cuMemAllocAsync),
	API(cuMemAllocAsync_ptsz),
	API(cuMemAllocFromPoolAsync),
	API(cuMemAllocFromPoolAsync_ptsz),
	API(cuMemFree_v2),
	API(cuMemFreeAsync),
	API(cuMemFreeAsync_ptsz),
	API(cuMemCreate),
	API(cuMemRelease),
	API(cuMemAddressReserve),
	API(cuMemAddressFree),
	API(cuMemMap),
	API(cuMemUnmap),
	API(cuMemHostAlloc),
	API(cuMemAllocHost_v2),
	API(cuMemFreeHost),
	API(cuMemcpy),
	API(cuMemcpy_ptds),
	API(cuMemcpyAsync),
	API(cuMemcpyAsync_ptsz),
	API(cuMemcpyHtoD_v2),
	API(cuMemcpyHtoD_v2_ptds),
	API(cuMemcpyDtoH_v2),
	API(cuMemcpyDtoH_v2_ptds),
	API(cuMemcpyDtoD_v2),
	API(cuMemcpyDtoD_v2_ptds),
	API(cuMemcpyHtoDAsync_v2),
	API(cuMemcpyHtoDAsync_v2_ptsz),
	API(cuMemcpyDtoHAsync_v2),
	API(cuMemcpyDtoHAsync_v2_ptsz),
	API(cuMemcpyDtoDAsync_v2),
	API(cuMemcpyDtoDAsync_v2_ptsz),
	API(cuMemsetD8_v2),
	API(cuMemsetD8_v2_ptds),
	API(cuMemsetD16_v2),
	API(cuMemsetD16_v2_ptds),
	API(cuMemsetD32_v2),
	API(cuMemsetD32_v2_ptds),
	API(cuMemsetD8Async),
	API(cuMemsetD8Async_ptsz),
	API(cuMemsetD16Async),
	API(cuMemsetD16Async_ptsz),
	API(cuMemsetD32Async),
	API(cuMemsetD32Async_ptsz),
	API(cuLaunchKernel),
	API(cuLaunchKernel_ptsz),
	API(cuLaunchKernelEx),
	API(cuLaunchKernelEx_ptsz),
	API(cuLaunchCooperativeKernel),
	API(cuLaunchCooperativeKernel_ptsz),
	API(cuGraphLaunch),
	API(cuGraphLaunch_ptsz),
	API(cudaGraphLaunch),
	API(cudaGraphLaunch_ptsz),
};
#undef API
_Static_assert(COUNT(launch_api_names) == DNNTRACE_API_COUNT,
		"analysis/api_names.c: name every dnntrace_api_id");

/* cuDNN entry points from 0 */
static const char *const cudnn_names[] = {
	[DNNTRACE_LIB_cudnnConvolutionForward] = "cudnnConvolutionForward",
	[DNNTRACE_LIB_cudnnConvolutionBackwardData] = "cudnnConvolutionBackwardData",
	[DNNTRACE_LIB_cudnnConvolutionBackwardFilter] = "cudnnConvolutionBackwardFilter",
	[DNNTRACE_LIB_cudnnConvolutionBackwardBias] = "cudnnConvolutionBackwardBias",
	[DNNTRACE_LIB_cudnnConvolutionBiasActivationForward] =
		"cudnnConvolutionBiasActivationForward",
	[DNNTRACE_LIB_cudnnBatchNormalizationForwardTraining] =
		"cudnnBatchNormalizationForwardTraining",
	[DNNTRACE_LIB_cudnnBatchNormalizationForwardTrainingEx] =
		"cudnnBatchNormalizationForwardTrainingEx",
	[DNNTRACE_LIB_cudnnBatchNormalizationForwardInference] =
		"cudnnBatchNormalizationForwardInference",
	[DNNTRACE_LIB_cudnnBatchNormalizationBackward] = "cudnnBatchNormalizationBackward",
	[DNNTRACE_LIB_cudnnBatchNormalizationBackwardEx] =
		"cudnnBatchNormalizationBackwardEx",
	[DNNTRACE_LIB_cudnnActivationForward] = "cudnnActivationForward",
	[DNNTRACE_LIB_cudnnActivationBackward] = "cudnnActivationBackward",
	[DNNTRACE_LIB_cudnnPoolingForward] = "cudnnPoolingForward",
	[DNNTRACE_LIB_cudnnPoolingBackward] = "cudnnPoolingBackward",
	[DNNTRACE_LIB_cudnnSoftmaxForward] = "cudnnSoftmaxForward",
	[DNNTRACE_LIB_cudnnSoftmaxBackward] = "cudnnSoftmaxBackward",
	[DNNTRACE_LIB_cudnnAddTensor] = "cudnnAddTensor",
	[DNNTRACE_LIB_cudnnOpTensor] = "cudnnOpTensor",
	[DNNTRACE_LIB_cudnnDropoutForward] = "cudnnDropoutForward",
	[DNNTRACE_LIB_cudnnDropoutBackward] = "cudnnDropoutBackward",
	[DNNTRACE_LIB_cudnnBackendExecute] = "cudnnBackendExecute",
	[DNNTRACE_LIB_cudnnSetStream] = "cudnnSetStream",
};

/* cuBLAS and cuBLASLt entry points from 100 */
#define CUBLAS_BASE DNNTRACE_LIB_cublasSgemm_v2
static const char *const cublas_names[] = {
	[DNNTRACE_LIB_cublasSgemm_v2 - CUBLAS_BASE] = "cublasSgemm_v2",
	[DNNTRACE_LIB_cublasDgemm_v2 - CUBLAS_BASE] = "cublasDgemm_v2",
	[DNNTRACE_LIB_cublasHgemm - CUBLAS_BASE] = "cublasHgemm",
	[DNNTRACE_LIB_cublasGemmEx - CUBLAS_BASE] = "cublasGemmEx",
	[DNNTRACE_LIB_cublasSgemmStridedBatched - CUBLAS_BASE] = "cublasSgemmStridedBatched",
	[DNNTRACE_LIB_cublasGemmStridedBatchedEx - CUBLAS_BASE] = "cublasGemmStridedBatchedEx",
	[DNNTRACE_LIB_cublasGemmBatchedEx - CUBLAS_BASE] = "cublasGemmBatchedEx",
	[DNNTRACE_LIB_cublasSetStream_v2 - CUBLAS_BASE] = "cublasSetStream_v2",
	[DNNTRACE_LIB_cublasLtMatmul - CUBLAS_BASE] = "cublasLtMatmul",
};

static const char *lookup(const char *const *names, size_t count, long index)
{
	if (index < 0 || (size_t)index >= count || !names[index])
		return "";
	return names[index];
}

const char *dt_launch_api_name(int api)
{
	return lookup(launch_api_names, COUNT(launch_api_names), api);
}

const char *dt_lib_api_name(int api)
{
	if (api >= CUBLAS_BASE)
		return lookup(cublas_names, COUNT(cublas_names), (long)api - CUBLAS_BASE);
	return lookup(cudnn_names, COUNT(cudnn_names), api);
}
