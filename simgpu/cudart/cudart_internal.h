/*
 * What the sources of the simulated libcudart (cudart_*.c) share: the
 * driver entry points it reaches through cuGetProcAddress (resolved once,
 * as the real runtime does, so a tracer that wraps cuGetProcAddress sees
 * them), the simulated driver's private table, per-thread last errors, and
 * the frame every CUPTI-reported call runs in. The runtime keeps no device
 * state of its own: that all lives in libcuda.so.1. Nothing here is
 * exported (libcudart.map).
 */
#ifndef SIMGPU_CUDART_INTERNAL_H
#define SIMGPU_CUDART_INTERNAL_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>

#include "simgpu/core/sim_launch_limits.h"
#include "simgpu/core/simgpu_driver_private.h"

/* The CUDA version the runtime claims and asks its driver entry points for. */
#ifndef SIMGPU_RUNTIME_VERSION
#define SIMGPU_RUNTIME_VERSION CUDART_VERSION
#endif

/*
 * The driver entry points: field, base name for cuGetProcAddress, and the
 * exported function whose prototype the field has: the variant
 * cuGetProcAddress gives for SIMGPU_RUNTIME_VERSION, except where the
 * signature changed later (cudart_driver.c asks those by their version).
 */
#define CUDART_DRIVER_ENTRIES(X)                                              \
	X(init, "cuInit", cuInit)                                             \
	X(driver_get_version, "cuDriverGetVersion", cuDriverGetVersion)       \
	X(mem_alloc, "cuMemAlloc", cuMemAlloc_v2)                             \
	X(mem_alloc_pitch, "cuMemAllocPitch", cuMemAllocPitch_v2)             \
	X(mem_alloc_managed, "cuMemAllocManaged", cuMemAllocManaged)          \
	X(mem_alloc_async, "cuMemAllocAsync", cuMemAllocAsync)                \
	X(mem_alloc_from_pool_async, "cuMemAllocFromPoolAsync",               \
	  cuMemAllocFromPoolAsync)                                            \
	X(mem_free, "cuMemFree", cuMemFree_v2)                                \
	X(mem_free_async, "cuMemFreeAsync", cuMemFreeAsync)                   \
	X(mem_host_alloc, "cuMemHostAlloc", cuMemHostAlloc)                   \
	X(mem_free_host, "cuMemFreeHost", cuMemFreeHost)                      \
	X(mem_get_info, "cuMemGetInfo", cuMemGetInfo_v2)                      \
	X(mem_host_register, "cuMemHostRegister", cuMemHostRegister_v2)       \
	X(mem_host_unregister, "cuMemHostUnregister", cuMemHostUnregister)    \
	X(device_get_attribute, "cuDeviceGetAttribute", cuDeviceGetAttribute) \
	X(device_get_default_mem_pool, "cuDeviceGetDefaultMemPool",           \
	  cuDeviceGetDefaultMemPool)                                          \
	X(mem_pool_create, "cuMemPoolCreate", cuMemPoolCreate)                \
	X(mem_pool_destroy, "cuMemPoolDestroy", cuMemPoolDestroy)             \
	X(mem_pool_set_attribute, "cuMemPoolSetAttribute",                    \
	  cuMemPoolSetAttribute)                                              \
	X(mem_pool_get_attribute, "cuMemPoolGetAttribute",                    \
	  cuMemPoolGetAttribute)                                              \
	X(memcpy, "cuMemcpy", cuMemcpy)                                       \
	X(memcpy_async, "cuMemcpyAsync", cuMemcpyAsync)                       \
	X(memcpy_htod, "cuMemcpyHtoD", cuMemcpyHtoD_v2)                       \
	X(memcpy_dtoh, "cuMemcpyDtoH", cuMemcpyDtoH_v2)                       \
	X(memcpy_dtod, "cuMemcpyDtoD", cuMemcpyDtoD_v2)                       \
	X(memcpy_htod_async, "cuMemcpyHtoDAsync", cuMemcpyHtoDAsync_v2)       \
	X(memcpy_dtoh_async, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync_v2)       \
	X(memcpy_dtod_async, "cuMemcpyDtoDAsync", cuMemcpyDtoDAsync_v2)       \
	X(memcpy_2d, "cuMemcpy2D", cuMemcpy2D_v2)                             \
	X(memcpy_2d_async, "cuMemcpy2DAsync", cuMemcpy2DAsync_v2)             \
	X(memset_d8, "cuMemsetD8", cuMemsetD8_v2)                             \
	X(memset_d8_async, "cuMemsetD8Async", cuMemsetD8Async)                \
	X(memset_d2d8, "cuMemsetD2D8", cuMemsetD2D8_v2)                       \
	X(memset_d2d8_async, "cuMemsetD2D8Async", cuMemsetD2D8Async)          \
	X(launch_kernel, "cuLaunchKernel", cuLaunchKernel)                    \
	X(launch_kernel_ex, "cuLaunchKernelEx", cuLaunchKernelEx)             \
	X(func_get_name, "cuFuncGetName", cuFuncGetName)                      \
	X(func_get_param_info, "cuFuncGetParamInfo", cuFuncGetParamInfo)      \
	X(stream_create, "cuStreamCreate", cuStreamCreate)                    \
	X(stream_create_with_priority, "cuStreamCreateWithPriority",          \
	  cuStreamCreateWithPriority)                                         \
	X(stream_destroy, "cuStreamDestroy", cuStreamDestroy_v2)              \
	X(stream_synchronize, "cuStreamSynchronize", cuStreamSynchronize)     \
	X(stream_query, "cuStreamQuery", cuStreamQuery)                       \
	X(stream_wait_event, "cuStreamWaitEvent", cuStreamWaitEvent)          \
	X(stream_get_flags, "cuStreamGetFlags", cuStreamGetFlags)             \
	X(stream_get_priority, "cuStreamGetPriority", cuStreamGetPriority)    \
	X(event_create, "cuEventCreate", cuEventCreate)                       \
	X(event_destroy, "cuEventDestroy", cuEventDestroy_v2)                 \
	X(event_record, "cuEventRecord", cuEventRecord)                       \
	X(event_synchronize, "cuEventSynchronize", cuEventSynchronize)        \
	X(event_query, "cuEventQuery", cuEventQuery)                          \
	X(event_elapsed_time, "cuEventElapsedTime", cuEventElapsedTime_v2)    \
	X(ctx_synchronize, "cuCtxSynchronize", cuCtxSynchronize)  /* v1 */     \
	X(ctx_get_current, "cuCtxGetCurrent", cuCtxGetCurrent)                \
	X(ctx_set_current, "cuCtxSetCurrent", cuCtxSetCurrent)                \
	X(ctx_get_device, "cuCtxGetDevice", cuCtxGetDevice)  /* v1 */         \
	X(device_get_count, "cuDeviceGetCount", cuDeviceGetCount)             \
	X(device_primary_ctx_retain, "cuDevicePrimaryCtxRetain",              \
	  cuDevicePrimaryCtxRetain)                                           \
	X(device_total_mem, "cuDeviceTotalMem", cuDeviceTotalMem_v2)          \
	X(graph_create, "cuGraphCreate", cuGraphCreate)                       \
	X(graph_add_kernel_node, "cuGraphAddKernelNode",                      \
	  cuGraphAddKernelNode_v2)                                            \
	X(graph_add_memcpy_node, "cuGraphAddMemcpyNode",                      \
	  cuGraphAddMemcpyNode)                                               \
	X(graph_add_memset_node, "cuGraphAddMemsetNode",                      \
	  cuGraphAddMemsetNode)                                               \
	X(graph_add_host_node, "cuGraphAddHostNode", cuGraphAddHostNode)      \
	X(graph_add_node, "cuGraphAddNode", cuGraphAddNode_v2)                \
	X(graph_node_set_params, "cuGraphNodeSetParams", cuGraphNodeSetParams) \
	X(graph_exec_node_set_params, "cuGraphExecNodeSetParams",             \
	  cuGraphExecNodeSetParams)                                           \
	X(graph_clone, "cuGraphClone", cuGraphClone)                          \
	X(graph_get_nodes, "cuGraphGetNodes", cuGraphGetNodes)                \
	X(launch_host_func, "cuLaunchHostFunc", cuLaunchHostFunc)             \
	X(graph_instantiate, "cuGraphInstantiateWithFlags",                   \
	  cuGraphInstantiateWithFlags)                                        \
	X(graph_launch, "cuGraphLaunch", cuGraphLaunch)                       \
	X(graph_exec_destroy, "cuGraphExecDestroy", cuGraphExecDestroy)       \
	X(graph_destroy, "cuGraphDestroy", cuGraphDestroy)                    \
	X(stream_begin_capture, "cuStreamBeginCapture",                       \
	  cuStreamBeginCapture_v2)                                            \
	X(stream_end_capture, "cuStreamEndCapture", cuStreamEndCapture)       \
	X(graph_kernel_node_get_params, "cuGraphKernelNodeGetParams",         \
	  cuGraphKernelNodeGetParams_v2)                                      \
	X(graph_kernel_node_set_params, "cuGraphKernelNodeSetParams",         \
	  cuGraphKernelNodeSetParams_v2)                                      \
	X(graph_exec_kernel_node_set_params, "cuGraphExecKernelNodeSetParams", \
	  cuGraphExecKernelNodeSetParams_v2)                                  \
	X(graph_exec_update, "cuGraphExecUpdate", cuGraphExecUpdate_v2)       \
	X(graph_node_get_type, "cuGraphNodeGetType", cuGraphNodeGetType)      \
	X(graph_node_set_enabled, "cuGraphNodeSetEnabled", cuGraphNodeSetEnabled) \
	X(graph_node_get_enabled, "cuGraphNodeGetEnabled", cuGraphNodeGetEnabled) \
	X(stream_get_capture_info, "cuStreamGetCaptureInfo",                  \
	  cuStreamGetCaptureInfo_v3)                                          \
	X(graph_add_child_graph_node, "cuGraphAddChildGraphNode",             \
	  cuGraphAddChildGraphNode)                                           \
	X(graph_child_graph_node_get_graph, "cuGraphChildGraphNodeGetGraph",  \
	  cuGraphChildGraphNodeGetGraph) \
	X(graph_add_mem_alloc_node, "cuGraphAddMemAllocNode", cuGraphAddMemAllocNode) \
	X(graph_add_mem_free_node, "cuGraphAddMemFreeNode", cuGraphAddMemFreeNode) \
	X(graph_mem_alloc_node_get_params, "cuGraphMemAllocNodeGetParams", cuGraphMemAllocNodeGetParams) \
	X(graph_mem_free_node_get_params, "cuGraphMemFreeNodeGetParams", cuGraphMemFreeNodeGetParams) \
	X(device_graph_mem_trim, "cuDeviceGraphMemTrim", cuDeviceGraphMemTrim) \
	X(device_get_graph_mem_attribute, "cuDeviceGetGraphMemAttribute", cuDeviceGetGraphMemAttribute) \
	X(device_set_graph_mem_attribute, "cuDeviceSetGraphMemAttribute", cuDeviceSetGraphMemAttribute) \
	X(device_get_name, "cuDeviceGetName", cuDeviceGetName)                \
	X(stream_attach_mem_async, "cuStreamAttachMemAsync",                  \
	  cuStreamAttachMemAsync)                                             \
	X(array_3d_create, "cuArray3DCreate", cuArray3DCreate_v2)             \
	X(array_destroy, "cuArrayDestroy", cuArrayDestroy)                    \
	X(array_3d_get_descriptor, "cuArray3DGetDescriptor",                  \
	  cuArray3DGetDescriptor_v2)                                          \
	X(tex_object_create, "cuTexObjectCreate", cuTexObjectCreate)          \
	X(tex_object_destroy, "cuTexObjectDestroy", cuTexObjectDestroy)       \
	X(tex_object_get_resource_desc, "cuTexObjectGetResourceDesc",         \
	  cuTexObjectGetResourceDesc)                                         \
	X(surf_object_create, "cuSurfObjectCreate", cuSurfObjectCreate)       \
	X(surf_object_destroy, "cuSurfObjectDestroy", cuSurfObjectDestroy)    \
	X(surf_object_get_resource_desc, "cuSurfObjectGetResourceDesc",       \
	  cuSurfObjectGetResourceDesc)

struct cudart_driver {
#define CUDART_DRIVER_FIELD(field, name, proto) __typeof__(&proto) field;
	CUDART_DRIVER_ENTRIES(CUDART_DRIVER_FIELD)
#undef CUDART_DRIVER_FIELD
};

/* Entry points for the legacy default stream and for per-thread ones. */
extern struct cudart_driver cudart_drv;
extern struct cudart_driver cudart_drv_per_thread;
extern struct simgpu_driver_private cudart_priv;

/*
 * Loads and resolves the driver once, without initialising it: what
 * registration (__cudaRegisterFatBinary, at program start) and the simgpu_*
 * hooks need. The real runtime defers cuInit to the first API call too, so
 * a tool that starts before it (CUPTI's per-function API records) sees an
 * uninitialised driver.
 */
cudaError_t cudart_load(void);
/* cudart_load, then cuInit and the primary context once: what every API
 * call needs; its verdict on every later call. */
cudaError_t cudart_init(void);
/* The table for a call made through a _ptds/_ptsz entry point or not. */
static inline const struct cudart_driver *cudart_driver_for(int per_thread)
{
	return per_thread ? &cudart_drv_per_thread : &cudart_drv;
}

/* cudaSetDevice's work, after ENTER. */
cudaError_t cudart_set_device(int device);
/* cudaErrorInvalidDevice unless device is an ordinal the driver has. */
cudaError_t cudart_check_device(int device);

/* The runtime error for a driver result. */
cudaError_t cudart_error(CUresult result);

/*
 * Every entry point ends with `return sim_return(err)`: it records err as the
 * thread's last error when it is not cudaSuccess. cudart_enter() comes
 * first: the runtime's set-up failure or the device's sticky error, if any.
 */
cudaError_t sim_return(cudaError_t err);
cudaError_t cudart_enter(void);

#define ENTER()                                                    \
	do {                                                       \
		cudaError_t enter_ = cudart_enter();               \
		if (enter_ != cudaSuccess)                         \
			return sim_return(enter_);                 \
	} while (0)

#define RT_CBID(name) CUPTI_RUNTIME_TRACE_CBID_##name

/*
 * Runs impl (an expression giving the call's cudaError_t) inside a frame:
 * CUPTI gets one report for the runtime call and the driver calls it made.
 * submits_work: only reported with its GPU work (launch, copy, set).
 */
#define RUNTIME_CALL(cbid, submits_work, impl)                             \
	do {                                                               \
		cudaError_t init_ = cudart_init();                         \
		if (init_ != cudaSuccess)                                  \
			return sim_return(init_);                          \
		struct simgpu_runtime_frame frame_;                        \
		cudart_priv.runtime_begin(&frame_, (cbid), (submits_work)); \
		cudaError_t result_ = (impl);                              \
		return (cudaError_t)cudart_priv.runtime_end(&frame_,       \
							   (int)result_);  \
	} while (0)

/* Launch through the driver (cudart_api_kernels.c), for every launch form. */
cudaError_t cudart_launch(const void *func, int handles_only, dim3 grid,
			  dim3 block, void **args, size_t shared_mem,
			  cudaStream_t stream, int per_thread);

/* A 1D copy as cudaMemcpy[Async] makes it (cudart_api_memory.c), for the
 * calls that copy on its behalf (cudaMemcpyToSymbol, ...). */
cudaError_t cudart_memcpy_1d(void *dst, const void *src, size_t count,
			     enum cudaMemcpyKind kind, cudaStream_t stream,
			     int per_thread, int is_async);

/* The memory type a cudaMemcpyKind gives one side of a copy, as
 * cudaMemcpy2D reads it (cudart_api_memory.c): device or host as the kind
 * names that side, unified for cudaMemcpyDefault. */
CUmemorytype cudart_copy_side_type(enum cudaMemcpyKind kind, int is_src);
/* Sets the source (is_src) or destination of a 2D copy: memory of type
 * at p (host or device pointer as the type says), rows pitch apart. */
void cudart_copy_2d_side(CUDA_MEMCPY2D *c, int is_src, CUmemorytype type,
			 const void *p, size_t pitch);

#endif
