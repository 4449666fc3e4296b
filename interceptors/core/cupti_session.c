/*
 * CUPTI activity tracing for dnntrace (see cupti_session.h).
 *
 * libcupti.so.<N> is taken from the directory of the libcudart.so.<N> the
 * process actually loaded (so a simulated or bundled runtime gets its own
 * CUPTI; N is that runtime's major version: 13, or 12 for the CUDA 12
 * libraries PyTorch/TensorFlow wheels bring), or from the wheels' sibling
 * nvidia/cuda_cupti/lib, else from $CUDA_HOME/extras/CUPTI/lib64 or
 * $CUDA_HOME/lib64, else from the default search; 13 before 12 when the
 * runtime does not say. The activity record layouts are chosen by the
 * version of the CUPTI actually loaded (cuptiGetVersion), see
 * record_layout. Records arrive late, in batches, on CUPTI's threads: each
 * becomes one dnntrace_gpu event whose start/end fields carry the GPU times
 * on CLOCK_MONOTONIC (the LTTng clock).
 *
 * Seen on a real H100 (CUPTI 13.0.1, driver 580.159, PyTorch 2.11 cu130
 * and nvcc 13 programs): the CUPTI 13.0 record layouts (Kernel10, Memcpy6,
 * Memset4) read right; CUDA 13 wheels keep libcupti.so.13 beside
 * libcudart.so.13 (nvidia/cu13/lib); every kernel record is delivered by
 * the exit-time flush; per-function API records only work when chosen
 * before cuInit (enable_linked_api_records). Assumed, not tested on a real
 * GPU: the CUPTI 12.x layouts (Kernel9, Memcpy5, Memset4); CUDA 12 wheels'
 * nvidia/cuda_cupti/lib; that a subscribed-but-idle cuptiSubscribe is how a
 * second CUPTI client shows up (it fails with
 * CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).
 *
 * The records asked for and how GPU work is linked to our calls follow the
 * --gpu-records mode (DNNTRACE_GPU_RECORDS, tracepoints/gpu_records.h):
 * `full` links through API records and their EXTERNAL_CORRELATION records
 * (our call id pushed as CUPTI's CUSTOM0 external id around the call);
 * `work` (the default) and `kernels` ask for no API record: a CUPTI callback
 * on exactly the linked entry points (link_callback) reads the call's
 * correlation id, the one its GPU records carry, and writes the same
 * dnntrace_gpu:external_correlation event with our call id, so the analysis
 * reads both the same way. Assumed, not seen on a real GPU: that
 * cuptiEnableCallback works after cuInit (unlike per-function API records);
 * that a graph launch's callback carries the correlation id its graph's
 * kernel records carry (CUPTI documents graph node records carrying the
 * launch's); that a callback costs less than an API record plus an
 * external correlation record (make bench-gpu measures it).
 *
 * Must never call a wrapped CUDA function, nor allocate on the hot path
 * (buffers are allocated in CUPTI's buffer-request callback).
 */
#include "interceptors/core/cupti_session.h"
#include "interceptors/core/event_count.h"

#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#include "interceptors/core/dlsym_wrapper.h"
#include "interceptors/core/kernel_names.h"
#include "interceptors/core/process_rank.h"
#include "interceptors/core/real_functions.h"
#include "dnntrace_version.h"
#include "tracepoints/dnntrace_api.h"
#include "tracepoints/dnntrace_gpu.h"
#include "tracepoints/gpu_records.h"

enum { BUFFER_BYTES = 4 << 20 };

/* The CUPTI majors we can read, newest first (see record_layout). */
static const int CUPTI_MAJORS[] = { 13, 12 };
enum { N_CUPTI_MAJORS = sizeof(CUPTI_MAJORS) / sizeof(CUPTI_MAJORS[0]) };
static char cupti_soname[32] = "libcupti.so.13";

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
	__typeof__(&cuptiEnableCallback) enable_callback;
	__typeof__(&cuptiGetGraphNodeId) graph_node_id;
} cupti;

/* The --gpu-records mode this process records in (set once, at start). */
static enum dnntrace_gpu_records records_mode = DNNTRACE_GPU_RECORDS_DEFAULT;
/* Whether call ids reach CUPTI through link_callback (work, kernels) rather
 * than pushed external correlation ids (full). */
static bool link_by_callback;

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

/* dlopen of dir/libcupti.so.<major>; records the SONAME that worked. */
static void *open_in(const char *dir, int major)
{
	char path[PATH_MAX + 64];
	void *handle;

	if (dir)
		snprintf(path, sizeof(path), "%s/libcupti.so.%d", dir, major);
	else
		snprintf(path, sizeof(path), "libcupti.so.%d", major);
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (handle)
		snprintf(cupti_soname, sizeof(cupti_soname), "libcupti.so.%d", major);
	return handle;
}

/* The major version in a file name libcudart.so.<N>[...], or 0. */
static int runtime_major(const char *path)
{
	const char *file = strrchr(path, '/');
	const char *prefix = "libcudart.so.";

	file = file ? file + 1 : path;
	if (strncmp(file, prefix, strlen(prefix)) != 0)
		return 0;
	return atoi(file + strlen(prefix));
}

static void *open_cupti(void)
{
	char dir[PATH_MAX], wheel_dir[PATH_MAX + 32];
	int majors[N_CUPTI_MAJORS + 1], n_majors = 0;
	bool have_runtime = real_function_library(REAL_cudaMalloc, dir, sizeof(dir)) ||
			    real_function_library(REAL_cudaLaunchKernel, dir, sizeof(dir));
	int runtime = have_runtime ? runtime_major(dir) : 0;
	void *handle;

	if (runtime)
		majors[n_majors++] = runtime;
	for (int i = 0; i < N_CUPTI_MAJORS; i++)
		if (CUPTI_MAJORS[i] != runtime)
			majors[n_majors++] = CUPTI_MAJORS[i];

	char *slash = have_runtime ? strrchr(dir, '/') : NULL;
	if (slash) {
		*slash = '\0';
		for (int i = 0; i < n_majors; i++)
			if ((handle = open_in(dir, majors[i])))
				return handle;
		/* pip wheels: nvidia/cuda_runtime/lib beside nvidia/cuda_cupti/lib. */
		snprintf(wheel_dir, sizeof(wheel_dir), "%s/../../cuda_cupti/lib", dir);
		for (int i = 0; i < n_majors; i++)
			if ((handle = open_in(wheel_dir, majors[i])))
				return handle;
	}
	const char *cuda_home = getenv("CUDA_HOME");
	if (cuda_home && cuda_home[0]) {
		snprintf(dir, sizeof(dir), "%s/extras/CUPTI/lib64", cuda_home);
		for (int i = 0; i < n_majors; i++)
			if ((handle = open_in(dir, majors[i])))
				return handle;
		snprintf(dir, sizeof(dir), "%s/lib64", cuda_home);
		for (int i = 0; i < n_majors; i++)
			if ((handle = open_in(dir, majors[i])))
				return handle;
	}
	for (int i = 0; i < n_majors; i++)
		if ((handle = open_in(NULL, majors[i])))
			return handle;
	return NULL;
}

/*
 * Where the fields we read sit in the records of one CUPTI generation. The
 * fields we read have the same offsets in both generations today, but the
 * structs differ in size and in other fields, and CUPTI writes the one of
 * ITS version: the layout is chosen by cuptiGetVersion, never assumed.
 */
struct record_layout {
	const char *records; /* for the status message */
	size_t kernel_start, kernel_end, kernel_device, kernel_context, kernel_stream,
	       kernel_correlation, kernel_name, kernel_grid, kernel_block, kernel_shared_mem,
	       kernel_graph_node;
	size_t copy_kind, copy_bytes, copy_start, copy_end, copy_device, copy_context,
	       copy_stream, copy_correlation, copy_src_kind, copy_dst_kind;
	size_t set_value, set_bytes, set_start, set_end, set_device, set_context, set_stream,
	       set_correlation;
};

#define KERNEL_FIELDS(T) \
	.kernel_start = offsetof(T, start), .kernel_end = offsetof(T, end), \
	.kernel_device = offsetof(T, deviceId), .kernel_context = offsetof(T, contextId), \
	.kernel_stream = offsetof(T, streamId), .kernel_correlation = offsetof(T, correlationId), \
	.kernel_name = offsetof(T, name), .kernel_grid = offsetof(T, gridX), \
	.kernel_block = offsetof(T, blockX), .kernel_shared_mem = offsetof(T, dynamicSharedMemory), \
	.kernel_graph_node = offsetof(T, graphNodeId)
#define COPY_FIELDS(T) \
	.copy_kind = offsetof(T, copyKind), .copy_bytes = offsetof(T, bytes), \
	.copy_start = offsetof(T, start), .copy_end = offsetof(T, end), \
	.copy_device = offsetof(T, deviceId), .copy_context = offsetof(T, contextId), \
	.copy_stream = offsetof(T, streamId), .copy_correlation = offsetof(T, correlationId), \
	.copy_src_kind = offsetof(T, srcKind), .copy_dst_kind = offsetof(T, dstKind)
#define SET_FIELDS(T) \
	.set_value = offsetof(T, value), .set_bytes = offsetof(T, bytes), \
	.set_start = offsetof(T, start), .set_end = offsetof(T, end), \
	.set_device = offsetof(T, deviceId), .set_context = offsetof(T, contextId), \
	.set_stream = offsetof(T, streamId), .set_correlation = offsetof(T, correlationId)

/* CUPTI 13.x (CUDA 13): cupti_activity.h of the toolkit we build with. */
static const struct record_layout cupti13_layout = {
	.records = "Kernel10/Memcpy6/Memset4",
	KERNEL_FIELDS(CUpti_ActivityKernel10), COPY_FIELDS(CUpti_ActivityMemcpy6),
	SET_FIELDS(CUpti_ActivityMemset4),
};

/*
 * CUPTI 12.x (CUDA 12.0 to 12.9): CONCURRENT_KERNEL records are
 * CUpti_ActivityKernel9, MEMCPY records CUpti_ActivityMemcpy5 up to 12.6 and
 * CUpti_ActivityMemcpy6 from 12.8 on (cupti_activity_deprecated.h: Memcpy5
 * "deprecated in CUDA 12.8"), MEMSET records CUpti_ActivityMemset4. Every
 * field we read sits at the same offset in Memcpy5 and Memcpy6 (only their
 * sizes differ, and CUPTI's GetNextRecord walks by size), so one layout
 * serves all of 12.x. CUDA 13 keeps the old structs, unchanged, in
 * cupti_activity_deprecated.h, which is what we compile against. The offsets are pinned below, so a later
 * toolkit that changed the old structs fails the build instead of
 * misreading records.
 */
static const struct record_layout cupti12_layout = {
	.records = "Kernel9/Memcpy5/Memset4",
	KERNEL_FIELDS(CUpti_ActivityKernel9), COPY_FIELDS(CUpti_ActivityMemcpy5),
	SET_FIELDS(CUpti_ActivityMemset4),
};
_Static_assert(offsetof(CUpti_ActivityKernel9, start) == 16 &&
	       offsetof(CUpti_ActivityKernel9, end) == 24 &&
	       offsetof(CUpti_ActivityKernel9, deviceId) == 40 &&
	       offsetof(CUpti_ActivityKernel9, contextId) == 44 &&
	       offsetof(CUpti_ActivityKernel9, streamId) == 48 &&
	       offsetof(CUpti_ActivityKernel9, correlationId) == 92 &&
	       offsetof(CUpti_ActivityKernel9, name) == 104 &&
	       offsetof(CUpti_ActivityKernel9, gridX) == 52 &&
	       offsetof(CUpti_ActivityKernel9, blockX) == 64 &&
	       offsetof(CUpti_ActivityKernel9, dynamicSharedMemory) == 80 &&
	       sizeof(CUpti_ActivityKernel9) == 208, "CUDA 12.x kernel record layout");
_Static_assert(offsetof(CUpti_ActivityMemcpy5, copyKind) == 4 &&
	       offsetof(CUpti_ActivityMemcpy5, bytes) == 8 &&
	       offsetof(CUpti_ActivityMemcpy5, start) == 16 &&
	       offsetof(CUpti_ActivityMemcpy5, end) == 24 &&
	       offsetof(CUpti_ActivityMemcpy5, deviceId) == 32 &&
	       offsetof(CUpti_ActivityMemcpy5, contextId) == 36 &&
	       offsetof(CUpti_ActivityMemcpy5, streamId) == 40 &&
	       offsetof(CUpti_ActivityMemcpy5, correlationId) == 44 &&
	       offsetof(CUpti_ActivityMemcpy5, srcKind) == 5 &&
	       offsetof(CUpti_ActivityMemcpy5, dstKind) == 6 &&
	       sizeof(CUpti_ActivityMemcpy5) == 88, "CUDA 12.x memcpy record layout");
/* CUPTI 12.8+ writes Memcpy6: what we read must sit where Memcpy5 has it. */
_Static_assert(offsetof(CUpti_ActivityMemcpy6, copyKind) == 4 &&
	       offsetof(CUpti_ActivityMemcpy6, bytes) == 8 &&
	       offsetof(CUpti_ActivityMemcpy6, start) == 16 &&
	       offsetof(CUpti_ActivityMemcpy6, end) == 24 &&
	       offsetof(CUpti_ActivityMemcpy6, deviceId) == 32 &&
	       offsetof(CUpti_ActivityMemcpy6, contextId) == 36 &&
	       offsetof(CUpti_ActivityMemcpy6, streamId) == 40 &&
	       offsetof(CUpti_ActivityMemcpy6, correlationId) == 44 &&
	       offsetof(CUpti_ActivityMemcpy6, srcKind) == 5 &&
	       offsetof(CUpti_ActivityMemcpy6, dstKind) == 6,
	       "Memcpy6 keeps Memcpy5's offsets for the fields we read");

/* Both generations: the grid's and the block's x, y, z are three int32 in a row. */
#define DIM3_IN_A_ROW(T)                                                                   \
	_Static_assert(offsetof(T, gridY) == offsetof(T, gridX) + 4 &&                     \
		       offsetof(T, gridZ) == offsetof(T, gridX) + 8 &&                     \
		       offsetof(T, blockY) == offsetof(T, blockX) + 4 &&                   \
		       offsetof(T, blockZ) == offsetof(T, blockX) + 8 &&                   \
		       sizeof(((T *)0)->gridX) == 4 && sizeof(((T *)0)->blockX) == 4 &&    \
		       sizeof(((T *)0)->dynamicSharedMemory) == 4, #T " grid and block")
DIM3_IN_A_ROW(CUpti_ActivityKernel9);
DIM3_IN_A_ROW(CUpti_ActivityKernel10);

/* CUDA 13's CUPTI numbers its API version 130001; CUDA 12.x's went 18, 19, ... */
enum { CUPTI13_FIRST_VERSION = 130000, CUPTI12_FIRST_VERSION = 18 };

static const struct record_layout *layout = &cupti13_layout;

/* The layout for this CUPTI, or NULL when we cannot read its records. */
static const struct record_layout *layout_for(uint32_t version, const char *soname)
{
	if (version >= CUPTI13_FIRST_VERSION)
		return &cupti13_layout;
	if (version >= CUPTI12_FIRST_VERSION)
		return &cupti12_layout;
	if (version == 0) /* no cuptiGetVersion: go by the SONAME */
		return strcmp(soname, "libcupti.so.12") == 0 ? &cupti12_layout : &cupti13_layout;
	return NULL;
}

/* Returns the name of the first required symbol missing, or NULL. */
static const char *load_symbols(void *handle)
{
#define REQUIRE(field, symbol) \
	if (!(cupti.field = (__typeof__(cupti.field))dnntrace_real_dlsym(handle, #symbol))) return #symbol;
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
		dnntrace_real_dlsym(handle, "cuptiActivityRegisterTimestampCallback");
	cupti.subscribe = (__typeof__(cupti.subscribe))dnntrace_real_dlsym(handle, "cuptiSubscribe");
	cupti.result_string = (__typeof__(cupti.result_string))dnntrace_real_dlsym(handle, "cuptiGetResultString");
	cupti.get_version = (__typeof__(cupti.get_version))dnntrace_real_dlsym(handle, "cuptiGetVersion");
	cupti.graph_node_id = (__typeof__(cupti.graph_node_id))dnntrace_real_dlsym(
		handle, "cuptiGetGraphNodeId");
	cupti.enable_runtime_api = (__typeof__(cupti.enable_runtime_api))
		dnntrace_real_dlsym(handle, "cuptiActivityEnableRuntimeApi");
	cupti.enable_driver_api = (__typeof__(cupti.enable_driver_api))
		dnntrace_real_dlsym(handle, "cuptiActivityEnableDriverApi");
	cupti.enable_callback = (__typeof__(cupti.enable_callback))
		dnntrace_real_dlsym(handle, "cuptiEnableCallback");
	return NULL;
}

static const char *result_name(CUptiResult result)
{
	const char *name = NULL;

	if (cupti.result_string && cupti.result_string(result, &name) == CUPTI_SUCCESS && name)
		return name;
	return "unknown CUPTI error";
}

static uint32_t field_u32(const CUpti_Activity *record, size_t offset)
{
	uint32_t value;
	memcpy(&value, (const char *)record + offset, sizeof(value));
	return value;
}

static uint64_t field_u64(const CUpti_Activity *record, size_t offset)
{
	uint64_t value;
	memcpy(&value, (const char *)record + offset, sizeof(value));
	return value;
}

static void emit_record(const CUpti_Activity *record)
{
	const struct record_layout *l = layout;

	switch (record->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
		const char *name;
		memcpy(&name, (const char *)record + l->kernel_name, sizeof(name));
		struct dnntrace_gpu_kernel kernel = {
			.correlation_id = field_u32(record, l->kernel_correlation),
			.device = field_u32(record, l->kernel_device),
			.context = field_u32(record, l->kernel_context),
			.stream = field_u32(record, l->kernel_stream),
			.start = gpu_time(field_u64(record, l->kernel_start)),
			.end = gpu_time(field_u64(record, l->kernel_end)),
			.name_id = kernel_name_id(name),
			.shared_mem = field_u32(record, l->kernel_shared_mem),
			.graph_node_id = field_u64(record, l->kernel_graph_node),
		};
		/* gridX..Z and blockX..Z: three int32 in a row each. */
		for (int i = 0; i < 3; i++) {
			kernel.grid[i] = field_u32(record, l->kernel_grid + 4 * (size_t)i);
			kernel.block[i] = field_u32(record, l->kernel_block + 4 * (size_t)i);
		}
		DNNTRACE_EMIT(dnntrace_gpu, kernel, &kernel);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		uint8_t copy_kind, src_kind, dst_kind;
		memcpy(&copy_kind, (const char *)record + l->copy_kind, sizeof(copy_kind));
		memcpy(&src_kind, (const char *)record + l->copy_src_kind, sizeof(src_kind));
		memcpy(&dst_kind, (const char *)record + l->copy_dst_kind, sizeof(dst_kind));
		DNNTRACE_EMIT(dnntrace_gpu, memcpy, field_u32(record, l->copy_correlation),
				     field_u32(record, l->copy_device),
				     field_u32(record, l->copy_context),
				     field_u32(record, l->copy_stream),
				     gpu_time(field_u64(record, l->copy_start)),
				     gpu_time(field_u64(record, l->copy_end)), copy_kind,
				     field_u64(record, l->copy_bytes), src_kind, dst_kind);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET:
		DNNTRACE_EMIT(dnntrace_gpu, memset, field_u32(record, l->set_correlation),
				     field_u32(record, l->set_device),
				     field_u32(record, l->set_context),
				     field_u32(record, l->set_stream),
				     gpu_time(field_u64(record, l->set_start)),
				     gpu_time(field_u64(record, l->set_end)),
				     field_u32(record, l->set_value), field_u64(record, l->set_bytes));
		break;
	case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
		const CUpti_ActivityExternalCorrelation *link =
			(const CUpti_ActivityExternalCorrelation *)record;
		if (link->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
			DNNTRACE_EMIT(dnntrace_gpu, external_correlation,
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
		DNNTRACE_EMIT(dnntrace_gpu, records_dropped, dropped);
	free(buffer);
}

bool cupti_session_graph_node_id(const void *node, uint64_t *id)
{
	*id = 0;
	return atomic_load(&cupti_session_running) && cupti.graph_node_id && node &&
	       cupti.graph_node_id((CUgraphNode)node, id) == CUPTI_SUCCESS && *id;
}

/*
 * Clones made while this thread instantiates a graph, waiting for the exec
 * they belong to. Seen on an H200 (CUPTI 13.0, driver 580,
 * tests/gpu/probe_graph_callbacks.cu, 2026-11-28): the GRAPHNODE_CLONED
 * callbacks of an instantiation come inside the instantiate call, on its
 * thread, naming no graphExec, and GRAPHEXEC_CREATE_STARTING and
 * GRAPHEXEC_CREATED come only after them (both naming the exec). So the
 * bracket that counts is ours: the instantiation wrappers
 * (runtime/graphs.c, driver/graphs.c) say when one begins and ends and
 * which exec it made; with them, nv_graph's graph kernels had their
 * tensors on that H200. CUPTI's bracket is kept as well, for an
 * instantiation through an entry point we do not wrap (the CUDA 11 ABI),
 * in case a CUPTI raises it around the clones. A clone outside both is
 * written with no exec, and the analysis counts its kernels as unknown,
 * never guesses.
 * Instantiation is rare, so the list is allocated for each one and freed
 * when its exec is named; never on a launch's path.
 */
struct pending_clone {
	uint64_t node, original;
};
static __thread struct pending_clone *pending_clones;
static __thread size_t n_pending_clones, cap_pending_clones;
static __thread unsigned wrapped_instantiations; /* ours, nested */
static __thread bool cupti_instantiating;        /* CUPTI's bracket */

static void drop_pending_clones(void)
{
	free(pending_clones);
	pending_clones = NULL;
	n_pending_clones = cap_pending_clones = 0;
}

/* exec NULL: the clones are written as belonging to no exec */
static void write_pending_clones(const void *exec)
{
	for (size_t i = 0; i < n_pending_clones; i++)
		DNNTRACE_EMIT(dnntrace_api, graph_node_clone, pending_clones[i].node,
			      pending_clones[i].original, exec);
	drop_pending_clones();
}

static void hold_clone(uint64_t node, uint64_t original)
{
	if (n_pending_clones == cap_pending_clones) {
		size_t cap = cap_pending_clones ? 2 * cap_pending_clones : 64;
		struct pending_clone *grown = realloc(pending_clones, cap * sizeof(*grown));
		if (!grown) {
			/* emitted without its exec: unknown tensors, counted */
			DNNTRACE_EMIT(dnntrace_api, graph_node_clone, node, original, NULL);
			return;
		}
		pending_clones = grown;
		cap_pending_clones = cap;
	}
	pending_clones[n_pending_clones++] = (struct pending_clone){node, original};
}

/* Inside either bracket: a clone with no exec waits for it. */
static bool instantiating(void)
{
	return wrapped_instantiations || cupti_instantiating;
}

void cupti_session_instantiate_begin(void)
{
	if (!instantiating())
		n_pending_clones = 0; /* a failed instantiation's, if any */
	wrapped_instantiations++;
}

void cupti_session_instantiate_end(const void *exec)
{
	if (wrapped_instantiations == 0 || --wrapped_instantiations > 0)
		return;
	if (exec)
		write_pending_clones(exec);
	else
		drop_pending_clones(); /* a failed instantiation's: no exec runs them */
	cupti_instantiating = false;
}

/*
 * The resource callbacks enabled: CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
 * raised on the thread that clones or instantiates a graph, once per node
 * copied, and GRAPHEXEC_CREATE_STARTING / GRAPHEXEC_CREATED around an
 * instantiation (their graph data is not relied on: the exec CREATED
 * names, when it names one). The copy's id is what GPU records of an
 * exec's launches carry (seen on an H200: graphNodeId is the clone's
 * cuptiGetGraphNodeId).
 */
static void CUPTIAPI graph_callback(void *userdata, CUpti_CallbackDomain domain,
				    CUpti_CallbackId id, const void *data)
{
	(void)userdata;
	if (domain != CUPTI_CB_DOMAIN_RESOURCE || !data)
		return;
	const CUpti_GraphData *g = ((const CUpti_ResourceData *)data)->resourceDescriptor;
	/* the brackets are kept whether or not a session listens, so a list
	 * is never left behind; DNNTRACE_EMIT writes only while one does */
	switch (id) {
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING:
		if (!instantiating())
			n_pending_clones = 0;
		cupti_instantiating = true;
		return;
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED:
		/* no exec named: ours names it when the call returns */
		if (g && g->graphExec) {
			write_pending_clones(g->graphExec);
			cupti_instantiating = false;
		} else if (!wrapped_instantiations) {
			write_pending_clones(NULL); /* nobody will name it */
			cupti_instantiating = false;
		}
		return;
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED:
		break;
	default:
		return;
	}
	uint64_t node = 0, original = 0;
	if (!g || !lttng_ust_tracepoint_enabled(dnntrace_api, graph_node_clone) ||
	    !cupti.graph_node_id || cupti.graph_node_id(g->node, &node) != CUPTI_SUCCESS ||
	    cupti.graph_node_id(g->originalNode, &original) != CUPTI_SUCCESS)
		return;
	if (!g->graphExec && instantiating())
		hold_clone(node, original);
	else
		DNNTRACE_EMIT(dnntrace_api, graph_node_clone, node, original, g->graphExec);
}

/*
 * The call ids of this thread's traced calls in progress (work, kernels):
 * what cupti_session_push_slow pushed. Nested traced calls do not happen
 * (a call made inside a wrapper is forwarded untraced); deeper than the
 * array, the innermost stored id stands for the rest.
 */
enum { LINK_DEPTH = 8 };
static __thread uint64_t link_call_ids[LINK_DEPTH] __attribute__((tls_model("initial-exec")));
static __thread unsigned link_depth __attribute__((tls_model("initial-exec")));
/* The last link this thread wrote: a runtime call and the driver call it
 * makes may both call back with the same correlation id. */
static __thread uint32_t last_linked_correlation __attribute__((tls_model("initial-exec")));
static __thread uint64_t last_linked_call __attribute__((tls_model("initial-exec")));

/*
 * Runs in the calling thread on entry to each linked entry point (only
 * those are enabled): the correlation id CUPTI gave the call is the one its
 * kernel, copy and set records will carry (cupti_callbacks.h,
 * CUpti_CallbackData.correlationId). Writes the link as full mode's
 * EXTERNAL_CORRELATION record would, with the id of our call in progress.
 */
static void CUPTIAPI link_callback(void *userdata, CUpti_CallbackDomain domain,
				   CUpti_CallbackId id, const void *data)
{
	const CUpti_CallbackData *call = data;
	unsigned depth = link_depth;
	(void)userdata; (void)id;

	if ((domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) ||
	    depth == 0 || call->callbackSite != CUPTI_API_ENTER)
		return;
	uint64_t call_id = link_call_ids[(depth < LINK_DEPTH ? depth : LINK_DEPTH) - 1];
	if (call->correlationId == last_linked_correlation && call_id == last_linked_call)
		return;
	last_linked_correlation = call->correlationId;
	last_linked_call = call_id;
	DNNTRACE_EMIT(dnntrace_gpu, external_correlation, call->correlationId, call_id);
}

/* The one subscriber: CUPTI's graph node clones (graph_callback) and, in
 * the work and kernels modes, the linked entry points (link_callback);
 * each looks only at its own domains, and CUPTI calls only what was
 * enabled. */
static void CUPTIAPI session_callback(void *userdata, CUpti_CallbackDomain domain,
				      CUpti_CallbackId id, const void *data)
{
	if (domain == CUPTI_CB_DOMAIN_RESOURCE)
		graph_callback(userdata, domain, id, data);
	else
		link_callback(userdata, domain, id, data);
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

/* A callback id and the entry point it stands for. */
struct linked_cbid {
	CUpti_CallbackId cbid;
	enum real_function_id function;
};

/*
 * The runtime entry points whose GPU work we link to our calls: exactly the
 * copies, sets and launches we wrap, with their _ptds/_ptsz twins
 * (cupti_runtime_cbid.h), nvcc 13's __cudaLaunchKernel[_ptsz] included.
 * cupti_activity.h says an EXTERNAL_CORRELATION
 * record accompanies an activity *API* record, so these need API records;
 * no other call (cudaMalloc, cudaFree, ...) should pay for one.
 */
#define DT_LINKED(domain, cbid, function) DT_LINKED_##domain(cbid, function)
#define DT_LINKED_0(cbid, function)
#define DT_LINKED_1(cbid, function) DT_LINKED_RUNTIME_ROW(cbid, function)
#define DT_LINKED_2(cbid, function) DT_LINKED_DRIVER_ROW(cbid, function)
#define DT_LINKED_OF_API(id, name, kind, proc, cbid) DT_SPREAD(DT_LINKED, cbid, REAL_##name)

/* The catalogue's cbid column (tracepoints/entry_points.h), runtime ones. */
#define DT_LINKED_RUNTIME_ROW(cbid, function) { cbid, function },
#define DT_LINKED_DRIVER_ROW(cbid, function)
static const struct linked_cbid linked_runtime_cbids[] = {
	DNNTRACE_API_ENTRIES(DT_LINKED_OF_API)
};
#undef DT_LINKED_RUNTIME_ROW
#undef DT_LINKED_DRIVER_ROW

/*
 * cuDNN and cuBLAS launch their kernels through the driver API, inside a
 * library call whose call id we pushed, and programs call the driver's
 * launches, graph launches, copies and sets directly (interceptors/driver/):
 * these driver entry points need API records too, or their GPU work would
 * carry no external correlation. Exactly the driver entry points we wrap
 * that submit GPU work (cupti_driver_cbid.h). Seen on an H100: cuBLAS 13
 * launches with cuLaunchKernelEx, and cuBLAS/cuBLASLt/cuDNN kernels link to
 * their calls.
 */
#define DT_LINKED_RUNTIME_ROW(cbid, function)
#define DT_LINKED_DRIVER_ROW(cbid, function) { cbid, function },
static const struct linked_cbid linked_driver_cbids[] = {
	DNNTRACE_API_ENTRIES(DT_LINKED_OF_API)
};
#undef DT_LINKED_RUNTIME_ROW
#undef DT_LINKED_DRIVER_ROW

/*
 * API records for the linked entry points only; when this CUPTI cannot do
 * that (no cuptiActivityEnableRuntimeApi, or it fails, or the program had
 * initialised CUDA before tracing started), the whole RUNTIME and DRIVER
 * kinds: every CUDA call then costs an API record, but links still work.
 * Measured on an H100 (CUPTI 13.0.1, driver 580.159): per-function API
 * records chosen before cuInit come with their external correlation
 * records; chosen after it (cudaFree(0) first), the calls succeed and no
 * API or external correlation record ever comes, so no GPU record could be
 * linked. The whole kinds, enabled after cuInit, work.
 */
/*
 * Enables API records for one linked entry point. A CUPTI that refuses the
 * cbid is fine when the process has no such entry point to call (a CUPTI
 * or runtime older or smaller than the cbid list, e.g. simgpu without
 * graphs, CUPTI 12 without nvcc 13's launches): nothing of it can run.
 */
static bool enable_linked(__typeof__(&cuptiActivityEnableRuntimeApi) enable,
			  const struct linked_cbid *linked)
{
	return enable(linked->cbid, 1) == CUPTI_SUCCESS ||
	       !real_function_available(linked->function);
}

/*
 * Whether the program has initialised the CUDA driver (cuInit; the runtime
 * calls it at its first call). cuDeviceGetCount answers
 * CUDA_ERROR_NOT_INITIALIZED before cuInit and changes nothing; a driver
 * not even loaded yet cannot have been initialised.
 */
static bool cuda_driver_initialized(void)
{
	int count = 0;

	return real_function_available(REAL_cuDeviceGetCount) &&
	       REAL(cuDeviceGetCount)(&count) != CUDA_ERROR_NOT_INITIALIZED;
}

static CUptiResult enable_linked_api_records(bool *per_call)
{
	enum { N_CBIDS = sizeof(linked_runtime_cbids) / sizeof(linked_runtime_cbids[0]) };

	enum { N_DRIVER_CBIDS = sizeof(linked_driver_cbids) / sizeof(linked_driver_cbids[0]) };

	*per_call = cupti.enable_runtime_api != NULL && cupti.enable_driver_api != NULL &&
		    !cuda_driver_initialized();
	for (size_t i = 0; *per_call && i < N_CBIDS; i++)
		*per_call = enable_linked(cupti.enable_runtime_api, &linked_runtime_cbids[i]);
	for (size_t i = 0; *per_call && i < N_DRIVER_CBIDS; i++)
		*per_call = enable_linked(cupti.enable_driver_api, &linked_driver_cbids[i]);
	if (*per_call)
		return CUPTI_SUCCESS;
	CUptiResult result = cupti.enable(CUPTI_ACTIVITY_KIND_RUNTIME);
	return result == CUPTI_SUCCESS ? cupti.enable(CUPTI_ACTIVITY_KIND_DRIVER) : result;
}

/*
 * Enables link_callback on every linked entry point; false when this CUPTI
 * cannot (no cuptiEnableCallback, or it refuses an entry point the process
 * has): then full mode's API records link instead. A refused cbid is fine
 * for an entry point the process cannot call, as in enable_linked.
 */
static bool enable_link_callbacks(CUpti_SubscriberHandle subscriber)
{
	enum { N_CBIDS = sizeof(linked_runtime_cbids) / sizeof(linked_runtime_cbids[0]) };
	enum { N_DRIVER_CBIDS = sizeof(linked_driver_cbids) / sizeof(linked_driver_cbids[0]) };

	if (!cupti.enable_callback)
		return false;
	for (size_t i = 0; i < N_CBIDS; i++)
		if (cupti.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
					  linked_runtime_cbids[i].cbid) != CUPTI_SUCCESS &&
		    real_function_available(linked_runtime_cbids[i].function))
			return false;
	for (size_t i = 0; i < N_DRIVER_CBIDS; i++)
		if (cupti.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
					  linked_driver_cbids[i].cbid) != CUPTI_SUCCESS &&
		    real_function_available(linked_driver_cbids[i].function))
			return false;
	return true;
}

/* Starts activity tracing; on failure, says why in message and returns the code. */
static int start_activity(char *message, size_t size)
{
	/* Only the kinds the analysis reads: kernels; copies and sets (stream
	 * order of stream-ordered allocations, the timeline) unless `kernels`;
	 * the external correlation records only where API records link. */
	static const CUpti_ActivityKind kinds[] = {
		CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
		CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
	};
	CUptiResult result;
	enum dnntrace_gpu_records asked = records_mode;

	void *handle = open_cupti();
	if (!handle) {
		snprintf(message, size, "cannot load libcupti.so.13 or .12: %s", dlerror());
		return -1;
	}
	const char *missing = load_symbols(handle);
	if (missing) {
		snprintf(message, size, "%s lacks %s", cupti_soname, missing);
		return -2;
	}
	uint32_t version = 0;
	if (cupti.get_version)
		cupti.get_version(&version);
	layout = layout_for(version, cupti_soname);
	if (!layout) {
		snprintf(message, size, "%s has API version %u, older than CUDA 12's: its "
			 "activity records are not read", cupti_soname, version);
		return -3;
	}
	bool want_callbacks = records_mode != DNNTRACE_GPU_RECORDS_FULL;
	CUpti_SubscriberHandle subscriber = NULL;
	if (cupti.subscribe) {
		result = cupti.subscribe(&subscriber, session_callback, NULL);
		if (result != CUPTI_SUCCESS) {
			snprintf(message, size, "cuptiSubscribe: %s", result_name(result));
			return (int)result;
		}
		/* Without it graph kernels have no node to take tensors from:
		 * the analysis counts them as unknown. */
		if (cupti.enable_callback) {
			cupti.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
					      CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED);
			cupti.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
					      CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING);
			cupti.enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
					      CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
		}
	}
	/* Before the activity kinds: a mode that cannot link by callback
	 * becomes full, and says so. */
	if (want_callbacks && !(subscriber && enable_link_callbacks(subscriber)))
		records_mode = DNNTRACE_GPU_RECORDS_FULL;
	link_by_callback = records_mode != DNNTRACE_GPU_RECORDS_FULL;
	size_t n_kinds = records_mode == DNNTRACE_GPU_RECORDS_KERNELS ? 1
			 : records_mode == DNNTRACE_GPU_RECORDS_WORK    ? 3
									 : 4;
	bool own_clock = cupti.register_timestamp &&
		cupti.register_timestamp(cupti_timestamp_callback) == CUPTI_SUCCESS;
	result = cupti.register_callbacks(buffer_requested, buffer_completed);
	if (result != CUPTI_SUCCESS) {
		snprintf(message, size, "cuptiActivityRegisterCallbacks: %s", result_name(result));
		return (int)result;
	}
	for (size_t i = 0; i < n_kinds; i++) {
		result = cupti.enable(kinds[i]);
		if (result != CUPTI_SUCCESS) {
			snprintf(message, size, "cuptiActivityEnable(%d): %s", (int)kinds[i],
				 result_name(result));
			return (int)result;
		}
	}
	bool per_call_api_records = true;
	if (!link_by_callback) {
		result = enable_linked_api_records(&per_call_api_records);
		if (result != CUPTI_SUCCESS) {
			snprintf(message, size, "cuptiActivityEnable(RUNTIME): %s",
				 result_name(result));
			return (int)result;
		}
	}
	if (!own_clock)
		measure_clock_offset();
	snprintf(message, size, "cupti %u%s%s%s (%s: %s) " DNNTRACE_GPU_RECORDS_MARK "%s", version,
		 own_clock ? "" : " (clock offset measured)",
		 per_call_api_records ? "" : " (API records for every CUDA call)",
		 asked == records_mode ? "" : " (no CUPTI callbacks: API records link)",
		 cupti_soname, layout->records, dnntrace_gpu_records_name(records_mode));
	return 0;
}

/* DNNTRACE_GPU_RECORDS (dnntrace record --gpu-records=MODE); unset or
 * empty: the default. A traced program must run whatever its environment
 * says: an unknown mode is one warning line and the default. */
static enum dnntrace_gpu_records mode_from_environment(void)
{
	const char *text = getenv("DNNTRACE_GPU_RECORDS");

	if (!text || !text[0])
		return DNNTRACE_GPU_RECORDS_DEFAULT;
	int mode = dnntrace_gpu_records_lookup(text, strlen(text));
	if (mode >= 0)
		return (enum dnntrace_gpu_records)mode;
	fprintf(stderr, "dnntrace: DNNTRACE_GPU_RECORDS=%.40s is not off, kernels, work or "
		"full: recording with %s\n", text,
		dnntrace_gpu_records_name(DNNTRACE_GPU_RECORDS_DEFAULT));
	return DNNTRACE_GPU_RECORDS_DEFAULT;
}

void cupti_session_start(void)
{
	char message[512];

	records_mode = mode_from_environment();
	if (records_mode == DNNTRACE_GPU_RECORDS_OFF) {
		/* Asked for: no warning, and CUPTI never loaded. */
		DNNTRACE_EMIT(dnntrace_api, status, 0, 0,
				     "not loaded, as asked: " DNNTRACE_GPU_RECORDS_MARK "off",
				     DNNTRACE_TRACE_FORMAT, DNNTRACE_VERSION,
				     dnntrace_process_rank());
		return;
	}
	int code = start_activity(message, sizeof(message));
	if (code != 0) {
		fprintf(stderr, "dnntrace: CUPTI unavailable (%s): GPU kernel times will be "
			"missing; API calls are still traced\n", message);
		DNNTRACE_EMIT(dnntrace_api, status, 0, code, message, DNNTRACE_TRACE_FORMAT,
				DNNTRACE_VERSION, dnntrace_process_rank());
		return;
	}
	owner_pid = getpid();
	atomic_store_explicit(&cupti_session_running, true, memory_order_release);
	DNNTRACE_EMIT(dnntrace_api, status, 1, 0, message, DNNTRACE_TRACE_FORMAT,
				DNNTRACE_VERSION, dnntrace_process_rank());
}

bool cupti_session_push_slow(uint64_t call_id)
{
	if (link_by_callback) {
		unsigned depth = link_depth;
		if (depth < LINK_DEPTH)
			link_call_ids[depth] = call_id;
		link_depth = depth + 1;
		return true;
	}
	return cupti.push_id(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, call_id) == CUPTI_SUCCESS;
}

void cupti_session_pop(void)
{
	uint64_t last_id;

	if (link_by_callback) {
		link_depth--;
		return;
	}
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

void cupti_session_flush_now(void)
{
	if (!atomic_load(&cupti_session_running) || getpid() != owner_pid)
		return;
	cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void cupti_session_forget(void)
{
	atomic_store(&cupti_session_running, false);
}
