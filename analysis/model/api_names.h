/*
 * Names of the traced entry points, as the trace's enum labels spell them
 * (tracepoints/dnntrace_api.h, dnntrace_lib.h). Must never return NULL: an
 * id this analyzer does not know (a newer tracer) gets an empty name.
 */
#ifndef DNNTRACE_ANALYSIS_API_NAMES_H
#define DNNTRACE_ANALYSIS_API_NAMES_H

#include <stdbool.h>

/* enum dnntrace_api_id: cudaLaunchKernel, ... */
const char *dt_launch_api_name(int api);
/* enum dnntrace_lib_api_id: cudnnConvolutionForward, cublasLtMatmul, ... */
const char *dt_lib_api_name(int api);

/* Predicates on an enum dnntrace_api_id, each the catalogue's kind
 * (tracepoints/entry_points.h), false for an id this build does not know.
 * A managed-memory prefetch moves pages and writes no contents. */
bool dt_api_is_prefetch(int api);
/* cudaGraphLaunch, cuGraphLaunch and their _ptsz twins. */
bool dt_api_is_graph_launch(int api);
/* A copy or set that returns before the GPU has done it (an async copy or
 * set, a prefetch): it submits work without waiting, like a launch. */
bool dt_api_is_async_copy(int api);
/* The program's own host memory pinned (cudaHostRegister,
 * cuMemHostRegister_v2), or unpinned (cudaHostUnregister, cuMemHostUnregister). */
bool dt_api_is_host_register(int api);
bool dt_api_is_host_unregister(int api);

#endif
