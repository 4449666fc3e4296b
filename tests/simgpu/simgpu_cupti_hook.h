/*
 * The private contract between the simulated libcudart.so.13 and the
 * simulated libcupti.so.13: how CUPTI learns about GPU work. Not for programs:
 * only tests/simgpu/cupti_activity.c uses it.
 *
 * libcupti finds the libcudart.so.13 already loaded in the process
 * (dlopen RTLD_NOLOAD) and looks up simgpu_internal_attach_cupti in it. The
 * real libcudart has no such symbol, so the simulated CUPTI then fails cleanly.
 * Once attached, cudart calls the sink in the thread that made the CUDA call,
 * after the work is on the timeline and before the call returns, once per
 * kernel, copy or set, and once per call that submits no GPU work but has
 * a CUPTI runtime cbid (SIMGPU_WORK_NONE: cudaMalloc, cudaFree, ...; its
 * correlation_id is 0, and CUPTI takes one from
 * simgpu_internal_next_correlation_id only if it writes a record for it).
 * It never holds its own lock while calling the sink.
 */
#ifndef SIMGPU_CUPTI_HOOK_H
#define SIMGPU_CUPTI_HOOK_H

#include <stddef.h>
#include <stdint.h>

#define SIMGPU_CUPTI_HOOK_VERSION 2

enum simgpu_work_kind {
	SIMGPU_WORK_KERNEL,
	SIMGPU_WORK_MEMCPY,
	SIMGPU_WORK_MEMSET,
	SIMGPU_WORK_NONE, /* an API call that submits no GPU work */
};

struct simgpu_work {
	enum simgpu_work_kind kind;
	uint32_t correlation_id; /* unique per API call, from 1 */
	uint32_t device_id;
	uint32_t context_id;
	uint32_t stream_id;
	uint64_t start_ns;       /* device time = CLOCK_MONOTONIC ns */
	uint64_t end_ns;
	uint64_t api_start_ns;   /* host time the API call began */
	int api_cbid;            /* CUPTI_RUNTIME_TRACE_CBID_* of the entry point */
	int api_result;          /* cudaError_t the call returns (0 for GPU work) */
	int is_async;            /* a *Async copy or set */
	/* kernel */
	const char *name;        /* valid for the process lifetime */
	uint32_t grid[3];
	uint32_t block[3];
	uint64_t dynamic_shared_mem;
	/* memcpy: CUpti_ActivityMemcpyKind / CUpti_ActivityMemoryKind values */
	uint8_t copy_kind;
	uint8_t src_kind;
	uint8_t dst_kind;
	/* memset */
	uint32_t value;
	uint16_t memory_kind;
	/* memcpy and memset */
	uint64_t bytes;
};

typedef void (*simgpu_work_sink)(const struct simgpu_work *work);
/* Whether a call of this runtime cbid that submits no GPU work is wanted
 * (SIMGPU_WORK_NONE); cheap, lock-free: asked on every such call. */
typedef int (*simgpu_api_filter)(int cbid);

/*
 * Exported by the simulated libcudart.so.13 under these names (version node
 * libcudart.so.13). attach returns 0 on success, -1 if version differs.
 * Passing NULLs detaches. work_complete tells whether work ending at device
 * time end_ns has completed as the host sees it (for non-forced flushes).
 */
typedef int (*simgpu_attach_cupti_fn)(unsigned int version, simgpu_work_sink sink,
				      simgpu_api_filter filter);
typedef int (*simgpu_work_complete_fn)(uint64_t end_ns);
typedef uint32_t (*simgpu_next_correlation_id_fn)(void);
#define SIMGPU_ATTACH_CUPTI_SYMBOL "simgpu_internal_attach_cupti"
#define SIMGPU_WORK_COMPLETE_SYMBOL "simgpu_internal_work_complete"
#define SIMGPU_NEXT_CORRELATION_ID_SYMBOL "simgpu_internal_next_correlation_id"

#endif
