/*
 * Stable numeric values of the dnntrace_api enums, shared by the tracer (which
 * writes them) and the analyzer (which reads them back). Append only: a value
 * once written into a trace must keep its meaning.
 */
#ifndef DNNTRACE_ENUMS_H
#define DNNTRACE_ENUMS_H

enum dnntrace_api_id {
	DNNTRACE_API_cudaMalloc = 0,
	DNNTRACE_API_cudaFree,
	DNNTRACE_API_cudaMallocAsync,
	DNNTRACE_API_cudaFreeAsync,
	DNNTRACE_API_cudaMallocFromPoolAsync,
	DNNTRACE_API_cudaMallocManaged,
	DNNTRACE_API_cudaMallocPitch,
	DNNTRACE_API_cudaMalloc3D,
	DNNTRACE_API_cudaMallocHost,
	DNNTRACE_API_cudaHostAlloc,
	DNNTRACE_API_cudaFreeHost,
	DNNTRACE_API_cudaMemcpy,
	DNNTRACE_API_cudaMemcpyAsync,
	DNNTRACE_API_cudaMemcpy2D,
	DNNTRACE_API_cudaMemcpy2DAsync,
	DNNTRACE_API_cudaMemset,
	DNNTRACE_API_cudaMemsetAsync,
	DNNTRACE_API_cudaMemset2D,
	DNNTRACE_API_cudaMemset2DAsync,
	DNNTRACE_API_cudaLaunchKernel,
	DNNTRACE_API_cudaLaunchKernelExC,
	DNNTRACE_API_cudaMemcpy_ptds,
	DNNTRACE_API_cudaMemcpyAsync_ptsz,
	DNNTRACE_API_cudaMemcpy2D_ptds,
	DNNTRACE_API_cudaMemcpy2DAsync_ptsz,
	DNNTRACE_API_cudaMemset_ptds,
	DNNTRACE_API_cudaMemsetAsync_ptsz,
	DNNTRACE_API_cudaMemset2D_ptds,
	DNNTRACE_API_cudaMemset2DAsync_ptsz,
	DNNTRACE_API_cudaLaunchKernel_ptsz,
	DNNTRACE_API_cudaLaunchKernelExC_ptsz,
	DNNTRACE_API_cudaMallocAsync_ptsz,
	DNNTRACE_API_cudaFreeAsync_ptsz,
	DNNTRACE_API_cudaMallocFromPoolAsync_ptsz,
	/* nvcc 13's <<<>>> launches (crt/host_runtime.h) */
	DNNTRACE_API___cudaLaunchKernel,
	DNNTRACE_API___cudaLaunchKernel_ptsz,
	/* driver API (cuda.h) and graph launches: issue 4 */
	DNNTRACE_API_cuMemAlloc_v2,
	DNNTRACE_API_cuMemAllocPitch_v2,
	DNNTRACE_API_cuMemAllocManaged,
	DNNTRACE_API_cuMemAllocAsync,
	DNNTRACE_API_cuMemAllocAsync_ptsz,
	DNNTRACE_API_cuMemAllocFromPoolAsync,
	DNNTRACE_API_cuMemAllocFromPoolAsync_ptsz,
	DNNTRACE_API_cuMemFree_v2,
	DNNTRACE_API_cuMemFreeAsync,
	DNNTRACE_API_cuMemFreeAsync_ptsz,
	DNNTRACE_API_cuMemCreate,
	DNNTRACE_API_cuMemRelease,
	DNNTRACE_API_cuMemAddressReserve,
	DNNTRACE_API_cuMemAddressFree,
	DNNTRACE_API_cuMemMap,
	DNNTRACE_API_cuMemUnmap,
	DNNTRACE_API_cuMemHostAlloc,
	DNNTRACE_API_cuMemAllocHost_v2,
	DNNTRACE_API_cuMemFreeHost,
	DNNTRACE_API_cuMemcpy,
	DNNTRACE_API_cuMemcpy_ptds,
	DNNTRACE_API_cuMemcpyAsync,
	DNNTRACE_API_cuMemcpyAsync_ptsz,
	DNNTRACE_API_cuMemcpyHtoD_v2,
	DNNTRACE_API_cuMemcpyHtoD_v2_ptds,
	DNNTRACE_API_cuMemcpyDtoH_v2,
	DNNTRACE_API_cuMemcpyDtoH_v2_ptds,
	DNNTRACE_API_cuMemcpyDtoD_v2,
	DNNTRACE_API_cuMemcpyDtoD_v2_ptds,
	DNNTRACE_API_cuMemcpyHtoDAsync_v2,
	DNNTRACE_API_cuMemcpyHtoDAsync_v2_ptsz,
	DNNTRACE_API_cuMemcpyDtoHAsync_v2,
	DNNTRACE_API_cuMemcpyDtoHAsync_v2_ptsz,
	DNNTRACE_API_cuMemcpyDtoDAsync_v2,
	DNNTRACE_API_cuMemcpyDtoDAsync_v2_ptsz,
	DNNTRACE_API_cuMemsetD8_v2,
	DNNTRACE_API_cuMemsetD8_v2_ptds,
	DNNTRACE_API_cuMemsetD16_v2,
	DNNTRACE_API_cuMemsetD16_v2_ptds,
	DNNTRACE_API_cuMemsetD32_v2,
	DNNTRACE_API_cuMemsetD32_v2_ptds,
	DNNTRACE_API_cuMemsetD8Async,
	DNNTRACE_API_cuMemsetD8Async_ptsz,
	DNNTRACE_API_cuMemsetD16Async,
	DNNTRACE_API_cuMemsetD16Async_ptsz,
	DNNTRACE_API_cuMemsetD32Async,
	DNNTRACE_API_cuMemsetD32Async_ptsz,
	DNNTRACE_API_cuLaunchKernel,
	DNNTRACE_API_cuLaunchKernel_ptsz,
	DNNTRACE_API_cuLaunchKernelEx,
	DNNTRACE_API_cuLaunchKernelEx_ptsz,
	DNNTRACE_API_cuLaunchCooperativeKernel,
	DNNTRACE_API_cuLaunchCooperativeKernel_ptsz,
	DNNTRACE_API_cuGraphLaunch,
	DNNTRACE_API_cuGraphLaunch_ptsz,
	DNNTRACE_API_cudaGraphLaunch,
	DNNTRACE_API_cudaGraphLaunch_ptsz,
	DNNTRACE_API_COUNT
};

enum dnntrace_mem_kind {
	DNNTRACE_MEM_DEVICE = 0,
	DNNTRACE_MEM_MANAGED = 1,
	DNNTRACE_MEM_PINNED_HOST = 2,
	DNNTRACE_MEM_STREAM_ORDERED = 3,
	/* Driver virtual memory management (cuMemCreate/cuMemMap): a range
	 * mapped with cuMemMap is a tensor; the physical allocation
	 * (cuMemCreate) and the reserved address range (cuMemAddressReserve)
	 * are traced with tensor_id -1, like pinned host memory. */
	DNNTRACE_MEM_VMM_MAPPED = 4,
	DNNTRACE_MEM_VMM_PHYSICAL = 5,
	DNNTRACE_MEM_VMM_RESERVED = 6,
};

/* Launch configuration, passed by pointer (a tracepoint takes 10 args at most). */
struct dnntrace_launch_geometry {
	unsigned int grid[3];
	unsigned int block[3];
	unsigned long long shared_mem;
};

/* Library entry points traced by dnntrace_lib (cuDNN from 0, cuBLAS from 100). */
enum dnntrace_lib_api_id {
	DNNTRACE_LIB_cudnnConvolutionForward = 0,
	DNNTRACE_LIB_cudnnConvolutionBackwardData,
	DNNTRACE_LIB_cudnnConvolutionBackwardFilter,
	DNNTRACE_LIB_cudnnConvolutionBackwardBias,
	DNNTRACE_LIB_cudnnConvolutionBiasActivationForward,
	DNNTRACE_LIB_cudnnBatchNormalizationForwardTraining,
	DNNTRACE_LIB_cudnnBatchNormalizationForwardTrainingEx,
	DNNTRACE_LIB_cudnnBatchNormalizationForwardInference,
	DNNTRACE_LIB_cudnnBatchNormalizationBackward,
	DNNTRACE_LIB_cudnnBatchNormalizationBackwardEx,
	DNNTRACE_LIB_cudnnActivationForward,
	DNNTRACE_LIB_cudnnActivationBackward,
	DNNTRACE_LIB_cudnnPoolingForward,
	DNNTRACE_LIB_cudnnPoolingBackward,
	DNNTRACE_LIB_cudnnSoftmaxForward,
	DNNTRACE_LIB_cudnnSoftmaxBackward,
	DNNTRACE_LIB_cudnnAddTensor,
	DNNTRACE_LIB_cudnnOpTensor,
	DNNTRACE_LIB_cudnnDropoutForward,
	DNNTRACE_LIB_cudnnDropoutBackward,
	DNNTRACE_LIB_cudnnBackendExecute,
	DNNTRACE_LIB_cudnnSetStream,
	DNNTRACE_LIB_cublasSgemm_v2 = 100,
	DNNTRACE_LIB_cublasDgemm_v2,
	DNNTRACE_LIB_cublasHgemm,
	DNNTRACE_LIB_cublasGemmEx,
	DNNTRACE_LIB_cublasSgemmStridedBatched,
	DNNTRACE_LIB_cublasGemmStridedBatchedEx,
	DNNTRACE_LIB_cublasGemmBatchedEx,
	DNNTRACE_LIB_cublasSetStream_v2,
	DNNTRACE_LIB_cublasLtMatmul,
};

/* How a library call uses one of its data pointers. */
enum dnntrace_role {
	DNNTRACE_ROLE_READ = 0,
	DNNTRACE_ROLE_WRITE = 1,
	DNNTRACE_ROLE_READ_WRITE = 2, /* e.g. C with beta != 0, running stats */
	DNNTRACE_ROLE_WORKSPACE = 3,  /* scratch: written, then read, by the call */
	DNNTRACE_ROLE_UNKNOWN = 4,    /* the call does not say: count as read and write */
};

/* Element type of a tensor argument (printed as in G10: f32, f16, ...). */
enum dnntrace_dtype {
	DNNTRACE_DTYPE_UNKNOWN = 0,
	DNNTRACE_DTYPE_F32,
	DNNTRACE_DTYPE_F64,
	DNNTRACE_DTYPE_F16,
	DNNTRACE_DTYPE_BF16,
	DNNTRACE_DTYPE_I8,
	DNNTRACE_DTYPE_U8,
	DNNTRACE_DTYPE_I32,
	DNNTRACE_DTYPE_I64,
	DNNTRACE_DTYPE_F8E4M3,
	DNNTRACE_DTYPE_F8E5M2,
	DNNTRACE_DTYPE_BOOL,
};

/*
 * One traced library call, passed to dnntrace_lib:call by pointer. Every
 * array has n_args entries, one per data pointer argument, in the order the
 * API lists them (workspace last); dims holds the dimensions of all
 * arguments one after the other (ranks[i] of them for argument i, outermost
 * first; rank 0 when the shape is unknown). arg_names and param_names are
 * comma-separated, one name per argument / parameter.
 */
struct dnntrace_lib_call {
	unsigned long long call_id;
	int api;                     /* enum dnntrace_lib_api_id */
	const void *handle;
	const void *stream;
	unsigned int n_args;
	const long long *tensors;    /* tensor id, or -1 (not in a live tensor) */
	const unsigned long long *ptrs;
	const unsigned char *roles;  /* enum dnntrace_role */
	const unsigned char *dtypes; /* enum dnntrace_dtype */
	const unsigned char *ranks;
	const char *arg_names;
	unsigned int n_dims;
	const long long *dims;
	unsigned int n_params;
	const long long *params;     /* API-specific, named by param_names */
	const char *param_names;
	int result;                  /* cudnnStatus_t / cublasStatus_t */
	unsigned long long start_ns; /* CLOCK_MONOTONIC when the call began */
};

#endif
