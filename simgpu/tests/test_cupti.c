/*
 * The simulated CUPTI: record counts, kinds and names; start/end on the
 * CUPTI clock (device time + 10^18 ns) with exact durations; correlation ids
 * 1, 2, 3 per GPU-work call; external correlation (needs an API kind, as on
 * real CUPTI); completion when full (delivered by the CUPTI worker thread,
 * not the filling thread) and on flush (in the caller's thread, complete and
 * in order), forced vs default flush; API records per enabled runtime or
 * driver function (cuptiActivityEnableRuntimeApi/DriverApi, chosen before cuInit;
 * ignored after it, as on a real H100); CUDA calls from bufferCompleted; exit
 * with buffers in flight; dropped records; timestamp callback; busy
 * subscriber; result strings.
 */
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

#define CUPTI_OFFSET 1000000000000000000ULL

#define CHECK_CUPTI(call, want)                                            \
	do {                                                               \
		CUptiResult got_ = (call);                                 \
		if (got_ != (want)) {                                      \
			const char *name_ = "?";                           \
			cuptiGetResultString(got_, &name_);                \
			fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, \
				__LINE__, #call, name_);                   \
			exit(1);                                           \
		}                                                          \
	} while (0)

/* Copies of every record delivered so far. */
union any_record {
	CUpti_Activity base;
	CUpti_ActivityKernel10 kernel;
	CUpti_ActivityMemcpy6 memcpy;
	CUpti_ActivityMemset4 memset;
	CUpti_ActivityExternalCorrelation ext;
	CUpti_ActivityAPI api;
};
static union any_record records[256];
static int n_records, n_completed, n_requested;
static pthread_t completed_by[64]; /* the thread that delivered each buffer */
static size_t buffer_bytes = 64 * 1024;
static int refuse_buffers;
static int launch_from_callback;   /* bufferCompleted launches kernel_b */
static useconds_t callback_sleep_us;
static char kernel_a, kernel_b; /* host-side handles */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size,
				      size_t *max_records)
{
	n_requested++;
	*max_records = 0;
	*size = buffer_bytes;
	*buffer = refuse_buffers ? NULL : aligned_alloc(8, buffer_bytes);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream,
				      uint8_t *buffer, size_t size, size_t valid)
{
	(void)ctx, (void)stream, (void)size;
	CHECK(n_completed < 64);
	completed_by[n_completed++] = pthread_self();
	if (callback_sleep_us)
		usleep(callback_sleep_us);
	CUpti_Activity *r = NULL;
	CUptiResult res;
	while ((res = cuptiActivityGetNextRecord(buffer, valid, &r)) == CUPTI_SUCCESS) {
		CHECK(n_records < 256);
		CHECK((uintptr_t)r % 8 == 0);
		size_t n = r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
				   ? sizeof(CUpti_ActivityKernel10)
			   : r->kind == CUPTI_ACTIVITY_KIND_MEMCPY
				   ? sizeof(CUpti_ActivityMemcpy6)
			   : r->kind == CUPTI_ACTIVITY_KIND_MEMSET
				   ? sizeof(CUpti_ActivityMemset4)
			   : r->kind == CUPTI_ACTIVITY_KIND_RUNTIME ||
					     r->kind == CUPTI_ACTIVITY_KIND_DRIVER
				   ? sizeof(CUpti_ActivityAPI)
				   : sizeof(CUpti_ActivityExternalCorrelation);
		memcpy(&records[n_records++], r, n);
	}
	CHECK(res == CUPTI_ERROR_MAX_LIMIT_REACHED);
	free(buffer);
	if (launch_from_callback) {
		/* No CUPTI or simgpu lock may be held here, or this hangs. */
		launch_from_callback = 0;
		CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int count_kind(CUpti_ActivityKind kind)
{
	int n = 0;
	for (int i = 0; i < n_records; i++)
		n += records[i].base.kind == kind;
	return n;
}

static const union any_record *find(CUpti_ActivityKind kind, int nth)
{
	for (int i = 0; i < n_records; i++)
		if (records[i].base.kind == kind && nth-- == 0)
			return &records[i];
	fprintf(stderr, "record of kind %d #%d missing\n", (int)kind, nth);
	exit(1);
}

static void check_records_and_correlation(void)
{
	CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
		    CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);

	size_t sizes[3] = { 8, 4, 8 };
	simgpu_define_kernel(&kernel_a, "kernel_a", 3, sizes);
	void *d;
	CHECK_CUDA(cudaMalloc(&d, 4096));
	void *args[3] = { &d, &sizes[0], &d };
	static char host[1000];

	uint64_t before = now_ns();
	CHECK_CUPTI(cuptiActivityPushExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 77), CUPTI_SUCCESS);
	simgpu_next_kernel_ns(5000);
	CHECK_CUDA(cudaLaunchKernel(&kernel_a, D3(2, 1, 1), D3(64, 1, 1), args, 0, 0));
	uint64_t popped = 0;
	CHECK_CUPTI(cuptiActivityPopExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &popped), CUPTI_SUCCESS);
	CHECK_EQ_U64(popped, 77);
	CHECK_CUDA(cudaMemcpy(d, host, 1000, cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemsetAsync(d, 3, 100, 0));
	uint64_t after = now_ns();
	CHECK_CUPTI(cuptiActivityPopExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, NULL), CUPTI_ERROR_QUEUE_EMPTY);

	CHECK(n_completed == 0); /* nothing delivered before a flush */
	CHECK_CUDA(cudaDeviceSynchronize());
	CHECK_CUPTI(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
	CHECK(n_completed == 1);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 1);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_MEMCPY), 1);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_MEMSET), 1);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_RUNTIME), 4); /* + cudaMalloc */
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION), 1);

	const CUpti_ActivityKernel10 *k = &find(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
	CHECK(strcmp(k->name, "kernel_a") == 0);
	CHECK_EQ_U64(k->correlationId, 2); /* 1 is cudaMalloc's */
	CHECK_EQ_U64(k->end - k->start, 5000);
	CHECK(k->start >= before + CUPTI_OFFSET && k->start <= after + CUPTI_OFFSET);
	CHECK(k->gridX == 2 && k->gridY == 1 && k->blockX == 64 && k->streamId == 7);
	const CUpti_ActivityExternalCorrelation *x =
		&find(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, 0)->ext;
	CHECK(x->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
	CHECK_EQ_U64(x->externalId, 77);
	CHECK_EQ_U64(x->correlationId, 2);

	const CUpti_ActivityMemcpy6 *c = &find(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy;
	CHECK_EQ_U64(c->correlationId, 3);
	CHECK_EQ_U64(c->bytes, 1000);
	CHECK(c->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
	CHECK(c->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
	CHECK(c->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
	CHECK_EQ_U64(c->end - c->start, 2000 + 40); /* 1000 B at 25 B/ns */
	CHECK(c->start >= k->end);                 /* same stream: in order */
	CHECK(!(c->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC));

	const CUpti_ActivityMemset4 *s = &find(CUPTI_ACTIVITY_KIND_MEMSET, 0)->memset;
	CHECK_EQ_U64(s->correlationId, 4);
	CHECK_EQ_U64(s->bytes, 100);
	CHECK_EQ_U64(s->value, 3);
	CHECK_EQ_U64(s->end - s->start, 1000 + 1);
	CHECK(s->start >= c->end);

	const CUpti_ActivityAPI *api = &find(CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api;
	CHECK_EQ_U64(api->correlationId, 1);
	CHECK(api->cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020);
	CHECK_EQ_U64(api->returnValue, cudaSuccess);
	api = &find(CUPTI_ACTIVITY_KIND_RUNTIME, 1)->api;
	CHECK_EQ_U64(api->correlationId, 2);
	CHECK(api->cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
	CHECK(api->start <= api->end && api->end <= after + CUPTI_OFFSET);

	/* Without an API kind enabled, real CUPTI writes no external records. */
	n_records = 0;
	CHECK_CUPTI(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityPushExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 78), CUPTI_SUCCESS);
	CHECK_CUDA(cudaLaunchKernel(&kernel_a, D3(1, 1, 1), D3(1, 1, 1), args, 0, 0));
	CHECK_CUPTI(cuptiActivityPopExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, NULL), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK_EQ_U64(n_records, 1);
	CHECK_EQ_U64(records[0].kernel.correlationId, 5);
	CHECK_EQ_U64(records[0].kernel.end - records[0].kernel.start, 2000 + 10);
	CHECK_CUDA(cudaFree(d));
}

static void check_full_buffers_and_drops(void)
{
	size_t no_params = 0;
	simgpu_define_kernel(&kernel_b, "kernel_b", 0, &no_params);
	n_records = n_completed = 0;
	/* Room for two kernel records (and the alignment slack) per buffer. */
	buffer_bytes = 2 * sizeof(CUpti_ActivityKernel10) + 8;
	for (int i = 0; i < 5; i++)
		CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	/* Two buffers are full: the worker delivers them; the flush waits for
	 * it, then delivers the third, in this thread. */
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK_EQ_U64(n_completed, 3);
	CHECK(!pthread_equal(completed_by[0], pthread_self()));
	CHECK(!pthread_equal(completed_by[1], pthread_self()));
	CHECK(pthread_equal(completed_by[2], pthread_self()));
	CHECK_EQ_U64(n_records, 5);
	for (int i = 0; i < 5; i++) {
		CHECK(strcmp(records[i].kernel.name, "kernel_b") == 0);
		if (i)
			CHECK_EQ_U64(records[i].kernel.correlationId,
				     records[i - 1].kernel.correlationId + 1);
	}

	/* A callback that submits GPU work: its record lands in a later
	 * buffer, and nothing deadlocks (alarm() in main fails a hang). */
	n_records = n_completed = 0;
	launch_from_callback = 1;
	for (int i = 0; i < 3; i++)
		CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK(!launch_from_callback);
	CHECK_EQ_U64(n_records, 4);
	for (int i = 1; i < 4; i++)
		CHECK_EQ_U64(records[i].kernel.correlationId,
			     records[i - 1].kernel.correlationId + 1);

	refuse_buffers = 1;
	for (int i = 0; i < 3; i++)
		CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	size_t dropped = 0;
	CHECK_CUPTI(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped), CUPTI_SUCCESS);
	CHECK_EQ_U64(dropped, 3);
	CHECK_CUPTI(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped), CUPTI_SUCCESS);
	CHECK_EQ_U64(dropped, 0);
	refuse_buffers = 0;
	buffer_bytes = 64 * 1024;
}

static int count_api(CUpti_ActivityKind kind, int cbid)
{
	int n = 0;
	for (int i = 0; i < n_records; i++)
		n += records[i].base.kind == kind && (int)records[i].api.cbid == cbid;
	return n;
}

static int has_external_for(uint32_t correlation_id)
{
	for (int i = 0; i < n_records; i++)
		if (records[i].base.kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION &&
		    records[i].ext.correlationId == correlation_id)
			return 1;
	return 0;
}

/*
 * cuptiActivityEnableRuntimeApi/DriverApi: API records, and so external
 * correlation records, only for the enabled functions, when they are chosen
 * before cuInit; chosen after it, they are accepted and change nothing (a
 * real H100 did so, cupti_activity.c), while the RUNTIME kind, enabled
 * later, still gives every call its record. Each runs in a child of its own
 * (--api-selection runtime|driver): the selection must come before the
 * process's first CUDA call.
 */
static int api_selection_child(const char *domain)
{
#define RT(name) CUPTI_RUNTIME_TRACE_CBID_##name
	simgpu_test_setup();
	CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
		    CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityPushExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 90), CUPTI_SUCCESS);
	static char host[64];
	void *d;
	const CUpti_ActivityKernel10 *k;

	if (strcmp(domain, "driver") == 0) {
		/* The driver function underneath cudaLaunchKernel (cuLaunchKernel). */
		CHECK_CUPTI(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1),
			    CUPTI_SUCCESS);
		CHECK_CUPTI(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_SIZE, 1),
			    CUPTI_ERROR_INVALID_PARAMETER);
		simgpu_define_kernel(&kernel_b, "kernel_b", 0, NULL);
		CHECK_CUDA(cudaMalloc(&d, 64));
		CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
		CHECK_CUDA(cudaFree(d));
		CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
		CHECK_EQ_U64(n_records, 3);
		k = &find(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
		const CUpti_ActivityAPI *drv = &find(CUPTI_ACTIVITY_KIND_DRIVER, 0)->api;
		CHECK(drv->cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
		CHECK_EQ_U64(drv->correlationId, k->correlationId);
		CHECK(has_external_for(k->correlationId));
		return 0;
	}
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(RT(cudaLaunchKernel_v7000), 1), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(RT(cudaMemcpy_v3020), 1), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(0, 1), CUPTI_ERROR_INVALID_PARAMETER);
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_SIZE, 1),
		    CUPTI_ERROR_INVALID_PARAMETER);
	simgpu_define_kernel(&kernel_b, "kernel_b", 0, NULL);
	CHECK_CUDA(cudaMalloc(&d, 64));
	CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	CHECK_CUDA(cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemcpyAsync(d, host, 64, cudaMemcpyHostToDevice, 0));
	CHECK_CUDA(cudaFree(d));
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_RUNTIME), 2);
	CHECK_EQ_U64(count_api(CUPTI_ACTIVITY_KIND_RUNTIME, RT(cudaLaunchKernel_v7000)), 1);
	CHECK_EQ_U64(count_api(CUPTI_ACTIVITY_KIND_RUNTIME, RT(cudaMemcpy_v3020)), 1);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION), 2);
	CHECK_EQ_U64(count_kind(CUPTI_ACTIVITY_KIND_MEMCPY), 2);
	k = &find(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)->kernel;
	const CUpti_ActivityMemcpy6 *sync = &find(CUPTI_ACTIVITY_KIND_MEMCPY, 0)->memcpy;
	const CUpti_ActivityMemcpy6 *async = &find(CUPTI_ACTIVITY_KIND_MEMCPY, 1)->memcpy;
	CHECK(has_external_for(k->correlationId));
	CHECK(has_external_for(sync->correlationId));
	CHECK(!has_external_for(async->correlationId));
	CHECK_EQ_U64(find(CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api.correlationId, k->correlationId);

	/* After cuInit: a selection is accepted and changes nothing. */
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(RT(cudaMalloc_v3020), 1), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(RT(cudaLaunchKernel_v7000), 0), CUPTI_SUCCESS);
	n_records = 0;
	CHECK_CUDA(cudaMalloc(&d, 64));
	CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK_EQ_U64(count_api(CUPTI_ACTIVITY_KIND_RUNTIME, RT(cudaMalloc_v3020)), 0);
	CHECK_EQ_U64(count_api(CUPTI_ACTIVITY_KIND_RUNTIME, RT(cudaLaunchKernel_v7000)), 1);

	/* The RUNTIME kind, enabled after cuInit, records every call. */
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnableRuntimeApi(RT(cudaFree_v3020), 0), CUPTI_SUCCESS);
	n_records = 0;
	CHECK_CUDA(cudaFree(d));
	CHECK_CUDA(cudaMalloc(&d, 64));
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK_EQ_U64(n_records, 4); /* each call's API and external records */
	CHECK_EQ_U64(count_api(CUPTI_ACTIVITY_KIND_RUNTIME, RT(cudaFree_v3020)), 1);
	CHECK_EQ_U64(count_api(CUPTI_ACTIVITY_KIND_RUNTIME, RT(cudaMalloc_v3020)), 1);
	CHECK_EQ_U64(find(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, 0)->ext.externalId, 90);
	return 0;
#undef RT
}

static uint64_t CUPTIAPI user_clock(void)
{
	return now_ns() + 12345;
}

static void check_timestamp_callback(void)
{
	uint64_t t;
	CHECK_CUPTI(cuptiGetTimestamp(&t), CUPTI_SUCCESS);
	uint64_t m = now_ns();
	CHECK(t > CUPTI_OFFSET && t - CUPTI_OFFSET <= m && m - (t - CUPTI_OFFSET) < 1000000000ULL);
	CHECK_CUPTI(cuptiActivityRegisterTimestampCallback(user_clock), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiGetTimestamp(&t), CUPTI_SUCCESS);
	CHECK(t < CUPTI_OFFSET);
	/* An idle device (the earlier checks leave work queued): a fresh
	 * non-blocking stream's kernel then starts at submission. */
	CHECK_CUDA(cudaDeviceSynchronize());
	n_records = 0;
	cudaStream_t fresh;
	CHECK_CUDA(cudaStreamCreateWithFlags(&fresh, cudaStreamNonBlocking));
	uint64_t before = now_ns();
	simgpu_next_kernel_ns(3000);
	CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, fresh));
	uint64_t after = now_ns();
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK_EQ_U64(n_records, 1);
	const CUpti_ActivityKernel10 *k = &records[0].kernel;
	CHECK_EQ_U64(k->end - k->start, 3000);
	/* In the callback's domain: the launch time + 12345, within sampling. */
	CHECK(k->start + 1000 >= before + 12345 && k->start <= after + 12345 + 1000);
}

/* Work still running is held back by a default flush, not by a forced one. */
static void check_flush_of_unfinished_work(void)
{
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		/* A fresh process: its simgpu has not read the environment yet. */
		char *argv[] = { "test_simgpu_cupti", "--unfinished", NULL };
		setenv("SIMGPU_TIME_SCALE", "1", 1);
		execv("/proc/self/exe", argv);
		_exit(3);
	}
	int status;
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int unfinished_child(void)
{
	CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
		    CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
	simgpu_define_kernel(&kernel_b, "kernel_b", 0, NULL);
	simgpu_next_kernel_ns(600ULL * 1000000000ULL); /* ten minutes */
	CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	CHECK_CUDA_IS(cudaStreamQuery(0), cudaErrorNotReady);
	CHECK_CUPTI(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
	CHECK(n_records == 0);
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	CHECK(n_records == 1);
	CHECK_EQ_U64(records[0].kernel.end - records[0].kernel.start, 600ULL * 1000000000ULL);
	return 0;
}

/* Runs this test binary again with one or two arguments (arg2 may be
 * NULL); expects exit status 0. */
static void check_child(const char *arg, const char *arg2)
{
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		char *argv[] = { "test_simgpu_cupti", (char *)arg, (char *)arg2, NULL };
		execv("/proc/self/exe", argv);
		_exit(3);
	}
	int status;
	CHECK(waitpid(child, &status, 0) == child);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "child %s: status 0x%x\n", arg, (unsigned)status);
		exit(1);
	}
}

/*
 * Returns from main while the worker is inside a slow bufferCompleted with
 * more full buffers queued: the process must exit 0 at once, neither kept
 * alive nor crashed by the detached worker.
 */
static int exit_while_delivering_child(void)
{
	simgpu_test_setup();
	CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
		    CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
	simgpu_define_kernel(&kernel_b, "kernel_b", 0, NULL);
	buffer_bytes = sizeof(CUpti_ActivityKernel10) + 8; /* one record each */
	callback_sleep_us = 200000;
	for (int i = 0; i < 20; i++)
		CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, 0));
	usleep(50000); /* the worker is now in its first, slow callback */
	return 0;
}

static void check_busy_and_strings(void)
{
	const char *s = NULL;
	CHECK_CUPTI(cuptiGetResultString(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, &s),
		    CUPTI_SUCCESS);
	CHECK(strcmp(s, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED") == 0);
	uint32_t v;
	CHECK_CUPTI(cuptiGetVersion(&v), CUPTI_SUCCESS);
	CHECK_EQ_U64(v, CUPTI_API_VERSION);
	CHECK_CUPTI(cuptiActivityGetNextRecord(NULL, 0, NULL), CUPTI_ERROR_INVALID_PARAMETER);
	CHECK_CUPTI(cuptiActivityEnable((CUpti_ActivityKind)100000), CUPTI_ERROR_INVALID_KIND);
	CHECK_CUPTI(cuptiActivityPushExternalCorrelationId(
			    CUPTI_EXTERNAL_CORRELATION_KIND_INVALID, 1), CUPTI_ERROR_INVALID_PARAMETER);
	setenv("SIMGPU_CUPTI_BUSY", "1", 1);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
		    CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
		    CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	unsetenv("SIMGPU_CUPTI_BUSY");
	CHECK_CUPTI(cuptiFinalize(), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityFlushAll(0), CUPTI_ERROR_INVALID_OPERATION);
}

int main(int argc, char **argv)
{
	alarm(60); /* a deadlock fails the test instead of hanging it */
	if (argc > 1 && strcmp(argv[1], "--unfinished") == 0)
		return unfinished_child();
	if (argc > 1 && strcmp(argv[1], "--exit-while-delivering") == 0)
		return exit_while_delivering_child();
	if (argc > 2 && strcmp(argv[1], "--api-selection") == 0)
		return api_selection_child(argv[2]);
	simgpu_test_setup();
	check_records_and_correlation();
	check_full_buffers_and_drops();
	check_child("--api-selection", "runtime");
	check_child("--api-selection", "driver");
	check_timestamp_callback();
	check_flush_of_unfinished_work();
	uint64_t t0 = now_ns();
	check_child("--exit-while-delivering", NULL);
	CHECK(now_ns() - t0 < 2000000000ULL); /* not 20 x 200 ms of callbacks */
	check_busy_and_strings();
	return 0;
}
