/*
 * Stream-ordered allocs and frees (cudaMallocAsync, cuMemAllocFromPoolAsync,
 * cudaFreeAsync, cuMemFreeAsync...): the memory is taken and goes back when
 * the stream reaches the call, not at the host call. This finds those
 * points from the GPU records of the same stream. Must never change
 * the model: the caller decides where the times go.
 */
#ifndef DNNTRACE_ANALYSIS_STREAM_ORDER_H
#define DNNTRACE_ANALYSIS_STREAM_ORDER_H

#include <stdint.h>

#include "analysis/model/model.h"

/* Where a tensor's stream got to its alloc and its free; 0 where the
 * call's own host time stands (not stream-ordered, or its stream could
 * not be placed). */
struct dt_stream_points {
	uint64_t ready_ns, release_ns;
};

/* Per tensor of p (same index as p->tensors). NULL when the process has
 * no stream-ordered alloc or free. The caller frees it. */
struct dt_stream_points *dt_stream_points(const struct dt_process *p);

#endif
