/*
 * Every driver entry point the simulated libcuda.so.1 hands out through
 * cuGetProcAddress: base name, the CUDA version that introduced each
 * variant (cudaTypedefs.h's PFN_<name>_v<version>[_ptds|_ptsz]), the
 * exported function. FN: a variant, PT: its per-thread-stream twin, NONE:
 * a variant of cudaTypedefs.h the simulator lacks (the 32-bit pre-3.2
 * ones, and the graph calls' CUDA 10/11 signatures). An X-macro list, included by cuda_proc_address.c only; it must
 * list every version cudaTypedefs.h has for a name it lists.
 */
#ifndef SIMGPU_PROC_ADDRESS_TABLE_H
#define SIMGPU_PROC_ADDRESS_TABLE_H

#define SIMGPU_PROC_ADDRESS_TABLE(FN, PT, NONE)                              \
	FN(cuInit, 2000, cuInit)                                             \
	FN(cuDriverGetVersion, 2020, cuDriverGetVersion)                     \
	FN(cuGetProcAddress, 11030, cuGetProcAddress)                        \
	FN(cuGetProcAddress, 12000, cuGetProcAddress_v2)                     \
	FN(cuGetErrorName, 6000, cuGetErrorName)                             \
	FN(cuGetErrorString, 6000, cuGetErrorString)                         \
	FN(cuDeviceGet, 2000, cuDeviceGet)                                   \
	FN(cuDeviceGetCount, 2000, cuDeviceGetCount)                         \
	FN(cuDeviceGetName, 2000, cuDeviceGetName)                           \
	FN(cuDeviceGetAttribute, 2000, cuDeviceGetAttribute)                 \
	NONE(cuDeviceTotalMem, 2000)                                         \
	FN(cuDeviceTotalMem, 3020, cuDeviceTotalMem_v2)                      \
	FN(cuDevicePrimaryCtxRetain, 7000, cuDevicePrimaryCtxRetain)         \
	FN(cuDevicePrimaryCtxRelease, 7000, cuDevicePrimaryCtxRelease)       \
	FN(cuDevicePrimaryCtxRelease, 11000, cuDevicePrimaryCtxRelease_v2)   \
	FN(cuDevicePrimaryCtxReset, 7000, cuDevicePrimaryCtxReset)           \
	FN(cuDevicePrimaryCtxReset, 11000, cuDevicePrimaryCtxReset_v2)       \
	FN(cuDevicePrimaryCtxGetState, 7000, cuDevicePrimaryCtxGetState)     \
	NONE(cuCtxCreate, 2000)                                              \
	NONE(cuCtxCreate, 3020)                                              \
	NONE(cuCtxCreate, 11040)                                             \
	FN(cuCtxCreate, 12050, cuCtxCreate_v4)                               \
	NONE(cuCtxDestroy, 2000)                                             \
	FN(cuCtxDestroy, 4000, cuCtxDestroy_v2)                              \
	FN(cuCtxGetCurrent, 4000, cuCtxGetCurrent)                           \
	FN(cuCtxSetCurrent, 4000, cuCtxSetCurrent)                           \
	FN(cuCtxGetDevice, 2000, cuCtxGetDevice)                             \
	FN(cuCtxGetDevice, 13000, cuCtxGetDevice_v2)                         \
	FN(cuCtxSynchronize, 2000, cuCtxSynchronize)                         \
	FN(cuCtxSynchronize, 13000, cuCtxSynchronize_v2)                     \
	NONE(cuMemAlloc, 2000)                                               \
	FN(cuMemAlloc, 3020, cuMemAlloc_v2)                                  \
	NONE(cuMemAllocPitch, 2000)                                          \
	FN(cuMemAllocPitch, 3020, cuMemAllocPitch_v2)                        \
	FN(cuMemAllocManaged, 6000, cuMemAllocManaged)                       \
	FN(cuMemAllocAsync, 11020, cuMemAllocAsync)                          \
	PT(cuMemAllocAsync, 11020, cuMemAllocAsync_ptsz)                     \
	FN(cuMemAllocFromPoolAsync, 11020, cuMemAllocFromPoolAsync)          \
	PT(cuMemAllocFromPoolAsync, 11020, cuMemAllocFromPoolAsync_ptsz)     \
	NONE(cuMemFree, 2000)                                                \
	FN(cuMemFree, 3020, cuMemFree_v2)                                    \
	FN(cuMemFreeAsync, 11020, cuMemFreeAsync)                            \
	PT(cuMemFreeAsync, 11020, cuMemFreeAsync_ptsz)                       \
	NONE(cuMemGetInfo, 2000)                                             \
	FN(cuMemGetInfo, 3020, cuMemGetInfo_v2)                              \
	FN(cuMemHostAlloc, 2020, cuMemHostAlloc)                             \
	NONE(cuMemHostRegister, 4000)                                        \
	FN(cuMemHostRegister, 6050, cuMemHostRegister_v2)                    \
	FN(cuMemHostUnregister, 4000, cuMemHostUnregister)                   \
	NONE(cuMemAllocHost, 2000)                                           \
	FN(cuMemAllocHost, 3020, cuMemAllocHost_v2)                          \
	FN(cuMemFreeHost, 2000, cuMemFreeHost)                               \
	FN(cuDeviceGetDefaultMemPool, 11020, cuDeviceGetDefaultMemPool)      \
	FN(cuMemPoolCreate, 11020, cuMemPoolCreate)                          \
	FN(cuMemPoolDestroy, 11020, cuMemPoolDestroy)                        \
	FN(cuMemPoolSetAttribute, 11020, cuMemPoolSetAttribute)              \
	FN(cuMemPoolGetAttribute, 11020, cuMemPoolGetAttribute)              \
	FN(cuMemcpy, 4000, cuMemcpy)                                         \
	PT(cuMemcpy, 7000, cuMemcpy_ptds)                                    \
	FN(cuMemcpyAsync, 4000, cuMemcpyAsync)                               \
	PT(cuMemcpyAsync, 7000, cuMemcpyAsync_ptsz)                          \
	NONE(cuMemcpyHtoD, 2000)                                             \
	FN(cuMemcpyHtoD, 3020, cuMemcpyHtoD_v2)                              \
	PT(cuMemcpyHtoD, 7000, cuMemcpyHtoD_v2_ptds)                         \
	NONE(cuMemcpyDtoH, 2000)                                             \
	FN(cuMemcpyDtoH, 3020, cuMemcpyDtoH_v2)                              \
	PT(cuMemcpyDtoH, 7000, cuMemcpyDtoH_v2_ptds)                         \
	NONE(cuMemcpyDtoD, 2000)                                             \
	FN(cuMemcpyDtoD, 3020, cuMemcpyDtoD_v2)                              \
	PT(cuMemcpyDtoD, 7000, cuMemcpyDtoD_v2_ptds)                         \
	NONE(cuMemcpyHtoDAsync, 2000)                                        \
	FN(cuMemcpyHtoDAsync, 3020, cuMemcpyHtoDAsync_v2)                    \
	PT(cuMemcpyHtoDAsync, 7000, cuMemcpyHtoDAsync_v2_ptsz)               \
	NONE(cuMemcpyDtoHAsync, 2000)                                        \
	FN(cuMemcpyDtoHAsync, 3020, cuMemcpyDtoHAsync_v2)                    \
	PT(cuMemcpyDtoHAsync, 7000, cuMemcpyDtoHAsync_v2_ptsz)               \
	NONE(cuMemcpyDtoDAsync, 3000)                                        \
	FN(cuMemcpyDtoDAsync, 3020, cuMemcpyDtoDAsync_v2)                    \
	PT(cuMemcpyDtoDAsync, 7000, cuMemcpyDtoDAsync_v2_ptsz)               \
	NONE(cuMemcpy2D, 2000)                                               \
	FN(cuMemcpy2D, 3020, cuMemcpy2D_v2)                                  \
	PT(cuMemcpy2D, 7000, cuMemcpy2D_v2_ptds)                             \
	NONE(cuMemcpy2DAsync, 2000)                                          \
	FN(cuMemcpy2DAsync, 3020, cuMemcpy2DAsync_v2)                        \
	PT(cuMemcpy2DAsync, 7000, cuMemcpy2DAsync_v2_ptsz)                   \
	NONE(cuMemsetD8, 2000)                                               \
	FN(cuMemsetD8, 3020, cuMemsetD8_v2)                                  \
	PT(cuMemsetD8, 7000, cuMemsetD8_v2_ptds)                             \
	NONE(cuMemsetD16, 2000)                                              \
	FN(cuMemsetD16, 3020, cuMemsetD16_v2)                                \
	PT(cuMemsetD16, 7000, cuMemsetD16_v2_ptds)                           \
	NONE(cuMemsetD32, 2000)                                              \
	FN(cuMemsetD32, 3020, cuMemsetD32_v2)                                \
	PT(cuMemsetD32, 7000, cuMemsetD32_v2_ptds)                           \
	FN(cuMemsetD8Async, 3020, cuMemsetD8Async)                           \
	PT(cuMemsetD8Async, 7000, cuMemsetD8Async_ptsz)                      \
	FN(cuMemsetD16Async, 3020, cuMemsetD16Async)                         \
	PT(cuMemsetD16Async, 7000, cuMemsetD16Async_ptsz)                    \
	FN(cuMemsetD32Async, 3020, cuMemsetD32Async)                         \
	PT(cuMemsetD32Async, 7000, cuMemsetD32Async_ptsz)                    \
	NONE(cuMemsetD2D8, 2000)                                             \
	FN(cuMemsetD2D8, 3020, cuMemsetD2D8_v2)                              \
	PT(cuMemsetD2D8, 7000, cuMemsetD2D8_v2_ptds)                         \
	FN(cuMemsetD2D8Async, 3020, cuMemsetD2D8Async)                       \
	PT(cuMemsetD2D8Async, 7000, cuMemsetD2D8Async_ptsz)                  \
	FN(cuLaunchKernel, 4000, cuLaunchKernel)                             \
	PT(cuLaunchKernel, 7000, cuLaunchKernel_ptsz)                        \
	FN(cuLaunchKernelEx, 11060, cuLaunchKernelEx)                        \
	PT(cuLaunchKernelEx, 11060, cuLaunchKernelEx_ptsz)                   \
	FN(cuLaunchCooperativeKernel, 9000, cuLaunchCooperativeKernel)       \
	PT(cuLaunchCooperativeKernel, 9000, cuLaunchCooperativeKernel_ptsz)  \
	FN(cuFuncGetName, 12030, cuFuncGetName)                              \
	FN(cuFuncGetParamInfo, 12040, cuFuncGetParamInfo)                    \
	FN(cuKernelGetFunction, 12000, cuKernelGetFunction)                  \
	FN(cuKernelGetName, 12030, cuKernelGetName)                          \
	FN(cuKernelGetParamInfo, 12040, cuKernelGetParamInfo)                \
	FN(cuModuleLoad, 2000, cuModuleLoad)                                 \
	FN(cuModuleLoadData, 2000, cuModuleLoadData)                         \
	FN(cuModuleLoadDataEx, 2010, cuModuleLoadDataEx)                     \
	FN(cuModuleLoadFatBinary, 2000, cuModuleLoadFatBinary)               \
	NONE(cuModuleGetGlobal, 2000)                                        \
	FN(cuModuleGetGlobal, 3020, cuModuleGetGlobal_v2)                    \
	FN(cuModuleUnload, 2000, cuModuleUnload)                             \
	FN(cuModuleGetFunction, 2000, cuModuleGetFunction)                   \
	FN(cuStreamCreate, 2000, cuStreamCreate)                             \
	FN(cuStreamCreateWithPriority, 5050, cuStreamCreateWithPriority)     \
	NONE(cuStreamDestroy, 2000)                                          \
	FN(cuStreamDestroy, 4000, cuStreamDestroy_v2)                        \
	FN(cuStreamSynchronize, 2000, cuStreamSynchronize)                   \
	PT(cuStreamSynchronize, 7000, cuStreamSynchronize_ptsz)              \
	FN(cuStreamQuery, 2000, cuStreamQuery)                               \
	PT(cuStreamQuery, 7000, cuStreamQuery_ptsz)                          \
	FN(cuStreamWaitEvent, 3020, cuStreamWaitEvent)                       \
	PT(cuStreamWaitEvent, 7000, cuStreamWaitEvent_ptsz)                  \
	FN(cuStreamGetFlags, 5050, cuStreamGetFlags)                         \
	PT(cuStreamGetFlags, 7000, cuStreamGetFlags_ptsz)                    \
	FN(cuStreamAttachMemAsync, 6000, cuStreamAttachMemAsync)             \
	PT(cuStreamAttachMemAsync, 7000, cuStreamAttachMemAsync_ptsz)        \
	FN(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050,                \
	   cuOccupancyMaxActiveBlocksPerMultiprocessor)                      \
	FN(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, 7000,       \
	   cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)             \
	FN(cuOccupancyMaxPotentialBlockSize, 6050,                           \
	   cuOccupancyMaxPotentialBlockSize)                                 \
	FN(cuOccupancyMaxPotentialBlockSizeWithFlags, 7000,                  \
	   cuOccupancyMaxPotentialBlockSizeWithFlags)                        \
	FN(cuOccupancyAvailableDynamicSMemPerBlock, 10020,                   \
	   cuOccupancyAvailableDynamicSMemPerBlock)                          \
	NONE(cuArrayCreate, 2000)                                            \
	FN(cuArrayCreate, 3020, cuArrayCreate_v2)                            \
	NONE(cuArray3DCreate, 2000)                                          \
	FN(cuArray3DCreate, 3020, cuArray3DCreate_v2)                        \
	FN(cuArrayDestroy, 2000, cuArrayDestroy)                             \
	NONE(cuArrayGetDescriptor, 2000)                                     \
	FN(cuArrayGetDescriptor, 3020, cuArrayGetDescriptor_v2)              \
	NONE(cuArray3DGetDescriptor, 2000)                                   \
	FN(cuArray3DGetDescriptor, 3020, cuArray3DGetDescriptor_v2)          \
	FN(cuTexObjectCreate, 5000, cuTexObjectCreate)                       \
	FN(cuTexObjectDestroy, 5000, cuTexObjectDestroy)                     \
	FN(cuTexObjectGetResourceDesc, 5000, cuTexObjectGetResourceDesc)     \
	FN(cuTexObjectGetTextureDesc, 5000, cuTexObjectGetTextureDesc)       \
	FN(cuTexObjectGetResourceViewDesc, 5000,                             \
	   cuTexObjectGetResourceViewDesc)                                   \
	FN(cuSurfObjectCreate, 5000, cuSurfObjectCreate)                     \
	FN(cuSurfObjectDestroy, 5000, cuSurfObjectDestroy)                   \
	FN(cuSurfObjectGetResourceDesc, 5000, cuSurfObjectGetResourceDesc)   \
	FN(cuStreamGetPriority, 5050, cuStreamGetPriority)                   \
	PT(cuStreamGetPriority, 7000, cuStreamGetPriority_ptsz)              \
	FN(cuEventCreate, 2000, cuEventCreate)                               \
	NONE(cuEventDestroy, 2000)                                           \
	FN(cuEventDestroy, 4000, cuEventDestroy_v2)                          \
	FN(cuEventRecord, 2000, cuEventRecord)                               \
	PT(cuEventRecord, 7000, cuEventRecord_ptsz)                          \
	FN(cuEventRecordWithFlags, 11010, cuEventRecordWithFlags)            \
	PT(cuEventRecordWithFlags, 11010, cuEventRecordWithFlags_ptsz)       \
	FN(cuEventSynchronize, 2000, cuEventSynchronize)                     \
	FN(cuEventQuery, 2000, cuEventQuery)                                 \
	FN(cuEventElapsedTime, 2000, cuEventElapsedTime)                     \
	FN(cuEventElapsedTime, 12080, cuEventElapsedTime_v2)                 \
	FN(cuMemGetAllocationGranularity, 10020, cuMemGetAllocationGranularity) \
	FN(cuMemCreate, 10020, cuMemCreate)                                  \
	FN(cuMemRelease, 10020, cuMemRelease)                                \
	FN(cuMemAddressReserve, 10020, cuMemAddressReserve)                  \
	FN(cuMemAddressFree, 10020, cuMemAddressFree)                        \
	FN(cuMemMap, 10020, cuMemMap)                                        \
	FN(cuMemUnmap, 10020, cuMemUnmap)                                    \
	FN(cuMemSetAccess, 10020, cuMemSetAccess)                            \
	FN(cuGraphCreate, 10000, cuGraphCreate)                              \
	NONE(cuGraphAddKernelNode, 10000)                                    \
	FN(cuGraphAddKernelNode, 12000, cuGraphAddKernelNode_v2)             \
	FN(cuGraphAddNode, 12020, cuGraphAddNode)                            \
	FN(cuGraphAddNode, 12030, cuGraphAddNode_v2)                         \
	FN(cuGraphNodeSetParams, 12020, cuGraphNodeSetParams)                \
	FN(cuGraphExecNodeSetParams, 12020, cuGraphExecNodeSetParams)        \
	NONE(cuGraphInstantiate, 10000)                                      \
	NONE(cuGraphInstantiate, 11000)                                      \
	FN(cuGraphAddMemcpyNode, 10000, cuGraphAddMemcpyNode)                \
	FN(cuGraphAddMemsetNode, 10000, cuGraphAddMemsetNode)                \
	FN(cuGraphAddHostNode, 10000, cuGraphAddHostNode)                    \
	FN(cuGraphClone, 10000, cuGraphClone)                                \
	FN(cuGraphGetNodes, 10000, cuGraphGetNodes)                          \
	FN(cuLaunchHostFunc, 10000, cuLaunchHostFunc)                        \
	PT(cuLaunchHostFunc, 10000, cuLaunchHostFunc_ptsz)                   \
	FN(cuGraphInstantiateWithFlags, 11040, cuGraphInstantiateWithFlags)  \
	FN(cuGraphLaunch, 10000, cuGraphLaunch)                              \
	PT(cuGraphLaunch, 10000, cuGraphLaunch_ptsz)                         \
	FN(cuGraphExecDestroy, 10000, cuGraphExecDestroy)                    \
	FN(cuGraphDestroy, 10000, cuGraphDestroy)                            \
	NONE(cuStreamBeginCapture, 10000)                                    \
	FN(cuStreamBeginCapture, 10010, cuStreamBeginCapture_v2)             \
	PT(cuStreamBeginCapture, 10010, cuStreamBeginCapture_v2_ptsz)        \
	FN(cuStreamEndCapture, 10000, cuStreamEndCapture)                    \
	PT(cuStreamEndCapture, 10000, cuStreamEndCapture_ptsz)               \
	NONE(cuGraphKernelNodeGetParams, 10000)                              \
	FN(cuGraphKernelNodeGetParams, 12000, cuGraphKernelNodeGetParams_v2) \
	NONE(cuGraphKernelNodeSetParams, 10000)                              \
	FN(cuGraphKernelNodeSetParams, 12000, cuGraphKernelNodeSetParams_v2) \
	NONE(cuGraphExecKernelNodeSetParams, 10010)                          \
	FN(cuGraphExecKernelNodeSetParams, 12000, cuGraphExecKernelNodeSetParams_v2) \
	NONE(cuGraphExecUpdate, 10020)                                       \
	FN(cuGraphExecUpdate, 12000, cuGraphExecUpdate_v2)                   \
	FN(cuGraphNodeGetType, 10000, cuGraphNodeGetType)                    \
	FN(cuGraphNodeSetEnabled, 11060, cuGraphNodeSetEnabled)              \
	FN(cuGraphNodeGetEnabled, 11060, cuGraphNodeGetEnabled)              \
	NONE(cuStreamGetCaptureInfo, 10010)                                  \
	NONE(cuStreamGetCaptureInfo, 11030)                                  \
	FN(cuStreamGetCaptureInfo, 12030, cuStreamGetCaptureInfo_v3)         \
	PT(cuStreamGetCaptureInfo, 12030, cuStreamGetCaptureInfo_v3_ptsz)    \
	FN(cuStreamIsCapturing, 10000, cuStreamIsCapturing)                  \
	PT(cuStreamIsCapturing, 10000, cuStreamIsCapturing_ptsz)             \
	FN(cuGraphAddChildGraphNode, 10000, cuGraphAddChildGraphNode)        \
	FN(cuGraphAddMemAllocNode, 11040, cuGraphAddMemAllocNode) \
	FN(cuGraphAddMemFreeNode, 11040, cuGraphAddMemFreeNode) \
	FN(cuGraphMemAllocNodeGetParams, 11040, cuGraphMemAllocNodeGetParams) \
	FN(cuGraphMemFreeNodeGetParams, 11040, cuGraphMemFreeNodeGetParams) \
	FN(cuDeviceGraphMemTrim, 11040, cuDeviceGraphMemTrim) \
	FN(cuDeviceGetGraphMemAttribute, 11040, cuDeviceGetGraphMemAttribute) \
	FN(cuDeviceSetGraphMemAttribute, 11040, cuDeviceSetGraphMemAttribute) \
	FN(cuGraphChildGraphNodeGetGraph, 10000, cuGraphChildGraphNodeGetGraph)

#endif
