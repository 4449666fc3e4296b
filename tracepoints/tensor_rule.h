/*
 * Which kinds of memory are tensors: the one rule the tracer applies when
 * an allocation succeeds (a tensor gets an id and enters the live map) and
 * that a trace reader can apply to an alloc event's kind. Shared by the
 * tracer and the analyzer, so it lives here with the enums.
 *
 * A tensor is memory a kernel can name by address and read or write:
 * device, managed, stream-ordered memory and a range mapped with cuMemMap.
 * Pinned host memory, a VMM physical allocation (cuMemCreate: a handle, no
 * address) and a reserved address range (cuMemAddressReserve: no memory)
 * are not. Must never depend on anything but the kind.
 */
#ifndef DNNTRACE_TENSOR_RULE_H
#define DNNTRACE_TENSOR_RULE_H

#include <stdbool.h>

#include "tracepoints/dnntrace_enums.h"

static inline bool dnntrace_mem_kind_is_tensor(enum dnntrace_mem_kind kind)
{
	switch (kind) {
	case DNNTRACE_MEM_DEVICE:
	case DNNTRACE_MEM_MANAGED:
	case DNNTRACE_MEM_STREAM_ORDERED:
	case DNNTRACE_MEM_VMM_MAPPED:
		return true;
	case DNNTRACE_MEM_PINNED_HOST:
	case DNNTRACE_MEM_VMM_PHYSICAL:
	case DNNTRACE_MEM_VMM_RESERVED:
		return false;
	}
	return false;
}

#endif
