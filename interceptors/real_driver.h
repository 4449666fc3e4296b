/*
 * The CUDA driver API functions the tracer forwards to or queries, as an
 * X-macro list that real_functions.h folds into its one table:
 * X(name, required). Required ones are wrapped (wrap_driver_*.c,
 * proc_address.c) and warn once when missing; the others are helpers the
 * tracer asks (parameter layouts, names, the current device).
 *
 * Must list only functions of cuda.h (and cuda_runtime_api.h's graph
 * launch and entry-point queries, which belong with them), by the exact
 * versioned names libcuda.so.1 exports.
 */
#ifndef DNNTRACE_REAL_DRIVER_H
#define DNNTRACE_REAL_DRIVER_H

#define DNNTRACE_REAL_DRIVER_FUNCTIONS(X) \
	X(cuMemAlloc_v2, 1) X(cuMemAllocPitch_v2, 1) X(cuMemAllocManaged, 1) \
	X(cuMemAllocAsync, 1) X(cuMemAllocAsync_ptsz, 1) \
	X(cuMemAllocFromPoolAsync, 1) X(cuMemAllocFromPoolAsync_ptsz, 1) \
	X(cuMemFree_v2, 1) X(cuMemFreeAsync, 1) X(cuMemFreeAsync_ptsz, 1) \
	X(cuMemCreate, 1) X(cuMemRelease, 1) X(cuMemAddressReserve, 1) X(cuMemAddressFree, 1) \
	X(cuMemMap, 1) X(cuMemUnmap, 1) \
	X(cuMemHostAlloc, 1) X(cuMemAllocHost_v2, 1) X(cuMemFreeHost, 1) \
	X(cuMemcpy, 1) X(cuMemcpy_ptds, 1) X(cuMemcpyAsync, 1) X(cuMemcpyAsync_ptsz, 1) \
	X(cuMemcpyHtoD_v2, 1) X(cuMemcpyHtoD_v2_ptds, 1) \
	X(cuMemcpyDtoH_v2, 1) X(cuMemcpyDtoH_v2_ptds, 1) \
	X(cuMemcpyDtoD_v2, 1) X(cuMemcpyDtoD_v2_ptds, 1) \
	X(cuMemcpyHtoDAsync_v2, 1) X(cuMemcpyHtoDAsync_v2_ptsz, 1) \
	X(cuMemcpyDtoHAsync_v2, 1) X(cuMemcpyDtoHAsync_v2_ptsz, 1) \
	X(cuMemcpyDtoDAsync_v2, 1) X(cuMemcpyDtoDAsync_v2_ptsz, 1) \
	X(cuMemsetD8_v2, 1) X(cuMemsetD8_v2_ptds, 1) X(cuMemsetD16_v2, 1) \
	X(cuMemsetD16_v2_ptds, 1) X(cuMemsetD32_v2, 1) X(cuMemsetD32_v2_ptds, 1) \
	X(cuMemsetD8Async, 1) X(cuMemsetD8Async_ptsz, 1) X(cuMemsetD16Async, 1) \
	X(cuMemsetD16Async_ptsz, 1) X(cuMemsetD32Async, 1) X(cuMemsetD32Async_ptsz, 1) \
	X(cuLaunchKernel, 1) X(cuLaunchKernel_ptsz, 1) X(cuLaunchKernelEx, 1) \
	X(cuLaunchKernelEx_ptsz, 1) X(cuLaunchCooperativeKernel, 1) \
	X(cuLaunchCooperativeKernel_ptsz, 1) X(cuGraphLaunch, 1) X(cuGraphLaunch_ptsz, 1) \
	X(cudaGraphLaunch, 1) X(cudaGraphLaunch_ptsz, 1) \
	X(cuGetProcAddress, 1) X(cuGetProcAddress_v2, 1) \
	X(cudaGetDriverEntryPoint, 1) X(cudaGetDriverEntryPoint_ptsz, 1) \
	X(cudaGetDriverEntryPointByVersion, 1) X(cudaGetDriverEntryPointByVersion_ptsz, 1) \
	X(cuFuncGetParamInfo, 0) X(cuFuncGetName, 0) X(cuCtxGetDevice, 0) \
	X(cuMemGetInfo_v2, 0) \
	X(cudaRuntimeGetVersion, 0)

#endif
