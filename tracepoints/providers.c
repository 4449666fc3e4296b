/*
 * Instantiates the dnntrace_api, dnntrace_gpu, dnntrace_lib and dnntrace_nvtx tracepoint providers (the
 * probes LTTng-UST registers). Linked into libdnntrace.so and into test
 * emitters; nothing else belongs here.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tracepoints/dnntrace_api.h"
#include "tracepoints/dnntrace_gpu.h"
#include "tracepoints/dnntrace_lib.h"
#include "tracepoints/dnntrace_nvtx.h"
