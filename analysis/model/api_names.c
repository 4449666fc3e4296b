/*
 * Entry point names (api_names.h), one table per provider, indexed by the
 * stable enum values of tracepoints/dnntrace_enums.h, and the predicates
 * the analysis asks of a call, by its kind in the catalogue
 * (tracepoints/entry_kinds.h). Must never index a
 * table without checking the id: traces come from any tracer version.
 */
#include "analysis/model/api_names.h"

#include <stddef.h>

#include "tracepoints/dnntrace_enums.h"
#include "tracepoints/entry_kinds.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * By value, from the catalogue (tracepoints/entry_points.h), which also
 * spells the trace's enum labels. Two entry points given one id stop the
 * build (-Woverride-init, part of -Wextra); an id without an entry point
 * reads as "".
 */
static const char *const launch_api_names[DNNTRACE_API_COUNT] = {
#define DT_API_NAME(id, name, kind, proc, cbid) [id] = #name,
	DNNTRACE_API_ENTRIES(DT_API_NAME)
#undef DT_API_NAME
};

static const char *const lib_api_names[DNNTRACE_LIB_COUNT] = {
#define DT_LIB_NAME(id, name, args, params) [id] = #name,
	DNNTRACE_LIB_ENTRIES(DT_LIB_NAME)
#undef DT_LIB_NAME
};

static const char *lookup(const char *const *names, size_t count, long index)
{
	if (index < 0 || (size_t)index >= count || !names[index])
		return "";
	return names[index];
}

const char *dt_launch_api_name(int api)
{
	return lookup(launch_api_names, COUNT(launch_api_names), api);
}

const char *dt_lib_api_name(int api)
{
	return lookup(lib_api_names, COUNT(lib_api_names), api);
}

bool dt_api_is_prefetch(int api)
{
	return dnntrace_api_kind(api) == DNNTRACE_KIND_PREFETCH;
}

bool dt_api_is_graph_launch(int api)
{
	return dnntrace_api_kind(api) == DNNTRACE_KIND_GRAPH_LAUNCH;
}

bool dt_api_is_host_register(int api)
{
	return dnntrace_api_kind(api) == DNNTRACE_KIND_REGISTER;
}

bool dt_api_is_host_unregister(int api)
{
	return dnntrace_api_kind(api) == DNNTRACE_KIND_UNREGISTER;
}

bool dt_api_is_async_copy(int api)
{
	enum dnntrace_entry_kind kind = dnntrace_api_kind(api);
	return kind == DNNTRACE_KIND_COPY_ASYNC || kind == DNNTRACE_KIND_SET_ASYNC ||
	       kind == DNNTRACE_KIND_PREFETCH;
}
