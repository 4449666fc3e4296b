/*
 * truth: the ground truth a workload writes about itself, by construction,
 * for the end-to-end tests to compare the analyzer's reports against. The
 * workload declares each device allocation and each kernel as it makes them;
 * truth numbers tensors like the tracer (0, 1, 2, ... per successful device
 * allocation) and derives the G10 liveness, inactive periods and memory from
 * the kernel order and the exact durations the workload chose. It must never
 * look at a trace or the analyzer: it knows only what the workload did.
 */
#ifndef TRUTH_H
#define TRUTH_H

#include <stddef.h>
#include <stdint.h>

struct truth;

struct truth *truth_new(void);
void truth_delete(struct truth *truth);

/* A successful device allocation at ptr; returns its tensor id. */
int64_t truth_alloc(struct truth *truth, const void *ptr, uint64_t bytes,
		    const char *name, int global);

/* The tensor at ptr was freed (its id is never reused). */
void truth_free(struct truth *truth, const void *ptr);

/*
 * A kernel, declared in GPU start order, touching the live tensors that
 * contain each of ptrs (each tensor once, in the order given), running for
 * exactly duration_ns.
 */
void truth_kernel(struct truth *truth, const char *name,
		  const void *const *ptrs, size_t n_ptrs, uint64_t duration_ns);

/*
 * Writes kernels.csv, tensors.csv, liveness.csv, periods.csv and memory.csv
 * into dir (created if absent). Returns 0, or -1 with a message on stderr.
 */
int truth_write(const struct truth *truth, const char *dir);

#endif
