/*
 * Which CUDA context owns a new tensor. The contexts cuCtxCreate made are
 * remembered here (by its wrappers, whether or not a session listens), so
 * that cuCtxDestroy ends exactly the tensors allocated while one of them
 * was current. Memory allocated under a device's primary context, or under
 * none, has owner 0: its device's reset (cudaDeviceReset,
 * cuDevicePrimaryCtxReset) or the primary context's last release ends it.
 *
 * Must never call CUDA but cuCtxGetCurrent, and that only while a created
 * context exists (a program that never calls cuCtxCreate pays nothing);
 * never allocate or lock.
 */
#ifndef DNNTRACE_CONTEXT_OWNER_H
#define DNNTRACE_CONTEXT_OWNER_H

#include <stdbool.h>
#include <stdint.h>

/* cuCtxCreate made ctx. False when the table is full (the context's tensors
 * then count as its device's primary context's). */
bool context_owner_add(uintptr_t ctx);

/* At exit: says on stderr how many contexts the full table could not hold. */
void context_owner_report_overflow(void);

/* ctx is destroyed: true when it was a created context this table knew. */
bool context_owner_remove(uintptr_t ctx);

/* The calling thread's current context when cuCtxCreate made it, else 0. */
uintptr_t context_owner_current(void);

#endif
