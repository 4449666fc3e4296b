/*
 * Prototypes of the entry points nvcc 13 compiles `kernel<<<g, b, s, st>>>(args)`
 * into (crt/host_runtime.h, non-legacy __cudaLaunch): __cudaGetKernel once
 * per kernel, then __cudaLaunchKernel, or __cudaLaunchKernel_ptsz with the
 * per-thread default stream. The real libcudart.so.13 exports all three
 * (nm -D); crt/device_functions.h declares them for C++ only, so they are
 * declared here, each identical to that header's (CUDARTAPI is empty on Linux).
 *
 * Must never diverge from crt/device_functions.h.
 */
#ifndef DNNTRACE_CUDA_NVCC13_H
#define DNNTRACE_CUDA_NVCC13_H

#include <cuda_runtime_api.h>

extern cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *, const void *);
extern cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
						void **args, size_t sharedMem, cudaStream_t stream);
extern cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
						     dim3 blockDim, void **args, size_t sharedMem,
						     cudaStream_t stream);

#endif
