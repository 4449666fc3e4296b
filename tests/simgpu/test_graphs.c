/*
 * CUDA graphs through the simulated runtime, with CUPTI recording: a graph
 * A -> B, C, {B, C} -> D runs in the documented topological order (A, C,
 * B, D) back to back on the launch stream with the cost model's exact
 * durations; every kernel record carries the graph launch call's
 * correlation id, the graph's id and its node's id; the launch gets one
 * RUNTIME (cudaGraphLaunch[_ptsz]) and one DRIVER (cuGraphLaunch[_ptsz])
 * record and the external correlation pushed around it; an exec outlives
 * its graph; stream capture turns launches into nodes without running
 * them; the documented error codes. Ground truth: the graph built here.
 */
#include <cupti.h>
#include <stdint.h>
#include <string.h>

#include "tests/simgpu/simgpu.h"
#include "tests/simgpu/simgpu_test.h"

/* The per-thread-stream twins (cuda_runtime_api.h declares them only for
 * its own build, __CUDA_API_VERSION_INTERNAL): the real prototypes. */
extern cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec,
					cudaStream_t stream);
extern cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
					 dim3 blockDim, void **args,
					 size_t sharedMem, cudaStream_t stream);

union any_record {
	CUpti_Activity base;
	CUpti_ActivityKernel10 kernel;
	CUpti_ActivityExternalCorrelation ext;
	CUpti_ActivityAPI api;
};
static union any_record records[512];
static int n_records;
static char kernel_a, kernel_b, kernel_c, kernel_d; /* host-side handles */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size,
				      size_t *max_records)
{
	*max_records = 0;
	*size = 64 * 1024;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream,
				      uint8_t *buffer, size_t size, size_t valid)
{
	(void)ctx, (void)stream, (void)size;
	CUpti_Activity *r = NULL;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
		CHECK(n_records < 512);
		size_t n = r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
				   ? sizeof(CUpti_ActivityKernel10)
			   : r->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION
				   ? sizeof(CUpti_ActivityExternalCorrelation)
				   : sizeof(CUpti_ActivityAPI);
		memcpy(&records[n_records++], r, n);
	}
	free(buffer);
}

/* Delivers everything recorded so far; returns the index of the first new. */
static int flush(int *first)
{
	*first = n_records;
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	return n_records - *first;
}

static int count_from(int first, CUpti_ActivityKind kind)
{
	int n = 0;
	for (int i = first; i < n_records; i++)
		n += records[i].base.kind == kind;
	return n;
}

/* The nth record of kind from index first on. */
static const union any_record *nth(int first, CUpti_ActivityKind kind, int n)
{
	for (int i = first; i < n_records; i++)
		if (records[i].base.kind == kind && n-- == 0)
			return &records[i];
	fprintf(stderr, "record of kind %d missing\n", (int)kind);
	exit(1);
}

static int index_of(const union any_record *r)
{
	return (int)(r - records);
}

static cudaGraphNode_t add(cudaGraph_t g, const void *func, unsigned int blocks,
			   const cudaGraphNode_t *deps, size_t ndeps)
{
	static void *arg_value;
	static void *args[1] = { &arg_value };
	struct cudaKernelNodeParams p = {
		.func = (void *)func, .gridDim = D3(blocks, 1, 1),
		.blockDim = D3(32, 1, 1), .kernelParams = args,
	};
	cudaGraphNode_t node = NULL;
	CHECK_CUDA(cudaGraphAddKernelNode(&node, g, deps, ndeps, &p));
	CHECK(node != NULL);
	return node;
}

/* Checks one launch's records: API pair, external id, kernels in order. */
static void check_launch(int first, int runtime_cbid, int driver_cbid,
			 uint64_t external_id, const char *const *names,
			 const unsigned int *blocks, int n, uint32_t stream_id)
{
	const union any_record *rt = nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 0);
	const union any_record *drv = nth(first, CUPTI_ACTIVITY_KIND_DRIVER, 0);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_RUNTIME), 1);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_DRIVER), 1);
	CHECK_EQ_U64(rt->api.cbid, runtime_cbid);
	CHECK_EQ_U64(drv->api.cbid, driver_cbid);
	CHECK_EQ_U64(rt->api.returnValue, 0);
	uint32_t corr = rt->api.correlationId;
	CHECK(corr != 0);
	CHECK_EQ_U64(drv->api.correlationId, corr);
	/* external_id 0: none pushed, so no record */
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION),
		     external_id != 0);
	if (external_id) {
		const union any_record *ext =
			nth(first, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, 0);
		CHECK_EQ_U64(ext->ext.correlationId, corr);
		CHECK_EQ_U64(ext->ext.externalId, external_id);
	}
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), n);
	uint64_t previous_end = 0;
	uint32_t graph_id = 0;
	for (int i = 0; i < n; i++) {
		const union any_record *k =
			nth(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i);
		CHECK(index_of(k) > index_of(rt)); /* the API record comes first */
		CHECK(strcmp(k->kernel.name, names[i]) == 0);
		CHECK_EQ_U64(k->kernel.correlationId, corr);
		CHECK_EQ_U64(k->kernel.streamId, stream_id);
		CHECK_EQ_U64(k->kernel.gridX, blocks[i]);
		CHECK_EQ_U64(k->kernel.end - k->kernel.start, 2000 + 10 * blocks[i]);
		if (i)
			CHECK_EQ_U64(k->kernel.start, previous_end);
		previous_end = k->kernel.end;
		CHECK(k->kernel.graphId != 0 && k->kernel.graphNodeId != 0);
		if (i == 0)
			graph_id = k->kernel.graphId;
		CHECK_EQ_U64(k->kernel.graphId, graph_id);
		for (int j = 0; j < i; j++)
			CHECK(nth(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, j)
				      ->kernel.graphNodeId != k->kernel.graphNodeId);
	}
}

static uint32_t stream_id_of(cudaStream_t s)
{
	int first;
	CHECK_CUDA(cudaLaunchKernel(&kernel_b, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, s));
	flush(&first);
	const union any_record *k = nth(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0);
	CHECK_EQ_U64(k->kernel.graphId, 0); /* an ordinary launch */
	CHECK_EQ_U64(k->kernel.graphNodeId, 0);
	return k->kernel.streamId;
}

static void check_diamond(void)
{
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	uint32_t sid = stream_id_of(s);
	cudaGraph_t g;
	CHECK_CUDA(cudaGraphCreate(&g, 0));
	cudaGraphNode_t a = add(g, &kernel_a, 1, NULL, 0);
	cudaGraphNode_t b = add(g, &kernel_b, 2, &a, 1);
	cudaGraphNode_t c = add(g, &kernel_c, 3, NULL, 0);
	cudaGraphNode_t bc[2] = { b, c };
	add(g, &kernel_d, 4, bc, 2);
	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));

	int first;
	flush(&first); /* cuGraphInstantiateWithFlags' DRIVER record */
	CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_DRIVER, 0)->api.cbid,
		     CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags);
	CHECK(cuptiActivityPushExternalCorrelationId(
		      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 77) == CUPTI_SUCCESS);
	CHECK_CUDA(cudaGraphLaunch(exec, s));
	uint64_t popped = 0;
	CHECK(cuptiActivityPopExternalCorrelationId(
		      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &popped) == CUPTI_SUCCESS);
	flush(&first);
	static const char *const order[] = { "kernel_a", "kernel_c", "kernel_b",
					     "kernel_d" };
	static const unsigned int blocks[] = { 1, 3, 2, 4 };
	check_launch(first, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
		     CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 77, order, blocks, 4,
		     sid);
	uint32_t first_corr = nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api.correlationId;

	/* The exec outlives its graph; _ptsz runs on the per-thread stream. */
	CHECK_CUDA(cudaGraphDestroy(g));
	uint32_t per_thread_sid = 0;
	{
		int f;
		CHECK_CUDA(cudaLaunchKernel_ptsz(&kernel_b, D3(1, 1, 1), D3(1, 1, 1),
						 NULL, 0, 0));
		flush(&f);
		per_thread_sid = nth(f, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0)
					 ->kernel.streamId;
	}
	CHECK(cuptiActivityPushExternalCorrelationId(
		      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 78) == CUPTI_SUCCESS);
	CHECK_CUDA(cudaGraphLaunch_ptsz(exec, 0));
	CHECK(cuptiActivityPopExternalCorrelationId(
		      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &popped) == CUPTI_SUCCESS);
	flush(&first);
	check_launch(first, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
		     CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, 78, order, blocks,
		     4, per_thread_sid);
	CHECK(nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api.correlationId > first_corr);

	/* Launching a destroyed exec, NULL, a dead stream. */
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA_IS(cudaGraphLaunch(exec, s), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphLaunch(NULL, s), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphExecDestroy(exec), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidValue);
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 0);
	/* Failed launches leave no record; both cuGraphExecDestroy do. */
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_RUNTIME), 0);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_DRIVER), 2);
	for (int i = 0; i < 2; i++)
		CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_DRIVER, i)->api.cbid,
			     CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy);
	CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_DRIVER, 0)->api.returnValue, 0);
	CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_DRIVER, 1)->api.returnValue,
		     CUDA_ERROR_INVALID_VALUE);

	cudaGraph_t empty;
	CHECK_CUDA(cudaGraphCreate(&empty, 0));
	CHECK_CUDA(cudaGraphInstantiateWithFlags(&exec, empty, 0));
	CHECK_CUDA(cudaStreamDestroy(s));
	CHECK_CUDA_IS(cudaGraphLaunch(exec, s), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaGraphLaunch(exec, 0)); /* nothing to run */
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 0);
	CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api.cbid,
		     CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040);
	CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_DRIVER, 0)->api.cbid,
		     CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_RUNTIME), 2);
	CHECK_EQ_U64(nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 1)->api.cbid,
		     CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA(cudaGraphDestroy(empty));
}

static void check_errors(void)
{
	cudaGraph_t g, other;
	CHECK_CUDA_IS(cudaGraphCreate(NULL, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphCreate(&g, 1), cudaErrorInvalidValue);
	CHECK_CUDA(cudaGraphCreate(&g, 0));
	CHECK_CUDA(cudaGraphCreate(&other, 0));
	cudaGraphNode_t foreign = add(other, &kernel_b, 1, NULL, 0);
	cudaGraphNode_t node;
	struct cudaKernelNodeParams p = { .func = &kernel_b, .gridDim = D3(1, 1, 1),
					  .blockDim = D3(1, 1, 1) };
	CHECK_CUDA_IS(cudaGraphAddKernelNode(NULL, g, NULL, 0, &p), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, NULL, NULL, 0, &p), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, g, NULL, 0, NULL), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, g, NULL, 1, &p), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, g, &foreign, 1, &p),
		      cudaErrorInvalidValue);
	p.func = &node; /* not a declared kernel */
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, g, NULL, 0, &p),
		      cudaErrorInvalidDeviceFunction);
	p.func = &kernel_b;
	p.blockDim = D3(2048, 1, 1);
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, g, NULL, 0, &p),
		      cudaErrorInvalidConfiguration);
	p.blockDim = D3(1, 1, 1);
	p.func = &kernel_a; /* takes a parameter, none given */
	CHECK_CUDA_IS(cudaGraphAddKernelNode(&node, g, NULL, 0, &p), cudaErrorInvalidValue);
	cudaGraphExec_t exec;
	CHECK_CUDA_IS(cudaGraphInstantiate(NULL, g, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphInstantiate(&exec, NULL, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphInstantiateWithFlags(&exec, g, 1ULL << 40),
		      cudaErrorInvalidValue);
	CHECK_CUDA(cudaGraphDestroy(g));
	CHECK_CUDA_IS(cudaGraphDestroy(g), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphInstantiate(&exec, g, 0), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphDestroy(NULL), cudaErrorInvalidValue);
	CHECK_CUDA(cudaGraphDestroy(other));
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidValue);
}

static void check_capture(void)
{
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	uint32_t sid = stream_id_of(s);
	cudaGraph_t g;
	CHECK_CUDA_IS(cudaStreamEndCapture(s, &g), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
		      cudaErrorStreamCaptureUnsupported);
	CHECK_CUDA_IS(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)7),
		      cudaErrorInvalidValue);
	CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK_CUDA_IS(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
		      cudaErrorInvalidValue);
	void *arg = NULL, *args[1] = { &arg };
	CHECK_CUDA(cudaLaunchKernel(&kernel_d, D3(5, 1, 1), D3(1, 1, 1), NULL, 0, s));
	CHECK_CUDA(cudaLaunchKernel(&kernel_a, D3(6, 1, 1), D3(1, 1, 1), args, 0, s));
	/* A bad launch is still refused while capturing. */
	CHECK_CUDA_IS(cudaLaunchKernel(&kernel_a, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, s),
		      cudaErrorInvalidValue);
	int first;
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 0);
	CHECK_CUDA_IS(cudaStreamEndCapture(s, NULL), cudaErrorInvalidValue);
	CHECK_CUDA(cudaStreamEndCapture(s, &g));
	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
	flush(&first);
	CHECK_CUDA(cudaGraphLaunch(exec, s));
	flush(&first);
	static const char *const order[] = { "kernel_d", "kernel_a" };
	static const unsigned int blocks[] = { 5, 6 };
	check_launch(first, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
		     CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 0, order, blocks, 2, sid);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA(cudaGraphDestroy(g));
	CHECK_CUDA(cudaStreamDestroy(s));
}

int main(void)
{
	simgpu_test_setup();
	size_t one_pointer[1] = { 8 };
	simgpu_define_kernel(&kernel_a, "kernel_a", 1, one_pointer);
	simgpu_define_kernel(&kernel_b, "kernel_b", 0, NULL);
	simgpu_define_kernel(&kernel_c, "kernel_c", 0, NULL);
	simgpu_define_kernel(&kernel_d, "kernel_d", 0, NULL);
	CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) ==
	      CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER) == CUPTI_SUCCESS);
	/* Launch API records only (so each check counts the launch's pair). */
	CHECK(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 1) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000, 1) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040, 1) == CUPTI_SUCCESS);
	CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 1) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, 1) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy, 1) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, 1) == CUPTI_SUCCESS);
	check_diamond();
	check_errors();
	check_capture();
	printf("simgpu graphs: ok\n");
	return 0;
}
