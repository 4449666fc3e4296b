/*
 * CUPTI activity tracing for dnntrace (see cupti_session.h).
 *
 * libcupti.so.13 is taken from the directory of the libcudart the process
 * actually loaded (so a simulated or bundled runtime gets its own CUPTI),
 * else from $CUDA_HOME/extras/CUPTI/lib64 or $CUDA_HOME/lib64, else from the
 * default search. Records arrive late, in batches, on CUPTI's threads: each
 * becomes one dnntrace_gpu event whose start/end fields carry the GPU times
 * on CLOCK_MONOTONIC (the LTTng clock).
 *
 * Assumed, not tested on a real GPU: the record layouts of CUPTI 13.0
 * (CUpti_ActivityKernel10, Memcpy6, Memset4); that a subscribed-but-idle
 * cuptiSubscribe is how a second CUPTI client shows up (it fails with
 * CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED); that CUPTI delivers the
 * records of contexts cudart destroyed in its own exit handler at our
 * forced flush (the order NVIDIA's CUPTI samples rely on too).
 *
 * Must never call a wrapped CUDA function, nor allocate on the hot path
 * (buffers are allocated in CUPTI's buffer-request callback).
 */
#include "interceptors/cupti_session.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#include "interceptors/real_functions.h"
#include "tracepoints/dnntrace_api.h"
#include "tracepoints/dnntrace_gpu.h"

enum { BUFFER_BYTES = 4 << 20 };

static const char CUPTI_SONAME[] = "libcupti.so.13";

atomic_bool cupti_session_running;
static atomic_bool flushed;
static pid_t owner_pid;
/* Added to CUPTI times when no timestamp callback could be registered. */
static int64_t cupti_to_monotonic_ns;

static struct {
	__typeof__(&cuptiActivityRegisterCallbacks) register_callbacks;
	__typeof__(&cuptiActivityEnable) enable;
	__typeof__(&cuptiActivityGetNextRecord) next_record;
	__typeof__(&cuptiActivityGetNumDroppedRecords) dropped_records;
	__typeof__(&cuptiActivityFlushAll) flush_all;
	__typeof__(&cuptiActivityPushExternalCorrelationId) push_id;
	__typeof__(&cuptiActivityPopExternalCorrelationId) pop_id;
	__typeof__(&cuptiGetTimestamp) get_timestamp;
	/* optional */
	__typeof__(&cuptiActivityRegisterTimestampCallback) register_timestamp;
	__typeof__(&cuptiSubscribe) subscribe;
	__typeof__(&cuptiGetResultString) result_string;
	__typeof__(&cuptiGetVersion) get_version;
	__typeof__(&cuptiActivityEnableRuntimeApi) enable_runtime_api;
	__typeof__(&cuptiActivityEnableDriverApi) enable_driver_api;
} cupti;

static uint64_t monotonic_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

static uint64_t CUPTIAPI cupti_timestamp_callback(void)
{
	return monotonic_ns();
}

static uint64_t gpu_time(uint64_t cupti_ns)
{
	/* 0 means CUPTI had no timing for the record: keep it recognisable. */
	return cupti_ns ? cupti_ns + (uint64_t)cupti_to_monotonic_ns : 0;
}

static void *open_cupti(void)
{
	char path[PATH_MAX + 64], dir[PATH_MAX];
	void *handle;

	if (real_function_library(REAL_cudaMalloc, dir, sizeof(dir)) ||
	    real_function_library(REAL_cudaLaunchKernel, dir, sizeof(dir))) {
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/%s", dir, CUPTI_SONAME);
			if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
				return handle;
		}
	}
	const char *cuda_home = getenv("CUDA_HOME");
	if (cuda_home && cuda_home[0]) {
		snprintf(path, sizeof(path), "%s/extras/CUPTI/lib64/%s", cuda_home, CUPTI_SONAME);
		if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			return handle;
		snprintf(path, sizeof(path), "%s/lib64/%s", cuda_home, CUPTI_SONAME);
		if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			return handle;
	}
	return dlopen(CUPTI_SONAME, RTLD_NOW | RTLD_LOCAL);
}

/* Returns the name of the first required symbol missing, or NULL. */
static const char *load_symbols(void *handle)
{
#define REQUIRE(field, symbol) \
	if (!(cupti.field = (__typeof__(cupti.field))dlsym(handle, #symbol))) return #symbol;
	REQUIRE(register_callbacks, cuptiActivityRegisterCallbacks)
	REQUIRE(enable, cuptiActivityEnable)
	REQUIRE(next_record, cuptiActivityGetNextRecord)
	REQUIRE(dropped_records, cuptiActivityGetNumDroppedRecords)
	REQUIRE(flush_all, cuptiActivityFlushAll)
	REQUIRE(push_id, cuptiActivityPushExternalCorrelationId)
	REQUIRE(pop_id, cuptiActivityPopExternalCorrelationId)
	REQUIRE(get_timestamp, cuptiGetTimestamp)
#undef REQUIRE
	cupti.register_timestamp = (__typeof__(cupti.register_timestamp))
		dlsym(handle, "cuptiActivityRegisterTimestampCallback");
	cupti.subscribe = (__typeof__(cupti.subscribe))dlsym(handle, "cuptiSubscribe");
	cupti.result_string = (__typeof__(cupti.result_string))dlsym(handle, "cuptiGetResultString");
	cupti.get_version = (__typeof__(cupti.get_version))dlsym(handle, "cuptiGetVersion");
	cupti.enable_runtime_api = (__typeof__(cupti.enable_runtime_api))
		dlsym(handle, "cuptiActivityEnableRuntimeApi");
	cupti.enable_driver_api = (__typeof__(cupti.enable_driver_api))
		dlsym(handle, "cuptiActivityEnableDriverApi");
	return NULL;
}

static const char *result_name(CUptiResult result)
{
	const char *name = NULL;

	if (cupti.result_string && cupti.result_string(result, &name) == CUPTI_SUCCESS && name)
		return name;
	return "unknown CUPTI error";
}

static void emit_record(const CUpti_Activity *record)
{
	switch (record->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
		const CUpti_ActivityKernel10 *kernel = (const CUpti_ActivityKernel10 *)record;
		lttng_ust_tracepoint(dnntrace_gpu, kernel, kernel->correlationId,
				     kernel->deviceId, kernel->contextId, kernel->streamId,
				     gpu_time(kernel->start), gpu_time(kernel->end),
				     kernel->name ? kernel->name : "");
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		const CUpti_ActivityMemcpy6 *copy = (const CUpti_ActivityMemcpy6 *)record;
		lttng_ust_tracepoint(dnntrace_gpu, memcpy, copy->correlationId, copy->deviceId,
				     copy->contextId, copy->streamId, gpu_time(copy->start),
				     gpu_time(copy->end), copy->copyKind, copy->bytes);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET: {
		const CUpti_ActivityMemset4 *set = (const CUpti_ActivityMemset4 *)record;
		lttng_ust_tracepoint(dnntrace_gpu, memset, set->correlationId, set->deviceId,
				     set->contextId, set->streamId, gpu_time(set->start),
				     gpu_time(set->end), set->value, set->bytes);
		break;
	}
	case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
		const CUpti_ActivityExternalCorrelation *link =
			(const CUpti_ActivityExternalCorrelation *)record;
		if (link->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
			lttng_ust_tracepoint(dnntrace_gpu, external_correlation,
					     link->correlationId, link->externalId);
		break;
	}
	default:
		break;
	}
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, BUFFER_BYTES);
	*size = *buffer ? BUFFER_BYTES : 0;
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
				      size_t size, size_t valid_size)
{
	CUpti_Activity *record = NULL;
	size_t dropped = 0;
	(void)size;

	while (valid_size > 0 &&
	       cupti.next_record(buffer, valid_size, &record) == CUPTI_SUCCESS)
		emit_record(record);
	if (cupti.dropped_records(context, stream_id, &dropped) == CUPTI_SUCCESS && dropped)
		lttng_ust_tracepoint(dnntrace_gpu, records_dropped, dropped);
	free(buffer);
}

/* CUPTI needs a callback to subscribe; no domain is enabled, so it never runs. */
static void CUPTIAPI ignore_callback(void *userdata, CUpti_CallbackDomain domain,
				     CUpti_CallbackId id, const void *data)
{
	(void)userdata; (void)domain; (void)id; (void)data;
}

static void measure_clock_offset(void)
{
	uint64_t cupti_now = 0;
	uint64_t before = monotonic_ns();

	if (cupti.get_timestamp(&cupti_now) != CUPTI_SUCCESS || cupti_now == 0)
		return;
	uint64_t after = monotonic_ns();
	cupti_to_monotonic_ns = (int64_t)(before + (after - before) / 2) - (int64_t)cupti_now;
}

/*
 * The runtime entry points whose GPU work we link to our calls: exactly the
 * copies, sets and launches we wrap, with their _ptds/_ptsz twins
 * (cupti_runtime_cbid.h), nvcc 13's __cudaLaunchKernel[_ptsz] included.
 * cupti_activity.h says an EXTERNAL_CORRELATION
 * record accompanies an activity *API* record, so these need API records;
 * no other call (cudaMalloc, cudaFree, ...) should pay for one.
 */
static const CUpti_CallbackId linked_runtime_cbids[] = {
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020,
	CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
	CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
	CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
	CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};

/*
 * cuDNN and cuBLAS launch their kernels through the driver API, inside a
 * library call whose call id we pushed: these driver entry points need API
 * records too, or their kernels would carry no external correlation.
 * Assumed, not tested on a real GPU (simgpu's libraries launch through the
 * runtime): that real cuDNN/cuBLAS launch with exactly these entry points.
 */
static const CUpti_CallbackId linked_driver_cbids[] = {
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

/*
 * API records for the linked entry points only; when this CUPTI cannot do
 * that (no cuptiActivityEnableRuntimeApi, or it fails), the whole RUNTIME
 * kind: every cudart call then costs an API record, but links still work.
 * Assumed, not tested on a real GPU: per-cbid API records come with their
 * external correlation records as the RUNTIME kind's do.
 */
static CUptiResult enable_linked_api_records(bool *per_call)
{
	enum { N_CBIDS = sizeof(linked_runtime_cbids) / sizeof(linked_runtime_cbids[0]) };

	enum { N_DRIVER_CBIDS = sizeof(linked_driver_cbids) / sizeof(linked_driver_cbids[0]) };

	*per_call = cupti.enable_runtime_api != NULL && cupti.enable_driver_api != NULL;
	for (size_t i = 0; *per_call && i < N_CBIDS; i++)
		*per_call = cupti.enable_runtime_api(linked_runtime_cbids[i], 1) == CUPTI_SUCCESS;
	for (size_t i = 0; *per_call && i < N_DRIVER_CBIDS; i++)
		*per_call = cupti.enable_driver_api(linked_driver_cbids[i], 1) == CUPTI_SUCCESS;
	if (*per_call)
		return CUPTI_SUCCESS;
	CUptiResult result = cupti.enable(CUPTI_ACTIVITY_KIND_RUNTIME);
	return result == CUPTI_SUCCESS ? cupti.enable(CUPTI_ACTIVITY_KIND_DRIVER) : result;
}

/* Starts activity tracing; on failure, says why in message and returns the code. */
static int start_activity(char *message, size_t size)
{
	static const CUpti_ActivityKind kinds[] = {
		CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
		CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
	};
	CUptiResult result;

	void *handle = open_cupti();
	if (!handle) {
		snprintf(message, size, "cannot load %s: %s", CUPTI_SONAME, dlerror());
		return -1;
	}
	const char *missing = load_symbols(handle);
	if (missing) {
		snprintf(message, size, "%s lacks %s", CUPTI_SONAME, missing);
		return -2;
	}
	if (cupti.subscribe) {
		CUpti_SubscriberHandle subscriber;
		result = cupti.subscribe(&subscriber, ignore_callback, NULL);
		if (result != CUPTI_SUCCESS) {
			snprintf(message, size, "cuptiSubscribe: %s", result_name(result));
			return (int)result;
		}
	}
	bool own_clock = cupti.register_timestamp &&
		cupti.register_timestamp(cupti_timestamp_callback) == CUPTI_SUCCESS;
	result = cupti.register_callbacks(buffer_requested, buffer_completed);
	if (result != CUPTI_SUCCESS) {
		snprintf(message, size, "cuptiActivityRegisterCallbacks: %s", result_name(result));
		return (int)result;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		result = cupti.enable(kinds[i]);
		if (result != CUPTI_SUCCESS) {
			snprintf(message, size, "cuptiActivityEnable(%d): %s", (int)kinds[i],
				 result_name(result));
			return (int)result;
		}
	}
	bool per_call_api_records;
	result = enable_linked_api_records(&per_call_api_records);
	if (result != CUPTI_SUCCESS) {
		snprintf(message, size, "cuptiActivityEnable(RUNTIME): %s", result_name(result));
		return (int)result;
	}
	if (!own_clock)
		measure_clock_offset();
	uint32_t version = 0;
	if (cupti.get_version)
		cupti.get_version(&version);
	snprintf(message, size, "cupti %u%s%s", version,
		 own_clock ? "" : " (clock offset measured)",
		 per_call_api_records ? "" : " (API records for every runtime call)");
	return 0;
}

void cupti_session_start(void)
{
	char message[512];

	int code = start_activity(message, sizeof(message));
	if (code != 0) {
		fprintf(stderr, "dnntrace: CUPTI unavailable (%s): GPU kernel times will be "
			"missing; API calls are still traced\n", message);
		lttng_ust_tracepoint(dnntrace_api, status, 0, code, message);
		return;
	}
	owner_pid = getpid();
	atomic_store_explicit(&cupti_session_running, true, memory_order_release);
	lttng_ust_tracepoint(dnntrace_api, status, 1, 0, message);
}

bool cupti_session_push_slow(uint64_t call_id)
{
	return cupti.push_id(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, call_id) == CUPTI_SUCCESS;
}

void cupti_session_pop(void)
{
	uint64_t last_id;
	cupti.pop_id(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last_id);
}

void cupti_session_flush(void)
{
	if (!atomic_load(&cupti_session_running) || getpid() != owner_pid)
		return;
	if (atomic_exchange(&flushed, true))
		return;
	cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void cupti_session_forget(void)
{
	atomic_store(&cupti_session_running, false);
}
