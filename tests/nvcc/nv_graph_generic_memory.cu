// nv_graph_generic_memory: CUDA graph memory nodes made with the generic
// node API, with ground truth for each graph allocation's lifetimes and
// each kernel's tensors (the model: nv_graph_memory.cu, whose graph A this
// is, made the generic way):
//  - graph A, cudaGraphAddNode for every node: alloc a -> fill(a) ->
//    add(a, x) -> free a; launched 2 times: a is born and freed at every
//    launch;
//  - graph D, the driver's generic calls taken with
//    cudaGetDriverEntryPointByVersion: alloc d (cuGraphAddNode_v2) ->
//    fill(d) (cuGraphAddNode_v2, the kernel's CUfunction) -> free d
//    (cuGraphAddNode, CUDA 12.2's); launched 2 times.
// One stream, so GPU order is submission order. Writes TRUTH_DIR/expected
// in nv_graph_memory's format, which tests/e2e/check_graph_memory.py
// compares the analysis with:
//   x ADDR                   the ordinary tensor x
//   lifetimes ADDR N         the graph allocation at ADDR lives N times
//   kernel NAME SYM...       in GPU order, the tensors it touches: x, or
//                            ADDR#K (the K-th lifetime, from 0, of ADDR)
//
//   nv_graph_generic_memory TRUTH_DIR
#include <cuda.h>
#include <cudaTypedefs.h>
#include "tests/nvcc/nv_common.h"

#include <string>
#include <vector>

__global__ void fill(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 1.0f;
}

__global__ void add(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

enum { N = 4096, BLOCKS = N / 256, BYTES = N * sizeof(float) };
static const char *const FILL = "_Z4fillPfi", *const ADD = "_Z3addPKfPfi";

static std::vector<std::string> expected;

static std::string addr(const void *p)
{
	char s[32];
	snprintf(s, sizeof(s), "0x%llx", (unsigned long long)(uintptr_t)p);
	return s;
}

static std::string lifetime(const void *p, int k)
{
	return addr(p) + "#" + std::to_string(k);
}

static void kernel(const char *name, const std::string &a, const std::string &b = "")
{
	expected.push_back(std::string("kernel ") + name + " " + a + (b.empty() ? "" : " " + b));
}

// A kernel's arguments: (p0, n) or (p0, p1, n); they must live until the
// call that copies them.
struct args2 {
	void *p0, *p1;
	int n;
	void *params[3];
};

static void **params_of(args2 *a, void *p0, void *p1)
{
	a->p0 = p0, a->p1 = p1, a->n = N;
	a->params[0] = &a->p0;
	a->params[1] = p1 ? (void *)&a->p1 : (void *)&a->n;
	a->params[2] = &a->n;
	return a->params;
}

static cudaGraphNodeParams kernel_node(void *func, args2 *a, void *p0, void *p1)
{
	cudaGraphNodeParams k = {};
	k.type = cudaGraphNodeTypeKernel;
	k.kernel.func = func;
	k.kernel.gridDim = dim3(BLOCKS, 1, 1);
	k.kernel.blockDim = dim3(256, 1, 1);
	k.kernel.kernelParams = params_of(a, p0, p1);
	return k;
}

static void *driver_entry(const char *symbol, unsigned version)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult found;
	NV_CHECK(cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault,
						  &found));
	if (found != cudaDriverEntryPointSuccess || !fn) {
		fprintf(stderr, "nv_graph_generic_memory: no %s for CUDA %u\n", symbol, version);
		exit(1);
	}
	return fn;
}

static void cu_check(CUresult r, const char *call)
{
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "nv_graph_generic_memory: %s: CUresult %d\n", call, (int)r);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_graph_generic_memory TRUTH_DIR\n");
		return 2;
	}
	float *x;
	NV_CHECK(cudaMalloc((void **)&x, BYTES));
	NV_CHECK(cudaMemset(x, 0, BYTES));
	cudaStream_t s;
	NV_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// A: alloc a -> fill(a) -> add(a, x) -> free a, all cudaGraphAddNode
	cudaGraph_t ga;
	cudaGraphNode_t n_alloc, n_fill, n_add, n_free;
	NV_CHECK(cudaGraphCreate(&ga, 0));
	cudaGraphNodeParams pa = {};
	pa.type = cudaGraphNodeTypeMemAlloc;
	pa.alloc.bytesize = BYTES;
	pa.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
	pa.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
	pa.alloc.poolProps.location.id = 0;
	NV_CHECK(cudaGraphAddNode(&n_alloc, ga, NULL, NULL, 0, &pa));
	float *a = (float *)pa.alloc.dptr;
	args2 fa, aa;
	cudaGraphNodeParams k = kernel_node((void *)fill, &fa, a, NULL);
	NV_CHECK(cudaGraphAddNode(&n_fill, ga, &n_alloc, NULL, 1, &k));
	k = kernel_node((void *)add, &aa, a, x);
	NV_CHECK(cudaGraphAddNode(&n_add, ga, &n_fill, NULL, 1, &k));
	cudaGraphNodeParams pf = {};
	pf.type = cudaGraphNodeTypeMemFree;
	pf.free.dptr = a;
	NV_CHECK(cudaGraphAddNode(&n_free, ga, &n_add, NULL, 1, &pf));
	cudaGraphExec_t ea;
	NV_CHECK(cudaGraphInstantiate(&ea, ga, 0));
	for (int i = 0; i < 2; i++) {
		NV_CHECK(cudaGraphLaunch(ea, s));
		kernel(FILL, lifetime(a, i));
		kernel(ADD, lifetime(a, i), "x");
	}

	// D: the driver's generic calls: alloc d -> fill(d) -> free d
	PFN_cuGraphAddNode_v12020 add_node_12020 =
		(PFN_cuGraphAddNode_v12020)driver_entry("cuGraphAddNode", 12020);
	PFN_cuGraphAddNode_v12030 add_node_v2 =
		(PFN_cuGraphAddNode_v12030)driver_entry("cuGraphAddNode", 12030);
	cudaFunction_t fill_function;
	NV_CHECK(cudaGetFuncBySymbol(&fill_function, (const void *)fill));
	cudaGraph_t gd;
	NV_CHECK(cudaGraphCreate(&gd, 0));
	CUgraphNode d_alloc, d_fill, d_free;
	CUgraphNodeParams pd = {};
	pd.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
	pd.alloc.bytesize = BYTES;
	pd.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	pd.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	pd.alloc.poolProps.location.id = 0;
	cu_check(add_node_v2(&d_alloc, gd, NULL, NULL, 0, &pd), "cuGraphAddNode_v2 (alloc)");
	float *d = (float *)(uintptr_t)pd.alloc.dptr;
	args2 fd;
	CUgraphNodeParams kd = {};
	kd.type = CU_GRAPH_NODE_TYPE_KERNEL;
	kd.kernel.func = (CUfunction)fill_function;
	kd.kernel.gridDimX = BLOCKS, kd.kernel.gridDimY = 1, kd.kernel.gridDimZ = 1;
	kd.kernel.blockDimX = 256, kd.kernel.blockDimY = 1, kd.kernel.blockDimZ = 1;
	kd.kernel.kernelParams = params_of(&fd, d, NULL);
	cu_check(add_node_v2(&d_fill, gd, &d_alloc, NULL, 1, &kd), "cuGraphAddNode_v2 (kernel)");
	CUgraphNodeParams pdf = {};
	pdf.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
	pdf.free.dptr = (CUdeviceptr)(uintptr_t)d;
	cu_check(add_node_12020(&d_free, gd, &d_fill, 1, &pdf), "cuGraphAddNode (free)");
	cudaGraphExec_t ed;
	NV_CHECK(cudaGraphInstantiate(&ed, gd, 0));
	for (int i = 0; i < 2; i++) {
		NV_CHECK(cudaGraphLaunch(ed, s));
		kernel(FILL, lifetime(d, i));
	}
	NV_CHECK(cudaStreamSynchronize(s));

	std::string dir = argv[1];
	if (system(("mkdir -p '" + dir + "'").c_str()) != 0)
		return 1;
	FILE *f = fopen((dir + "/expected").c_str(), "w");
	if (!f)
		return 1;
	fprintf(f, "x %s\n", addr(x).c_str());
	fprintf(f, "lifetimes %s 2\nlifetimes %s 2\n", addr(a).c_str(), addr(d).c_str());
	for (const std::string &line : expected)
		fprintf(f, "%s\n", line.c_str());
	fclose(f);
	printf("2 graphs with memory nodes made with the generic node API, 4 launches\n");
	NV_CHECK(cudaGraphExecDestroy(ea));
	NV_CHECK(cudaGraphExecDestroy(ed));
	NV_CHECK(cudaGraphDestroy(ga));
	NV_CHECK(cudaGraphDestroy(gd));
	NV_CHECK(cudaStreamDestroy(s));
	NV_CHECK(cudaFree(x));
	return 0;
}
