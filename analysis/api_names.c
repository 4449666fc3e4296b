/*
 * Entry point names (api_names.h), one table per provider, indexed by the
 * stable enum values of tracepoints/dnntrace_enums.h. Must never index a
 * table without checking the id: traces come from any tracer version.
 */
#include "analysis/api_names.h"

#include <stddef.h>

#include "tracepoints/dnntrace_enums.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* by value; entries are only ever appended (tracepoints/README.md) */
static const char *const launch_api_names[] = {
	"cudaMalloc", "cudaFree", "cudaMallocAsync", "cudaFreeAsync",
	"cudaMallocFromPoolAsync", "cudaMallocManaged", "cudaMallocPitch",
	"cudaMalloc3D", "cudaMallocHost", "cudaHostAlloc", "cudaFreeHost",
	"cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cudaMemcpy2DAsync",
	"cudaMemset", "cudaMemsetAsync", "cudaMemset2D", "cudaMemset2DAsync",
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpy_ptds",
	"cudaMemcpyAsync_ptsz", "cudaMemcpy2D_ptds", "cudaMemcpy2DAsync_ptsz",
	"cudaMemset_ptds", "cudaMemsetAsync_ptsz", "cudaMemset2D_ptds",
	"cudaMemset2DAsync_ptsz", "cudaLaunchKernel_ptsz",
	"cudaLaunchKernelExC_ptsz", "cudaMallocAsync_ptsz",
	"cudaFreeAsync_ptsz", "cudaMallocFromPoolAsync_ptsz",
	"__cudaLaunchKernel", "__cudaLaunchKernel_ptsz",
};

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
