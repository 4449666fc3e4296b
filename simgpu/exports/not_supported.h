/*
 * The one line a simulated library prints when a program calls a function
 * simgpu exports (so the program links and runs) but does not model: once
 * per function, from any thread, with no allocation and no stdio (callers
 * may hold locks, be in a signal-unsafe state, or run before main).
 * Never exported: the version scripts keep sim_* names local.
 */
#ifndef SIMGPU_EXPORTS_NOT_SUPPORTED_H
#define SIMGPU_EXPORTS_NOT_SUPPORTED_H

#include <stdatomic.h>
#include <stddef.h>

/* Writes `line` (len bytes, newline included) to stderr unless *reported
   was already set; sets it. */
void sim_not_supported_report(atomic_flag *reported, const char *line, size_t len);

#endif
