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

/* Whether a dnntrace_api:memcpy of this api is a managed-memory prefetch:
 * it moves pages and writes no contents. */
bool dt_api_is_prefetch(int api);

#endif
