/*
 * What the tracer knows about each kernel function handle (a host function,
 * or a cudaKernel_t cast to void *: another key for the same kernel): its
 * name (cudaFuncGetName) and its parameter layout (cudaFuncGetParamInfo),
 * asked once per handle and cached in a lock-free, read-mostly table; and
 * the scan of a launch's parameter bytes for pointers into live tensors.
 *
 * Each cached function also has a process-wide function id, which launch
 * events carry instead of the name, and is announced once per process in a
 * dnntrace_api:function event (kernel_info_announce).
 *
 * Driver-level launches (cuLaunchKernel & co.) name a CUfunction: their
 * infos come from cuFuncGetName / cuFuncGetParamInfo and are cached apart
 * from the runtime's (same table, keyed by handle AND api).
 *
 * Must never leave a CUDA error behind for the program to see: probing runs
 * only when the thread has no pending error and clears the ones it causes.
 */
#ifndef DNNTRACE_KERNEL_INFO_H
#define DNNTRACE_KERNEL_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interceptors/core/tensor_map.h"

struct kernel_param {
	uint32_t offset;
	uint32_t size;
};

struct kernel_info {
	const void *func;
	bool driver;             /* func is a CUfunction */
	const char *name;        /* "" when the runtime gave none */
	uint64_t function_id;    /* 1, 2, ... per process; 0: unknown (no info) */
	_Atomic(unsigned) announcement; /* kernel_info.c: announced in which epoch */
	uint32_t n_params;
	struct kernel_param params[];
};

/*
 * The cached info for func, probing the runtime on first sight. Never NULL:
 * when the layout cannot be learnt now, an info with no parameters (not
 * cached, so a later launch asks again).
 */
const struct kernel_info *kernel_info_get(const void *func);

/* The same for a driver CUfunction (cuFuncGetName, cuFuncGetParamInfo). */
const struct kernel_info *kernel_info_get_driver(const void *function);

/*
 * Emits info's dnntrace_api:function event unless this process already did
 * (or its function_id is 0): call it on the launching thread just before
 * the launch event. Allocates nothing; no lock.
 */
void kernel_info_announce(const struct kernel_info *info);

/* In a forked child: every function is announced again (a new vpid). */
void kernel_info_forget_announcements(void);

/* Most tensor ids one launch event lists; more are counted as overflow. */
enum { KERNEL_MAX_TENSORS = 256 };

/*
 * Writes to ids the distinct ids of the live tensors that the 8-byte-aligned
 * 8-byte words of the parameters point into, in parameter order; returns
 * how many (at most KERNEL_MAX_TENSORS).
 */
unsigned kernel_scan_tensors(const struct kernel_info *info, void **args,
			     struct tensor_map *tensors, int64_t *ids);

/*
 * The same for a launch whose parameters come packed in one buffer
 * (cuLaunchKernel's extra: CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE), laid out
 * as the device's parameter buffer: every 8-byte-aligned word is scanned.
 */
unsigned kernel_scan_buffer(const void *buffer, size_t size, struct tensor_map *tensors,
			    int64_t *ids);

/* Prints one line on stderr if some launch had more than KERNEL_MAX_TENSORS. */
void kernel_info_report_overflow(void);

#endif
