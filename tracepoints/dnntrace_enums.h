/*
 * Stable numeric values of the dnntrace_api enums, shared by the tracer (which
 * writes them) and the analyzer (which reads them back). Append only: a value
 * once written into a trace must keep its meaning.
 */
#ifndef DNNTRACE_ENUMS_H
#define DNNTRACE_ENUMS_H

enum dnntrace_api_id {
	DNNTRACE_API_cudaMalloc = 0,
	DNNTRACE_API_cudaFree,
	DNNTRACE_API_cudaMallocAsync,
	DNNTRACE_API_cudaFreeAsync,
	DNNTRACE_API_cudaMallocFromPoolAsync,
	DNNTRACE_API_cudaMallocManaged,
	DNNTRACE_API_cudaMallocPitch,
	DNNTRACE_API_cudaMalloc3D,
	DNNTRACE_API_cudaMallocHost,
	DNNTRACE_API_cudaHostAlloc,
	DNNTRACE_API_cudaFreeHost,
	DNNTRACE_API_cudaMemcpy,
	DNNTRACE_API_cudaMemcpyAsync,
	DNNTRACE_API_cudaMemcpy2D,
	DNNTRACE_API_cudaMemcpy2DAsync,
	DNNTRACE_API_cudaMemset,
	DNNTRACE_API_cudaMemsetAsync,
	DNNTRACE_API_cudaMemset2D,
	DNNTRACE_API_cudaMemset2DAsync,
	DNNTRACE_API_cudaLaunchKernel,
	DNNTRACE_API_cudaLaunchKernelExC,
	DNNTRACE_API_cudaMemcpy_ptds,
	DNNTRACE_API_cudaMemcpyAsync_ptsz,
	DNNTRACE_API_cudaMemcpy2D_ptds,
	DNNTRACE_API_cudaMemcpy2DAsync_ptsz,
	DNNTRACE_API_cudaMemset_ptds,
	DNNTRACE_API_cudaMemsetAsync_ptsz,
	DNNTRACE_API_cudaMemset2D_ptds,
	DNNTRACE_API_cudaMemset2DAsync_ptsz,
	DNNTRACE_API_cudaLaunchKernel_ptsz,
	DNNTRACE_API_cudaLaunchKernelExC_ptsz,
	DNNTRACE_API_cudaMallocAsync_ptsz,
	DNNTRACE_API_cudaFreeAsync_ptsz,
	DNNTRACE_API_cudaMallocFromPoolAsync_ptsz,
	DNNTRACE_API_COUNT
};

enum dnntrace_mem_kind {
	DNNTRACE_MEM_DEVICE = 0,
	DNNTRACE_MEM_MANAGED = 1,
	DNNTRACE_MEM_PINNED_HOST = 2,
	DNNTRACE_MEM_STREAM_ORDERED = 3,
};

/* Launch configuration, passed by pointer (a tracepoint takes 10 args at most). */
struct dnntrace_launch_geometry {
	unsigned int grid[3];
	unsigned int block[3];
	unsigned long long shared_mem;
};

#endif
