/*
 * dnntrace_api: the host-side LTTng-UST provider. One event per wrapped CUDA
 * call the user's program made (allocation, free, copy, set, launch) and per
 * tensor name given through dnntrace_tag().
 *
 * This header IS the trace format: tracepoints/README.md documents every
 * field, and the analyzer reads exactly these names. Add fields or enum labels
 * at the end; never rename, retype or reorder existing ones.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dnntrace_api

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tracepoints/dnntrace_api.h"

#if !defined(DNNTRACE_API_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DNNTRACE_API_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "tracepoints/dnntrace_enums.h"

/* Which API entry point the program called. Values are stable (see enums). */
LTTNG_UST_TRACEPOINT_ENUM(dnntrace_api, api,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("cudaMalloc", DNNTRACE_API_cudaMalloc)
		lttng_ust_field_enum_value("cudaFree", DNNTRACE_API_cudaFree)
		lttng_ust_field_enum_value("cudaMallocAsync", DNNTRACE_API_cudaMallocAsync)
		lttng_ust_field_enum_value("cudaFreeAsync", DNNTRACE_API_cudaFreeAsync)
		lttng_ust_field_enum_value("cudaMallocFromPoolAsync", DNNTRACE_API_cudaMallocFromPoolAsync)
		lttng_ust_field_enum_value("cudaMallocManaged", DNNTRACE_API_cudaMallocManaged)
		lttng_ust_field_enum_value("cudaMallocPitch", DNNTRACE_API_cudaMallocPitch)
		lttng_ust_field_enum_value("cudaMalloc3D", DNNTRACE_API_cudaMalloc3D)
		lttng_ust_field_enum_value("cudaMallocHost", DNNTRACE_API_cudaMallocHost)
		lttng_ust_field_enum_value("cudaHostAlloc", DNNTRACE_API_cudaHostAlloc)
		lttng_ust_field_enum_value("cudaFreeHost", DNNTRACE_API_cudaFreeHost)
		lttng_ust_field_enum_value("cudaMemcpy", DNNTRACE_API_cudaMemcpy)
		lttng_ust_field_enum_value("cudaMemcpyAsync", DNNTRACE_API_cudaMemcpyAsync)
		lttng_ust_field_enum_value("cudaMemcpy2D", DNNTRACE_API_cudaMemcpy2D)
		lttng_ust_field_enum_value("cudaMemcpy2DAsync", DNNTRACE_API_cudaMemcpy2DAsync)
		lttng_ust_field_enum_value("cudaMemset", DNNTRACE_API_cudaMemset)
		lttng_ust_field_enum_value("cudaMemsetAsync", DNNTRACE_API_cudaMemsetAsync)
		lttng_ust_field_enum_value("cudaMemset2D", DNNTRACE_API_cudaMemset2D)
		lttng_ust_field_enum_value("cudaMemset2DAsync", DNNTRACE_API_cudaMemset2DAsync)
		lttng_ust_field_enum_value("cudaLaunchKernel", DNNTRACE_API_cudaLaunchKernel)
		lttng_ust_field_enum_value("cudaLaunchKernelExC", DNNTRACE_API_cudaLaunchKernelExC)
		lttng_ust_field_enum_value("cudaMemcpy_ptds", DNNTRACE_API_cudaMemcpy_ptds)
		lttng_ust_field_enum_value("cudaMemcpyAsync_ptsz", DNNTRACE_API_cudaMemcpyAsync_ptsz)
		lttng_ust_field_enum_value("cudaMemcpy2D_ptds", DNNTRACE_API_cudaMemcpy2D_ptds)
		lttng_ust_field_enum_value("cudaMemcpy2DAsync_ptsz", DNNTRACE_API_cudaMemcpy2DAsync_ptsz)
		lttng_ust_field_enum_value("cudaMemset_ptds", DNNTRACE_API_cudaMemset_ptds)
		lttng_ust_field_enum_value("cudaMemsetAsync_ptsz", DNNTRACE_API_cudaMemsetAsync_ptsz)
		lttng_ust_field_enum_value("cudaMemset2D_ptds", DNNTRACE_API_cudaMemset2D_ptds)
		lttng_ust_field_enum_value("cudaMemset2DAsync_ptsz", DNNTRACE_API_cudaMemset2DAsync_ptsz)
		lttng_ust_field_enum_value("cudaLaunchKernel_ptsz", DNNTRACE_API_cudaLaunchKernel_ptsz)
		lttng_ust_field_enum_value("cudaLaunchKernelExC_ptsz", DNNTRACE_API_cudaLaunchKernelExC_ptsz)
		lttng_ust_field_enum_value("cudaMallocAsync_ptsz", DNNTRACE_API_cudaMallocAsync_ptsz)
		lttng_ust_field_enum_value("cudaFreeAsync_ptsz", DNNTRACE_API_cudaFreeAsync_ptsz)
		lttng_ust_field_enum_value("cudaMallocFromPoolAsync_ptsz", DNNTRACE_API_cudaMallocFromPoolAsync_ptsz)
		lttng_ust_field_enum_value("__cudaLaunchKernel", DNNTRACE_API___cudaLaunchKernel)
		lttng_ust_field_enum_value("__cudaLaunchKernel_ptsz", DNNTRACE_API___cudaLaunchKernel_ptsz)
		lttng_ust_field_enum_value("cuMemAlloc_v2", DNNTRACE_API_cuMemAlloc_v2)
		lttng_ust_field_enum_value("cuMemAllocPitch_v2", DNNTRACE_API_cuMemAllocPitch_v2)
		lttng_ust_field_enum_value("cuMemAllocManaged", DNNTRACE_API_cuMemAllocManaged)
		lttng_ust_field_enum_value("cuMemAllocAsync", DNNTRACE_API_cuMemAllocAsync)
		lttng_ust_field_enum_value("cuMemAllocAsync_ptsz", DNNTRACE_API_cuMemAllocAsync_ptsz)
		lttng_ust_field_enum_value("cuMemAllocFromPoolAsync", DNNTRACE_API_cuMemAllocFromPoolAsync)
		lttng_ust_field_enum_value("cuMemAllocFromPoolAsync_ptsz", DNNTRACE_API_cuMemAllocFromPoolAsync_ptsz)
		lttng_ust_field_enum_value("cuMemFree_v2", DNNTRACE_API_cuMemFree_v2)
		lttng_ust_field_enum_value("cuMemFreeAsync", DNNTRACE_API_cuMemFreeAsync)
		lttng_ust_field_enum_value("cuMemFreeAsync_ptsz", DNNTRACE_API_cuMemFreeAsync_ptsz)
		lttng_ust_field_enum_value("cuMemCreate", DNNTRACE_API_cuMemCreate)
		lttng_ust_field_enum_value("cuMemRelease", DNNTRACE_API_cuMemRelease)
		lttng_ust_field_enum_value("cuMemAddressReserve", DNNTRACE_API_cuMemAddressReserve)
		lttng_ust_field_enum_value("cuMemAddressFree", DNNTRACE_API_cuMemAddressFree)
		lttng_ust_field_enum_value("cuMemMap", DNNTRACE_API_cuMemMap)
		lttng_ust_field_enum_value("cuMemUnmap", DNNTRACE_API_cuMemUnmap)
		lttng_ust_field_enum_value("cuMemHostAlloc", DNNTRACE_API_cuMemHostAlloc)
		lttng_ust_field_enum_value("cuMemAllocHost_v2", DNNTRACE_API_cuMemAllocHost_v2)
		lttng_ust_field_enum_value("cuMemFreeHost", DNNTRACE_API_cuMemFreeHost)
		lttng_ust_field_enum_value("cuMemcpy", DNNTRACE_API_cuMemcpy)
		lttng_ust_field_enum_value("cuMemcpy_ptds", DNNTRACE_API_cuMemcpy_ptds)
		lttng_ust_field_enum_value("cuMemcpyAsync", DNNTRACE_API_cuMemcpyAsync)
		lttng_ust_field_enum_value("cuMemcpyAsync_ptsz", DNNTRACE_API_cuMemcpyAsync_ptsz)
		lttng_ust_field_enum_value("cuMemcpyHtoD_v2", DNNTRACE_API_cuMemcpyHtoD_v2)
		lttng_ust_field_enum_value("cuMemcpyHtoD_v2_ptds", DNNTRACE_API_cuMemcpyHtoD_v2_ptds)
		lttng_ust_field_enum_value("cuMemcpyDtoH_v2", DNNTRACE_API_cuMemcpyDtoH_v2)
		lttng_ust_field_enum_value("cuMemcpyDtoH_v2_ptds", DNNTRACE_API_cuMemcpyDtoH_v2_ptds)
		lttng_ust_field_enum_value("cuMemcpyDtoD_v2", DNNTRACE_API_cuMemcpyDtoD_v2)
		lttng_ust_field_enum_value("cuMemcpyDtoD_v2_ptds", DNNTRACE_API_cuMemcpyDtoD_v2_ptds)
		lttng_ust_field_enum_value("cuMemcpyHtoDAsync_v2", DNNTRACE_API_cuMemcpyHtoDAsync_v2)
		lttng_ust_field_enum_value("cuMemcpyHtoDAsync_v2_ptsz", DNNTRACE_API_cuMemcpyHtoDAsync_v2_ptsz)
		lttng_ust_field_enum_value("cuMemcpyDtoHAsync_v2", DNNTRACE_API_cuMemcpyDtoHAsync_v2)
		lttng_ust_field_enum_value("cuMemcpyDtoHAsync_v2_ptsz", DNNTRACE_API_cuMemcpyDtoHAsync_v2_ptsz)
		lttng_ust_field_enum_value("cuMemcpyDtoDAsync_v2", DNNTRACE_API_cuMemcpyDtoDAsync_v2)
		lttng_ust_field_enum_value("cuMemcpyDtoDAsync_v2_ptsz", DNNTRACE_API_cuMemcpyDtoDAsync_v2_ptsz)
		lttng_ust_field_enum_value("cuMemsetD8_v2", DNNTRACE_API_cuMemsetD8_v2)
		lttng_ust_field_enum_value("cuMemsetD8_v2_ptds", DNNTRACE_API_cuMemsetD8_v2_ptds)
		lttng_ust_field_enum_value("cuMemsetD16_v2", DNNTRACE_API_cuMemsetD16_v2)
		lttng_ust_field_enum_value("cuMemsetD16_v2_ptds", DNNTRACE_API_cuMemsetD16_v2_ptds)
		lttng_ust_field_enum_value("cuMemsetD32_v2", DNNTRACE_API_cuMemsetD32_v2)
		lttng_ust_field_enum_value("cuMemsetD32_v2_ptds", DNNTRACE_API_cuMemsetD32_v2_ptds)
		lttng_ust_field_enum_value("cuMemsetD8Async", DNNTRACE_API_cuMemsetD8Async)
		lttng_ust_field_enum_value("cuMemsetD8Async_ptsz", DNNTRACE_API_cuMemsetD8Async_ptsz)
		lttng_ust_field_enum_value("cuMemsetD16Async", DNNTRACE_API_cuMemsetD16Async)
		lttng_ust_field_enum_value("cuMemsetD16Async_ptsz", DNNTRACE_API_cuMemsetD16Async_ptsz)
		lttng_ust_field_enum_value("cuMemsetD32Async", DNNTRACE_API_cuMemsetD32Async)
		lttng_ust_field_enum_value("cuMemsetD32Async_ptsz", DNNTRACE_API_cuMemsetD32Async_ptsz)
		lttng_ust_field_enum_value("cuLaunchKernel", DNNTRACE_API_cuLaunchKernel)
		lttng_ust_field_enum_value("cuLaunchKernel_ptsz", DNNTRACE_API_cuLaunchKernel_ptsz)
		lttng_ust_field_enum_value("cuLaunchKernelEx", DNNTRACE_API_cuLaunchKernelEx)
		lttng_ust_field_enum_value("cuLaunchKernelEx_ptsz", DNNTRACE_API_cuLaunchKernelEx_ptsz)
		lttng_ust_field_enum_value("cuLaunchCooperativeKernel", DNNTRACE_API_cuLaunchCooperativeKernel)
		lttng_ust_field_enum_value("cuLaunchCooperativeKernel_ptsz", DNNTRACE_API_cuLaunchCooperativeKernel_ptsz)
		lttng_ust_field_enum_value("cuGraphLaunch", DNNTRACE_API_cuGraphLaunch)
		lttng_ust_field_enum_value("cuGraphLaunch_ptsz", DNNTRACE_API_cuGraphLaunch_ptsz)
		lttng_ust_field_enum_value("cudaGraphLaunch", DNNTRACE_API_cudaGraphLaunch)
		lttng_ust_field_enum_value("cudaGraphLaunch_ptsz", DNNTRACE_API_cudaGraphLaunch_ptsz)
	)
)

/* What kind of memory an allocation is. Only device/managed/async are tensors. */
LTTNG_UST_TRACEPOINT_ENUM(dnntrace_api, mem_kind,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("device", DNNTRACE_MEM_DEVICE)
		lttng_ust_field_enum_value("managed", DNNTRACE_MEM_MANAGED)
		lttng_ust_field_enum_value("pinned_host", DNNTRACE_MEM_PINNED_HOST)
		lttng_ust_field_enum_value("stream_ordered", DNNTRACE_MEM_STREAM_ORDERED)
		lttng_ust_field_enum_value("vmm_mapped", DNNTRACE_MEM_VMM_MAPPED)
		lttng_ust_field_enum_value("vmm_physical", DNNTRACE_MEM_VMM_PHYSICAL)
		lttng_ust_field_enum_value("vmm_reserved", DNNTRACE_MEM_VMM_RESERVED)
	)
)

/*
 * A successful or failed allocation. tensor_id is the process-wide number of
 * this device allocation (0, 1, 2, ... in the order the library saw them), or
 * -1 for a failed call or pinned host memory (not a device tensor).
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, alloc,
	LTTNG_UST_TP_ARGS(int, api, int, kind, int, device, const void *, stream,
		const void *, ptr, uint64_t, requested_bytes, uint64_t, bytes,
		int64_t, tensor_id, int, result),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(dnntrace_api, api, int, api, api)
		lttng_ust_field_enum(dnntrace_api, mem_kind, int, kind, kind)
		lttng_ust_field_integer(int32_t, device, device)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_integer_hex(uint64_t, ptr, (uintptr_t)ptr)
		lttng_ust_field_integer(uint64_t, requested_bytes, requested_bytes)
		lttng_ust_field_integer(uint64_t, bytes, bytes)
		lttng_ust_field_integer(int64_t, tensor_id, tensor_id)
		lttng_ust_field_integer(int32_t, result, result)
	)
)

/* A free (device, stream-ordered or pinned host). tensor_id -1: unknown ptr. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, free,
	LTTNG_UST_TP_ARGS(int, api, int, kind, const void *, stream,
		const void *, ptr, int64_t, tensor_id, int, result),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(dnntrace_api, api, int, api, api)
		lttng_ust_field_enum(dnntrace_api, mem_kind, int, kind, kind)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_integer_hex(uint64_t, ptr, (uintptr_t)ptr)
		lttng_ust_field_integer(int64_t, tensor_id, tensor_id)
		lttng_ust_field_integer(int32_t, result, result)
	)
)

/*
 * A copy. call_id links it to the GPU memcpy record (external correlation).
 * direction is the cudaMemcpyKind the caller passed. bytes: width * height
 * for the 2D variants. *_tensor: the tensor each side points into, or -1,
 * passed as tensors[2] = {dst, src} (a tracepoint takes 10 args at most).
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, memcpy,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, int, direction,
		const void *, dst, const void *, src, uint64_t, bytes,
		const void *, stream, const int64_t *, tensors,
		int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, call_id, call_id)
		lttng_ust_field_enum(dnntrace_api, api, int, api, api)
		lttng_ust_field_integer(int32_t, direction, direction)
		lttng_ust_field_integer_hex(uint64_t, dst, (uintptr_t)dst)
		lttng_ust_field_integer_hex(uint64_t, src, (uintptr_t)src)
		lttng_ust_field_integer(uint64_t, bytes, bytes)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_integer(int64_t, dst_tensor, tensors[0])
		lttng_ust_field_integer(int64_t, src_tensor, tensors[1])
		lttng_ust_field_integer(int32_t, result, result)
		lttng_ust_field_integer(uint64_t, start_ns, start_ns)
	)
)

/* A memset. bytes: width * height for the 2D variants. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, memset,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, ptr,
		int, value, uint64_t, bytes, const void *, stream,
		int64_t, tensor_id, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, call_id, call_id)
		lttng_ust_field_enum(dnntrace_api, api, int, api, api)
		lttng_ust_field_integer_hex(uint64_t, ptr, (uintptr_t)ptr)
		lttng_ust_field_integer(int32_t, value, value)
		lttng_ust_field_integer(uint64_t, bytes, bytes)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_integer(int64_t, tensor_id, tensor_id)
		lttng_ust_field_integer(int32_t, result, result)
		lttng_ust_field_integer(uint64_t, start_ns, start_ns)
	)
)

/*
 * A kernel launch. call_id is pushed as CUPTI external correlation id
 * (CUSTOM0) around the forwarded call, so dnntrace_gpu:external_correlation
 * links the GPU kernel record back here. tensors: ids of the live tensors
 * whose base or interior addresses appear, 8-byte aligned, in the parameter
 * bytes (each id once, in parameter order). Roles are unknown for plain
 * launches: the analyzer counts each as read and write.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, launch,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, func,
		const char *, name, const struct dnntrace_launch_geometry *, geom,
		const void *, stream, const int64_t *, tensors,
		unsigned int, n_tensors, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, call_id, call_id)
		lttng_ust_field_enum(dnntrace_api, api, int, api, api)
		lttng_ust_field_integer_hex(uint64_t, func, (uintptr_t)func)
		lttng_ust_field_string(name, name)
		lttng_ust_field_integer(uint32_t, grid_x, geom->grid[0])
		lttng_ust_field_integer(uint32_t, grid_y, geom->grid[1])
		lttng_ust_field_integer(uint32_t, grid_z, geom->grid[2])
		lttng_ust_field_integer(uint32_t, block_x, geom->block[0])
		lttng_ust_field_integer(uint32_t, block_y, geom->block[1])
		lttng_ust_field_integer(uint32_t, block_z, geom->block[2])
		lttng_ust_field_integer(uint64_t, shared_mem, geom->shared_mem)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_sequence(int64_t, tensors, tensors, uint32_t, n_tensors)
		lttng_ust_field_integer(int32_t, result, result)
		lttng_ust_field_integer(uint64_t, start_ns, start_ns)
	)
)

/* dnntrace_tag(ptr, name): names the tensor containing ptr (-1: none). */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, tag,
	LTTNG_UST_TP_ARGS(const void *, ptr, int64_t, tensor_id, const char *, name),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, ptr, (uintptr_t)ptr)
		lttng_ust_field_integer(int64_t, tensor_id, tensor_id)
		lttng_ust_field_string(name, name)
	)
)

/*
 * The tracer's own state, once per process: whether CUPTI (kernel timing)
 * started. cupti_ok 0 means kernel records are missing; message says why.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, status,
	LTTNG_UST_TP_ARGS(int, cupti_ok, int, code, const char *, message),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, cupti_ok, cupti_ok)
		lttng_ust_field_integer(int32_t, code, code)
		lttng_ust_field_string(message, message)
	)
)

/*
 * A CUDA graph launch (cuGraphLaunch, cudaGraphLaunch and their _ptsz
 * twins). call_id is pushed as CUPTI external correlation id around the
 * forwarded call like a launch's, so the kernels, copies and sets the graph
 * runs (known only from CUPTI's records) link back here.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, graph_launch,
	LTTNG_UST_TP_ARGS(uint64_t, call_id, int, api, const void *, graph_exec,
		const void *, stream, int, result, uint64_t, start_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, call_id, call_id)
		lttng_ust_field_enum(dnntrace_api, api, int, api, api)
		lttng_ust_field_integer_hex(uint64_t, graph_exec, (uintptr_t)graph_exec)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_integer(int32_t, result, result)
		lttng_ust_field_integer(uint64_t, start_ns, start_ns)
	)
)

/*
 * Device memory in use, as cuMemGetInfo_v2 reports it for the calling
 * thread's current context (total - free: every process's allocations on
 * that device, the CUDA contexts, library workspaces, allocator caches).
 * Sampled after some allocations (see interceptors/mem_info.c) so the
 * analyzer can tell how much device memory no traced tensor accounts for.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_api, mem_info,
	LTTNG_UST_TP_ARGS(int, device, uint64_t, free_bytes, uint64_t, total_bytes),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, device, device)
		lttng_ust_field_integer(uint64_t, free_bytes, free_bytes)
		lttng_ust_field_integer(uint64_t, total_bytes, total_bytes)
	)
)

#endif /* DNNTRACE_API_TP_H */

#include <lttng/tracepoint-event.h>
