/*
 * Test emitter for the reader tests (test_reader.sh): emits a scripted
 * sequence of dnntrace events through the real tracepoint providers, with
 * GPU kernel times placed relative to CLOCK_MONOTONIC "now" (in steps of a
 * scenario "ms" that lasts 10 real ms), so the expected
 * analysis is known by construction (the same scenario as the unit test
 * test_analysis_model.c: tensors 0..5, kernels k_a..k_d lasting 100, 200,
 * 300, 400 ns). Modes:
 *   main     the scenario above (device 0)
 *   other    one tensor and one kernel on device 1, 3 CUPTI records dropped
 *   nocupti  status cupti_ok=0 and launches without GPU kernel records
 *            (in format 2, the second kernel's function event comes after
 *            its launch: the analyzer names it at the end)
 *   lib      library calls (dnntrace_lib) with roles and shapes, linked to
 *            their kernels: the scenario of test_analysis_library.c
 *   nvtx     two training steps under NVTX ranges (push/pop on two threads
 *            and two domains, start/end ranges ended by another thread),
 *            tensors tagged param:/grad:/optim:/act:, a WORKSPACE argument:
 *            the scenario of test_analysis_reader_nvtx.sh
 *   driver   VMM memory (cuMemCreate, a cuMemMap'ed tensor), a
 *            cuLaunchKernel and a cudaGraphLaunch of two kernels: the
 *            scenario of test_analysis_reader_driver.sh
 *   huge     three tensors of 2^63, 2^63 and 2^64-1 bytes, one kernel on
 *            them: byte sums past 2^64 (tests/hostile/test_huge_sizes.sh)
 *   overtraced  three 1 MiB tensors while the device reports 1 MiB in
 *            use (a free the trace missed): flagged, not clamped
 *   badgpu   three good kernels on one tensor (GPU span 2.5 us) and one
 *            good copy, among impossible GPU records: 3 with end before
 *            start, 2 with a time at 0, 2 duplicates (a kernel and a
 *            copy); the launches of the 4 impossible kernels, and one
 *            launch whose record never comes;
 *            tests/hostile/test_damaged_gpu_records.sh
 *   badgpu2  badgpu, and one good kernel on a tensor of device 1 (two
 *            groups: index.csv)
 *   names    one tensor tagged "a,b\nc\\d" (comma, newline, backslash)
 *            and one kernel on it: one entry in every report file
 *   none     registers with LTTng but emits nothing
 *   bulk N   about N events shaped like a training loop (for timing the
 *            analyzer against babeltrace2 -o dummy); no expected values
 *   hop N    bulk N, the thread moved to the next allowed CPU at every
 *            batch (sched_setaffinity), so one thread's events lie in
 *            several per-CPU stream files (test_analysis_decoders_same.sh)
 * Built three times: in the current trace format (analysis_emit_scripted)
 * and with -DDNNTRACE_TRACE_FORMAT=2 and =1 (analysis_emit_scripted_format2,
 * _format1: the traces older tracers wrote, which the analyzer must keep
 * reading; tracepoints/README.md, "Format versions"). The helpers below
 * write each event the way its format does, so every scenario is the same
 * in all three.
 * Prints "pid <pid>" so the test knows the vpid. Must never depend on a GPU.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tracepoints/dnntrace_api.h"
#include "tracepoints/dnntrace_gpu.h"
#include "tracepoints/dnntrace_lib.h"
#include "tracepoints/dnntrace_nvtx.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void wait_until(uint64_t t)
{
	while (now_ns() <= t)
		;
}

/*
 * Timed scenarios place host events between GPU times chosen in advance.
 * A machine that deschedules the emitter for longer than a window makes a
 * different scenario: due_before(t), called after the events that must
 * precede GPU time t, notes it, and the emitter then exits with
 * EXIT_DESCHEDULED so that the test records again (tests/analysis/lib.sh) instead
 * of comparing a scenario that did not happen.
 */
#define EXIT_DESCHEDULED 75
static int descheduled;

static void due_before(uint64_t t)
{
	if (now_ns() >= t)
		descheduled = 1;
}

static void *fake_ptr(uintptr_t v)
{
	return (void *)v;
}

/* An allocation by api of memory of its kind (the catalogue's), as the
 * format writes it: format 3's kind is the api's, and a stream-ordered one
 * is alloc_async. */
static void alloc_event(int api, int kind, int device, uintptr_t ptr, uint64_t bytes,
		int64_t id, int result)
{
#if DNNTRACE_TRACE_FORMAT >= 3
	(void)kind;
	if (api == DNNTRACE_API_cudaMallocAsync)
		lttng_ust_tracepoint(dnntrace_api, alloc_async, api, device, fake_ptr(ptr),
				bytes, id, result, NULL);
	else
		lttng_ust_tracepoint(dnntrace_api, alloc, api, device, fake_ptr(ptr), bytes,
				id, result);
#else
	lttng_ust_tracepoint(dnntrace_api, alloc, api, kind, device, NULL, fake_ptr(ptr),
			bytes, bytes, id, result);
#endif
}

static void alloc(int kind, int device, uint64_t bytes, int64_t id, int result)
{
	int api = kind == DNNTRACE_MEM_PINNED_HOST ? DNNTRACE_API_cudaMallocHost :
		kind == DNNTRACE_MEM_STREAM_ORDERED ? DNNTRACE_API_cudaMallocAsync :
		DNNTRACE_API_cudaMalloc;
	alloc_event(api, kind, device, 0x10000000u + (uintptr_t)(id + 1) * 0x100000u, bytes,
			id, result);
}

static void free_tensor(int64_t id)
{
#if DNNTRACE_TRACE_FORMAT >= 3
	lttng_ust_tracepoint(dnntrace_api, free, DNNTRACE_API_cudaFree, id, 0);
#else
	lttng_ust_tracepoint(dnntrace_api, free, DNNTRACE_API_cudaFree,
			DNNTRACE_MEM_DEVICE, NULL, fake_ptr(0x10000000u), id, 0);
#endif
}

static void copy_into(uint64_t call_id, int64_t id, int result)
{
	const int64_t tensors[2] = {id, -1};
	lttng_ust_tracepoint(dnntrace_api, memcpy, call_id, DNNTRACE_API_cudaMemcpy,
			1, fake_ptr(0x10000000u), fake_ptr(0x1000), 64, NULL, tensors,
			result, (uint64_t)0);
}

#if DNNTRACE_TRACE_FORMAT >= 2
/* Format 2: each kernel is named once, by a function event (ids 1, 2, ...
 * in order of first launch); launches carry the id. */
enum { MAX_FUNCTIONS = 16 };
static const char *function_names[MAX_FUNCTIONS];
static unsigned n_functions;

static void announce(uint64_t function_id)
{
	lttng_ust_tracepoint(dnntrace_api, function, function_id, fake_ptr(0x400000),
			function_names[function_id - 1], 1u);
}

/* name's function id; a new function is announced unless *late is set,
 * which the caller then keeps to announce it after the launch. */
static uint64_t function_of(const char *name, bool *late)
{
	for (unsigned i = 0; i < n_functions; i++)
		if (strcmp(function_names[i], name) == 0) {
			*late = false;
			return i + 1;
		}
	if (n_functions == MAX_FUNCTIONS) {
		fprintf(stderr, "emit_scripted: more than %d kernel names\n", MAX_FUNCTIONS);
		exit(1);
	}
	function_names[n_functions++] = name;
	if (!*late)
		announce(n_functions);
	return n_functions;
}
#if DNNTRACE_TRACE_FORMAT >= 6
#define STATUS(cupti_ok, code, message) \
	lttng_ust_tracepoint(dnntrace_api, status, cupti_ok, code, message, \
			DNNTRACE_TRACE_FORMAT, "scripted", -1)
#elif DNNTRACE_TRACE_FORMAT >= 3
#define STATUS(cupti_ok, code, message) \
	lttng_ust_tracepoint(dnntrace_api, status, cupti_ok, code, message, \
			DNNTRACE_TRACE_FORMAT, "scripted")
#else
#define STATUS(cupti_ok, code, message) \
	lttng_ust_tracepoint(dnntrace_api, status, cupti_ok, code, message, DNNTRACE_TRACE_FORMAT)
#endif
#else
#define STATUS(cupti_ok, code, message) \
	lttng_ust_tracepoint(dnntrace_api, status, cupti_ok, code, message)
#endif

/* A launch in the trace format this emitter was built for. late: in
 * format 2, a new kernel's function event comes after its launch (as when
 * another thread announced it on another CPU a few ns later). */
static void launch_through(int api, uint64_t call_id, const char *name, bool late,
		const int64_t *tensors, unsigned n, int result)
{
#if DNNTRACE_TRACE_FORMAT >= 3
	uint64_t function_id = function_of(name, &late);
	lttng_ust_tracepoint(dnntrace_api, launch, call_id, api, function_id, fake_ptr(0x7),
			tensors, n, result, (uint64_t)0);
	if (late)
		announce(function_id);
#elif DNNTRACE_TRACE_FORMAT == 2
	struct dnntrace_launch_geometry geom = {{1, 1, 1}, {32, 1, 1}, 0};
	uint64_t function_id = function_of(name, &late);
	lttng_ust_tracepoint(dnntrace_api, launch, call_id, api, fake_ptr(0x400000),
			function_id, &geom, fake_ptr(0x7), tensors, n, result, (uint64_t)0);
	if (late)
		announce(function_id);
#else
	struct dnntrace_launch_geometry geom = {{1, 1, 1}, {32, 1, 1}, 0};
	(void)late;
	lttng_ust_tracepoint(dnntrace_api, launch, call_id, api, fake_ptr(0x400000),
			name, &geom, fake_ptr(0x7), tensors, n, result, (uint64_t)0);
#endif
}

static void launch(uint64_t call_id, const char *name, const int64_t *tensors,
		unsigned n, int result)
{
	launch_through(DNNTRACE_API_cudaLaunchKernel, call_id, name, false, tensors, n,
			result);
}

#if DNNTRACE_TRACE_FORMAT >= 3
/* Format 3: each GPU kernel name once, by a kernel_name event (ids 1, 2,
 * ... in order of first record); records carry the id. */
static const char *gpu_names[MAX_FUNCTIONS];
static unsigned n_gpu_names;

static uint32_t kernel_name_of(const char *name, bool late)
{
	for (unsigned i = 0; i < n_gpu_names; i++)
		if (strcmp(gpu_names[i], name) == 0)
			return i + 1;
	if (n_gpu_names == MAX_FUNCTIONS) {
		fprintf(stderr, "emit_scripted: more than %d GPU kernel names\n", MAX_FUNCTIONS);
		exit(1);
	}
	gpu_names[n_gpu_names++] = name;
	if (!late)
		lttng_ust_tracepoint(dnntrace_gpu, kernel_name, n_gpu_names, name);
	return n_gpu_names;
}
#endif

/* A GPU kernel record. late: in format 3, a new name's kernel_name event
 * comes after the record (as only a lossy channel could make it). */
static void gpu_kernel_record(uint32_t correlation, uint32_t device, uint64_t start,
		uint64_t duration, const char *name, bool late)
{
#if DNNTRACE_TRACE_FORMAT >= 3
	const struct dnntrace_gpu_kernel k = {
		.correlation_id = correlation, .device = device, .context = 1, .stream = 7,
		.start = start, .end = start + duration,
		.name_id = kernel_name_of(name, late),
		.grid = {1, 1, 1}, .block = {32, 1, 1}, .shared_mem = 0,
	};
	lttng_ust_tracepoint(dnntrace_gpu, kernel, &k);
	if (late)
		lttng_ust_tracepoint(dnntrace_gpu, kernel_name, k.name_id, name);
#else
	(void)late;
	lttng_ust_tracepoint(dnntrace_gpu, kernel, correlation, device, 1, 7,
			start, start + duration, name);
#endif
}

static void gpu_kernel(uint32_t correlation, uint32_t device, uint64_t start,
		uint64_t duration, const char *name)
{
	gpu_kernel_record(correlation, device, start, duration, name, false);
}

static void emit_main(void)
{
	alloc(DNNTRACE_MEM_DEVICE, 0, 1000, 0, 0);
	copy_into(100, 0, 0);
	lttng_ust_tracepoint(dnntrace_api, tag, fake_ptr(0x10100000u), 0, "first_name");
	lttng_ust_tracepoint(dnntrace_api, tag, fake_ptr(0x10100000u), 0, "weights");
	alloc(DNNTRACE_MEM_DEVICE, 0, 2000, 1, 0);
	copy_into(101, 1, 700);   /* failed copy: not a write */
	alloc(DNNTRACE_MEM_DEVICE, 0, 1 << 30, -1, 2);
	alloc(DNNTRACE_MEM_PINNED_HOST, 0, 4096, -1, 0);
	alloc(DNNTRACE_MEM_DEVICE, 0, 64, 4, 0);
	lttng_ust_tracepoint(dnntrace_api, memset, 102, DNNTRACE_API_cudaMemset,
			fake_ptr(0x10500000u), 0, 64, NULL, 4, 0, (uint64_t)0);
	alloc(DNNTRACE_MEM_STREAM_ORDERED, 0, 10, 5, 0);
	copy_into(103, 5, 0);

	/* GPU timeline: k_a at S, k_b at S+2ms, k_c at S+4ms, k_d at S+6ms */
	/* one scenario "ms" is 10 ms of real time: room for a loaded
	 * machine to deschedule the emitter between its timed events */
	const uint64_t ms = 10000000, s = now_ns() + ms;
	int64_t l1[] = {0, 1}, l2[] = {1, 3, 5}, l3[] = {2, 4}, l4[] = {0, 3, 4};
	launch(1, "k_a", l1, 2, 0);
	due_before(s);
	wait_until(s + ms / 2);            /* tensor 3: after k_a starts */
	alloc(DNNTRACE_MEM_DEVICE, 0, 50, 3, 0);
	launch(2, "k_b", l2, 3, 0);
	due_before(s + 2 * ms);
	wait_until(s + 3 * ms);            /* tensor 2: between k_b and k_c */
	alloc(DNNTRACE_MEM_DEVICE, 0, 300, 2, 0);
	launch(3, "k_c", l3, 2, 0);
	launch(4, "k_d", l4, 3, 0);
	due_before(s + 4 * ms);
	wait_until(s + 5 * ms);            /* after k_c ended, before k_d */
	free_tensor(2);
	due_before(s + 6 * ms);
	wait_until(s + 7 * ms);            /* after k_d ended */
	free_tensor(3);
	free_tensor(1);

	/* CUPTI buffers arrive late and out of order */
	gpu_kernel(14, 0, s + 6 * ms, 400, "k_d");
	gpu_kernel(12, 0, s + 2 * ms, 200, "k_b");
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 14, 4);
	gpu_kernel(11, 0, s, 100, "k_a");
	gpu_kernel(13, 0, s + 4 * ms, 300, "k_c");
	lttng_ust_tracepoint(dnntrace_gpu, memcpy, 20, 0, 1, 7, s - ms, s - ms + 5, 1, 64, 1, 3);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 11, 1);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 12, 2);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 13, 3);
	STATUS(1, 0, "ok");
}

/* One library call argument: tensor id (-1: the tracer found none),
 * pointer, role, element type and up to 4 dimensions. */
struct lib_arg {
	long long tensor;
	unsigned long long ptr;
	unsigned char role, dtype, rank;
	long long dims[4];
};

static void lib_call(unsigned long long call_id, int api,
		const struct lib_arg *args, unsigned n_args, int result)
{
	long long tensors[8], dims[32];
	unsigned long long ptrs[8];
	unsigned char roles[8], dtypes[8], ranks[8];
	unsigned n_dims = 0;
	for (unsigned i = 0; i < n_args && i < 8; i++) {
		tensors[i] = args[i].tensor;
		ptrs[i] = args[i].ptr;
		roles[i] = args[i].role;
		dtypes[i] = args[i].dtype;
		ranks[i] = args[i].rank;
		for (unsigned d = 0; d < args[i].rank; d++)
			dims[n_dims++] = args[i].dims[d];
	}
	long long params[] = {1, 0};
	struct dnntrace_lib_call call = {
		.call_id = call_id, .api = api,
		.stream = fake_ptr(0x5000), .n_args = n_args, .tensors = tensors,
		.ptrs = ptrs, .roles = roles, .dtypes = dtypes, .ranks = ranks,
		.n_dims = n_dims, .dims = dims, .n_params = 2, .params = params,
		.result = result,
#if DNNTRACE_TRACE_FORMAT < 3
		.handle = fake_ptr(0xabc), .arg_names = "a,b,c,d,e",
		.param_names = "algo,workspace_bytes",
#endif
	};
	lttng_ust_tracepoint(dnntrace_lib, call, &call);
}

static void alloc_at(uintptr_t ptr, uint64_t bytes, int64_t id)
{
	alloc_event(DNNTRACE_API_cudaMalloc, DNNTRACE_MEM_DEVICE, 0, ptr, bytes, id, 0);
}

/*
 * The scenario of test_analysis_library.c (see there for every expected
 * value), on the real clock: tensors 0..7 at the same addresses, the same
 * calls and kernels (GPU starts 10 ms apart from S, durations 100, 300, 50,
 * 200, 10 ns), host events placed between GPU starts with wait_until.
 */
static void emit_lib(void)
{
	enum { R = DNNTRACE_ROLE_READ, W = DNNTRACE_ROLE_WRITE,
		RW = DNNTRACE_ROLE_READ_WRITE, WS = DNNTRACE_ROLE_WORKSPACE,
		UNK = DNNTRACE_ROLE_UNKNOWN, F32 = DNNTRACE_DTYPE_F32 };
	STATUS(1, 0, "ok");
	alloc_at(0x50000, 8192, 7);
	free_tensor(7);
	alloc_at(0x1000, 4096, 0);
	copy_into(100, 0, 0);
	alloc_at(0x10000, 1024, 1);
	alloc_at(0x50000, 4096, 5);
	alloc_at(0x30000, 512, 3);
	alloc_at(0x20000, 8192, 2);
	lttng_ust_tracepoint(dnntrace_lib, set_stream,
			DNNTRACE_LIB_cudnnSetStream, fake_ptr(0xabc),
			fake_ptr(0x5000), 0);

	/* one scenario "ms" is 10 ms of real time: room for a loaded
	 * machine to deschedule the emitter between its timed events */
	const uint64_t ms = 10000000, s = now_ns() + ms;
	const struct lib_arg conv[] = {
		{0, 0x1000, R, F32, 4, {2, 3, 8, 8}},
		{1, 0x10000, R, F32, 4, {4, 3, 3, 3}},
		{1, 0x10040, R, F32, 1, {4}},
		{2, 0x20000, W, F32, 4, {2, 4, 6, 6}},
		{3, 0x30000, WS, DNNTRACE_DTYPE_UNKNOWN, 0, {0}},
	};
	lib_call(1, DNNTRACE_LIB_cudnnConvolutionForward, conv, 5, 0);
	due_before(s);
	wait_until(s + ms / 2);            /* h is born after the first start */
	alloc_at(0x40000, 2048, 4);
	due_before(s + ms);
	int64_t relu[] = {2, 4};
	launch(2, "relu_kernel", relu, 2, 0);
	const struct lib_arg gemm[] = {
		{4, 0x40000, R, F32, 2, {16, 8}},
		{-1, 0x50100, R, F32, 2, {8, 4}},
		{2, 0x20000, W, F32, 2, {16, 4}},
	};
	lib_call(3, DNNTRACE_LIB_cublasSgemm_v2, gemm, 3, 0);
	due_before(s + 3 * ms);
	wait_until(s + 4 * ms);            /* between sgemm and backend_k */
	const struct lib_arg add[] = {
		{0, 0x1000, R, F32, 4, {2, 3, 8, 8}},
		{2, 0x20000, RW, F32, 4, {2, 4, 6, 6}},
	};
	lib_call(4, DNNTRACE_LIB_cudnnAddTensor, add, 2, 0);
	free_tensor(2);
	alloc_at(0x60000, 256, 6);
	const struct lib_arg backend[] = {
		{3, 0x30000, UNK, DNNTRACE_DTYPE_UNKNOWN, 0, {0}},
		{6, 0x60000, UNK, F32, 1, {64}},
		{4, 0x40000, RW, F32, 2, {16, 8}},
		{-1, 0x900000000ULL, R, F32, 1, {1}},
	};
	lib_call(5, DNNTRACE_LIB_cudnnBackendExecute, backend, 4, 0);
	lib_call(6, DNNTRACE_LIB_cudnnAddTensor, add, 1, 3);
	due_before(s + 5 * ms);
	wait_until(s + 6 * ms);            /* after backend_k ended */
	free_tensor(4);

	/* CUPTI records arrive late, out of order */
	gpu_kernel(35, 0, s + 5 * ms, 10, "backend_k");
	gpu_kernel(32, 0, s + ms, 300, "conv_b");
	gpu_kernel(31, 0, s, 100, "conv_a");
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 35, 5);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 32, 1);
	gpu_kernel(33, 0, s + 2 * ms, 50, "relu_kernel");
	gpu_kernel(34, 0, s + 3 * ms, 200, "sgemm_128x64_nn");
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 31, 1);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 33, 2);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 34, 3);
}

/* Runs fn on a thread of its own (another vtid) and waits for it. */
static void on_other_thread(void *(*fn)(void *), void *arg)
{
	pthread_t thread;
	if (pthread_create(&thread, NULL, fn, arg) != 0) {
		perror("pthread_create");
		exit(2);
	}
	pthread_join(thread, NULL);
}

static void *prefetch(void *call_id)
{
	int64_t x[] = {2};
	lttng_ust_tracepoint(dnntrace_nvtx, push, "loader", "prefetch");
	launch(*(uint64_t *)call_id, "prefetch_k", x, 1, 0);
	lttng_ust_tracepoint(dnntrace_nvtx, pop, "loader");
	return NULL;
}

static void *end_range(void *id)
{
	lttng_ust_tracepoint(dnntrace_nvtx, end, *(uint64_t *)id);
	return NULL;
}

static void tag(int64_t id, const char *name)
{
	lttng_ust_tracepoint(dnntrace_api, tag, fake_ptr(0x10000000u), id, name);
}

/*
 * Two training steps. Tensors: 0 param:fc.weight (1000 B), 1
 * optim:fc.weight.momentum (100), 2 the input t2 (500, untagged), 5 a
 * workspace t5 (256, untagged); per step s (ids 3/6 and 4/7) act:fc (300)
 * and grad:fc.weight (1000), freed inside the step. Calls, in order, with
 * the op each gets (innermost range of the calling thread, or a start/end
 * range of the process):
 *   step s (push "step", main thread):
 *     fwd_k (t2, w, act)   in push "aten::linear"            aten::linear
 *     prefetch_k (t2)      other thread, push "prefetch" in
 *                          domain "loader" (main's do not count) prefetch
 *     cublasSgemm_v2 (act R, w R, grad W, t5 WORKSPACE): kernel sgemm_k,
 *                          in push "aten::linear_backward"   aten::linear_backward
 *     sgd_k (w, grad, momentum) in start/end "optimizer" (id 100+s,
 *                          ended by another thread)          optimizer
 *   then a push/pop "idle" holding no call, and eval_k (w) outside any
 *   range (no op).
 * GPU kernels: in call order, 10 us apart, 1 us each, all after the host
 * events (so every tensor is allocated before any kernel starts).
 */
static void emit_nvtx(void)
{
	enum { R = DNNTRACE_ROLE_READ, W = DNNTRACE_ROLE_WRITE,
		WS = DNNTRACE_ROLE_WORKSPACE, F32 = DNNTRACE_DTYPE_F32 };
	STATUS(1, 0, "ok");
	alloc(DNNTRACE_MEM_DEVICE, 0, 1000, 0, 0);
	tag(0, "param:fc.weight");
	copy_into(90, 0, 0);
	alloc(DNNTRACE_MEM_DEVICE, 0, 100, 1, 0);
	tag(1, "optim:fc.weight.momentum");
	lttng_ust_tracepoint(dnntrace_api, memset, 91, DNNTRACE_API_cudaMemset,
			fake_ptr(0x10200000u), 0, 100, NULL, 1, 0, (uint64_t)0);
	alloc(DNNTRACE_MEM_DEVICE, 0, 500, 2, 0);
	copy_into(92, 2, 0);
	alloc(DNNTRACE_MEM_DEVICE, 0, 256, 5, 0);
	uint64_t call_id = 1;
	static const char *const kernel_names[] = {"fwd_k", "prefetch_k",
		"sgemm_k", "sgd_k"};
	for (int64_t step = 1; step <= 2; step++) {
		int64_t act = step == 1 ? 3 : 6, grad = step == 1 ? 4 : 7;
		lttng_ust_tracepoint(dnntrace_nvtx, push, "", "step");
		alloc(DNNTRACE_MEM_DEVICE, 0, 300, act, 0);
		tag(act, "act:fc");
		lttng_ust_tracepoint(dnntrace_nvtx, push, "", "aten::linear");
		int64_t fwd[] = {2, 0, act};
		launch(call_id++, "fwd_k", fwd, 3, 0);
		lttng_ust_tracepoint(dnntrace_nvtx, pop, "");
		uint64_t prefetch_call = call_id++;
		on_other_thread(prefetch, &prefetch_call);
		alloc(DNNTRACE_MEM_DEVICE, 0, 1000, grad, 0);
		tag(grad, "grad:fc.weight");
		lttng_ust_tracepoint(dnntrace_nvtx, push, "", "aten::linear_backward");
		const struct lib_arg bwd[] = {
			{act, 0, R, F32, 0, {0}},
			{0, 0, R, F32, 0, {0}},
			{grad, 0, W, F32, 0, {0}},
			{5, 0, WS, F32, 0, {0}},
		};
		lib_call(call_id++, DNNTRACE_LIB_cublasSgemm_v2, bwd, 4, 0);
		lttng_ust_tracepoint(dnntrace_nvtx, pop, "");
		free_tensor(act);
		uint64_t range_id = 100 + (uint64_t)step;
		lttng_ust_tracepoint(dnntrace_nvtx, start, range_id, "", "optimizer");
		int64_t sgd[] = {0, grad, 1};
		launch(call_id++, "sgd_k", sgd, 3, 0);
		on_other_thread(end_range, &range_id);
		free_tensor(grad);
		lttng_ust_tracepoint(dnntrace_nvtx, pop, "");
	}
	lttng_ust_tracepoint(dnntrace_nvtx, push, "", "idle");
	lttng_ust_tracepoint(dnntrace_nvtx, pop, "");
	int64_t eval[] = {0};
	launch(call_id, "eval_k", eval, 1, 0);

	const uint64_t us = 1000, s = now_ns() + 1000 * us;
	for (uint64_t c = 1; c <= call_id; c++) {
		lttng_ust_tracepoint(dnntrace_gpu, external_correlation,
				(uint32_t)c, c);
		gpu_kernel((uint32_t)c, 0, s + 10 * us * c, us,
				c == call_id ? "eval_k" : kernel_names[(c - 1) % 4]);
	}
}

static void emit_other(void)
{
	alloc(DNNTRACE_MEM_DEVICE, 1, 128, 0, 0);
	int64_t t[] = {0};
	uint64_t s = now_ns() + 1000000;
	launch(9, "needs, \"quoting\"<float>", t, 1, 0);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 1, 9);
	/* format 3: the name event comes after the record, named at the end */
	gpu_kernel_record(1, 1, s, 10, "needs, \"quoting\"<float>", true);
	lttng_ust_tracepoint(dnntrace_gpu, records_dropped, 3);
}

static void emit_huge(void)
{
	alloc(DNNTRACE_MEM_DEVICE, 0, (uint64_t)1 << 63, 0, 0);
	alloc(DNNTRACE_MEM_DEVICE, 0, (uint64_t)1 << 63, 1, 0);
	alloc(DNNTRACE_MEM_DEVICE, 0, UINT64_MAX, 2, 0);
	int64_t t[] = {0, 1, 2};
	uint64_t s = now_ns() + 1000000;
	launch(1, "huge_k", t, 3, 0);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 1, 1);
	gpu_kernel(1, 0, s, 10, "huge_k");
}

static void emit_overtraced(void)
{
	for (int64_t id = 0; id < 3; id++)
		alloc(DNNTRACE_MEM_DEVICE, 0, 1 << 20, id, 0);
	/* 16 MiB device, 15 MiB free: 1 MiB in use */
	lttng_ust_tracepoint(dnntrace_api, mem_info, 0, 15u << 20, 16u << 20);
	int64_t t[] = {0, 1, 2};
	uint64_t s = now_ns() + 1000000;
	launch(1, "over_k", t, 3, 0);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 1, 1);
	gpu_kernel(1, 0, s, 10, "over_k");
}

static void tag(int64_t id, const char *name);

static void emit_names(void)
{
	alloc(DNNTRACE_MEM_DEVICE, 0, 4096, 0, 0);
	tag(0, "a,b\nc\\d");
	int64_t t[] = {0};
	uint64_t s = now_ns() + 1000000;
	launch(1, "names_k", t, 1, 0);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 1, 1);
	gpu_kernel(1, 0, s, 10, "names_k");
}

/* A GPU kernel record with its end as given (end before start, or 0). */
static void gpu_kernel_span(uint32_t correlation, uint64_t start, uint64_t end,
		const char *name)
{
#if DNNTRACE_TRACE_FORMAT >= 3
	const struct dnntrace_gpu_kernel k = {
		.correlation_id = correlation, .device = 0, .context = 1, .stream = 7,
		.start = start, .end = end, .name_id = kernel_name_of(name, false),
		.grid = {1, 1, 1}, .block = {32, 1, 1}, .shared_mem = 0,
	};
	lttng_ust_tracepoint(dnntrace_gpu, kernel, &k);
#else
	lttng_ust_tracepoint(dnntrace_gpu, kernel, correlation, 0, 1, 7,
			start, end, name);
#endif
}

static void emit_badgpu(void)
{
	alloc(DNNTRACE_MEM_DEVICE, 0, 4096, 0, 0);
	int64_t t[] = {0};
	uint64_t s = now_ns() + 1000000;
	for (uint32_t c = 1; c <= 3; c++) {
		launch(c, "good_k", t, 1, 0);
		lttng_ust_tracepoint(dnntrace_gpu, external_correlation, c, c);
	}
	/* the launches of the impossible kernels (correlations 4-7), and one
	 * (8) whose record never comes */
	for (uint32_t c = 4; c <= 8; c++) {
		launch(c, c < 8 ? "damaged_launch" : "lost_launch", t, 1, 0);
		lttng_ust_tracepoint(dnntrace_gpu, external_correlation, c, c);
	}
	/* the good ones: kernels at s, s+1000, s+2000, 500 ns each; a copy */
	gpu_kernel_span(1, s, s + 500, "good_k");
	lttng_ust_tracepoint(dnntrace_gpu, memcpy, 10, 0, 1, 7, s + 600, s + 700, 1, 4096, 1, 3);
	gpu_kernel_span(2, s + 1000, s + 1500, "good_k");
	/* end before start: two kernels and a set */
	gpu_kernel_span(4, s + 1200, s + 1100, "bad_k");
	gpu_kernel_span(5, s + 5000, 1, "bad_k");
	lttng_ust_tracepoint(dnntrace_gpu, memset, 11, 0, 1, 7, s + 800, s + 700, 0, 4096);
	/* a time at 0 */
	gpu_kernel_span(6, 0, s + 1600, "bad_k");
	gpu_kernel_span(7, s + 1700, 0, "bad_k");
	gpu_kernel_span(3, s + 2000, s + 2500, "good_k");
	/* duplicates of kept records, not next to them */
	gpu_kernel_span(1, s, s + 500, "good_k");
	lttng_ust_tracepoint(dnntrace_gpu, memcpy, 10, 0, 1, 7, s + 600, s + 700, 1, 4096, 1, 3);
}

static void emit_badgpu2(void)
{
	emit_badgpu();
	alloc(DNNTRACE_MEM_DEVICE, 1, 8192, 1, 0);
	int64_t t[] = {1};
	launch(9, "dev1_k", t, 1, 0);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 9, 9);
	gpu_kernel_record(9, 1, now_ns(), 500, "dev1_k", false);
}

static void emit_nocupti(void)
{
	STATUS(0, 15, "CUPTI_ERROR_NOT_INITIALIZED");
	alloc(DNNTRACE_MEM_DEVICE, 0, 8, 0, 0);
	int64_t t[] = {0};
	launch(1, "first", t, 1, 0);
	launch_through(DNNTRACE_API_cudaLaunchKernel, 2, "second", true, t, 1, 0);
	launch(3, "failed", t, 1, 1);
}

/* hop mode: the allowed CPUs, and the next one to move to */
static bool hop_cpus;
static cpu_set_t hop_allowed;
static int hop_next;

/* Moves the calling thread to the next allowed CPU (hop mode only). */
static void hop(void)
{
	if (!hop_cpus)
		return;
	for (int tried = 0; tried < CPU_SETSIZE; tried++) {
		int cpu = hop_next++ % CPU_SETSIZE;
		if (!CPU_ISSET(cpu, &hop_allowed))
			continue;
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			return;
	}
}

/* Per kernel: launch + external correlation + GPU record (3 events); a
 * tensor alloc and a free every 16 kernels; GPU records in batches. */
static void emit_bulk(long events)
{
	enum { LIVE = 64, BATCH = 512 };
	int64_t next_id = 0, live[LIVE];
	for (int i = 0; i < LIVE; i++) {
		live[i] = next_id;
		alloc(DNNTRACE_MEM_DEVICE, 0, 4096 * (uint64_t)(i + 1), next_id++, 0);
	}
	uint64_t t = now_ns() + 1000000;
	long kernels = events / 3;
	for (long base = 0; base < kernels; base += BATCH) {
		long n = kernels - base < BATCH ? kernels - base : BATCH;
		hop();
		for (long k = base; k < base + n; k++) {
			if (k % 16 == 15) {
				int slot = (int)(k / 16 % LIVE);
				free_tensor(live[slot]);
				live[slot] = next_id;
				alloc(DNNTRACE_MEM_DEVICE, 0, 8192, next_id++, 0);
			}
			int64_t args[3] = {live[k % LIVE], live[(k * 7 + 3) % LIVE],
				live[(k * 13 + 5) % LIVE]};
			launch((uint64_t)k + 1, "void gemm<float, 128>(float*, int)", args, 3, 0);
		}
		for (long k = base; k < base + n; k++) {
			lttng_ust_tracepoint(dnntrace_gpu, external_correlation,
					(uint32_t)k + 1, (uint64_t)k + 1);
			gpu_kernel((uint32_t)k + 1, 0, t, 1000 + (uint64_t)(k % 50), "gemm");
			t += 2000;
		}
	}
}

/* GPU times are not timed against host events here: the analysis of
 * this scenario does not depend on their interleaving. */
static void emit_driver(void)
{
	alloc_event(DNNTRACE_API_cuMemCreate, DNNTRACE_MEM_VMM_PHYSICAL, 0, 0x1, 2097152, -1, 0);
	alloc_event(DNNTRACE_API_cuMemMap, DNNTRACE_MEM_VMM_MAPPED, 0, 0x700000000000u, 2097152,
			0, 0);
	int64_t args[] = {0};
	launch_through(DNNTRACE_API_cuLaunchKernel, 1, "drv_k", false, args, 1, 0);
	lttng_ust_tracepoint(dnntrace_api, graph_launch, 2,
			DNNTRACE_API_cudaGraphLaunch, fake_ptr(0x500000),
			fake_ptr(0x7), 0, (uint64_t)0);
	const uint64_t s = now_ns() + 1000000;
	gpu_kernel(21, 0, s, 100, "drv_k");
	gpu_kernel(22, 0, s + 1000, 200, "g_a");
	gpu_kernel(22, 0, s + 2000, 300, "g_b");
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 21, 1);
	lttng_ust_tracepoint(dnntrace_gpu, external_correlation, 22, 2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	if (strcmp(mode, "main") == 0)
		emit_main();
	else if (strcmp(mode, "other") == 0)
		emit_other();
	else if (strcmp(mode, "nocupti") == 0)
		emit_nocupti();
	else if (strcmp(mode, "lib") == 0)
		emit_lib();
	else if (strcmp(mode, "nvtx") == 0)
		emit_nvtx();
	else if (strcmp(mode, "driver") == 0)
		emit_driver();
	else if (strcmp(mode, "huge") == 0)
		emit_huge();
	else if (strcmp(mode, "overtraced") == 0)
		emit_overtraced();
	else if (strcmp(mode, "names") == 0)
		emit_names();
	else if (strcmp(mode, "badgpu") == 0)
		emit_badgpu();
	else if (strcmp(mode, "badgpu2") == 0)
		emit_badgpu2();
	else if (strcmp(mode, "bulk") == 0 && argc > 2)
		emit_bulk(atol(argv[2]));
	else if (strcmp(mode, "hop") == 0 && argc > 2) {
		hop_cpus = sched_getaffinity(0, sizeof(hop_allowed), &hop_allowed) == 0;
		emit_bulk(atol(argv[2]));
	}
	else if (strcmp(mode, "none") != 0) {
		fprintf(stderr, "usage: %s [main|other|nocupti|lib|nvtx|driver|huge|overtraced|names|badgpu|badgpu2|none|bulk N|hop N]\n", argv[0]);
		return 2;
	}
	if (descheduled) {
		fprintf(stderr, "%s: descheduled past a timed window: not the "
				"scenario, record again\n", argv[0]);
		return EXIT_DESCHEDULED;
	}
	return 0;
}
