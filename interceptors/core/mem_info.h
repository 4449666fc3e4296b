/*
 * Device memory in use, sampled after traced allocations (mem_info.c).
 * Must never be called from anywhere but a recording wrapper (nesting > 0),
 * so the driver call it makes is never traced itself.
 */
#ifndef DNNTRACE_MEM_INFO_H
#define DNNTRACE_MEM_INFO_H

/* After a successful traced device allocation on device: emits
 * dnntrace_api:mem_info for the calling thread's 1st, 2nd, 4th, ...
 * allocations below N = DNNTRACE_MEMINFO_EVERY (default 128, 0: never),
 * then every Nth. */
void mem_info_after_alloc(int device);

#endif
