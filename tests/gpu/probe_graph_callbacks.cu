// probe_graph_callbacks: prints, in order, the CUPTI resource callbacks a
// real CUDA stack raises around graph instantiation and launch, with the
// calls that caused them marked, so a lent GPU shows what dnntrace's graph
// bookkeeping (interceptors/core/cupti_session.c) may rely on: on which
// thread GRAPHNODE_CLONED comes, inside which call, and whether it or
// GRAPHEXEC_CREATED names the exec. Run untraced (one CUPTI subscriber per
// process); device_session.sh builds and runs it. A probe, not a test: it
// asserts nothing and must never be part of `make test`.
//
//   probe_graph_callbacks
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_t main_thread;

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
	const char *name = callback_name(id);
	if (domain != CUPTI_CB_DOMAIN_RESOURCE || !name)
		return;
	const CUpti_GraphData *g = (const CUpti_GraphData *)((const CUpti_ResourceData *)data)->resourceDescriptor;
	uint64_t node_id = 0, original_id = 0;
	if (g && g->node)
		cuptiGetGraphNodeId(g->node, &node_id);
	if (g && g->originalNode)
		cuptiGetGraphNodeId(g->originalNode, &original_id);
	printf("  callback %-26s thread=%s graph=%p original_graph=%p node=%llu original_node=%llu exec=%p\n",
	       name, pthread_equal(pthread_self(), main_thread) ? "main" : "OTHER",
	       g ? (void *)g->graph : NULL, g ? (void *)g->originalGraph : NULL,
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

int main(void)
{
	main_thread = pthread_self();
	CUpti_SubscriberHandle subscriber;
	CHECK(cuptiSubscribe(&subscriber, on_resource, NULL));
	CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE));
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

	MARK("== cudaGraphInstantiateWithFlags(upload) begins");
	cudaGraphExec_t exec2;
	CHECK(cudaGraphInstantiateWithFlags(&exec2, graph, cudaGraphInstantiateFlagUpload));
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

	MARK("== destroy");
	cudaGraphExecDestroy(exec);
	cudaGraphExecDestroy(exec2);
	cuGraphExecDestroy(exec3);
	cudaGraphDestroy(copy);
	cudaGraphDestroy(graph);
	cudaFree(x);
	cuptiUnsubscribe(subscriber);
	MARK("== done");
	return 0;
}
