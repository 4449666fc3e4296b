/*
 * Prototypes of the per-thread-default-stream entry points the real
 * libcudart.so.13 exports (nm -D) next to the plain ones. The CUDA header
 * declares them only under CUDA_API_PER_THREAD_DEFAULT_STREAM, and then
 * #defines the plain names to them, which we must not do. Each prototype is
 * character for character the plain one's from cuda_runtime_api.h.
 *
 * Must never diverge from the header: the wrappers static-assert each against
 * its plain twin with __builtin_types_compatible_p.
 */
#ifndef DNNTRACE_CUDA_PTDS_H
#define DNNTRACE_CUDA_PTDS_H

#include <cuda_runtime_api.h>

extern cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
					enum cudaMemcpyKind kind, cudaStream_t stream);
extern cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
				     size_t spitch, size_t width, size_t height,
				     enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
					  size_t spitch, size_t width, size_t height,
					  enum cudaMemcpyKind kind, cudaStream_t stream);
extern cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
extern cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
					cudaStream_t stream);
extern cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
				     size_t height);
extern cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
					  size_t width, size_t height, cudaStream_t stream);
extern cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
					 void **args, size_t sharedMem, cudaStream_t stream);
extern cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
					    const void *func, void **args);
extern cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
extern cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
extern cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
						cudaMemPool_t memPool, cudaStream_t stream);
extern cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
					     struct cudaMemLocation location, unsigned int flags,
					     cudaStream_t stream);
extern cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					      enum cudaStreamCaptureMode mode);
extern cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
						      cudaGraph_t graph,
						      cudaGraphInstantiateParams *instantiateParams);

#ifndef DNNTRACE_SAME_PROTOTYPE
#define DNNTRACE_SAME_PROTOTYPE(a, b) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(a), __typeof__(b)), \
		       #a " must have " #b "'s prototype")
#endif

#endif
