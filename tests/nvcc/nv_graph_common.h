// nv_graph_common.h: what the nvcc graph test programs share
// (nv_graph_updates, nv_graph_memory, nv_graph_children, nv_graph_generic,
// nv_graph_generic_memory): their kernels on N floats, the argument blocks
// their kernel nodes point into and those nodes' parameters (typed, generic
// and driver API), a one-kernel graph launch with its truth, driver entry
// points taken as a library takes them, and the lines of nv_graph_memory's
// expected file.
//
// Header-only, for one .cu file per program: the kernels are defined here
// with external linkage, because the truth names them by their mangled
// names (_Z5scalePfi), which nvcc changes for internal linkage. Must never
// decide anything a test checks: each program's own code does.
#ifndef NV_GRAPH_COMMON_H
#define NV_GRAPH_COMMON_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <errno.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "tests/nvcc/nv_common.h"

__global__ void fill(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 1.0f;
}

__global__ void scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

__global__ void add(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

enum { N = 4096, BLOCKS = N / 256 };
// simgpu's cost model for one of these kernels: 2000 ns + 10 ns x blocks.
static const uint64_t MODELLED_NS = 2000 + 10 * (uint64_t)BLOCKS;
static const char *const FILL = "_Z4fillPfi", *const SCALE = "_Z5scalePfi",
		  *const ADD = "_Z3addPKfPfi";

// A kernel node's arguments, (p0, n) or (p0, p1, n): they must live until
// the call that copies them.
struct node_args {
	void *p0, *p1;
	int n;
	void *params[3];
};

// a's kernelParams: (p0, N), or (p0, p1, N) when p1 is not NULL.
static inline void **node_params(node_args *a, void *p0, void *p1)
{
	a->p0 = p0, a->p1 = p1, a->n = N;
	a->params[0] = &a->p0;
	a->params[1] = p1 ? (void *)&a->p1 : (void *)&a->n;
	a->params[2] = &a->n;
	return a->params;
}

// A kernel node of func on BLOCKS x 256 threads, for cudaGraphAddKernelNode
// and its SetParams calls.
static inline cudaKernelNodeParams typed_kernel_params(const void *func, node_args *a, void *p0,
						       void *p1)
{
	cudaKernelNodeParams k = {};
	k.func = (void *)func;
	k.gridDim = dim3(BLOCKS, 1, 1);
	k.blockDim = dim3(256, 1, 1);
	k.kernelParams = node_params(a, p0, p1);
	return k;
}

// The same node for the runtime's generic node API (cudaGraphAddNode & co.).
static inline cudaGraphNodeParams generic_kernel_params(const void *func, node_args *a, void *p0,
							void *p1)
{
	cudaGraphNodeParams k = {};
	k.type = cudaGraphNodeTypeKernel;
	k.kernel.func = (void *)func;
	k.kernel.gridDim = dim3(BLOCKS, 1, 1);
	k.kernel.blockDim = dim3(256, 1, 1);
	k.kernel.kernelParams = node_params(a, p0, p1);
	return k;
}

// The same node for the driver's (cuGraphAddNode & co.), with the kernel's
// CUfunction (cudaGetFuncBySymbol).
static inline CUgraphNodeParams driver_kernel_params(CUfunction f, node_args *a, void *p0,
						     void *p1)
{
	CUgraphNodeParams k = {};
	k.type = CU_GRAPH_NODE_TYPE_KERNEL;
	k.kernel.func = f;
	k.kernel.gridDimX = BLOCKS, k.kernel.gridDimY = 1, k.kernel.gridDimZ = 1;
	k.kernel.blockDimX = 256, k.kernel.blockDimY = 1, k.kernel.blockDimZ = 1;
	k.kernel.kernelParams = node_params(a, p0, p1);
	return k;
}

// Launches exec, whose one kernel is scale on touched, its duration ns.
static inline void launch_scale_graph(struct truth *truth, cudaGraphExec_t exec, cudaStream_t s,
				      const float *touched, uint64_t ns)
{
	nv_next_kernel_ns(ns);
	NV_CHECK(cudaGraphLaunch(exec, s));
	const void *ptrs[] = {touched};
	struct truth_graph_kernel k = {SCALE, ns, ptrs, 1, NULL, 0};
	truth_graph_launch(truth, "cudaGraphLaunch", &k, 1);
}

// A driver entry point of CUDA version `version`, as a library takes it.
static inline void *driver_entry(const char *symbol, unsigned version)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult found;
	NV_CHECK(cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault,
						  &found));
	if (found != cudaDriverEntryPointSuccess || !fn) {
		fprintf(stderr, "%s: no %s for CUDA %u\n", program_invocation_short_name, symbol,
			version);
		exit(1);
	}
	return fn;
}

static inline void cu_check(CUresult r, const char *call)
{
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "%s: %s: CUresult %d\n", program_invocation_short_name, call,
			(int)r);
		exit(1);
	}
}

// nv_graph_memory's TRUTH_DIR/expected, which tests/e2e/check_graph_memory.py
// compares the analysis with:
//   x ADDR                   the ordinary tensor x
//   lifetimes ADDR N         the graph allocation at ADDR lives N times
//   kernel NAME SYM...       in GPU order, the tensors it touches: x, or
//                            ADDR#K (the K-th lifetime, from 0, of ADDR)
static inline std::vector<std::string> &expected_kernels(void)
{
	static std::vector<std::string> lines;
	return lines;
}

static inline std::string addr(const void *p)
{
	char s[32];
	snprintf(s, sizeof(s), "0x%llx", (unsigned long long)(uintptr_t)p);
	return s;
}

static inline std::string lifetime(const void *p, int k)
{
	return addr(p) + "#" + std::to_string(k);
}

// The next kernel in GPU order touches a, then b (if any).
static inline void expect_kernel(const char *name, const std::string &a,
				 const std::string &b = "")
{
	expected_kernels().push_back(std::string("kernel ") + name + " " + a +
				     (b.empty() ? "" : " " + b));
}

struct graph_allocation {
	const void *addr;
	int lifetimes;
};

// Writes dir/expected; 1 when it cannot.
static inline int write_memory_expected(const std::string &dir, const void *x,
					std::initializer_list<graph_allocation> allocations)
{
	if (system(("mkdir -p '" + dir + "'").c_str()) != 0)
		return 1;
	FILE *f = fopen((dir + "/expected").c_str(), "w");
	if (!f)
		return 1;
	fprintf(f, "x %s\n", addr(x).c_str());
	for (const graph_allocation &a : allocations)
		fprintf(f, "lifetimes %s %d\n", addr(a.addr).c_str(), a.lifetimes);
	for (const std::string &line : expected_kernels())
		fprintf(f, "%s\n", line.c_str());
	fclose(f);
	return 0;
}

#endif
