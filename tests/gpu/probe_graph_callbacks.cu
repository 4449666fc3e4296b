// probe_graph_callbacks: prints, in order, the CUPTI resource callbacks a
// real CUDA stack raises around graph instantiation and launch, with the
// calls that caused them marked, so a lent GPU shows what dnntrace's graph
// bookkeeping (interceptors/core/cupti_session.c) may rely on: on which
// thread GRAPHNODE_CLONED comes, inside which call, and whether it or
// GRAPHEXEC_CREATED names the exec. Run untraced (one CUPTI subscriber per
// process); device_session.sh builds and runs it. A probe, not a test: it
// asserts nothing and must never be part of `make test`. Also shows which
// driver calls a generic cudaGraphAddNode and a child-graph node make, and
// the graph node id each kernel's activity record carries (child graphs).
//
//   probe_graph_callbacks
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_t main_thread;
static volatile int show_driver_calls; /* inside a marked runtime call */

#define CHECK(call) \
	do { \
		int rc_ = (int)(call); \
		if (rc_) { \
			fprintf(stderr, "probe: %s failed: %d\n", #call, rc_); \
			exit(1); \
		} \
	} while (0)

static const char *callback_name(CUpti_CallbackId id)
{
	switch (id) {
	case CUPTI_CBID_RESOURCE_GRAPH_CREATED: return "GRAPH_CREATED";
	case CUPTI_CBID_RESOURCE_GRAPH_CLONED: return "GRAPH_CLONED";
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED: return "GRAPHNODE_CREATED";
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING: return "GRAPHEXEC_CREATE_STARTING";
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED: return "GRAPHEXEC_CREATED";
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING: return "GRAPHEXEC_DESTROY_STARTING";
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED: return "GRAPHNODE_CLONED";
	default: return NULL;
	}
}

static void CUPTIAPI on_resource(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
				 const void *data)
{
	(void)userdata;
	if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
		const CUpti_CallbackData *call = (const CUpti_CallbackData *)data;
		if (show_driver_calls && call->callbackSite == CUPTI_API_ENTER)
			printf("  driver %s\n", call->functionName), fflush(stdout);
		return;
	}
	const char *name = callback_name(id);
	if (domain != CUPTI_CB_DOMAIN_RESOURCE || !name)
		return;
	const CUpti_GraphData *g = (const CUpti_GraphData *)((const CUpti_ResourceData *)data)->resourceDescriptor;
	uint64_t node_id = 0, original_id = 0;
	if (g && g->node)
		cuptiGetGraphNodeId(g->node, &node_id);
	if (g && g->originalNode)
		cuptiGetGraphNodeId(g->originalNode, &original_id);
	uint32_t graph_id = 0;
	if (g && g->graph)
		cuptiGetGraphId(g->graph, &graph_id);
	printf("  callback %-26s thread=%s graph=%p (id %u) original_graph=%p node=%llu original_node=%llu exec=%p\n",
	       name, pthread_equal(pthread_self(), main_thread) ? "main" : "OTHER",
	       g ? (void *)g->graph : NULL, graph_id, g ? (void *)g->originalGraph : NULL,
	       (unsigned long long)node_id, (unsigned long long)original_id,
	       g ? (void *)g->graphExec : NULL);
	fflush(stdout);
}

__global__ void twice(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

#define MARK(what) (printf("%s\n", what), fflush(stdout))

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*size = 1 << 20;
	*buffer = (uint8_t *)aligned_alloc(8, *size);
	*max_records = 0;
}

/* each kernel: the graph node id and graph id its record carries */
static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	(void)context, (void)stream, (void)size;
	CUpti_Activity *record = NULL;
	while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
		if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
			continue;
		const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)record;
		printf("  kernel record correlation=%u name=%s graph_node=%llu graph_id=%u start=%llu\n",
		       k->correlationId, k->name, (unsigned long long)k->graphNodeId, k->graphId,
		       (unsigned long long)k->start);
	}
	free(buffer);
}

/* A one-kernel graph, twice(x), made with cudaGraphAddKernelNode. */
static cudaGraph_t one_kernel_graph(float *x, int n, void **args)
{
	cudaGraph_t g;
	CHECK(cudaGraphCreate(&g, 0));
	struct cudaKernelNodeParams p = {};
	p.func = (void *)twice;
	p.gridDim = dim3(n / 256);
	p.blockDim = dim3(256);
	p.kernelParams = args;
	cudaGraphNode_t node;
	CHECK(cudaGraphAddKernelNode(&node, g, NULL, 0, &p));
	return g;
}

/* Child graphs and the generic cudaGraphAddNode, with the driver calls
 * each makes and the node ids the kernels' records carry. */
static void child_graphs(float *x, cudaStream_t s)
{
	int n = 1 << 16;
	void *args[] = {&x, &n};
	MARK("== inner graph: cudaGraphAddKernelNode (driver calls shown)");
	show_driver_calls = 1;
	cudaGraph_t inner = one_kernel_graph(x, n, args);
	MARK("== cudaGraphAddChildGraphNode begins");
	cudaGraph_t parent;
	CHECK(cudaGraphCreate(&parent, 0));
	cudaGraphNode_t child, after;
	CHECK(cudaGraphAddChildGraphNode(&child, parent, NULL, 0, inner));
	MARK("== cudaGraphAddChildGraphNode returned; cudaGraphAddNode (kernel) begins");
	struct cudaGraphNodeParams generic = {};
	generic.type = cudaGraphNodeTypeKernel;
	generic.kernel.func = (void *)twice;
	generic.kernel.gridDim = dim3(n / 256);
	generic.kernel.blockDim = dim3(256);
	generic.kernel.kernelParams = args;
	CHECK(cudaGraphAddNode(&after, parent, &child, NULL, 1, &generic));
	MARK("== cudaGraphAddNode returned; cudaGraphNodeSetParams begins");
	printf("== cudaGraphNodeSetParams returned %d; parent cudaGraphInstantiate begins\n",
	       (int)cudaGraphNodeSetParams(after, &generic));
	cudaGraphExec_t exec;
	CHECK(cudaGraphInstantiate(&exec, parent, 0));
	uint32_t exec_id = 0;
	cuptiGetGraphExecId((CUgraphExec)exec, &exec_id);
	printf("== parent cudaGraphInstantiate returned exec=%p (exec id %u)\n", (void *)exec, exec_id);
	MARK("== cudaGraphExecNodeSetParams begins");
	printf("== cudaGraphExecNodeSetParams returned %d; parent cudaGraphLaunch begins\n",
	       (int)cudaGraphExecNodeSetParams(exec, after, &generic));
	CHECK(cudaGraphLaunch(exec, s));
	MARK("== parent cudaGraphLaunch returned");
	show_driver_calls = 0;
	CHECK(cudaStreamSynchronize(s));
	cudaGraphExecDestroy(exec);
	cudaGraphDestroy(parent);
	cudaGraphDestroy(inner);
}

int main(void)
{
	main_thread = pthread_self();
	CUpti_SubscriberHandle subscriber;
	CHECK(cuptiSubscribe(&subscriber, on_resource, NULL));
	CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE));
	CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
	CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
	int version = 0, runtime = 0, driver = 0;
	cuptiGetVersion((uint32_t *)&version);
	cudaRuntimeGetVersion(&runtime);
	cudaDriverGetVersion(&driver);
	printf("CUPTI API %d, runtime %d, driver %d\n", version, runtime, driver);

	enum { N = 1 << 16 };
	float *x;
	CHECK(cudaMalloc(&x, N * sizeof(float)));
	cudaStream_t s;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	MARK("== capture: kernel, memset, kernel");
	cudaGraph_t graph;
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	twice<<<N / 256, 256, 0, s>>>(x, N);
	CHECK(cudaMemsetAsync(x, 0, 64, s));
	twice<<<N / 256, 256, 0, s>>>(x, N);
	CHECK(cudaStreamEndCapture(s, &graph));

	MARK("== cudaGraphInstantiate begins");
	cudaGraphExec_t exec;
	CHECK(cudaGraphInstantiate(&exec, graph, 0));
	printf("== cudaGraphInstantiate returned exec=%p\n", (void *)exec);

	MARK("== cudaGraphLaunch 1 begins");
	CHECK(cudaGraphLaunch(exec, s));
	MARK("== cudaGraphLaunch 1 returned");
	CHECK(cudaStreamSynchronize(s));
	MARK("== cudaGraphLaunch 2 begins");
	CHECK(cudaGraphLaunch(exec, s));
	MARK("== cudaGraphLaunch 2 returned");
	CHECK(cudaStreamSynchronize(s));

	MARK("== cudaGraphInstantiateWithFlagsbegins");
	cudaGraphExec_t exec2;
	CHECK(cudaGraphInstantiateWithFlags(&exec2, graph, 0));
	printf("== cudaGraphInstantiateWithFlags returned exec=%p\n", (void *)exec2);

	MARK("== cudaGraphUpload begins");
	printf("== cudaGraphUpload returned %d\n", (int)cudaGraphUpload(exec2, s));

	MARK("== cuGraphInstantiateWithFlags begins");
	CUgraphExec exec3;
	CHECK(cuGraphInstantiateWithFlags(&exec3, (CUgraph)graph, 0));
	printf("== cuGraphInstantiateWithFlags returned exec=%p\n", (void *)exec3);
	MARK("== cuGraphLaunch begins");
	CHECK(cuGraphLaunch(exec3, (CUstream)s));
	MARK("== cuGraphLaunch returned");
	CHECK(cudaStreamSynchronize(s));

	MARK("== cudaGraphClone begins");
	cudaGraph_t copy;
	CHECK(cudaGraphClone(&copy, graph));
	MARK("== cudaGraphClone returned");

	child_graphs(x, s);

	MARK("== destroy");
	cudaGraphExecDestroy(exec);
	cudaGraphExecDestroy(exec2);
	cuGraphExecDestroy(exec3);
	cudaGraphDestroy(copy);
	cudaGraphDestroy(graph);
	cudaFree(x);
	cuptiActivityFlushAll(1);
	cuptiUnsubscribe(subscriber);
	MARK("== done");
	return 0;
}
