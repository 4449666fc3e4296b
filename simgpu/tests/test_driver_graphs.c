/*
 * CUDA graphs through the simulated driver alone (no runtime), with CUPTI
 * recording DRIVER records: cuGraphCreate, cuGraphAddKernelNode_v2 (what
 * cuGraphAddKernelNode maps to) on CUfunctions from the simulated module,
 * cuGraphInstantiateWithFlags (cuGraphInstantiate), cuGraphLaunch[_ptsz]
 * with the dependency order A -> {B, C} -> D run as A, B, C, D on the
 * launch stream, one cuGraphLaunch DRIVER record whose correlation id every
 * kernel record carries; errors (before cuInit, NULL and destroyed handles,
 * host functions, flags); what cuGetProcAddress hands out for the graph
 * names. Memcpy (CUDA_MEMCPY3D with offsets and pitches), memset (16-bit,
 * two pitched rows) and host nodes move exactly the bytes this file put
 * there, in order; cuLaunchHostFunc runs at once or, captured, becomes a
 * node; cuGraphClone / cuGraphGetNodes; the parameter errors; the generic
 * node API (cuGraphAddNode[_v2], cuGraph[Exec]NodeSetParams). Ground
 * truth: the graphs built here and dlsym of the exports.
 */
#include <cudaTypedefs.h>
#include <cupti.h>
#include <dlfcn.h>
#include <string.h>

#include "simgpu/tests/driver_test.h"
#include "simgpu/simgpu.h"

/* cuda.h declares the _ptsz twin only for its own build: the real prototype. */
extern CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream);
extern CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData);

static CUpti_ActivityKernel10 kernels[64];
static CUpti_ActivityAPI apis[64];
static int n_kernels, n_apis;
static char host_a, host_b, host_c, host_d; /* host-side handles */

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
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
			CHECK(n_kernels < 64);
			memcpy(&kernels[n_kernels++], r, sizeof(kernels[0]));
		} else if (r->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
			CHECK(n_apis < 64);
			memcpy(&apis[n_apis++], r, sizeof(apis[0]));
		}
	}
	free(buffer);
}

static void flush(void)
{
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
}

static CUgraphNode add(CUgraph g, CUfunction f, unsigned int blocks,
		       const CUgraphNode *deps, size_t ndeps)
{
	static void *arg_value, *args[1] = { &arg_value };
	CUDA_KERNEL_NODE_PARAMS p = { .func = f, .kernelParams = args,
				      .gridDimX = blocks,
				      .gridDimY = 1, .gridDimZ = 1,
				      .blockDimX = 64, .blockDimY = 1,
				      .blockDimZ = 1 };
	CUgraphNode node = NULL;
	CHECK_CU(cuGraphAddKernelNode(&node, g, deps, ndeps, &p));
	return node;
}

/* Expects one cuGraphLaunch[_ptsz] record and these kernels, in order. */
static void check_launch_records(int cbid, const char *const *names,
				 const unsigned int *blocks, int n)
{
	CHECK_EQ_U64(n_apis, 1);
	CHECK_EQ_U64(apis[0].cbid, cbid);
	CHECK_EQ_U64(apis[0].returnValue, CUDA_SUCCESS);
	CHECK_EQ_U64(n_kernels, n);
	for (int i = 0; i < n; i++) {
		CHECK(strcmp(kernels[i].name, names[i]) == 0);
		CHECK_EQ_U64(kernels[i].correlationId, apis[0].correlationId);
		CHECK_EQ_U64(kernels[i].end - kernels[i].start, 2000 + 10 * blocks[i]);
		CHECK_EQ_U64(kernels[i].graphId, kernels[0].graphId);
		CHECK(kernels[i].graphId != 0);
		if (i)
			CHECK_EQ_U64(kernels[i].start, kernels[i - 1].end);
	}
	n_apis = n_kernels = 0;
}

static void check_graph(void)
{
	CUgraph g;
	CHECK_CU_IS(cuGraphCreate(&g, 0), CUDA_ERROR_NOT_INITIALIZED);
	CHECK_CU(cuInit(0));
	CUmodule m;
	CUfunction a, b, c, d;
	CHECK_CU(cuModuleLoadData(&m, "simgpu"));
	CHECK_CU(cuModuleGetFunction(&a, m, "graph_a"));
	CHECK_CU(cuModuleGetFunction(&b, m, "graph_b"));
	CHECK_CU(cuModuleGetFunction(&c, m, "graph_c"));
	CHECK_CU(cuModuleGetFunction(&d, m, "graph_d"));

	CHECK_CU(cuGraphCreate(&g, 0));
	CUgraphNode na = add(g, a, 1, NULL, 0);
	CUgraphNode nb = add(g, b, 2, &na, 1);
	CUgraphNode nc = add(g, c, 3, &na, 1);
	CUgraphNode bc[2] = { nb, nc };
	add(g, d, 4, bc, 2);
	CUgraphExec exec;
	CHECK_CU(cuGraphInstantiate(&exec, g, 0));
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	flush();
	n_apis = n_kernels = 0;

	static const char *const order[] = { "graph_a", "graph_b", "graph_c",
					     "graph_d" };
	static const unsigned int blocks[] = { 1, 2, 3, 4 };
	CHECK_CU(cuGraphLaunch(exec, s));
	flush();
	check_launch_records(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, order, blocks, 4);
	CHECK_CU(cuGraphLaunch_ptsz(exec, NULL));
	flush();
	check_launch_records(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, order,
			     blocks, 4);

	/* Errors: each leaves no kernel. */
	CUDA_KERNEL_NODE_PARAMS p = { .func = (CUfunction)&host_a, .gridDimX = 1,
				      .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1,
				      .blockDimY = 1, .blockDimZ = 1 };
	CUgraphNode node;
	CHECK_CU_IS(cuGraphAddKernelNode(&node, g, NULL, 0, &p), CUDA_ERROR_INVALID_HANDLE);
	p.func = a;
	p.blockDimX = 4096;
	CHECK_CU_IS(cuGraphAddKernelNode(&node, g, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
	p.blockDimX = 1;
	CHECK_CU_IS(cuGraphAddKernelNode(&node, g, &na, 1, NULL), CUDA_ERROR_INVALID_VALUE);
	CUgraphNode twice[2] = { na, na };
	CHECK_CU_IS(cuGraphAddKernelNode(&node, g, twice, 2, &p), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphInstantiate(NULL, g, 0), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphInstantiate(&exec, g, 1ULL << 33), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphLaunch(NULL, s), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU_IS(cuGraphLaunch(exec, s), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphExecDestroy(exec), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuGraphDestroy(g));
	CHECK_CU_IS(cuGraphDestroy(g), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphInstantiate(&exec, g, 0), CUDA_ERROR_INVALID_VALUE);

	/* Capture on the driver: launches become a chain of nodes. */
	CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	void *arg = NULL, *args[] = { &arg };
	CHECK_CU(cuLaunchKernel(c, 7, 1, 1, 1, 1, 1, 0, s, NULL, NULL));
	CHECK_CU(cuLaunchKernel(a, 8, 1, 1, 1, 1, 1, 0, s, args, NULL));
	CHECK_CU(cuStreamEndCapture(s, &g));
	CHECK_CU(cuGraphInstantiateWithFlags(&exec, g,
					     CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
	flush();
	CHECK_EQ_U64(n_kernels, 0);
	n_apis = 0;
	CHECK_CU(cuGraphLaunch(exec, s));
	flush();
	static const char *const captured[] = { "graph_c", "graph_a" };
	static const unsigned int captured_blocks[] = { 7, 8 };
	check_launch_records(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, captured,
			     captured_blocks, 2);
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphDestroy(g));
	CHECK_CU(cuStreamDestroy(s));
}

static void check_proc_address(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	CHECK(lib != NULL);
	struct { const char *name; int version; cuuint64_t flags; const char *want; } cases[] = {
		{ "cuGraphCreate", 13000, 0, "cuGraphCreate" },
		{ "cuGraphAddKernelNode", 13000, 0, "cuGraphAddKernelNode_v2" },
		{ "cuGraphInstantiateWithFlags", 13000, 0, "cuGraphInstantiateWithFlags" },
		{ "cuGraphLaunch", 13000, 0, "cuGraphLaunch" },
		{ "cuGraphLaunch", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
		  "cuGraphLaunch_ptsz" },
		{ "cuGraphExecDestroy", 13000, 0, "cuGraphExecDestroy" },
		{ "cuGraphDestroy", 12080, 0, "cuGraphDestroy" },
		{ "cuStreamBeginCapture", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
		  "cuStreamBeginCapture_v2_ptsz" },
		{ "cuStreamEndCapture", 13000, 0, "cuStreamEndCapture" },
		{ "cuGraphAddMemcpyNode", 13000, 0, "cuGraphAddMemcpyNode" },
		{ "cuGraphAddMemsetNode", 13000, 0, "cuGraphAddMemsetNode" },
		{ "cuGraphAddHostNode", 13000, 0, "cuGraphAddHostNode" },
		{ "cuGraphClone", 13000, 0, "cuGraphClone" },
		{ "cuGraphGetNodes", 13000, 0, "cuGraphGetNodes" },
		{ "cuLaunchHostFunc", 13000, 0, "cuLaunchHostFunc" },
		{ "cuLaunchHostFunc", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
		  "cuLaunchHostFunc_ptsz" },
		{ "cuGraphKernelNodeGetParams", 13000, 0, "cuGraphKernelNodeGetParams_v2" },
		{ "cuGraphKernelNodeSetParams", 13000, 0, "cuGraphKernelNodeSetParams_v2" },
		{ "cuGraphExecKernelNodeSetParams", 13000, 0,
		  "cuGraphExecKernelNodeSetParams_v2" },
		{ "cuGraphExecUpdate", 13000, 0, "cuGraphExecUpdate_v2" },
		{ "cuGraphNodeGetType", 13000, 0, "cuGraphNodeGetType" },
		{ "cuStreamGetCaptureInfo", 13000, 0, "cuStreamGetCaptureInfo_v3" },
		{ "cuStreamGetCaptureInfo", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
		  "cuStreamGetCaptureInfo_v3_ptsz" },
		{ "cuStreamIsCapturing", 13000, 0, "cuStreamIsCapturing" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *fn = NULL;
		CUdriverProcAddressQueryResult status;
		CHECK_CU(cuGetProcAddress_v2(cases[i].name, &fn, cases[i].version,
					     cases[i].flags, &status));
		CHECK_EQ_U64(status, CU_GET_PROC_ADDRESS_SUCCESS);
		if (fn != dlsym(lib, cases[i].want)) {
			fprintf(stderr, "%s: not %s\n", cases[i].name, cases[i].want);
			exit(1);
		}
	}
	/* The CUDA 10/11 signatures (v1 node parameters, 5-argument
	 * instantiate) are not simulated. */
	void *fn = &fn;
	CUdriverProcAddressQueryResult status;
	CHECK_CU_IS(cuGetProcAddress_v2("cuGraphAddKernelNode", &fn, 11080, 0, &status),
		    CUDA_ERROR_NOT_FOUND);
	CHECK(fn == NULL);
	CHECK_EQ_U64(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
	dlclose(lib);
}

static unsigned char out[80];
static unsigned char seen_by_host[2];
static int host_calls;

static void CUDA_CB on_host(void *tag)
{
	CHECK(tag == &host_calls);
	seen_by_host[0] = out[0];
	seen_by_host[1] = out[64];
	host_calls++;
}

static void check_copy_nodes(void)
{
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, 0));
	CUdeviceptr d;
	CHECK_CU(cuMemAlloc(&d, 256));
	CHECK_CU(cuMemsetD8(d, 0, 256));
	unsigned char src[64];
	for (int i = 0; i < 64; i++)
		src[i] = (unsigned char)(10 + i);
	memset(out, 0xee, sizeof(out));

	CUgraph g;
	CHECK_CU(cuGraphCreate(&g, 0));
	CUgraphNode set, copy, back, host;
	/* 0xabcd in d[0,8) and d[32,40) */
	CUDA_MEMSET_NODE_PARAMS mp = { .dst = d, .pitch = 32, .value = 0xabcd,
				       .elementSize = 2, .width = 4, .height = 2 };
	CHECK_CU(cuGraphAddMemsetNode(&set, g, NULL, 0, &mp, NULL));
	/* src rows 1 and 2 from byte 2, 4 bytes each, to d+64 pitch 8 */
	CUDA_MEMCPY3D cp;
	memset(&cp, 0, sizeof(cp));
	cp.srcMemoryType = CU_MEMORYTYPE_HOST;
	cp.srcHost = src;
	cp.srcPitch = 16;
	cp.srcXInBytes = 2;
	cp.srcY = 1;
	cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	cp.dstDevice = d + 64;
	cp.dstPitch = 8;
	cp.WidthInBytes = 4;
	cp.Height = 2;
	cp.Depth = 1;
	CHECK_CU(cuGraphAddMemcpyNode(&copy, g, &set, 1, &cp, NULL));
	CUDA_MEMCPY3D bp;
	memset(&bp, 0, sizeof(bp));
	bp.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	bp.srcDevice = d;
	bp.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	bp.dstDevice = (CUdeviceptr)(uintptr_t)out;
	bp.WidthInBytes = sizeof(out);
	bp.Height = 1;
	CHECK_CU(cuGraphAddMemcpyNode(&back, g, &copy, 1, &bp, NULL));
	CUDA_HOST_NODE_PARAMS hp = { .fn = on_host, .userData = &host_calls };
	CHECK_CU(cuGraphAddHostNode(&host, g, &back, 1, &hp));

	/* Errors leave no node. */
	CUgraphNode bad;
	cp.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	CHECK_CU_IS(cuGraphAddMemcpyNode(&bad, g, NULL, 0, &cp, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	cp.srcMemoryType = CU_MEMORYTYPE_HOST;
	cp.Depth = 2;
	CHECK_CU_IS(cuGraphAddMemcpyNode(&bad, g, NULL, 0, &cp, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphAddMemcpyNode(&bad, g, NULL, 0, NULL, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	mp.elementSize = 3;
	CHECK_CU_IS(cuGraphAddMemsetNode(&bad, g, NULL, 0, &mp, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	mp.elementSize = 2;
	mp.dst = d + 1;
	CHECK_CU_IS(cuGraphAddMemsetNode(&bad, g, NULL, 0, &mp, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphAddHostNode(&bad, g, NULL, 0, NULL),
		    CUDA_ERROR_INVALID_VALUE);
	size_t n = 0;
	CHECK_CU(cuGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 4);
	CHECK_CU_IS(cuGraphClone(NULL, g), CUDA_ERROR_INVALID_VALUE);

	CUgraph clone;
	CHECK_CU(cuGraphClone(&clone, g));
	CUgraphExec exec;
	CHECK_CU(cuGraphInstantiate(&exec, clone, 0));
	CHECK_EQ_U64(host_calls, 0);
	CHECK_CU(cuGraphLaunch(exec, s));
	CHECK_CU(cuStreamSynchronize(s));
	CHECK_EQ_U64(host_calls, 1);
	CHECK_EQ_U64(seen_by_host[0], 0xcd); /* the host node ran after the copy */
	CHECK_EQ_U64(seen_by_host[1], src[18]);
	for (int i = 0; i < 80; i++) {
		int want = 0;
		if (i < 8 || (i >= 32 && i < 40))
			want = i % 2 ? 0xab : 0xcd;
		else if (i >= 64 && i < 68)
			want = src[16 + 2 + (i - 64)];
		else if (i >= 72 && i < 76)
			want = src[32 + 2 + (i - 72)];
		CHECK_EQ_U64(out[i], want);
	}
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphDestroy(clone));
	CHECK_CU(cuGraphDestroy(g));

	/* cuLaunchHostFunc: at once, or a node of the capture. */
	CHECK_CU_IS(cuLaunchHostFunc(s, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuLaunchHostFunc_ptsz(s, on_host, &host_calls));
	CHECK_EQ_U64(host_calls, 2);
	CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_CU(cuMemsetD8Async(d, 0x5a, 1, s));
	CHECK_CU(cuLaunchHostFunc(s, on_host, &host_calls));
	CHECK_CU(cuStreamEndCapture(s, &g));
	CHECK_EQ_U64(host_calls, 2);
	n = 0;
	CHECK_CU(cuGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 2);
	CHECK_CU(cuGraphInstantiate(&exec, g, 0));
	CHECK_CU(cuGraphLaunch(exec, s));
	CHECK_EQ_U64(host_calls, 3);
	unsigned char first;
	CHECK_CU(cuMemcpyDtoH(&first, d, 1));
	CHECK_EQ_U64(first, 0x5a);
	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphDestroy(g));
	CHECK_CU(cuMemFree(d));
	CHECK_CU(cuStreamDestroy(s));
}

/*
 * The driver's node parameters and updates: a node keeps its own copy of
 * the argument (GetParams after the caller's value changed), the exec's
 * copy changes with cuGraphExecKernelNodeSetParams_v2 and
 * cuGraphExecUpdate_v2 (the next launch's record shows the new grid), an
 * update from another shape fails with its result info, and
 * cuStreamGetCaptureInfo_v3 names the capturing graph and the node a
 * launch became.
 */
static void check_updates(void)
{
	CUmodule m;
	CUfunction a, b;
	CHECK_CU(cuModuleLoadData(&m, "simgpu"));
	CHECK_CU(cuModuleGetFunction(&a, m, "graph_a"));
	CHECK_CU(cuModuleGetFunction(&b, m, "graph_b"));
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	void *value = (void *)0x1234, *args[1] = { &value };
	CUDA_KERNEL_NODE_PARAMS p = { .func = a, .kernelParams = args, .gridDimX = 3,
				      .gridDimY = 1, .gridDimZ = 1, .blockDimX = 64,
				      .blockDimY = 1, .blockDimZ = 1 };
	CUgraph g;
	CUgraphNode node;
	CHECK_CU(cuGraphCreate(&g, 0));
	CHECK_CU(cuGraphAddKernelNode(&node, g, NULL, 0, &p));
	value = (void *)0x5678;
	CUDA_KERNEL_NODE_PARAMS got;
	CHECK_CU(cuGraphKernelNodeGetParams(node, &got));
	CHECK(got.func == a && got.gridDimX == 3 && got.extra == NULL);
	CHECK(*(void **)got.kernelParams[0] == (void *)0x1234);
	CUgraphNodeType type;
	CHECK_CU(cuGraphNodeGetType(node, &type));
	CHECK_EQ_U64(type, CU_GRAPH_NODE_TYPE_KERNEL);
	CUgraphExec exec;
	CHECK_CU(cuGraphInstantiate(&exec, g, 0));
	p.gridDimX = 5;
	CHECK_CU(cuGraphExecKernelNodeSetParams(exec, node, &p));
	CHECK_CU(cuGraphKernelNodeGetParams(node, &got));
	CHECK_EQ_U64(got.gridDimX, 3); /* the graph's node is unchanged */
	n_kernels = 0;
	CHECK_CU(cuGraphLaunch(exec, s));
	flush();
	CHECK_EQ_U64(n_kernels, 1);
	CHECK_EQ_U64(kernels[0].gridX, 5);
	uint64_t exec_node_id = kernels[0].graphNodeId;

	/* a graph of the same shape: the exec runs its parameters */
	CUgraph same;
	CUgraphNode same_node;
	p.gridDimX = 7;
	CHECK_CU(cuGraphCreate(&same, 0));
	CHECK_CU(cuGraphAddKernelNode(&same_node, same, NULL, 0, &p));
	CUgraphExecUpdateResultInfo info;
	CHECK_CU(cuGraphExecUpdate(exec, same, &info));
	CHECK_EQ_U64(info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
	n_kernels = 0;
	CHECK_CU(cuGraphLaunch(exec, s));
	flush();
	CHECK_EQ_U64(kernels[0].gridX, 7);
	CHECK_EQ_U64(kernels[0].graphNodeId, exec_node_id);
	/* one more node: the topology changed, nothing is updated */
	add(same, b, 1, &same_node, 1);
	CHECK(cuGraphExecUpdate(exec, same, &info) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	CHECK_EQ_U64(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
	CHECK(info.errorNode == NULL);
	/* a missing parameter array, where the kernel has one, is refused */
	CUDA_KERNEL_NODE_PARAMS none = p;
	none.kernelParams = NULL;
	CHECK(cuGraphKernelNodeSetParams(node, &none) == CUDA_ERROR_INVALID_VALUE);

	CUstreamCaptureStatus status;
	CHECK_CU(cuStreamIsCapturing(s, &status));
	CHECK_EQ_U64(status, CU_STREAM_CAPTURE_STATUS_NONE);
	CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_CU(cuLaunchKernel(a, 9, 1, 1, 64, 1, 1, 0, s, args, NULL));
	cuuint64_t id = 0;
	CUgraph capturing = NULL;
	const CUgraphNode *deps = NULL;
	const CUgraphEdgeData *edges = (const CUgraphEdgeData *)1;
	size_t ndeps = 0;
	CHECK_CU(cuStreamGetCaptureInfo(s, &status, &id, &capturing, &deps, &edges, &ndeps));
	CHECK_EQ_U64(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
	CHECK(id != 0 && capturing != NULL && edges == NULL);
	CHECK_EQ_U64(ndeps, 1);
	CHECK_CU(cuGraphKernelNodeGetParams(deps[0], &got));
	CHECK(got.gridDimX == 9 && *(void **)got.kernelParams[0] == (void *)0x5678);
	CUgraph captured;
	CHECK_CU(cuStreamEndCapture(s, &captured));
	CHECK(captured == capturing);

	CHECK_CU(cuGraphExecDestroy(exec));
	CHECK_CU(cuGraphDestroy(g));
	CHECK_CU(cuGraphDestroy(same));
	CHECK_CU(cuGraphDestroy(captured));
	CHECK_CU(cuStreamDestroy(s));
}

/*
 * The generic node API: cuGraphAddNode_v2 and CUDA 12.2's cuGraphAddNode
 * make a memset node (d[0,16) = 0x11) and a memcpy node after it (d[0,16)
 * to out) as the typed calls do; cuGraphNodeSetParams gives the graph's
 * memset the value 0x22 (an exec instantiated before keeps 0x11, a new
 * one has 0x22), cuGraphExecNodeSetParams the first exec's 0x33 (the
 * bytes each launch leaves in out say which); a kernel node's type comes
 * back as such; a type other than the node's, nonzero reserved fields, a
 * memory node's parameter change, a programmatic edge and an event node
 * are refused with cuda.h's codes (or NOT_SUPPORTED, not simulated).
 */
static void run_and_read(CUgraphExec exec, CUstream s, unsigned char want)
{
	memset(out, 0, 16);
	CHECK_CU(cuGraphLaunch(exec, s));
	CHECK_CU(cuStreamSynchronize(s));
	for (int i = 0; i < 16; i++)
		CHECK_EQ_U64(out[i], want);
}

static void check_generic_nodes(void)
{
	PFN_cuGraphAddNode_v12020 add_node_12020 =
		(PFN_cuGraphAddNode_v12020)dlsym(RTLD_DEFAULT, "cuGraphAddNode");
	CHECK(add_node_12020 != NULL);
	CUstream s;
	CHECK_CU(cuStreamCreate(&s, 0));
	CUdeviceptr d;
	CHECK_CU(cuMemAlloc(&d, 256));
	CUgraph g;
	CHECK_CU(cuGraphCreate(&g, 0));
	CUgraphNodeParams set = { .type = CU_GRAPH_NODE_TYPE_MEMSET };
	set.memset = (CUDA_MEMSET_NODE_PARAMS_v2){ .dst = d, .value = 0x11, .elementSize = 1,
						    .width = 16, .height = 1 };
	CUgraphNode set_node, copy_node, kernel_node, bad;
	CHECK_CU(cuGraphAddNode_v2(&set_node, g, NULL, NULL, 0, &set));
	CUgraphNodeParams copy = { .type = CU_GRAPH_NODE_TYPE_MEMCPY };
	copy.memcpy.copyParams.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	copy.memcpy.copyParams.srcDevice = d;
	copy.memcpy.copyParams.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	copy.memcpy.copyParams.dstDevice = (CUdeviceptr)(uintptr_t)out;
	copy.memcpy.copyParams.WidthInBytes = 16;
	copy.memcpy.copyParams.Height = 1;
	copy.memcpy.copyParams.Depth = 1;
	CHECK_CU(add_node_12020(&copy_node, g, &set_node, 1, &copy));
	CUgraphNodeType type;
	CHECK_CU(cuGraphNodeGetType(set_node, &type));
	CHECK_EQ_U64(type, CU_GRAPH_NODE_TYPE_MEMSET);
	CHECK_CU(cuGraphNodeGetType(copy_node, &type));
	CHECK_EQ_U64(type, CU_GRAPH_NODE_TYPE_MEMCPY);

	CUgraphExec first, second;
	CHECK_CU(cuGraphInstantiate(&first, g, 0));
	run_and_read(first, s, 0x11);
	set.memset.value = 0x22;
	CHECK_CU(cuGraphNodeSetParams(set_node, &set));
	run_and_read(first, s, 0x11);
	CHECK_CU(cuGraphInstantiate(&second, g, 0));
	run_and_read(second, s, 0x22);
	set.memset.value = 0x33;
	CHECK_CU(cuGraphExecNodeSetParams(first, set_node, &set));
	run_and_read(first, s, 0x33);
	run_and_read(second, s, 0x22);

	/* a kernel node */
	CUmodule m;
	CUfunction a;
	CHECK_CU(cuModuleLoadData(&m, "simgpu"));
	CHECK_CU(cuModuleGetFunction(&a, m, "graph_a"));
	void *value = (void *)0x1234, *args[1] = { &value };
	CUgraphNodeParams k = { .type = CU_GRAPH_NODE_TYPE_KERNEL };
	k.kernel = (CUDA_KERNEL_NODE_PARAMS_v3){ .func = a, .gridDimX = 2, .gridDimY = 1,
						 .gridDimZ = 1, .blockDimX = 64, .blockDimY = 1,
						 .blockDimZ = 1, .kernelParams = args };
	CHECK_CU(cuGraphAddNode_v2(&kernel_node, g, &copy_node, NULL, 1, &k));
	CHECK_CU(cuGraphNodeGetType(kernel_node, &type));
	CHECK_EQ_U64(type, CU_GRAPH_NODE_TYPE_KERNEL);
	k.kernel.gridDimX = 5;
	CHECK_CU(cuGraphNodeSetParams(kernel_node, &k));
	CUDA_KERNEL_NODE_PARAMS got;
	CHECK_CU(cuGraphKernelNodeGetParams(kernel_node, &got));
	CHECK(got.func == a && got.gridDimX == 5);

	/* refusals */
	CHECK_CU_IS(cuGraphNodeSetParams(set_node, &k), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphExecNodeSetParams(first, kernel_node, &set), CUDA_ERROR_INVALID_VALUE);
	set.reserved0[1] = 1;
	CHECK_CU_IS(cuGraphNodeSetParams(set_node, &set), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU_IS(cuGraphAddNode_v2(&bad, g, NULL, NULL, 0, &set), CUDA_ERROR_INVALID_VALUE);
	set.reserved0[1] = 0;
	CUgraphNodeParams alloc = { .type = CU_GRAPH_NODE_TYPE_MEM_ALLOC };
	CHECK_CU_IS(cuGraphNodeSetParams(set_node, &alloc), CUDA_ERROR_NOT_SUPPORTED);
	CUgraphEdgeData edge = { .type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC };
	CHECK_CU_IS(cuGraphAddNode_v2(&bad, g, &set_node, &edge, 1, &set),
		    CUDA_ERROR_NOT_SUPPORTED);
	CUgraphNodeParams event = { .type = CU_GRAPH_NODE_TYPE_EVENT_RECORD };
	CHECK_CU_IS(cuGraphAddNode_v2(&bad, g, NULL, NULL, 0, &event), CUDA_ERROR_NOT_SUPPORTED);
	CHECK_CU_IS(cuGraphAddNode_v2(&bad, g, NULL, NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
	size_t n = 0;
	CHECK_CU(cuGraphGetNodes(g, NULL, &n));
	CHECK_EQ_U64(n, 3);

	CHECK_CU(cuGraphExecDestroy(first));
	CHECK_CU(cuGraphExecDestroy(second));
	CHECK_CU(cuGraphDestroy(g));
	CHECK_CU(cuMemFree(d));
	CHECK_CU(cuStreamDestroy(s));
}

int main(void)
{
	setenv("SIMGPU_TIME_SCALE", "0", 1);
	size_t one_pointer[1] = { 8 };
	simgpu_define_kernel(&host_a, "graph_a", 1, one_pointer);
	simgpu_define_kernel(&host_b, "graph_b", 0, NULL);
	simgpu_define_kernel(&host_c, "graph_c", 0, NULL);
	simgpu_define_kernel(&host_d, "graph_d", 0, NULL);
	CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) ==
	      CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, 1) ==
	      CUPTI_SUCCESS);
	CHECK(cuptiActivityEnableDriverApi(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, 1) ==
	      CUPTI_SUCCESS);
	check_graph();
	check_copy_nodes();
	check_proc_address();
	check_updates();
	check_generic_nodes();
	printf("simgpu driver graphs: ok\n");
	return 0;
}
