/*
 * Prototypes of the driver entry points libcuda.so.1 exports but cuda.h
 * declares only under CUDA_API_PER_THREAD_DEFAULT_STREAM (the _ptds/_ptsz
 * twins, which it then #defines the plain names to: we must not), of the
 * CUDA 11.3 cuGetProcAddress that cuda.h now #defines to _v2 (its
 * prototype is cudaTypedefs.h's PFN_cuGetProcAddress_v11030), and of
 * libcudart's _ptsz twins of cudaGraphLaunch and cudaGetDriverEntryPoint*
 * (nm -D libcudart.so.13), and of the older cuCtxCreate variants and
 * CUDA 12.2's cuGraphAddNode. Each
 * ptds/ptsz one is character for character its plain
 * twin's; the wrap_*.c files static-assert that (DNNTRACE_SAME_PROTOTYPE).
 *
 * Must be included after cuda.h and cuda_runtime_api.h, and never define
 * CUDA_API_PER_THREAD_DEFAULT_STREAM.
 */
#ifndef DNNTRACE_CUDA_DRIVER_PTDS_H
#define DNNTRACE_CUDA_DRIVER_PTDS_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

extern CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
extern CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
					     CUmemoryPool pool, CUstream hStream);
extern CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream);

extern CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
extern CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
				   CUstream hStream);
extern CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost,
				     size_t ByteCount);
extern CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
extern CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
				     size_t ByteCount);
extern CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
					  size_t ByteCount, CUstream hStream);
extern CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
					  size_t ByteCount, CUstream hStream);
extern CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
					  size_t ByteCount, CUstream hStream);

extern CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N);
extern CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N);
extern CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N);
extern CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N,
				     CUstream hStream);
extern CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N,
				      CUstream hStream);
extern CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N,
				      CUstream hStream);

extern CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
				    unsigned int gridDimZ, unsigned int blockDimX,
				    unsigned int blockDimY, unsigned int blockDimZ,
				    unsigned int sharedMemBytes, CUstream hStream,
				    void **kernelParams, void **extra);
extern CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
				      void **kernelParams, void **extra);
extern CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
					       unsigned int gridDimY, unsigned int gridDimZ,
					       unsigned int blockDimX, unsigned int blockDimY,
					       unsigned int blockDimZ,
					       unsigned int sharedMemBytes, CUstream hStream,
					       void **kernelParams);
extern CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream);

/* CUDA 11.3's four-argument cuGetProcAddress, still exported by libcuda.so.1. */
#undef cuGetProcAddress
extern CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
				 cuuint64_t flags);

extern cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
extern cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
						unsigned long long flags,
						enum cudaDriverEntryPointQueryResult *driverStatus);
extern cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
	const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus);

CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode);
CUresult CUDAAPI cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph,
						   CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);

/* CUDA 12.2's cuGraphAddNode (no edge data), still exported by libcuda.so.1
 * beside cuGraphAddNode_v2, which cuda.h #defines the plain name to (its
 * prototype is cudaTypedefs.h's PFN_cuGraphAddNode_v12020). */
#undef cuGraphAddNode
extern CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			       const CUgraphNode *dependencies, size_t numDependencies,
			       CUgraphNodeParams *nodeParams);

/* The older cuCtxCreate variants libcuda.so.1 still exports (CUDA 12 headers
 * name cuCtxCreate_v2); cuda.h declares them only for the driver's own build. */
extern CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
extern CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray,
			       int numParams, unsigned int flags, CUdevice dev);

#ifndef DNNTRACE_SAME_PROTOTYPE
#define DNNTRACE_SAME_PROTOTYPE(a, b) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(a), __typeof__(b)), \
		       #a " must have " #b "'s prototype")
#endif

/* For a function cuda.h names one way and cudaTypedefs.h types another. */
#define DNNTRACE_PROTOTYPE_IS(a, pfn) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&a), pfn), \
		       #a " must have the prototype of " #pfn)

#endif
