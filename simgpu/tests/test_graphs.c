/*
 * CUDA graphs through the simulated runtime, with CUPTI recording: a graph
 * A -> B, C, {B, C} -> D runs in the documented topological order (A, C,
 * B, D) back to back on the launch stream with the cost model's exact
 * durations; every kernel record carries the graph launch call's
 * correlation id, the graph's id and its node's id; the launch gets one
 * RUNTIME (cudaGraphLaunch[_ptsz]) and one DRIVER (cuGraphLaunch[_ptsz])
 * record and the external correlation pushed around it; an exec outlives
 * its graph; stream capture turns launches into nodes without running
 * them; the documented error codes. Memcpy, memset and host nodes: a
 * graph of all kinds runs in its topological order, moves the bytes this
 * file put there (read at each launch), calls each host function once per
 * launch at its place, and gives memcpy/memset records the launch's
 * correlation id and graph/node ids; clones and cudaGraphGetNodes; a
 * capture across two streams joined by events turns copies, sets and
 * host functions into nodes without running them. Node parameters and
 * updates: a kernel node keeps its own copy of the argument values
 * (GetParams), SetParams changes the graph's node only, instantiation
 * clones each node (CUPTI's GRAPHNODE_CLONED callback: original id -> exec
 * node id) and the records of a launch carry the exec's id and the exec
 * node's id; cudaGraphExecKernelNodeSetParams and cudaGraphExecUpdate
 * change what the next launch runs, with the update's result info on
 * topology and node type changes; cudaStreamGetCaptureInfo gives the
 * capturing graph and the node the last launch became; child graph nodes.
 * Ground truth: the graphs built here.
 */
#include <cupti.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

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
	CUpti_ActivityMemcpy6 memcpy;
	CUpti_ActivityMemset4 memset;
};
static union any_record records[2048];
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
		CHECK(n_records < 2048);
		size_t n = r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
				   ? sizeof(CUpti_ActivityKernel10)
			   : r->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION
				   ? sizeof(CUpti_ActivityExternalCorrelation)
			   : r->kind == CUPTI_ACTIVITY_KIND_MEMCPY
				   ? sizeof(CUpti_ActivityMemcpy6)
			   : r->kind == CUPTI_ACTIVITY_KIND_MEMSET
				   ? sizeof(CUpti_ActivityMemset4)
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

/* ---- memcpy, memset and host nodes ---- */

/* What host functions saw: their tags in call order and, for each call,
 * the first bytes of `seen` (the D2H copy's destination) at that moment. */
static int host_log[64];
static unsigned char host_seen[64][4];
static int host_calls;
static unsigned char *seen;

static void CUDART_CB host_fn(void *tag)
{
	CHECK(host_calls < 64);
	host_log[host_calls] = (int)(intptr_t)tag;
	memcpy(host_seen[host_calls], seen, 4);
	host_calls++;
}

static cudaGraphNode_t add_host(cudaGraph_t g, int tag,
				const cudaGraphNode_t *deps, size_t ndeps)
{
	struct cudaHostNodeParams p = { .fn = host_fn,
					.userData = (void *)(intptr_t)tag };
	cudaGraphNode_t node = NULL;
	CHECK_CUDA(cudaGraphAddHostNode(&node, g, deps, ndeps, &p));
	CHECK(node != NULL);
	return node;
}

static struct cudaMemcpy3DParms copy_2d(void *dst, size_t dpitch,
					const void *src, size_t spitch,
					size_t width, size_t height,
					enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p;
	memset(&p, 0, sizeof(p));
	p.srcPtr = (struct cudaPitchedPtr){ (void *)src, spitch, width, height };
	p.dstPtr = (struct cudaPitchedPtr){ dst, dpitch, width, height };
	p.extent = (struct cudaExtent){ width, height, 1 };
	p.kind = kind;
	return p;
}

/* d[0,64): 0x01020304 words; d[64,96): the two 16-byte rows of in
 * rows of in (pitch 32), as the 2D node copies them; out: d[0,96). */
static void expect_out(const unsigned char *out, const unsigned char *in)
{
	static const unsigned char word[4] = { 4, 3, 2, 1 };
	for (int i = 0; i < 64; i++)
		CHECK_EQ_U64(out[i], word[i % 4]);
	for (int i = 0; i < 16; i++) {
		CHECK_EQ_U64(out[64 + i], in[i]);
		CHECK_EQ_U64(out[80 + i], in[32 + i]);
	}
}

/* One launch's memcpy/memset/kernel records: all with the runtime API
 * record's correlation id, the graph's id, distinct node ids, in the
 * order memset, H2D copy, kernel, D2H copy, back to back. Returns the
 * graph id. */
static uint32_t check_mixed_records(int first, uint32_t sid)
{
	uint32_t corr = nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api.correlationId;
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMSET), 1);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMCPY), 2);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 1);
	const union any_record *set = nth(first, CUPTI_ACTIVITY_KIND_MEMSET, 0);
	const union any_record *h2d = nth(first, CUPTI_ACTIVITY_KIND_MEMCPY, 0);
	const union any_record *k = nth(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0);
	const union any_record *d2h = nth(first, CUPTI_ACTIVITY_KIND_MEMCPY, 1);
	CHECK_EQ_U64(set->memset.bytes, 64);
	CHECK_EQ_U64(set->memset.value, 0x01020304);
	CHECK_EQ_U64(h2d->memcpy.bytes, 32);
	CHECK_EQ_U64(h2d->memcpy.copyKind, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
	CHECK_EQ_U64(h2d->memcpy.srcKind, CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
	CHECK_EQ_U64(d2h->memcpy.bytes, 96);
	CHECK_EQ_U64(d2h->memcpy.copyKind, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH);
	CHECK_EQ_U64(d2h->memcpy.dstKind, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
	CHECK_EQ_U64(set->memset.correlationId, corr);
	CHECK_EQ_U64(h2d->memcpy.correlationId, corr);
	CHECK_EQ_U64(d2h->memcpy.correlationId, corr);
	CHECK_EQ_U64(k->kernel.correlationId, corr);
	CHECK_EQ_U64(set->memset.streamId, sid);
	CHECK_EQ_U64(d2h->memcpy.streamId, sid);
	uint32_t graph_id = k->kernel.graphId;
	CHECK(graph_id != 0);
	CHECK_EQ_U64(set->memset.graphId, graph_id);
	CHECK_EQ_U64(h2d->memcpy.graphId, graph_id);
	CHECK_EQ_U64(d2h->memcpy.graphId, graph_id);
	uint64_t ids[4] = { set->memset.graphNodeId, h2d->memcpy.graphNodeId,
			    k->kernel.graphNodeId, d2h->memcpy.graphNodeId };
	for (int i = 0; i < 4; i++) {
		CHECK(ids[i] != 0);
		for (int j = 0; j < i; j++)
			CHECK(ids[i] != ids[j]);
	}
	CHECK_EQ_U64(h2d->memcpy.start, set->memset.end);
	CHECK_EQ_U64(k->kernel.start, h2d->memcpy.end);
	CHECK_EQ_U64(d2h->memcpy.start, k->kernel.end);
	return graph_id;
}

static void check_copy_nodes(void)
{
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	uint32_t sid = stream_id_of(s);
	unsigned char *d, *in, out[96];
	CHECK_CUDA(cudaMalloc((void **)&d, 256));
	CHECK_CUDA(cudaMallocHost((void **)&in, 64));
	for (int i = 0; i < 64; i++)
		in[i] = (unsigned char)(100 + i);
	memset(out, 0xee, sizeof(out));
	seen = out;
	host_calls = 0;

	/* H0 (no deps, first) ; M ; M -> C1 -> K -> C2 -> H */
	cudaGraph_t g;
	CHECK_CUDA(cudaGraphCreate(&g, 0));
	cudaGraphNode_t h0 = add_host(g, 10, NULL, 0);
	struct cudaMemsetParams mp = { .dst = d, .value = 0x01020304,
				       .elementSize = 4, .width = 16,
				       .height = 1 };
	cudaGraphNode_t m, c1, c2;
	CHECK_CUDA(cudaGraphAddMemsetNode(&m, g, NULL, 0, &mp));
	struct cudaMemcpy3DParms cp = copy_2d(d + 64, 16, in, 32, 16, 2,
					      cudaMemcpyHostToDevice);
	CHECK_CUDA(cudaGraphAddMemcpyNode(&c1, g, &m, 1, &cp));
	cudaGraphNode_t k = add(g, &kernel_b, 1, &c1, 1);
	CHECK_CUDA(cudaGraphAddMemcpyNode1D(&c2, g, &k, 1, out, d, 96,
					    cudaMemcpyDeviceToHost));
	add_host(g, 11, &c2, 1);
	/* Nothing runs before a launch. */
	CHECK_EQ_U64(host_calls, 0);
	CHECK_EQ_U64(out[0], 0xee);

	size_t n = 0;
	CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 6);
	cudaGraphNode_t nodes[8];
	n = 8;
	CHECK_CUDA(cudaGraphGetNodes(g, nodes, &n));
	CHECK_EQ_U64(n, 6);
	CHECK(nodes[0] == h0 && nodes[1] == m && nodes[2] == c1 &&
	      nodes[3] == k && nodes[4] == c2);
	CHECK(nodes[6] == NULL && nodes[7] == NULL);
	n = 2;
	CHECK_CUDA(cudaGraphGetNodes(g, nodes, &n));
	CHECK_EQ_U64(n, 2);
	CHECK(nodes[0] == h0 && nodes[1] == m);

	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
	int first;
	flush(&first);
	CHECK_CUDA(cudaGraphLaunch(exec, s));
	/* Host nodes ran inside the launch, in order: H0 before the D2H
	 * copy wrote out, H after. */
	CHECK_EQ_U64(host_calls, 2);
	CHECK_EQ_U64(host_log[0], 10);
	CHECK_EQ_U64(host_seen[0][0], 0xee);
	CHECK_EQ_U64(host_log[1], 11);
	CHECK_EQ_U64(host_seen[1][0], 4);
	CHECK_CUDA(cudaStreamSynchronize(s));
	expect_out(out, in);
	flush(&first);
	uint32_t graph_id = check_mixed_records(first, sid);

	/* The bytes are read at each launch. */
	for (int i = 0; i < 64; i++)
		in[i] = (unsigned char)(200 - i);
	memset(out, 0xee, sizeof(out));
	CHECK_CUDA(cudaGraphLaunch(exec, s));
	CHECK_CUDA(cudaStreamSynchronize(s));
	expect_out(out, in);
	CHECK_EQ_U64(host_calls, 4);
	flush(&first);
	CHECK_EQ_U64(check_mixed_records(first, sid), graph_id);

	/* A clone is a graph of its own with the same work. */
	cudaGraph_t clone;
	cudaGraphExec_t clone_exec;
	CHECK_CUDA(cudaGraphClone(&clone, g));
	CHECK_CUDA(cudaGraphDestroy(g));
	n = 0;
	CHECK_CUDA(cudaGraphGetNodes(clone, NULL, &n));
	CHECK_EQ_U64(n, 6);
	CHECK_CUDA(cudaGraphInstantiate(&clone_exec, clone, 0));
	memset(out, 0xee, sizeof(out));
	CHECK_CUDA(cudaGraphLaunch(clone_exec, s));
	CHECK_CUDA(cudaStreamSynchronize(s));
	expect_out(out, in);
	CHECK_EQ_U64(host_calls, 6);
	flush(&first);
	CHECK(check_mixed_records(first, sid) != graph_id);

	/* Memory freed since the node was added: the launch fails and
	 * nothing runs. */
	CHECK_CUDA(cudaFree(d));
	CHECK_CUDA_IS(cudaGraphLaunch(exec, s), cudaErrorInvalidValue);
	CHECK_EQ_U64(host_calls, 6);
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMCPY), 0);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMSET), 0);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 0);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidValue);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA(cudaGraphExecDestroy(clone_exec));
	CHECK_CUDA(cudaGraphDestroy(clone));
	CHECK_CUDA(cudaFreeHost(in));
	CHECK_CUDA(cudaStreamDestroy(s));
}

static void check_node_errors(void)
{
	cudaGraph_t g;
	cudaGraphNode_t node;
	unsigned char *d, host[64];
	CHECK_CUDA(cudaMalloc((void **)&d, 64));
	CHECK_CUDA(cudaGraphCreate(&g, 0));
	struct cudaMemcpy3DParms cp = copy_2d(d, 64, host, 64, 64, 1,
					      cudaMemcpyHostToDevice);
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, g, NULL, 0, NULL),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(NULL, g, NULL, 0, &cp),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, NULL, NULL, 0, &cp),
		      cudaErrorInvalidValue);
	cp.kind = (enum cudaMemcpyKind)9;
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &cp),
		      cudaErrorInvalidMemcpyDirection);
	cp.kind = cudaMemcpyDeviceToHost; /* d is not host memory */
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &cp),
		      cudaErrorInvalidValue);
	cp.kind = cudaMemcpyHostToDevice;
	/* Past the allocation (sizes are rounded up, but not to 16 MiB). */
	cp.extent.width = cp.srcPtr.pitch = cp.dstPtr.pitch = 1 << 24;
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &cp),
		      cudaErrorInvalidValue);
	cp.srcPtr.pitch = cp.dstPtr.pitch = 64;
	cp.extent = (struct cudaExtent){ 8, 2, 2 }; /* 3D */
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &cp),
		      cudaErrorInvalidValue);
	cp.extent = (struct cudaExtent){ 64, 1, 1 };
	cp.dstArray = (cudaArray_t)host; /* arrays are not simulated */
	CHECK_CUDA_IS(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &cp),
		      cudaErrorInvalidValue);

	struct cudaMemsetParams mp = { .dst = d, .value = 1, .elementSize = 3,
				       .width = 4, .height = 1 };
	CHECK_CUDA_IS(cudaGraphAddMemsetNode(&node, g, NULL, 0, &mp),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddMemsetNode(&node, g, NULL, 0, NULL),
		      cudaErrorInvalidValue);
	mp.elementSize = 4;
	mp.dst = host; /* pageable host memory */
	CHECK_CUDA_IS(cudaGraphAddMemsetNode(&node, g, NULL, 0, &mp),
		      cudaErrorInvalidValue);
	mp.dst = NULL;
	CHECK_CUDA_IS(cudaGraphAddMemsetNode(&node, g, NULL, 0, &mp),
		      cudaErrorInvalidValue);
	mp.dst = d + 2; /* not aligned to the element */
	CHECK_CUDA_IS(cudaGraphAddMemsetNode(&node, g, NULL, 0, &mp),
		      cudaErrorInvalidValue);

	struct cudaHostNodeParams hp = { .fn = NULL, .userData = NULL };
	CHECK_CUDA_IS(cudaGraphAddHostNode(&node, g, NULL, 0, &hp),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphAddHostNode(&node, g, NULL, 0, NULL),
		      cudaErrorInvalidValue);
	size_t n = 5;
	CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 0); /* no failed add left a node */
	CHECK_CUDA_IS(cudaGraphGetNodes(g, NULL, NULL), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphClone(NULL, g), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaLaunchHostFunc(0, NULL, NULL), cudaErrorInvalidValue);
	CHECK_CUDA(cudaGraphDestroy(g));
	CHECK_CUDA_IS(cudaGraphGetNodes(g, NULL, &n), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaGraphClone(&g, g), cudaErrorInvalidValue);
	CHECK_CUDA(cudaFree(d));
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorInvalidValue);
}

/*
 * s1 forks s2 through an event: memset on s1, H2D copy on s2 (after the
 * fork), a host function on s1, s1 waits for s2, D2H copy and a host
 * function on s1. Nodes and order (Kahn): set, copy, host 20, copy back,
 * host 21.
 */
static void check_capture_copies(void)
{
	cudaStream_t s1, s2;
	cudaEvent_t fork, join;
	CHECK_CUDA(cudaStreamCreate(&s1));
	CHECK_CUDA(cudaStreamCreate(&s2));
	uint32_t sid = stream_id_of(s1);
	CHECK_CUDA(cudaEventCreate(&fork));
	CHECK_CUDA(cudaEventCreate(&join));
	unsigned char *d, *in, out[48];
	CHECK_CUDA(cudaMalloc((void **)&d, 64));
	CHECK_CUDA(cudaMemset(d, 0, 64));
	CHECK_CUDA(cudaMallocHost((void **)&in, 16));
	for (int i = 0; i < 16; i++)
		in[i] = (unsigned char)(50 + i);
	memset(out, 0xee, sizeof(out));
	seen = out;
	host_calls = 0;
	int first;
	flush(&first);

	/* A host function on a stream that is not capturing runs at once. */
	CHECK_CUDA(cudaLaunchHostFunc(s1, host_fn, (void *)(intptr_t)30));
	CHECK_EQ_U64(host_calls, 1);
	host_calls = 0;

	cudaGraph_t g;
	CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	CHECK_CUDA(cudaMemsetAsync(d, 7, 32, s1));
	CHECK_CUDA(cudaEventRecord(fork, s1));
	CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
	CHECK_CUDA(cudaMemcpyAsync(d + 32, in, 16, cudaMemcpyHostToDevice, s2));
	CHECK_CUDA(cudaEventRecord(join, s2));
	CHECK_CUDA(cudaLaunchHostFunc(s1, host_fn, (void *)(intptr_t)20));
	/* Only the stream that began a capture ends it. */
	CHECK_CUDA_IS(cudaStreamEndCapture(s2, &g), cudaErrorStreamCaptureUnmatched);
	CHECK_CUDA(cudaStreamWaitEvent(s1, join, 0));
	CHECK_CUDA(cudaMemcpyAsync(out, d, 48, cudaMemcpyDeviceToHost, s1));
	CHECK_CUDA(cudaLaunchHostFunc(s1, host_fn, (void *)(intptr_t)21));
	/* A bad copy is still refused while capturing. */
	CHECK_CUDA_IS(cudaMemcpyAsync(out, d, 4096, cudaMemcpyDeviceToHost, s1),
		      cudaErrorInvalidValue);
	CHECK_CUDA(cudaStreamEndCapture(s1, &g));
	/* Nothing ran: no host call, no bytes moved, no record. */
	CHECK_EQ_U64(host_calls, 0);
	CHECK_EQ_U64(out[0], 0xee);
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMCPY), 0);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMSET), 0);
	size_t n = 0;
	CHECK_CUDA(cudaGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 5);

	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
	flush(&first);
	CHECK_CUDA(cudaGraphLaunch(exec, s1));
	CHECK_CUDA(cudaStreamSynchronize(s1));
	CHECK_EQ_U64(host_calls, 2);
	CHECK_EQ_U64(host_log[0], 20);
	CHECK_EQ_U64(host_seen[0][0], 0xee); /* before the copy back */
	CHECK_EQ_U64(host_log[1], 21);
	CHECK_EQ_U64(host_seen[1][0], 7);
	for (int i = 0; i < 32; i++)
		CHECK_EQ_U64(out[i], 7);
	for (int i = 0; i < 16; i++)
		CHECK_EQ_U64(out[32 + i], in[i]);
	flush(&first);
	uint32_t corr = nth(first, CUPTI_ACTIVITY_KIND_RUNTIME, 0)->api.correlationId;
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMSET), 1);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMCPY), 2);
	const union any_record *set = nth(first, CUPTI_ACTIVITY_KIND_MEMSET, 0);
	const union any_record *h2d = nth(first, CUPTI_ACTIVITY_KIND_MEMCPY, 0);
	const union any_record *d2h = nth(first, CUPTI_ACTIVITY_KIND_MEMCPY, 1);
	CHECK_EQ_U64(set->memset.correlationId, corr);
	CHECK_EQ_U64(h2d->memcpy.correlationId, corr);
	CHECK_EQ_U64(d2h->memcpy.correlationId, corr);
	CHECK_EQ_U64(set->memset.bytes, 32);
	CHECK_EQ_U64(h2d->memcpy.bytes, 16);
	CHECK_EQ_U64(d2h->memcpy.bytes, 48);
	CHECK_EQ_U64(h2d->memcpy.streamId, sid); /* the launch stream */
	CHECK(set->memset.graphId != 0);
	CHECK_EQ_U64(d2h->memcpy.graphId, set->memset.graphId);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA(cudaGraphDestroy(g));

	/* A forked stream never joined back: the capture is lost and both
	 * streams run work at once again. */
	CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	CHECK_CUDA(cudaEventRecord(fork, s1));
	CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
	CHECK_CUDA(cudaMemsetAsync(d, 9, 8, s2));
	CHECK_CUDA_IS(cudaStreamEndCapture(s1, &g), cudaErrorStreamCaptureUnjoined);
	CHECK_CUDA(cudaMemsetAsync(d, 9, 8, s2));
	CHECK_CUDA(cudaMemcpy(out, d, 8, cudaMemcpyDeviceToHost));
	CHECK_EQ_U64(out[7], 9);
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_MEMSET), 1);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorStreamCaptureUnjoined);

	CHECK_CUDA(cudaEventDestroy(fork));
	CHECK_CUDA(cudaEventDestroy(join));
	CHECK_CUDA(cudaFree(d));
	CHECK_CUDA(cudaFreeHost(in));
	CHECK_CUDA(cudaStreamDestroy(s1));
	CHECK_CUDA(cudaStreamDestroy(s2));
}

/* ---- node parameters, updates and clone callbacks ---- */

static struct {
	uint64_t original, node;
	CUgraphExec exec;
	CUgraphNodeType type;
} clones[16];
static int n_clones;
/* GRAPHEXEC_CREATE_STARTING and CREATED, where enabled: how many, the
 * clones seen when the last began, the execs the last of each named */
static int n_exec_starting, n_exec_created, clones_at_starting;
static CUgraphExec starting_exec, created_exec;

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
				 CUpti_CallbackId cbid, const void *data)
{
	(void)userdata;
	CHECK(domain == CUPTI_CB_DOMAIN_RESOURCE);
	const CUpti_GraphData *g = ((const CUpti_ResourceData *)data)->resourceDescriptor;
	if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING) {
		n_exec_starting++;
		clones_at_starting = n_clones;
		starting_exec = g->graphExec;
		CHECK(g->graph != NULL);
		return;
	}
	if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) {
		n_exec_created++;
		created_exec = g->graphExec;
		return;
	}
	CHECK(cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED);
	CHECK(n_clones < 16);
	CHECK(cuptiGetGraphNodeId(g->originalNode, &clones[n_clones].original) == CUPTI_SUCCESS);
	CHECK(cuptiGetGraphNodeId(g->node, &clones[n_clones].node) == CUPTI_SUCCESS);
	CHECK(g->nodeType == CU_GRAPH_NODE_TYPE_KERNEL || g->nodeType == CU_GRAPH_NODE_TYPE_GRAPH);
	clones[n_clones].type = g->nodeType;
	clones[n_clones++].exec = g->graphExec;
}

static void *node_arg(cudaGraphNode_t node, unsigned int *blocks)
{
	struct cudaKernelNodeParams p;
	CHECK_CUDA(cudaGraphKernelNodeGetParams(node, &p));
	CHECK(p.kernelParams != NULL);
	if (blocks)
		*blocks = p.gridDim.x;
	return *(void **)p.kernelParams[0];
}

static struct cudaKernelNodeParams params_a(void **args, unsigned int blocks)
{
	return (struct cudaKernelNodeParams){
		.func = &kernel_a, .gridDim = D3(blocks, 1, 1),
		.blockDim = D3(32, 1, 1), .kernelParams = args,
	};
}

/* One launch of exec: its one kernel record. */
static const union any_record *launch_one(cudaGraphExec_t exec, cudaStream_t s)
{
	int first;
	flush(&first);
	CHECK_CUDA(cudaGraphLaunch(exec, s));
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 1);
	return nth(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, 0);
}

/* Each SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS order, on instantiations of g
 * (one kernel node, id node_id): the clone first or between, CREATED
 * naming the exec or none, or no GRAPHEXEC callback at all; unset, the
 * H200's order (the clone first, CREATED naming the exec). */
static void check_exec_callback_orders(cudaGraph_t g, uint64_t node_id)
{
	static const struct {
		const char *order; /* NULL: unset, the default */
		int callbacks, clones_at_starting, names_exec;
	} orders[] = {
		{ NULL, 1, 1, 1 }, { "none", 0, 0, 0 }, { "around", 1, 0, 1 },
		{ "after", 1, 1, 1 }, { "unnamed", 1, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		if (orders[i].order)
			CHECK(setenv("SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS", orders[i].order, 1) == 0);
		else
			CHECK(unsetenv("SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS") == 0);
		n_clones = n_exec_starting = n_exec_created = 0;
		clones_at_starting = -1;
		starting_exec = created_exec = NULL;
		cudaGraphExec_t exec;
		CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
		CHECK_EQ_U64(n_clones, 1);
		CHECK_EQ_U64(clones[0].original, node_id);
		CHECK(clones[0].exec == NULL);
		CHECK_EQ_U64(n_exec_starting, orders[i].callbacks);
		CHECK_EQ_U64(n_exec_created, orders[i].callbacks);
		if (orders[i].callbacks)
			CHECK_EQ_U64(clones_at_starting, orders[i].clones_at_starting);
		CHECK(created_exec == (orders[i].names_exec ? (CUgraphExec)exec : NULL));
		/* after the clones (the H200's order), STARTING names it too */
		CHECK(starting_exec == (orders[i].clones_at_starting ? (CUgraphExec)exec : NULL));
		CHECK_CUDA(cudaGraphExecDestroy(exec));
	}
	CHECK(unsetenv("SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS") == 0);
}

static void check_params_and_updates(void)
{
	CUpti_SubscriberHandle subscriber;
	CHECK(cuptiSubscribe(&subscriber, on_callback, NULL) == CUPTI_SUCCESS);
	CUpti_SubscriberHandle second;
	CHECK(cuptiSubscribe(&second, on_callback, NULL) ==
	      CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
				  CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) == CUPTI_SUCCESS);
	CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
				  CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING) == CUPTI_SUCCESS);
	CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
				  CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) == CUPTI_SUCCESS);
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	void *value = (void *)0x1111, *args[1] = { &value };
	struct cudaKernelNodeParams p = params_a(args, 1);
	cudaGraph_t g;
	CHECK_CUDA(cudaGraphCreate(&g, 0));
	cudaGraphNode_t node;
	CHECK_CUDA(cudaGraphAddKernelNode(&node, g, NULL, 0, &p));
	value = (void *)0x9999; /* the node copied the value when added */
	CHECK(node_arg(node, NULL) == (void *)0x1111);
	enum cudaGraphNodeType type;
	CHECK_CUDA(cudaGraphNodeGetType(node, &type));
	CHECK_EQ_U64(type, cudaGraphNodeTypeKernel);
	void *second_value = (void *)0x2222, *args2[1] = { &second_value };
	p = params_a(args2, 2);
	CHECK_CUDA(cudaGraphKernelNodeSetParams(node, &p));
	unsigned int blocks = 0;
	CHECK(node_arg(node, &blocks) == (void *)0x2222);
	CHECK_EQ_U64(blocks, 2);

	/* Instantiation clones the node: one callback, a new id, naming no
	 * exec (as on an H200, CUPTI 13.0); the GRAPHEXEC callbacks where
	 * SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS says. */
	uint64_t node_id;
	CHECK(cuptiGetGraphNodeId(node, &node_id) == CUPTI_SUCCESS);
	check_exec_callback_orders(g, node_id);
	CHECK(setenv("SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS", "around", 1) == 0);
	n_clones = n_exec_starting = n_exec_created = 0;
	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
	CHECK(unsetenv("SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS") == 0);
	CHECK_EQ_U64(n_clones, 1);
	CHECK_EQ_U64(clones[0].original, node_id);
	CHECK(clones[0].node != node_id && clones[0].node != 0);
	CHECK(clones[0].exec == NULL);
	CHECK_EQ_U64(n_exec_starting, 1);
	CHECK_EQ_U64(clones_at_starting, 0);
	CHECK_EQ_U64(n_exec_created, 1);
	CHECK(created_exec == (CUgraphExec)exec);
	uint32_t exec_id = 0, graph_id = 0;
	CHECK(cuptiGetGraphExecId(exec, &exec_id) == CUPTI_SUCCESS);
	CHECK(cuptiGetGraphId(g, &graph_id) == CUPTI_SUCCESS);
	CHECK(exec_id != graph_id);
	const union any_record *k = launch_one(exec, s);
	CHECK_EQ_U64(k->kernel.graphNodeId, clones[0].node);
	CHECK_EQ_U64(k->kernel.graphId, exec_id);
	CHECK_EQ_U64(k->kernel.gridX, 2);

	/* The exec's node changes; the graph's keeps its parameters. */
	void *third = (void *)0x3333, *args3[1] = { &third };
	p = params_a(args3, 5);
	CHECK_CUDA(cudaGraphExecKernelNodeSetParams(exec, node, &p));
	CHECK(node_arg(node, &blocks) == (void *)0x2222);
	CHECK_EQ_U64(blocks, 2);
	k = launch_one(exec, s);
	CHECK_EQ_U64(k->kernel.gridX, 5);
	CHECK_EQ_U64(k->kernel.graphNodeId, clones[0].node);

	/* An update from a graph of the same shape: the same exec node runs
	 * the new graph's parameters. */
	cudaGraph_t same;
	CHECK_CUDA(cudaGraphCreate(&same, 0));
	p = params_a(args, 7);
	cudaGraphNode_t same_node;
	CHECK_CUDA(cudaGraphAddKernelNode(&same_node, same, NULL, 0, &p));
	cudaGraphExecUpdateResultInfo info;
	memset(&info, 0x5a, sizeof(info));
	CHECK_CUDA(cudaGraphExecUpdate(exec, same, &info));
	CHECK_EQ_U64(info.result, cudaGraphExecUpdateSuccess);
	k = launch_one(exec, s);
	CHECK_EQ_U64(k->kernel.gridX, 7);
	CHECK_EQ_U64(k->kernel.graphNodeId, clones[0].node);

	/* Two nodes: the topology changed, no error node; nothing changes. */
	cudaGraph_t bigger;
	CHECK_CUDA(cudaGraphCreate(&bigger, 0));
	add(bigger, &kernel_b, 1, NULL, 0);
	add(bigger, &kernel_c, 1, NULL, 0);
	CHECK(cudaGraphExecUpdate(exec, bigger, &info) == cudaErrorGraphExecUpdateFailure);
	CHECK_EQ_U64(info.result, cudaGraphExecUpdateErrorTopologyChanged);
	CHECK(info.errorNode == NULL);
	/* A memset where the kernel was: the node's type changed. */
	cudaGraph_t other_type;
	CHECK_CUDA(cudaGraphCreate(&other_type, 0));
	void *d;
	CHECK_CUDA(cudaMalloc(&d, 256));
	struct cudaMemsetParams set = { .dst = d, .value = 1, .elementSize = 1,
					.width = 256, .height = 1 };
	cudaGraphNode_t set_node;
	CHECK_CUDA(cudaGraphAddMemsetNode(&set_node, other_type, NULL, 0, &set));
	CHECK(cudaGraphExecUpdate(exec, other_type, &info) == cudaErrorGraphExecUpdateFailure);
	CHECK_EQ_U64(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
	CHECK(info.errorNode == set_node);
	k = launch_one(exec, s);
	CHECK_EQ_U64(k->kernel.gridX, 7);
	/* A node of another graph is not one of the exec's. */
	p = params_a(args, 1);
	CHECK(cudaGraphExecKernelNodeSetParams(exec, same_node, &p) == cudaErrorInvalidValue);
	CHECK(cudaGraphKernelNodeGetParams(set_node, &p) == cudaErrorInvalidValue);

	/* Capture: the stream's graph and the node its launch became. */
	enum cudaStreamCaptureStatus status;
	CHECK_CUDA(cudaStreamIsCapturing(s, &status));
	CHECK_EQ_U64(status, cudaStreamCaptureStatusNone);
	CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK_CUDA(cudaStreamIsCapturing(s, &status));
	CHECK_EQ_U64(status, cudaStreamCaptureStatusActive);
	value = (void *)0x4444;
	CHECK_CUDA(cudaLaunchKernel(&kernel_a, D3(3, 1, 1), D3(32, 1, 1), args, 0, s));
	cudaGraph_t capturing = NULL;
	const cudaGraphNode_t *deps = NULL;
	size_t ndeps = 0;
	unsigned long long capture_id = 0;
	CHECK_CUDA(cudaStreamGetCaptureInfo(s, &status, &capture_id, &capturing, &deps,
					    NULL, &ndeps));
	CHECK_EQ_U64(status, cudaStreamCaptureStatusActive);
	CHECK(capture_id != 0 && capturing != NULL);
	CHECK_EQ_U64(ndeps, 1);
	CHECK(node_arg(deps[0], &blocks) == (void *)0x4444);
	CHECK_EQ_U64(blocks, 3);
	cudaGraph_t captured;
	CHECK_CUDA(cudaStreamEndCapture(s, &captured));
	CHECK(captured == capturing);

	/* A clone's nodes are clones too (new ids, the same parameters). */
	n_clones = 0;
	cudaGraph_t copy;
	CHECK_CUDA(cudaGraphClone(&copy, g));
	CHECK_EQ_U64(n_clones, 1);
	CHECK_EQ_U64(clones[0].original, node_id);
	CHECK(clones[0].exec == NULL);

	CHECK(cuptiUnsubscribe(subscriber) == CUPTI_SUCCESS);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	cudaGraph_t graphs[] = { g, same, bigger, other_type, captured, copy };
	for (size_t i = 0; i < sizeof(graphs) / sizeof(graphs[0]); i++)
		CHECK_CUDA(cudaGraphDestroy(graphs[i]));
	CHECK_CUDA(cudaFree(d));
	CHECK_CUDA(cudaStreamDestroy(s));
}

/* Clone i of the last call: original -> node ids, its node type, no exec
 * named (an instantiation's clones name none, as on the H200). */
static void check_clone(int i, uint64_t original, CUgraphNodeType type)
{
	CHECK(i < n_clones);
	CHECK_EQ_U64(clones[i].original, original);
	CHECK_EQ_U64(clones[i].type, type);
	CHECK(clones[i].exec == NULL);
}

/* Whether id is the node of a clone reported since clone index from. */
static int cloned_since(int from, uint64_t id)
{
	for (int i = from; i < n_clones; i++)
		if (clones[i].node == id)
			return 1;
	return 0;
}

static uint64_t id_of(cudaGraphNode_t node)
{
	uint64_t id = 0;
	CHECK(cuptiGetGraphNodeId(node, &id) == CUPTI_SUCCESS);
	return id;
}

/* One launch of exec: the graph node ids of its kernel records, whose
 * names must be names[0..n). */
static void launch_ids(cudaGraphExec_t exec, cudaStream_t s, const char *const *names,
		       int n, uint64_t *ids)
{
	int first;
	flush(&first);
	CHECK_CUDA(cudaGraphLaunch(exec, s));
	flush(&first);
	CHECK_EQ_U64(count_from(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), n);
	for (int i = 0; i < n; i++) {
		const union any_record *k = nth(first, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, i);
		CHECK(strcmp(k->kernel.name, names[i]) == 0);
		ids[i] = k->kernel.graphNodeId;
	}
}

/*
 * A child graph node owns a copy of its graph (its nodes reported as
 * clones, the copy not destroyable on its own). An exec numbers them as an
 * H200 did (tests/gpu/probe_graph_callbacks.cu; simgpu/README.md "CUDA
 * graphs"): instantiation clones the graph's nodes
 * in creation order, a child node after its embedded graph's clone (whose
 * nodes are reported first), and runs the embedded graph where its node
 * is, flattened: each of its kernels under an id no callback names, the
 * same at every launch of that exec, another in another exec. An update
 * of a graph with child nodes is refused.
 */
static void check_child_graph(void)
{
	CUpti_SubscriberHandle subscriber;
	CHECK(cuptiSubscribe(&subscriber, on_callback, NULL) == CUPTI_SUCCESS);
	CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
				  CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) == CUPTI_SUCCESS);
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	cudaGraph_t child, parent;
	CHECK_CUDA(cudaGraphCreate(&child, 0));
	cudaGraphNode_t b = add(child, &kernel_b, 2, NULL, 0);
	cudaGraphNode_t c = add(child, &kernel_c, 3, &b, 1);
	CHECK_CUDA(cudaGraphCreate(&parent, 0));
	cudaGraphNode_t a = add(parent, &kernel_a, 1, NULL, 0), child_node;
	n_clones = 0;
	CHECK_CUDA(cudaGraphAddChildGraphNode(&child_node, parent, &a, 1, child));
	CHECK_EQ_U64(n_clones, 2);
	check_clone(0, id_of(b), CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(1, id_of(c), CU_GRAPH_NODE_TYPE_KERNEL);
	const uint64_t embedded_b = clones[0].node, embedded_c = clones[1].node;
	cudaGraphNode_t d = add(parent, &kernel_d, 4, &child_node, 1);
	enum cudaGraphNodeType type;
	CHECK_CUDA(cudaGraphNodeGetType(child_node, &type));
	CHECK_EQ_U64(type, cudaGraphNodeTypeGraph);
	cudaGraph_t embedded;
	CHECK_CUDA(cudaGraphChildGraphNodeGetGraph(child_node, &embedded));
	CHECK(embedded != child);
	size_t count = 0;
	CHECK_CUDA(cudaGraphGetNodes(embedded, NULL, &count));
	CHECK_EQ_U64(count, 2);
	CHECK(cudaGraphDestroy(embedded) == cudaErrorInvalidValue);
	CHECK_CUDA(cudaGraphDestroy(child)); /* the node has its own copy */

	/* a, then the embedded graph's b and c, then the child node, then d */
	n_clones = 0;
	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, parent, 0));
	CHECK_EQ_U64(n_clones, 5);
	check_clone(0, id_of(a), CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(1, embedded_b, CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(2, embedded_c, CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(3, id_of(child_node), CU_GRAPH_NODE_TYPE_GRAPH);
	check_clone(4, id_of(d), CU_GRAPH_NODE_TYPE_KERNEL);
	static const char *const names[] = {"kernel_a", "kernel_b", "kernel_c", "kernel_d"};
	uint64_t ids[4], again[4];
	launch_ids(exec, s, names, 4, ids);
	CHECK_EQ_U64(ids[0], clones[0].node); /* the parent's own: the clone's id */
	CHECK_EQ_U64(ids[3], clones[4].node);
	/* the child's: fresh ids, no clone event names them */
	CHECK(ids[1] && ids[2] && ids[1] != ids[2]);
	for (int i = 1; i < 3; i++) {
		CHECK(!cloned_since(0, ids[i]));
		CHECK(ids[i] != embedded_b && ids[i] != embedded_c);
		CHECK(ids[i] != id_of(a) && ids[i] != id_of(d) && ids[i] != id_of(child_node));
	}
	launch_ids(exec, s, names, 4, again);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(again[i], ids[i]);
	/* another exec of the same graph: clones and flattened ids of its own */
	int before = n_clones;
	cudaGraphExec_t second;
	CHECK_CUDA(cudaGraphInstantiate(&second, parent, 0));
	CHECK_EQ_U64(n_clones - before, 5);
	launch_ids(second, s, names, 4, again);
	for (int i = 0; i < 4; i++) {
		CHECK(again[i] != ids[i]);
		int flattened = i == 1 || i == 2;
		CHECK(cloned_since(before, again[i]) == !flattened);
	}
	CHECK_CUDA(cudaGraphExecDestroy(second));

	cudaGraphExecUpdateResultInfo info;
	CHECK(cudaGraphExecUpdate(exec, parent, &info) == cudaErrorGraphExecUpdateFailure);
	CHECK_EQ_U64(info.result, cudaGraphExecUpdateErrorNotSupported);
	CHECK(info.errorNode == child_node);
	CHECK(cuptiUnsubscribe(subscriber) == CUPTI_SUCCESS);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA(cudaGraphDestroy(parent));
	CHECK_CUDA(cudaStreamDestroy(s));
}

/*
 * A child inside a child, the same rule one level down: inner {c} is a
 * child of middle {b, inner}, middle a child of parent {middle -> d}.
 * Adding middle to parent clones middle's nodes, inner's copy first; the
 * instantiation clones those again, then the child nodes, then d; b and c
 * run flattened, under ids no callback names.
 */
static void check_nested_child_graph(void)
{
	CUpti_SubscriberHandle subscriber;
	CHECK(cuptiSubscribe(&subscriber, on_callback, NULL) == CUPTI_SUCCESS);
	CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
				  CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) == CUPTI_SUCCESS);
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	cudaGraph_t inner, middle, parent;
	CHECK_CUDA(cudaGraphCreate(&inner, 0));
	cudaGraphNode_t c = add(inner, &kernel_c, 3, NULL, 0);
	CHECK_CUDA(cudaGraphCreate(&middle, 0));
	cudaGraphNode_t b = add(middle, &kernel_b, 2, NULL, 0), inner_node, middle_node;
	n_clones = 0;
	CHECK_CUDA(cudaGraphAddChildGraphNode(&inner_node, middle, NULL, 0, inner));
	CHECK_EQ_U64(n_clones, 1);
	check_clone(0, id_of(c), CU_GRAPH_NODE_TYPE_KERNEL);
	const uint64_t c1 = clones[0].node;
	CHECK_CUDA(cudaGraphCreate(&parent, 0));
	n_clones = 0;
	CHECK_CUDA(cudaGraphAddChildGraphNode(&middle_node, parent, NULL, 0, middle));
	CHECK_EQ_U64(n_clones, 3);
	check_clone(0, id_of(b), CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(1, c1, CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(2, id_of(inner_node), CU_GRAPH_NODE_TYPE_GRAPH);
	const uint64_t b2 = clones[0].node, c2 = clones[1].node, inner2 = clones[2].node;
	cudaGraphNode_t d = add(parent, &kernel_d, 4, &middle_node, 1);
	const uint64_t b0 = id_of(b), c0 = id_of(c);
	CHECK_CUDA(cudaGraphDestroy(inner));
	CHECK_CUDA(cudaGraphDestroy(middle));

	n_clones = 0;
	cudaGraphExec_t exec;
	CHECK_CUDA(cudaGraphInstantiate(&exec, parent, 0));
	CHECK_EQ_U64(n_clones, 5);
	check_clone(0, b2, CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(1, c2, CU_GRAPH_NODE_TYPE_KERNEL);
	check_clone(2, inner2, CU_GRAPH_NODE_TYPE_GRAPH);
	check_clone(3, id_of(middle_node), CU_GRAPH_NODE_TYPE_GRAPH);
	check_clone(4, id_of(d), CU_GRAPH_NODE_TYPE_KERNEL);
	static const char *const names[] = {"kernel_b", "kernel_c", "kernel_d"};
	uint64_t ids[3];
	launch_ids(exec, s, names, 3, ids);
	CHECK_EQ_U64(ids[2], clones[4].node);
	CHECK(ids[0] && ids[1] && ids[0] != ids[1]);
	for (int i = 0; i < 2; i++)
		CHECK(!cloned_since(0, ids[i]) && ids[i] != b2 && ids[i] != c2 && ids[i] != c1 &&
		      ids[i] != b0 && ids[i] != c0);
	CHECK(cuptiUnsubscribe(subscriber) == CUPTI_SUCCESS);
	CHECK_CUDA(cudaGraphExecDestroy(exec));
	CHECK_CUDA(cudaGraphDestroy(parent));
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
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) == CUPTI_SUCCESS);
	check_copy_nodes();
	check_node_errors();
	check_capture_copies();
	check_params_and_updates();
	check_child_graph();
	check_nested_child_graph();
	printf("simgpu graphs: ok\n");
	return 0;
}
