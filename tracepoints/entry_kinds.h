/*
 * What each dnntrace_api entry point does, from the catalogue
 * (tracepoints/entry_points.h, the kind column of DNNTRACE_API_ENTRIES):
 * every question "is this call a prefetch, a graph launch, an asynchronous
 * copy?" is answered here, never by a list of names or ids kept by hand.
 * Shared by the tracer and the analyzer. Must never hold a kind that is
 * not the catalogue's.
 */
#ifndef DNNTRACE_ENTRY_KINDS_H
#define DNNTRACE_ENTRY_KINDS_H

#include <stdbool.h>

#include "tracepoints/dnntrace_enums.h"

enum dnntrace_entry_kind {
	DNNTRACE_KIND_NONE = 0,      /* an id this build does not know */
	DNNTRACE_KIND_ALLOC,
	DNNTRACE_KIND_FREE,
	DNNTRACE_KIND_COPY,
	DNNTRACE_KIND_COPY_ASYNC,
	DNNTRACE_KIND_SET,
	DNNTRACE_KIND_SET_ASYNC,
	DNNTRACE_KIND_PREFETCH,
	DNNTRACE_KIND_LAUNCH,
	DNNTRACE_KIND_GRAPH_LAUNCH,
	DNNTRACE_KIND_GRAPH_NODE,
	DNNTRACE_KIND_GRAPH_COPY_NODE,
	DNNTRACE_KIND_GRAPH_UPDATE,
	DNNTRACE_KIND_GRAPH_MEM_NODE,
	DNNTRACE_KIND_GRAPH_ANY_NODE, /* the generic node API: function_id 0 says a copy or set */
	DNNTRACE_KIND_GRAPH_NODE_ENABLE,
	DNNTRACE_KIND_REGISTER,      /* the program's own memory pinned: no allocation */
	DNNTRACE_KIND_UNREGISTER,    /* ... and unpinned, the memory stays the program's */
};

/* The kind of the dnntrace_api entry point api (enum dnntrace_api_id). */
static inline enum dnntrace_entry_kind dnntrace_api_kind(int api)
{
	switch (api) {
#define DT_KIND_CASE(id, name, kind, proc, cbid) \
	case DNNTRACE_API_##name: return DNNTRACE_KIND_##kind;
	DNNTRACE_API_ENTRIES(DT_KIND_CASE)
#undef DT_KIND_CASE
	default:
		return DNNTRACE_KIND_NONE;
	}
}

#endif
