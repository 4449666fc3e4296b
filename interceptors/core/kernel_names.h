/*
 * Ids for the kernel names in CUPTI's kernel records: the first record that
 * names a kernel gets its name a new id (1, 2, ... per process) and has one
 * dnntrace_gpu:kernel_name event written just before it, on the same
 * thread; every record carries the id alone, never the name again.
 *
 * Runs on CUPTI's buffer-completed path (its worker thread, or a thread
 * flushing), never on a wrapped call's: it may allocate and lock. Must never
 * trust CUPTI's name pointer alone: its lifetime and reuse are
 * undocumented, so a pointer seen before counts only while its string is
 * still the one copied then.
 */
#ifndef DNNTRACE_KERNEL_NAMES_H
#define DNNTRACE_KERNEL_NAMES_H

#include <stdint.h>

/* The id of name (0: NULL or empty, or no memory to remember it), its
 * kernel_name event written first if it is new. */
uint32_t kernel_name_id(const char *name);

#endif
