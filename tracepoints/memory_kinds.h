/*
 * The kind of memory each allocation and free entry point handles, from the
 * catalogue (tracepoints/entry_points.h, DNNTRACE_MEMORY_ENTRIES): the
 * tracer decides by it whether an allocation is a tensor and whether its
 * events are the stream-ordered ones, and a trace reader gets an alloc
 * event's kind from its api (format 3's events do not carry it; older
 * formats' kind field always agreed). Shared by the tracer and the
 * analyzer. Must never hold a kind that is not the catalogue's.
 */
#ifndef DNNTRACE_MEMORY_KINDS_H
#define DNNTRACE_MEMORY_KINDS_H

#include <stdbool.h>

#include "tracepoints/dnntrace_enums.h"

/* The kind api allocates or frees; -1 for an entry point that does neither. */
static inline int dnntrace_api_mem_kind(int api)
{
	switch (api) {
#define DT_MEMORY_CASE(name, kind) case DNNTRACE_API_##name: return DNNTRACE_MEM_##kind;
	DNNTRACE_MEMORY_ENTRIES(DT_MEMORY_CASE)
#undef DT_MEMORY_CASE
	default:
		return -1;
	}
}

/* Whether api's allocation or free takes effect when its stream reaches it. */
static inline bool dnntrace_api_is_stream_ordered(int api)
{
	return dnntrace_api_mem_kind(api) == DNNTRACE_MEM_STREAM_ORDERED;
}

#endif
