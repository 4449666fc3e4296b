/*
 * What the simulated driver's entry points (driver/cuda_api_*.c) share:
 * the initialised check (the core's flag, which cuInit sets), and the
 * report of calls that submit no GPU work. Internal to libcuda.so.1; it
 * must never be included by the runtime or by programs.
 */
#ifndef SIMGPU_DRIVER_INTERNAL_H
#define SIMGPU_DRIVER_INTERNAL_H

#include <cupti_driver_cbid.h>

#include "simgpu/core/sim_internal.h"

/* The driver version the simulated driver reports (CUDA 13.0). */
#define SIM_DRIVER_VERSION 13000

/* Ordinals a process may see (SIMGPU_DEVICE_COUNT, cuda_api_device.c); they
 * share one memory and one timeline. */
#define SIM_MAX_DEVICES 16
int sim_device_count(void);

/* Every entry point but cuInit, cuDriverGetVersion, cuGetErrorName/String
 * and cuGetProcAddress starts with this, as on a real driver. */
#define DRIVER_ENTER()                                              \
	do {                                                        \
		if (!sim_driver_initialized())                      \
			return CUDA_ERROR_NOT_INITIALIZED;          \
		cudaError_t sticky_ = sim_enter();                  \
		if (sticky_ != cudaSuccess)                         \
			return sim_cu_result(sticky_);              \
	} while (0)

/* A call that submits no GPU work, reported to CUPTI with its result. */
#define DRIVER_API_CALL(cbid_name, expr)                                   \
	do {                                                               \
		int cbid_ = CUPTI_DRIVER_TRACE_CBID_##cbid_name;           \
		uint64_t start_ = sim_api_begin(cbid_);                    \
		CUresult result_ = (expr);                                 \
		sim_api_end(cbid_, start_, (int)result_);                  \
		return result_;                                            \
	} while (0)

/* An array's device memory: rows of row_bytes, one per (y, z) (CUDA
 * arrays, cuda_api_arrays.c); 0 if array is not one. */
int sim_array_region(CUarray array, void **dev, size_t *row_bytes, size_t *rows);

/* cuGraphAddMemAllocNode's work (cuda_api_graph_memory.c), which
 * cuGraphAddNode does for an alloc node too; p->dptr set on success. */
CUresult driver_add_alloc_node(CUgraphNode *out, CUgraph graph, const CUgraphNode *deps,
			       size_t ndeps, CUDA_MEM_ALLOC_NODE_PARAMS *p);

#define DPTR(p) ((void *)(uintptr_t)(p))
#define CBID(name) CUPTI_DRIVER_TRACE_CBID_##name

#endif
