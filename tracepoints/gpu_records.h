/*
 * The --gpu-records modes: which CUPTI records the tracer asks for, and how
 * it links GPU work to the call that submitted it. One list, read by both
 * sides of the trace: the tracer (interceptors/core/cupti_session.c, which
 * takes the mode from DNNTRACE_GPU_RECORDS and writes "gpu-records=NAME" at
 * the end of its dnntrace_api:status message) and the analyzer (summary.c,
 * which reads it back and says which mode the trace was recorded in).
 * Must hold nothing but the list and its lookups; the names are part of the
 * trace format and of the CLI: never rename one.
 *
 * DNNTRACE_GPU_RECORDS_MODES(X), one X per mode:
 *   X(ENUM, "name", "what the analysis gets")
 */
#ifndef DNNTRACE_GPU_RECORDS_H
#define DNNTRACE_GPU_RECORDS_H

#include <string.h>

#define DNNTRACE_GPU_RECORDS_MODES(X) \
	X(DNNTRACE_GPU_RECORDS_OFF, "off", \
	  "no CUPTI: launches stand in for kernels, no GPU times") \
	X(DNNTRACE_GPU_RECORDS_KERNELS, "kernels", \
	  "kernel records only, linked through CUPTI callback correlation ids; " \
	  "no copy or set records") \
	X(DNNTRACE_GPU_RECORDS_WORK, "work", \
	  "kernel, copy and set records, linked through CUPTI callback correlation ids") \
	X(DNNTRACE_GPU_RECORDS_FULL, "full", \
	  "kernel, copy and set records, linked through CUPTI API and external " \
	  "correlation records")

enum dnntrace_gpu_records {
#define DT_GPU_RECORDS_ENUM_(id, name, what) id,
	DNNTRACE_GPU_RECORDS_MODES(DT_GPU_RECORDS_ENUM_)
#undef DT_GPU_RECORDS_ENUM_
	DNNTRACE_GPU_RECORDS_COUNT
};

/*
 * The default: the cheapest mode that keeps every kernel (graph kernels
 * included) linked to its launch and gives the analysis every record it
 * reads. Chosen by reasoning, not measured (no GPU in the session that made
 * it; bench/README.md, "Training step"): `work` asks CUPTI for no API
 * record at all, where `full` makes it write an API record (two timestamps)
 * and an external correlation record for every linked call, or for EVERY
 * CUDA call once the program had initialised CUDA before tracing started
 * (PyTorch does), and pushes and pops an id through CUPTI around each.
 * `work` pays CUPTI's callbacks on the linked calls only (entry and exit,
 * runtime and driver entry point), which write one event per correlation
 * id.
 * Assumed: a CUPTI callback costs less than an API record plus an external
 * correlation record. `make bench-gpu` measures every mode.
 */
#define DNNTRACE_GPU_RECORDS_DEFAULT DNNTRACE_GPU_RECORDS_WORK

/* The trace's marker: the status message ends in " gpu-records=NAME". */
#define DNNTRACE_GPU_RECORDS_MARK "gpu-records="

static inline const char *dnntrace_gpu_records_name(enum dnntrace_gpu_records mode)
{
	switch (mode) {
#define DT_GPU_RECORDS_NAME_(id, name, what) case id: return name;
	DNNTRACE_GPU_RECORDS_MODES(DT_GPU_RECORDS_NAME_)
#undef DT_GPU_RECORDS_NAME_
	default: return "?";
	}
}

static inline const char *dnntrace_gpu_records_what(enum dnntrace_gpu_records mode)
{
	switch (mode) {
#define DT_GPU_RECORDS_WHAT_(id, name, what) case id: return what;
	DNNTRACE_GPU_RECORDS_MODES(DT_GPU_RECORDS_WHAT_)
#undef DT_GPU_RECORDS_WHAT_
	default: return "?";
	}
}

/* The mode named by the first len bytes of text; -1 when none is. */
static inline int dnntrace_gpu_records_lookup(const char *text, size_t len)
{
	for (int mode = 0; mode < DNNTRACE_GPU_RECORDS_COUNT; mode++) {
		const char *name = dnntrace_gpu_records_name((enum dnntrace_gpu_records)mode);
		if (strlen(name) == len && strncmp(text, name, len) == 0)
			return mode;
	}
	return -1;
}

#endif
