/*
 * Simulated time does not depend on how fast the host runs: the host
 * sleeps far longer than the kernels between launches (as a descheduled
 * thread on a loaded machine would) and the device timeline still comes
 * out exact. As fast as possible (SIMGPU_TIME_SCALE=0): records of a busy
 * period keep their exact shape, events time the work alone. Real time
 * (1, the run re-executes itself): no record starts before the host call
 * that queued it, the host waits for what it synchronises with, and
 * events still time the work alone. Ground truth: the durations set with
 * simgpu_next_kernel_ns and the host's own clock readings.
 */
#include <cupti.h>
#include <string.h>
#include <unistd.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

static CUpti_ActivityKernel10 kernels[16];
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
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && n_kernels < 16)
			memcpy(&kernels[n_kernels++], r, sizeof(kernels[0]));
	free(buffer);
}

/* The host's clock, as CUPTI's records read it. */
static uint64_t now_ns(void)
{
	uint64_t t = 0;
	CHECK(cuptiGetTimestamp(&t) == CUPTI_SUCCESS);
	return t;
}

/* Longer than every kernel here: the host is always the slow side. */
static void host_stalls(void)
{
	usleep(20000);
}

static char kernel;

static void launch(cudaStream_t s, unsigned long long ns)
{
	simgpu_next_kernel_ns(ns);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(32, 1, 1), NULL, 0, s));
}

static float elapsed_ms(cudaEvent_t a, cudaEvent_t b)
{
	float ms = -1;
	CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
	return ms;
}

static void flush(void)
{
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
}

static void as_fast_as_possible(void)
{
	cudaStream_t s, other, blocking;
	cudaEvent_t e0, e1, e2;
	CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK_CUDA(cudaStreamCreate(&blocking));
	CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
	CHECK_CUDA(cudaEventCreate(&e0));
	CHECK_CUDA(cudaEventCreate(&e1));
	CHECK_CUDA(cudaEventCreate(&e2));

	CHECK_CUDA(cudaEventRecord(e0, s));
	launch(s, 1000000);
	host_stalls();
	launch(s, 2000000);
	host_stalls();
	CHECK_CUDA(cudaEventRecord(e1, s));
	/* The legacy stream after a blocking stream, the host late again. */
	launch(blocking, 1000000);
	host_stalls();
	launch(NULL, 3000000);
	host_stalls();
	launch(NULL, 500000);
	CHECK_CUDA(cudaEventRecord(e2, NULL));
	flush();
	CHECK_EQ_U64(n_kernels, 5);
	CHECK_EQ_U64(kernels[1].start, kernels[0].end);
	CHECK_EQ_U64(kernels[1].end - kernels[1].start, 2000000);
	CHECK_EQ_U64(kernels[3].start, kernels[2].end);
	CHECK_EQ_U64(kernels[4].start, kernels[3].end);
	CHECK(elapsed_ms(e0, e1) == 3.0f);
	/* All three streams started at the host's position, 0. */
	CHECK(elapsed_ms(e0, e2) == 4.5f);

	/* After the host synchronised, the idle device starts new work when
	 * the host queues it. */
	CHECK_CUDA(cudaDeviceSynchronize());
	host_stalls();
	uint64_t before = now_ns();
	launch(other, 1000);
	flush();
	CHECK_EQ_U64(n_kernels, 6);
	CHECK(kernels[5].start >= before);
	CHECK(kernels[5].start >= kernels[4].end);
}

static void real_time(void)
{
	cudaStream_t s;
	cudaEvent_t e0, e1;
	CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK_CUDA(cudaEventCreate(&e0));
	CHECK_CUDA(cudaEventCreate(&e1));

	CHECK_CUDA(cudaEventRecord(e0, s));
	uint64_t first_call = now_ns();
	launch(s, 1000000);
	host_stalls();
	uint64_t second_call = now_ns();
	launch(s, 2000000);
	CHECK_CUDA(cudaEventRecord(e1, s));
	CHECK_CUDA(cudaStreamSynchronize(s));
	uint64_t synchronised = now_ns();
	flush();
	CHECK_EQ_U64(n_kernels, 2);
	CHECK(kernels[0].start >= first_call);
	CHECK(kernels[1].start >= second_call);
	CHECK(kernels[1].start >= kernels[0].end);
	CHECK_EQ_U64(kernels[1].end - kernels[1].start, 2000000);
	CHECK(synchronised >= kernels[1].end);
	/* Events time the simulated work, not the host's stall. */
	CHECK(elapsed_ms(e0, e1) == 3.0f);
}

int main(int argc, char **argv)
{
	int realtime = argc > 1 && strcmp(argv[1], "realtime") == 0;
	if (!realtime)
		simgpu_test_setup();
	CHECK(cuptiActivityRegisterCallbacks(requested, completed) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	simgpu_define_kernel(&kernel, "virtual_time_kernel", 0, NULL);
	if (!realtime) {
		as_fast_as_possible();
		printf("test_virtual_time: as fast as possible ok\n");
		fflush(stdout);
		/* The time scale is read once per process: run again. */
		setenv("SIMGPU_TIME_SCALE", "1", 1);
		execl("/proc/self/exe", argv[0], "realtime", (char *)NULL);
		perror("test_virtual_time: exec");
		return 1;
	}
	real_time();
	printf("test_virtual_time: real time ok\n");
	return 0;
}
