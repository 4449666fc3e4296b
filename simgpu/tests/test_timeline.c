/*
 * The simulated timeline, read back through CUPTI kernel records: work on
 * one stream runs back to back, streams overlap, the legacy default stream
 * waits for blocking streams and they for it, non-blocking streams and
 * events, per-thread default streams, the cost model, and event timing.
 * Ground truth: the exact durations set with simgpu_next_kernel_ns.
 */
#include <cupti.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

/* The per-thread-stream entry point, as -default-stream per-thread calls it. */
extern cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
					 void **args, size_t shared, cudaStream_t s);
extern cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
					    const void *func, void **args);

static CUpti_ActivityKernel10 kernels[64];
static int n_kernels;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max)
{
	*size = 1 << 16;
	*max = 0;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buffer,
			       size_t size, size_t valid)
{
	(void)c, (void)s, (void)size;
	CUpti_Activity *r = NULL;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && n_kernels < 64)
			memcpy(&kernels[n_kernels++], r, sizeof(kernels[0]));
	free(buffer);
}

static char kernel;

/* Launches one kernel of exactly ns on stream s; returns its record. */
static CUpti_ActivityKernel10 run(cudaStream_t s, unsigned long long ns)
{
	simgpu_next_kernel_ns(ns);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(32, 1, 1), NULL, 0, s));
	int before = n_kernels;
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	CHECK(n_kernels == before + 1);
	CHECK_EQ_U64(kernels[before].end - kernels[before].start, ns);
	return kernels[before];
}

int main(void)
{
	simgpu_test_setup();
	CHECK(cuptiActivityRegisterCallbacks(requested, completed) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	simgpu_define_kernel(&kernel, "timeline_kernel", 0, NULL);

	cudaStream_t nb1, nb2, blocking;
	CHECK_CUDA(cudaStreamCreateWithFlags(&nb1, cudaStreamNonBlocking));
	CHECK_CUDA(cudaStreamCreateWithFlags(&nb2, cudaStreamNonBlocking));
	CHECK_CUDA(cudaStreamCreate(&blocking));

	/* One stream: back to back. Two streams: overlap. */
	CUpti_ActivityKernel10 a = run(nb1, 1000000);
	CUpti_ActivityKernel10 b = run(nb1, 2000000);
	CUpti_ActivityKernel10 c = run(nb2, 500000);
	CHECK_EQ_U64(b.start, a.end);
	CHECK(c.start < b.end && c.streamId != b.streamId);

	/* Legacy stream waits for the blocking stream, and it for legacy. */
	CUpti_ActivityKernel10 e = run(blocking, 10000000);
	CUpti_ActivityKernel10 f = run(NULL, 3000000);
	CUpti_ActivityKernel10 g = run(blocking, 1000);
	CHECK_EQ_U64(f.start, e.end);
	CHECK_EQ_U64(g.start, f.end);
	CHECK_EQ_U64(f.streamId, 7);
	/* A non-blocking stream ignores the legacy stream. */
	CUpti_ActivityKernel10 h = run(nb2, 1000);
	CHECK(h.start < f.end);
	/* The per-thread default stream is blocking too. */
	CUpti_ActivityKernel10 f2 = run(cudaStreamLegacy, 4000000);
	CUpti_ActivityKernel10 p = run(cudaStreamPerThread, 1000);
	CHECK_EQ_U64(p.start, f2.end);
	CHECK(p.streamId != 7);
	/* _ptsz entry points read a NULL stream as the per-thread stream. */
	simgpu_next_kernel_ns(1000);
	CHECK_CUDA(cudaLaunchKernel_ptsz(&kernel, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, NULL));
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	CHECK_EQ_U64(kernels[n_kernels - 1].streamId, p.streamId);
	CHECK_EQ_U64(kernels[n_kernels - 1].start, p.end);

	/* Events order streams and time work. */
	cudaEvent_t start, stop;
	CHECK_CUDA(cudaEventCreate(&start));
	CHECK_CUDA(cudaEventCreate(&stop));
	CHECK_CUDA(cudaEventRecord(start, nb2));
	CUpti_ActivityKernel10 timed = run(nb2, 2500000);
	CHECK_CUDA(cudaEventRecord(stop, nb2));
	CHECK_CUDA(cudaStreamWaitEvent(nb1, stop, 0));
	CUpti_ActivityKernel10 after = run(nb1, 1000);
	CHECK(after.start >= timed.end);
	CHECK_CUDA(cudaEventSynchronize(stop));
	float ms = 0;
	CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
	CHECK(ms > 2.4999f && ms < 2.5001f);
	cudaEvent_t untimed;
	CHECK_CUDA(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
	CHECK_CUDA(cudaEventRecord(untimed, nb2));
	CHECK_CUDA_IS(cudaEventElapsedTime(&ms, start, untimed), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaEventQuery(untimed));

	/* The cost model: 2000 ns + 10 ns per block. */
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(10, 2, 1), D3(256, 1, 1), NULL, 0, nb1));
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	CHECK_EQ_U64(kernels[n_kernels - 1].end - kernels[n_kernels - 1].start, 2200);

	/* SIMGPU_TIME_SCALE=0: synchronisation does not wait, work is done. */
	CHECK_CUDA(cudaDeviceSynchronize());
	CHECK_CUDA(cudaStreamSynchronize(blocking));
	CHECK_CUDA(cudaStreamQuery(nb1));
	CHECK_CUDA(cudaStreamDestroy(nb1));
	CHECK_CUDA_IS(cudaStreamQuery(nb1), cudaErrorInvalidResourceHandle);
	CHECK_CUDA(cudaEventDestroy(start));
	CHECK_CUDA_IS(cudaEventRecord(start, 0), cudaErrorInvalidResourceHandle);
	CHECK_CUDA_IS(cudaStreamCreateWithFlags(&nb1, 0x40), cudaErrorInvalidValue);
	return 0;
}
