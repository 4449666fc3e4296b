/*
 * The catalogue: every CUDA, cuDNN and cuBLAS entry point dnntrace wraps or
 * calls, one line each. Everything that must agree about an entry point is
 * expanded from these lists and from nowhere else:
 *
 *   the trace's api ids          tracepoints/dnntrace_enums.h (DNNTRACE_API_x, DNNTRACE_LIB_x)
 *   the trace's enum labels      tracepoints/dnntrace_api.h, dnntrace_lib.h
 *   each allocation's memory     tracepoints/memory_kinds.h (tracer and analyzer)
 *   a library call's arg names   tracepoints/README.md (the events carry none)
 *   the table of real functions  interceptors/core/real_functions.h (REAL(x))
 *   cuGetProcAddress versions    interceptors/driver/entry_point_queries.c
 *   CUPTI callback ids to link   interceptors/core/cupti_session.c
 *   each entry point's kind      tracepoints/entry_kinds.h (tracer and analyzer)
 *   the analyzer's names and     analysis/model/api_names.c
 *   predicates (prefetch, graph launch, async copy or set)
 *
 * Adding an entry point is one line here plus its wrapper (and, for a call
 * with tensors, the function that describes them). tests/tracepoints checks
 * the ids against tests/tracepoints/entry_point_ids.txt: an id once written
 * into a trace keeps its entry point forever, so ids are explicit, never
 * reused, and new entry points take new ids. Must hold nothing but lists.
 *
 * The lists are macros (not a .def file) because LTTng-UST takes enum labels
 * as a macro argument, where an #include cannot stand.
 *
 * DNNTRACE_API_ENTRIES(X): traced by the dnntrace_api provider.
 *   X(id, name, kind, proc, cbid)
 *   id    the stable `api` value in dnntrace_api events
 *   name  the exact symbol the library exports (versioned names included)
 *   kind  what the call does, as the analyzer tells calls apart
 *         (tracepoints/entry_kinds.h, DNNTRACE_KIND_<kind>): ALLOC, FREE
 *         (memory and VMM ranges: which memory, DNNTRACE_MEMORY_ENTRIES),
 *         COPY, COPY_ASYNC, SET, SET_ASYNC (copies and sets; _ASYNC: the
 *         call returns before the GPU has done it), PREFETCH (managed
 *         memory moved, no contents written; asynchronous), LAUNCH,
 *         GRAPH_LAUNCH, GRAPH_NODE (a kernel node given its parameters),
 *         GRAPH_COPY_NODE (a copy or set node added), GRAPH_UPDATE (an
 *         executable graph updated from a graph), GRAPH_MEM_NODE (a
 *         memory alloc or free node added), GRAPH_ANY_NODE (a node of
 *         any type added or given parameters through the generic node
 *         API: a kernel node's graph_node event names its function, a
 *         copy or set node's has function_id 0 and its destination
 *         first, a memory node's is a graph_mem_node event; see
 *         tracepoints/README.md), GRAPH_NODE_ENABLE (an exec's node
 *         disabled or enabled again), REGISTER and UNREGISTER
 *         (the program's own host memory pinned and unpinned: traced
 *         as alloc and free events of their memory kind, counted
 *         apart from allocations by the analyzer). Every
 *         DNNTRACE_LIB_ENTRIES entry is a library call.
 *   proc  how cuGetProcAddress names it: DT_PROC(symbol, cuda_version)
 *         (cudaTypedefs.h's PFN_<symbol>_v<version>), DT_PROC_PT(...) for
 *         the per-thread-default-stream twin, DT_NO_PROC for runtime calls
 *   cbid  the CUPTI API-record callback id whose GPU work links to our
 *         event by external correlation: DT_RUNTIME_CBID(x)
 *         (cupti_runtime_cbid.h's CUPTI_RUNTIME_TRACE_CBID_x),
 *         DT_DRIVER_CBID(x) (cupti_driver_cbid.h), or DT_NO_CBID for calls
 *         that submit no GPU work (allocations)
 */
#ifndef DNNTRACE_ENTRY_POINTS_H
#define DNNTRACE_ENTRY_POINTS_H

#define DNNTRACE_API_ENTRIES(X) \
	/* cudart: allocation */ \
	X(0,   cudaMalloc,                     ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(1,   cudaFree,                       FREE,         DT_NO_PROC, DT_NO_CBID) \
	X(2,   cudaMallocAsync,                ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(31,  cudaMallocAsync_ptsz,           ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(3,   cudaFreeAsync,                  FREE,         DT_NO_PROC, DT_NO_CBID) \
	X(32,  cudaFreeAsync_ptsz,             FREE,         DT_NO_PROC, DT_NO_CBID) \
	X(4,   cudaMallocFromPoolAsync,        ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(33,  cudaMallocFromPoolAsync_ptsz,   ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(5,   cudaMallocManaged,              ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(6,   cudaMallocPitch,                ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(7,   cudaMalloc3D,                   ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(8,   cudaMallocHost,                 ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(9,   cudaHostAlloc,                  ALLOC,        DT_NO_PROC, DT_NO_CBID) \
	X(10,  cudaFreeHost,                   FREE,         DT_NO_PROC, DT_NO_CBID) \
	X(117, cudaHostRegister,               REGISTER,     DT_NO_PROC, DT_NO_CBID) \
	X(118, cudaHostUnregister,             UNREGISTER,   DT_NO_PROC, DT_NO_CBID) \
	X(96,  cudaDeviceReset,                FREE,         DT_NO_PROC, DT_NO_CBID) \
	/* cudart: copies and sets */ \
	X(11,  cudaMemcpy,                     COPY,         DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpy_v3020)) \
	X(21,  cudaMemcpy_ptds,                COPY,         DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpy_ptds_v7000)) \
	X(12,  cudaMemcpyAsync,                COPY_ASYNC,   DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpyAsync_v3020)) \
	X(22,  cudaMemcpyAsync_ptsz,           COPY_ASYNC,   DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpyAsync_ptsz_v7000)) \
	X(13,  cudaMemcpy2D,                   COPY,         DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpy2D_v3020)) \
	X(23,  cudaMemcpy2D_ptds,              COPY,         DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpy2D_ptds_v7000)) \
	X(14,  cudaMemcpy2DAsync,              COPY_ASYNC,   DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpy2DAsync_v3020)) \
	X(24,  cudaMemcpy2DAsync_ptsz,         COPY_ASYNC,   DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpy2DAsync_ptsz_v7000)) \
	X(93,  cudaMemcpyPeerAsync,            COPY_ASYNC,   DT_NO_PROC, DT_RUNTIME_CBID(cudaMemcpyPeerAsync_v4000)) \
	X(94,  cudaMemPrefetchAsync,           PREFETCH,     DT_NO_PROC, DT_RUNTIME_CBID(cudaMemPrefetchAsync_v12020)) \
	X(95,  cudaMemPrefetchAsync_ptsz,      PREFETCH,     DT_NO_PROC, DT_RUNTIME_CBID(cudaMemPrefetchAsync_ptsz_v12020)) \
	X(15,  cudaMemset,                     SET,          DT_NO_PROC, DT_RUNTIME_CBID(cudaMemset_v3020)) \
	X(25,  cudaMemset_ptds,                SET,          DT_NO_PROC, DT_RUNTIME_CBID(cudaMemset_ptds_v7000)) \
	X(16,  cudaMemsetAsync,                SET_ASYNC,    DT_NO_PROC, DT_RUNTIME_CBID(cudaMemsetAsync_v3020)) \
	X(26,  cudaMemsetAsync_ptsz,           SET_ASYNC,    DT_NO_PROC, DT_RUNTIME_CBID(cudaMemsetAsync_ptsz_v7000)) \
	X(17,  cudaMemset2D,                   SET,          DT_NO_PROC, DT_RUNTIME_CBID(cudaMemset2D_v3020)) \
	X(27,  cudaMemset2D_ptds,              SET,          DT_NO_PROC, DT_RUNTIME_CBID(cudaMemset2D_ptds_v7000)) \
	X(18,  cudaMemset2DAsync,              SET_ASYNC,    DT_NO_PROC, DT_RUNTIME_CBID(cudaMemset2DAsync_v3020)) \
	X(28,  cudaMemset2DAsync_ptsz,         SET_ASYNC,    DT_NO_PROC, DT_RUNTIME_CBID(cudaMemset2DAsync_ptsz_v7000)) \
	/* cudart: launches (nvcc 13's <<<>>> calls __cudaLaunchKernel) */ \
	X(19,  cudaLaunchKernel,               LAUNCH,       DT_NO_PROC, DT_RUNTIME_CBID(cudaLaunchKernel_v7000)) \
	X(29,  cudaLaunchKernel_ptsz,          LAUNCH,       DT_NO_PROC, DT_RUNTIME_CBID(cudaLaunchKernel_ptsz_v7000)) \
	X(20,  cudaLaunchKernelExC,            LAUNCH,       DT_NO_PROC, DT_RUNTIME_CBID(cudaLaunchKernelExC_v11060)) \
	X(30,  cudaLaunchKernelExC_ptsz,       LAUNCH,       DT_NO_PROC, DT_RUNTIME_CBID(cudaLaunchKernelExC_ptsz_v11060)) \
	X(34,  __cudaLaunchKernel,             LAUNCH,       DT_NO_PROC, DT_RUNTIME_CBID(__cudaLaunchKernel_v13000)) \
	X(35,  __cudaLaunchKernel_ptsz,        LAUNCH,       DT_NO_PROC, DT_RUNTIME_CBID(__cudaLaunchKernel_ptsz_v13000)) \
	X(91,  cudaGraphLaunch,                GRAPH_LAUNCH, DT_NO_PROC, DT_RUNTIME_CBID(cudaGraphLaunch_v10000)) \
	X(92,  cudaGraphLaunch_ptsz,           GRAPH_LAUNCH, DT_NO_PROC, DT_RUNTIME_CBID(cudaGraphLaunch_ptsz_v10000)) \
	/* driver: allocation, virtual memory management, pinned host memory */ \
	X(36,  cuMemAlloc_v2,                  ALLOC,        DT_PROC(cuMemAlloc, 3020), DT_NO_CBID) \
	X(37,  cuMemAllocPitch_v2,             ALLOC,        DT_PROC(cuMemAllocPitch, 3020), DT_NO_CBID) \
	X(38,  cuMemAllocManaged,              ALLOC,        DT_PROC(cuMemAllocManaged, 6000), DT_NO_CBID) \
	X(39,  cuMemAllocAsync,                ALLOC,        DT_PROC(cuMemAllocAsync, 11020), DT_NO_CBID) \
	X(40,  cuMemAllocAsync_ptsz,           ALLOC,        DT_PROC_PT(cuMemAllocAsync, 11020), DT_NO_CBID) \
	X(41,  cuMemAllocFromPoolAsync,        ALLOC,        DT_PROC(cuMemAllocFromPoolAsync, 11020), DT_NO_CBID) \
	X(42,  cuMemAllocFromPoolAsync_ptsz,   ALLOC,        DT_PROC_PT(cuMemAllocFromPoolAsync, 11020), DT_NO_CBID) \
	X(43,  cuMemFree_v2,                   FREE,         DT_PROC(cuMemFree, 3020), DT_NO_CBID) \
	X(44,  cuMemFreeAsync,                 FREE,         DT_PROC(cuMemFreeAsync, 11020), DT_NO_CBID) \
	X(45,  cuMemFreeAsync_ptsz,            FREE,         DT_PROC_PT(cuMemFreeAsync, 11020), DT_NO_CBID) \
	X(46,  cuMemCreate,                    ALLOC,        DT_PROC(cuMemCreate, 10020), DT_NO_CBID) \
	X(47,  cuMemRelease,                   FREE,         DT_PROC(cuMemRelease, 10020), DT_NO_CBID) \
	X(48,  cuMemAddressReserve,            ALLOC,        DT_PROC(cuMemAddressReserve, 10020), DT_NO_CBID) \
	X(49,  cuMemAddressFree,               FREE,         DT_PROC(cuMemAddressFree, 10020), DT_NO_CBID) \
	X(50,  cuMemMap,                       ALLOC,        DT_PROC(cuMemMap, 10020), DT_NO_CBID) \
	X(51,  cuMemUnmap,                     FREE,         DT_PROC(cuMemUnmap, 10020), DT_NO_CBID) \
	X(52,  cuMemHostAlloc,                 ALLOC,        DT_PROC(cuMemHostAlloc, 2020), DT_NO_CBID) \
	X(53,  cuMemAllocHost_v2,              ALLOC,        DT_PROC(cuMemAllocHost, 3020), DT_NO_CBID) \
	X(54,  cuMemFreeHost,                  FREE,         DT_PROC(cuMemFreeHost, 2000), DT_NO_CBID) \
	X(119, cuMemHostRegister_v2,           REGISTER,     DT_PROC(cuMemHostRegister, 6050), DT_NO_CBID) \
	X(120, cuMemHostUnregister,            UNREGISTER,   DT_PROC(cuMemHostUnregister, 4000), DT_NO_CBID) \
	/* driver: contexts ended, every tensor they own with them */ \
	X(114, cuCtxDestroy_v2,                FREE,         DT_PROC(cuCtxDestroy, 4000), DT_NO_CBID) \
	X(115, cuDevicePrimaryCtxReset_v2,     FREE,         DT_PROC(cuDevicePrimaryCtxReset, 11000), DT_NO_CBID) \
	X(116, cuDevicePrimaryCtxRelease_v2,   FREE,         DT_PROC(cuDevicePrimaryCtxRelease, 11000), DT_NO_CBID) \
	/* driver: copies and sets */ \
	X(55,  cuMemcpy,                       COPY,         DT_PROC(cuMemcpy, 4000), DT_DRIVER_CBID(cuMemcpy)) \
	X(56,  cuMemcpy_ptds,                  COPY,         DT_PROC_PT(cuMemcpy, 7000), DT_DRIVER_CBID(cuMemcpy_ptds)) \
	X(57,  cuMemcpyAsync,                  COPY_ASYNC,   DT_PROC(cuMemcpyAsync, 4000), DT_DRIVER_CBID(cuMemcpyAsync)) \
	X(58,  cuMemcpyAsync_ptsz,             COPY_ASYNC,   DT_PROC_PT(cuMemcpyAsync, 7000), DT_DRIVER_CBID(cuMemcpyAsync_ptsz)) \
	X(59,  cuMemcpyHtoD_v2,                COPY,         DT_PROC(cuMemcpyHtoD, 3020), DT_DRIVER_CBID(cuMemcpyHtoD_v2)) \
	X(60,  cuMemcpyHtoD_v2_ptds,           COPY,         DT_PROC_PT(cuMemcpyHtoD, 7000), DT_DRIVER_CBID(cuMemcpyHtoD_v2_ptds)) \
	X(61,  cuMemcpyDtoH_v2,                COPY,         DT_PROC(cuMemcpyDtoH, 3020), DT_DRIVER_CBID(cuMemcpyDtoH_v2)) \
	X(62,  cuMemcpyDtoH_v2_ptds,           COPY,         DT_PROC_PT(cuMemcpyDtoH, 7000), DT_DRIVER_CBID(cuMemcpyDtoH_v2_ptds)) \
	X(63,  cuMemcpyDtoD_v2,                COPY,         DT_PROC(cuMemcpyDtoD, 3020), DT_DRIVER_CBID(cuMemcpyDtoD_v2)) \
	X(64,  cuMemcpyDtoD_v2_ptds,           COPY,         DT_PROC_PT(cuMemcpyDtoD, 7000), DT_DRIVER_CBID(cuMemcpyDtoD_v2_ptds)) \
	X(65,  cuMemcpyHtoDAsync_v2,           COPY_ASYNC,   DT_PROC(cuMemcpyHtoDAsync, 3020), DT_DRIVER_CBID(cuMemcpyHtoDAsync_v2)) \
	X(66,  cuMemcpyHtoDAsync_v2_ptsz,      COPY_ASYNC,   DT_PROC_PT(cuMemcpyHtoDAsync, 7000), DT_DRIVER_CBID(cuMemcpyHtoDAsync_v2_ptsz)) \
	X(67,  cuMemcpyDtoHAsync_v2,           COPY_ASYNC,   DT_PROC(cuMemcpyDtoHAsync, 3020), DT_DRIVER_CBID(cuMemcpyDtoHAsync_v2)) \
	X(68,  cuMemcpyDtoHAsync_v2_ptsz,      COPY_ASYNC,   DT_PROC_PT(cuMemcpyDtoHAsync, 7000), DT_DRIVER_CBID(cuMemcpyDtoHAsync_v2_ptsz)) \
	X(69,  cuMemcpyDtoDAsync_v2,           COPY_ASYNC,   DT_PROC(cuMemcpyDtoDAsync, 3020), DT_DRIVER_CBID(cuMemcpyDtoDAsync_v2)) \
	X(70,  cuMemcpyDtoDAsync_v2_ptsz,      COPY_ASYNC,   DT_PROC_PT(cuMemcpyDtoDAsync, 7000), DT_DRIVER_CBID(cuMemcpyDtoDAsync_v2_ptsz)) \
	X(71,  cuMemsetD8_v2,                  SET,          DT_PROC(cuMemsetD8, 3020), DT_DRIVER_CBID(cuMemsetD8_v2)) \
	X(72,  cuMemsetD8_v2_ptds,             SET,          DT_PROC_PT(cuMemsetD8, 7000), DT_DRIVER_CBID(cuMemsetD8_v2_ptds)) \
	X(73,  cuMemsetD16_v2,                 SET,          DT_PROC(cuMemsetD16, 3020), DT_DRIVER_CBID(cuMemsetD16_v2)) \
	X(74,  cuMemsetD16_v2_ptds,            SET,          DT_PROC_PT(cuMemsetD16, 7000), DT_DRIVER_CBID(cuMemsetD16_v2_ptds)) \
	X(75,  cuMemsetD32_v2,                 SET,          DT_PROC(cuMemsetD32, 3020), DT_DRIVER_CBID(cuMemsetD32_v2)) \
	X(76,  cuMemsetD32_v2_ptds,            SET,          DT_PROC_PT(cuMemsetD32, 7000), DT_DRIVER_CBID(cuMemsetD32_v2_ptds)) \
	X(77,  cuMemsetD8Async,                SET_ASYNC,    DT_PROC(cuMemsetD8Async, 3020), DT_DRIVER_CBID(cuMemsetD8Async)) \
	X(78,  cuMemsetD8Async_ptsz,           SET_ASYNC,    DT_PROC_PT(cuMemsetD8Async, 7000), DT_DRIVER_CBID(cuMemsetD8Async_ptsz)) \
	X(79,  cuMemsetD16Async,               SET_ASYNC,    DT_PROC(cuMemsetD16Async, 3020), DT_DRIVER_CBID(cuMemsetD16Async)) \
	X(80,  cuMemsetD16Async_ptsz,          SET_ASYNC,    DT_PROC_PT(cuMemsetD16Async, 7000), DT_DRIVER_CBID(cuMemsetD16Async_ptsz)) \
	X(81,  cuMemsetD32Async,               SET_ASYNC,    DT_PROC(cuMemsetD32Async, 3020), DT_DRIVER_CBID(cuMemsetD32Async)) \
	X(82,  cuMemsetD32Async_ptsz,          SET_ASYNC,    DT_PROC_PT(cuMemsetD32Async, 7000), DT_DRIVER_CBID(cuMemsetD32Async_ptsz)) \
	/* driver: launches and graph launches */ \
	X(83,  cuLaunchKernel,                 LAUNCH,       DT_PROC(cuLaunchKernel, 4000), DT_DRIVER_CBID(cuLaunchKernel)) \
	X(84,  cuLaunchKernel_ptsz,            LAUNCH,       DT_PROC_PT(cuLaunchKernel, 7000), DT_DRIVER_CBID(cuLaunchKernel_ptsz)) \
	X(85,  cuLaunchKernelEx,               LAUNCH,       DT_PROC(cuLaunchKernelEx, 11060), DT_DRIVER_CBID(cuLaunchKernelEx)) \
	X(86,  cuLaunchKernelEx_ptsz,          LAUNCH,       DT_PROC_PT(cuLaunchKernelEx, 11060), DT_DRIVER_CBID(cuLaunchKernelEx_ptsz)) \
	X(87,  cuLaunchCooperativeKernel,      LAUNCH,       DT_PROC(cuLaunchCooperativeKernel, 9000), DT_DRIVER_CBID(cuLaunchCooperativeKernel)) \
	X(88,  cuLaunchCooperativeKernel_ptsz, LAUNCH,       DT_PROC_PT(cuLaunchCooperativeKernel, 9000), DT_DRIVER_CBID(cuLaunchCooperativeKernel_ptsz)) \
	X(89,  cuGraphLaunch,                  GRAPH_LAUNCH, DT_PROC(cuGraphLaunch, 10000), DT_DRIVER_CBID(cuGraphLaunch)) \
	X(90,  cuGraphLaunch_ptsz,             GRAPH_LAUNCH, DT_PROC_PT(cuGraphLaunch, 10000), DT_DRIVER_CBID(cuGraphLaunch_ptsz)) \
	/* graph nodes given parameters by hand, and updates of executable graphs */ \
	X(97,  cudaGraphAddKernelNode,         GRAPH_NODE,   DT_NO_PROC, DT_NO_CBID) \
	X(98,  cudaGraphKernelNodeSetParams,   GRAPH_NODE,   DT_NO_PROC, DT_NO_CBID) \
	X(99,  cudaGraphExecKernelNodeSetParams, GRAPH_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(100, cudaGraphExecUpdate,            GRAPH_UPDATE, DT_NO_PROC, DT_NO_CBID) \
	X(101, cuGraphAddKernelNode_v2,        GRAPH_NODE,   DT_PROC(cuGraphAddKernelNode, 12000), DT_NO_CBID) \
	X(102, cuGraphKernelNodeSetParams_v2,  GRAPH_NODE,   DT_PROC(cuGraphKernelNodeSetParams, 12000), DT_NO_CBID) \
	X(103, cuGraphExecKernelNodeSetParams_v2, GRAPH_NODE, DT_PROC(cuGraphExecKernelNodeSetParams, 12000), DT_NO_CBID) \
	X(104, cuGraphExecUpdate_v2,           GRAPH_UPDATE, DT_PROC(cuGraphExecUpdate, 12000), DT_NO_CBID) \
	X(105, cudaGraphAddMemcpyNode,         GRAPH_COPY_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(106, cudaGraphAddMemcpyNode1D,       GRAPH_COPY_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(107, cudaGraphAddMemsetNode,         GRAPH_COPY_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(108, cuGraphAddMemcpyNode,           GRAPH_COPY_NODE, DT_PROC(cuGraphAddMemcpyNode, 10000), DT_NO_CBID) \
	X(109, cuGraphAddMemsetNode,           GRAPH_COPY_NODE, DT_PROC(cuGraphAddMemsetNode, 10000), DT_NO_CBID) \
	/* graph memory nodes (format 5) */ \
	X(110, cudaGraphAddMemAllocNode,       GRAPH_MEM_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(111, cudaGraphAddMemFreeNode,        GRAPH_MEM_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(112, cuGraphAddMemAllocNode,         GRAPH_MEM_NODE, DT_PROC(cuGraphAddMemAllocNode, 11040), DT_NO_CBID) \
	X(113, cuGraphAddMemFreeNode,          GRAPH_MEM_NODE, DT_PROC(cuGraphAddMemFreeNode, 11040), DT_NO_CBID) \
	/* the generic node API (CUDA 12.2 on): any node type, traced as its typed entry point */ \
	X(121, cudaGraphAddNode,               GRAPH_ANY_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(122, cudaGraphNodeSetParams,         GRAPH_ANY_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(123, cudaGraphExecNodeSetParams,     GRAPH_ANY_NODE, DT_NO_PROC, DT_NO_CBID) \
	X(124, cuGraphAddNode,                 GRAPH_ANY_NODE, DT_PROC(cuGraphAddNode, 12020), DT_NO_CBID) \
	X(125, cuGraphAddNode_v2,              GRAPH_ANY_NODE, DT_PROC(cuGraphAddNode, 12030), DT_NO_CBID) \
	X(126, cuGraphNodeSetParams,           GRAPH_ANY_NODE, DT_PROC(cuGraphNodeSetParams, 12020), DT_NO_CBID) \
	X(127, cuGraphExecNodeSetParams,       GRAPH_ANY_NODE, DT_PROC(cuGraphExecNodeSetParams, 12020), DT_NO_CBID) \
	/* an exec's node disabled or enabled again (format 8: graph_node_enable) */ \
	X(128, cudaGraphNodeSetEnabled,        GRAPH_NODE_ENABLE, DT_NO_PROC, DT_NO_CBID) \
	X(129, cuGraphNodeSetEnabled,          GRAPH_NODE_ENABLE, DT_PROC(cuGraphNodeSetEnabled, 11060), DT_NO_CBID)

/*
 * DNNTRACE_MEMORY_ENTRIES(X): the kind of memory each allocation and free
 * entry point of DNNTRACE_API_ENTRIES handles, X(name, kind), kind a
 * dnntrace_mem_kind (DNNTRACE_MEM_<kind>). An alloc event carries its entry
 * point and not the kind (format 3 on): tracer and analyzer both take the
 * kind from here (tracepoints/memory_kinds.h). STREAM_ORDERED entry points
 * take effect when their stream reaches them: their events are
 * dnntrace_api:alloc_async and free_async, with the stream.
 */
#define DNNTRACE_MEMORY_ENTRIES(X) \
	X(cudaMalloc,                   DEVICE) \
	X(cudaMallocPitch,              DEVICE) \
	X(cudaMalloc3D,                 DEVICE) \
	X(cudaFree,                     DEVICE) \
	X(cudaMallocManaged,            MANAGED) \
	X(cudaMallocAsync,              STREAM_ORDERED) \
	X(cudaMallocAsync_ptsz,         STREAM_ORDERED) \
	X(cudaMallocFromPoolAsync,      STREAM_ORDERED) \
	X(cudaMallocFromPoolAsync_ptsz, STREAM_ORDERED) \
	X(cudaFreeAsync,                STREAM_ORDERED) \
	X(cudaFreeAsync_ptsz,           STREAM_ORDERED) \
	X(cudaMallocHost,               PINNED_HOST) \
	X(cudaHostAlloc,                PINNED_HOST) \
	X(cudaFreeHost,                 PINNED_HOST) \
	X(cudaHostRegister,             PINNED_HOST) \
	X(cudaHostUnregister,           PINNED_HOST) \
	X(cudaDeviceReset,              DEVICE) \
	X(cuMemAlloc_v2,                DEVICE) \
	X(cuMemAllocPitch_v2,           DEVICE) \
	X(cuMemFree_v2,                 DEVICE) \
	X(cuMemAllocManaged,            MANAGED) \
	X(cuMemAllocAsync,              STREAM_ORDERED) \
	X(cuMemAllocAsync_ptsz,         STREAM_ORDERED) \
	X(cuMemAllocFromPoolAsync,      STREAM_ORDERED) \
	X(cuMemAllocFromPoolAsync_ptsz, STREAM_ORDERED) \
	X(cuMemFreeAsync,               STREAM_ORDERED) \
	X(cuMemFreeAsync_ptsz,          STREAM_ORDERED) \
	X(cuMemHostAlloc,               PINNED_HOST) \
	X(cuMemAllocHost_v2,            PINNED_HOST) \
	X(cuMemFreeHost,                PINNED_HOST) \
	X(cuMemHostRegister_v2,         PINNED_HOST) \
	X(cuMemHostUnregister,          PINNED_HOST) \
	X(cuCtxDestroy_v2,              DEVICE) \
	X(cuDevicePrimaryCtxReset_v2,   DEVICE) \
	X(cuDevicePrimaryCtxRelease_v2, DEVICE) \
	X(cuMemMap,                     VMM_MAPPED) \
	X(cuMemUnmap,                   VMM_MAPPED) \
	X(cuMemCreate,                  VMM_PHYSICAL) \
	X(cuMemRelease,                 VMM_PHYSICAL) \
	X(cuMemAddressReserve,          VMM_RESERVED) \
	X(cuMemAddressFree,             VMM_RESERVED)

/*
 * DNNTRACE_LIB_ENTRIES(X): traced by dnntrace_lib:call (cuDNN from 0,
 * cuBLAS and cuBLASLt from 100). X(id, name, args, params):
 *   id      the stable `api` value
 *   args    the names of the call event's arguments (its tensors, ptrs,
 *           roles, dtypes, ranks), in that order: every call of the entry
 *           point lists each of them, an argument the call's other
 *           arguments leave unused with role unused (format 3 on; the
 *           names were a string in every event before). "pack..." stands
 *           for one argument per entry of a variant pack
 *   params  the names of the event's params, in order; "(uid,attribute)..."
 *           stands for one such pair per variant-pack argument
 */
#define DT_GEMM_PARAMS "m,n,k,transa,transb,lda,ldb,ldc"
#define DT_GEMM_EX_PARAMS "a_type,b_type,c_type,compute_type,algo"
#define DNNTRACE_LIB_ENTRIES(X) \
	X(0,   cudnnConvolutionForward, \
	  "x,w,y,workspace", \
	  "algo,workspace_bytes") \
	X(1,   cudnnConvolutionBackwardData, \
	  "w,dy,dx,workspace", \
	  "algo,workspace_bytes") \
	X(2,   cudnnConvolutionBackwardFilter, \
	  "x,dy,dw,workspace", \
	  "algo,workspace_bytes") \
	X(3,   cudnnConvolutionBackwardBias, \
	  "dy,db", \
	  "") \
	X(4,   cudnnConvolutionBiasActivationForward, \
	  "x,w,z,bias,y,workspace", \
	  "algo,workspace_bytes") \
	X(5,   cudnnBatchNormalizationForwardTraining, \
	  "x,y,scale,bias,running_mean,running_var,save_mean,save_inv_var", \
	  "mode,epsilon_e9,exp_avg_factor_e9") \
	X(6,   cudnnBatchNormalizationForwardTrainingEx, \
	  "x,z,y,scale,bias,running_mean,running_var,save_mean,save_inv_var,workspace,reserve", \
	  "mode,bn_ops,epsilon_e9,exp_avg_factor_e9,workspace_bytes,reserve_bytes") \
	X(7,   cudnnBatchNormalizationForwardInference, \
	  "x,y,scale,bias,mean,var", \
	  "mode,epsilon_e9") \
	X(8,   cudnnBatchNormalizationBackward, \
	  "x,dy,dx,scale,dscale,dbias,saved_mean,saved_inv_var", \
	  "mode,epsilon_e9") \
	X(9,   cudnnBatchNormalizationBackwardEx, \
	  "x,y,dy,dz,dx,scale,bias,dscale,dbias,saved_mean,saved_inv_var,workspace,reserve", \
	  "mode,bn_ops,epsilon_e9,workspace_bytes,reserve_bytes") \
	X(10,  cudnnActivationForward, \
	  "x,y", \
	  "") \
	X(11,  cudnnActivationBackward, \
	  "y,dy,x,dx", \
	  "") \
	X(12,  cudnnPoolingForward, \
	  "x,y", \
	  "") \
	X(13,  cudnnPoolingBackward, \
	  "y,dy,x,dx", \
	  "") \
	X(14,  cudnnSoftmaxForward, \
	  "x,y", \
	  "algo,mode") \
	X(15,  cudnnSoftmaxBackward, \
	  "y,dy,dx", \
	  "algo,mode") \
	X(16,  cudnnAddTensor, \
	  "A,C", \
	  "") \
	X(17,  cudnnOpTensor, \
	  "A,B,C", \
	  "") \
	X(18,  cudnnDropoutForward, \
	  "x,y,reserve", \
	  "reserve_bytes") \
	X(19,  cudnnDropoutBackward, \
	  "dy,dx,reserve", \
	  "reserve_bytes") \
	X(20,  cudnnBackendExecute, \
	  "pack...,workspace", \
	  "ops,workspace_bytes,(uid,attribute)...") \
	X(21,  cudnnSetStream, \
	  "", \
	  "") \
	X(100, cublasSgemm_v2, \
	  "A,B,C", \
	  DT_GEMM_PARAMS) \
	X(101, cublasDgemm_v2, \
	  "A,B,C", \
	  DT_GEMM_PARAMS) \
	X(102, cublasHgemm, \
	  "A,B,C", \
	  DT_GEMM_PARAMS) \
	X(103, cublasGemmEx, \
	  "A,B,C", \
	  DT_GEMM_PARAMS "," DT_GEMM_EX_PARAMS) \
	X(104, cublasSgemmStridedBatched, \
	  "A,B,C", \
	  DT_GEMM_PARAMS ",stride_a,stride_b,stride_c,batch_count") \
	X(105, cublasGemmStridedBatchedEx, \
	  "A,B,C", \
	  DT_GEMM_PARAMS ",stride_a,stride_b,stride_c,batch_count," DT_GEMM_EX_PARAMS) \
	X(106, cublasGemmBatchedEx, \
	  "Aarray,Barray,Carray", \
	  DT_GEMM_PARAMS ",batch_count," DT_GEMM_EX_PARAMS) \
	X(107, cublasSetStream_v2, \
	  "", \
	  "") \
	X(108, cublasLtMatmul, \
	  "A,B,C,D,bias,aux,workspace", \
	  "m,n,k,transa,transb,lda,ldb,ldc,ldd,batch_count,a_type,b_type,c_type,d_type,compute_type,scale_type,epilogue,pointer_mode,workspace_size")

/*
 * DNNTRACE_WRAPPED_ENTRIES(X): wrapped but traced by no event of their own.
 * X(name, proc) as above. The entry-point queries hand back our wrappers;
 * descriptor setters and destroyers keep the shapes and roles that the
 * traced calls describe (the caches in interceptors/cudnn/ and interceptors/cublas/);
 * cuCtxCreate's variants tell the tracer which contexts own which tensors;
 * the instantiations bracket the clones CUPTI reports, so they get their
 * exec (cupti_session.c). The driver's cuGraphInstantiate and
 * cuGraphInstantiate_v2 (the CUDA 10 and 11 ABI, gone from CUDA 12's
 * cuda.h) are not wrapped: their clones get an exec only from CUPTI's own
 * GRAPHEXEC callbacks.
 */
#define DNNTRACE_WRAPPED_ENTRIES(X) \
	X(cuGetProcAddress,                      DT_PROC(cuGetProcAddress, 11030)) \
	X(cuGetProcAddress_v2,                   DT_PROC(cuGetProcAddress, 12000)) \
	X(cudaGetDriverEntryPoint,               DT_NO_PROC) \
	X(cudaGetDriverEntryPoint_ptsz,          DT_NO_PROC) \
	X(cudaGetDriverEntryPointByVersion,      DT_NO_PROC) \
	X(cudaGetDriverEntryPointByVersion_ptsz, DT_NO_PROC) \
	X(cudaStreamBeginCapture,                DT_NO_PROC) \
	X(cudaStreamBeginCapture_ptsz,           DT_NO_PROC) \
	X(cuStreamBeginCapture_v2,               DT_PROC(cuStreamBeginCapture, 10010)) \
	X(cuStreamBeginCapture_v2_ptsz,          DT_PROC_PT(cuStreamBeginCapture, 10010)) \
	X(cudaGraphInstantiate,                  DT_NO_PROC) \
	X(cudaGraphInstantiateWithFlags,         DT_NO_PROC) \
	X(cudaGraphInstantiateWithParams,        DT_NO_PROC) \
	X(cudaGraphInstantiateWithParams_ptsz,   DT_NO_PROC) \
	X(cuGraphInstantiateWithFlags,           DT_PROC(cuGraphInstantiateWithFlags, 11040)) \
	X(cuGraphInstantiateWithParams,          DT_PROC(cuGraphInstantiateWithParams, 12000)) \
	X(cuGraphInstantiateWithParams_ptsz,     DT_PROC_PT(cuGraphInstantiateWithParams, 12000)) \
	X(cuCtxCreate_v2,                        DT_PROC(cuCtxCreate, 3020)) \
	X(cuCtxCreate_v3,                        DT_PROC(cuCtxCreate, 11040)) \
	X(cuCtxCreate_v4,                        DT_PROC(cuCtxCreate, 12050)) \
	X(cudnnDestroy,                          DT_NO_PROC) \
	X(cudnnSetTensor4dDescriptor,            DT_NO_PROC) \
	X(cudnnSetTensor4dDescriptorEx,          DT_NO_PROC) \
	X(cudnnSetTensorNdDescriptor,            DT_NO_PROC) \
	X(cudnnSetTensorNdDescriptorEx,          DT_NO_PROC) \
	X(cudnnDestroyTensorDescriptor,          DT_NO_PROC) \
	X(cudnnDeriveBNTensorDescriptor,         DT_NO_PROC) \
	X(cudnnDeriveNormTensorDescriptor,       DT_NO_PROC) \
	X(cudnnSetFilter4dDescriptor,            DT_NO_PROC) \
	X(cudnnSetFilterNdDescriptor,            DT_NO_PROC) \
	X(cudnnDestroyFilterDescriptor,          DT_NO_PROC) \
	X(cudnnBackendCreateDescriptor,          DT_NO_PROC) \
	X(cudnnBackendDestroyDescriptor,         DT_NO_PROC) \
	X(cudnnBackendSetAttribute,              DT_NO_PROC) \
	X(cudnnBackendGetAttribute,              DT_NO_PROC) \
	X(cudnnBackendFinalize,                  DT_NO_PROC) \
	X(cublasLtMatmulDescCreate,              DT_NO_PROC) \
	X(cublasLtMatmulDescInit_internal,       DT_NO_PROC) \
	X(cublasLtMatmulDescDestroy,             DT_NO_PROC) \
	X(cublasLtMatmulDescSetAttribute,        DT_NO_PROC) \
	X(cublasLtMatrixLayoutCreate,            DT_NO_PROC) \
	X(cublasLtMatrixLayoutInit_internal,     DT_NO_PROC) \
	X(cublasLtMatrixLayoutDestroy,           DT_NO_PROC) \
	X(cublasLtMatrixLayoutSetAttribute,      DT_NO_PROC)

/*
 * DNNTRACE_HELPER_ENTRIES(X): not wrapped; the tracer calls them when they
 * exist (parameter layouts, kernel names, the current device and stream,
 * memory in use, whether the driver is initialised) and does without them
 * when not. X(name).
 */
#define DNNTRACE_HELPER_ENTRIES(X) \
	X(cudaGetDevice) X(cudaFuncGetParamInfo) X(cudaFuncGetName) \
	X(cudaGetLastError) X(cudaPeekAtLastError) X(cudaRuntimeGetVersion) \
	X(cuFuncGetParamInfo) X(cuFuncGetName) X(cuCtxGetDevice) X(cuMemGetInfo_v2) \
	X(cuDeviceGetCount) X(cuStreamGetCaptureInfo_v3) X(cuGraphGetNodes) \
	X(cuCtxGetCurrent) X(cuDevicePrimaryCtxGetState) \
	X(cudnnGetStream) X(cudnnGetTensorNdDescriptor) X(cudnnGetFilterNdDescriptor) \
	X(cublasGetStream_v2) X(cublasGetPointerMode_v2) \
	X(cublasLtMatmulDescGetAttribute) X(cublasLtMatrixLayoutGetAttribute)

/*
 * The column values, as comma-separated fields a consumer spreads over its
 * own macro's parameters with DT_SPREAD (a column holds one macro argument
 * in the lists above, several once expanded):
 *   proc -> kind, "symbol", version (kind 0 none, 1 legacy stream, 2 per-thread)
 *   cbid -> domain, callback id     (domain 0 none, 1 runtime, 2 driver)
 * Symbols are stringified and callback ids pasted at once, before anything
 * else can expand them: cuda.h defines cuMemAlloc as cuMemAlloc_v2. For the
 * same reason a consumer may only stringify (#name) or paste (##name) an
 * entry's name (and paste its kind), never use them bare.
 */
#define DT_NO_PROC                   0, "", 0
#define DT_PROC(symbol, version)     1, #symbol, version
#define DT_PROC_PT(symbol, version)  2, #symbol, version
#define DT_NO_CBID                   0, 0
#define DT_RUNTIME_CBID(cbid)        1, CUPTI_RUNTIME_TRACE_CBID_##cbid
#define DT_DRIVER_CBID(cbid)         2, CUPTI_DRIVER_TRACE_CBID_##cbid

/* Calls macro(args...) after the arguments' columns have been expanded. */
#define DT_SPREAD(macro, ...) macro(__VA_ARGS__)

#endif
