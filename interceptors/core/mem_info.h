/*
 * Device memory in use, sampled after traced allocations (mem_info.c).
 * Must never be called from anywhere but a recording wrapper (nesting > 0),
 * so the driver call it makes is never traced itself.
 */
#ifndef DNNTRACE_MEM_INFO_H
#define DNNTRACE_MEM_INFO_H

/* After a successful traced device allocation on device: emits
 * dnntrace_api:mem_info for the first allocation of the calling thread and
 * every DNNTRACE_MEMINFO_EVERY-th after it (default 16, 0: never). */
void mem_info_after_alloc(int device);

#endif
