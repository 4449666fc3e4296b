/*
 * Eight threads use the simulated GPU at once, each with its own stream and
 * CUPTI external correlation ids: every allocation, copy and kernel must
 * succeed, data must round-trip per thread, every kernel must produce one
 * record with a unique correlation id, and each external correlation must
 * point to the kernel its own thread launched. Memory is all given back.
 */
#include <cupti.h>
#include <pthread.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

#define THREADS 8
#define ITERATIONS 150
#define KERNELS (THREADS * ITERATIONS)
/* Correlation ids per iteration: cudaMalloc, 2 copies, kernel, cudaFree. */
#define MAX_CORRELATION (KERNELS * 5 + THREADS)

static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t kernel_stream[MAX_CORRELATION + 1]; /* by correlation id */
static uint64_t external_of[MAX_CORRELATION + 1];
static uint32_t stream_of_thread[THREADS];
static int n_kernels, n_external;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max)
{
	*size = 16 * 1024; /* small: buffers fill up in many threads */
	*max = 0;
	*buffer = aligned_alloc(8, *size);
}

static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buffer,
			       size_t size, size_t valid)
{
	(void)c, (void)s, (void)size;
	CUpti_Activity *r = NULL;
	pthread_mutex_lock(&records_lock);
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
			CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *)r;
			CHECK(k->correlationId <= MAX_CORRELATION);
			kernel_stream[k->correlationId] = k->streamId;
			n_kernels++;
		} else if (r->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
			CUpti_ActivityExternalCorrelation *x = (void *)r;
			CHECK(x->correlationId <= MAX_CORRELATION);
			CHECK(external_of[x->correlationId] == 0);
			external_of[x->correlationId] = x->externalId;
			n_external++;
		}
	}
	pthread_mutex_unlock(&records_lock);
	free(buffer);
}

static char kernel;

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreateWithFlags(&s, id % 2 ? cudaStreamNonBlocking : 0));
	unsigned char in[512], out[512];
	for (int i = 0; i < ITERATIONS; i++) {
		void *d;
		CHECK_CUDA(cudaMalloc(&d, 512 + (size_t)i));
		memset(in, id * 31 + i, sizeof(in));
		CHECK_CUDA(cudaMemcpyAsync(d, in, sizeof(in), cudaMemcpyHostToDevice, s));
		void *args[] = { &d };
		CHECK(cuptiActivityPushExternalCorrelationId(
			      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
			      (uint64_t)(id + 1) * 1000000 + (uint64_t)i) == CUPTI_SUCCESS);
		CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(64, 1, 1), args, 0, s));
		CHECK(cuptiActivityPopExternalCorrelationId(
			      CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, NULL) == CUPTI_SUCCESS);
		CHECK_CUDA(cudaMemcpyAsync(out, d, sizeof(out), cudaMemcpyDeviceToHost, s));
		CHECK_CUDA(cudaStreamSynchronize(s));
		CHECK(memcmp(in, out, sizeof(in)) == 0);
		CHECK_CUDA(cudaFree(d));
	}
	unsigned int flags;
	CHECK_CUDA(cudaStreamGetFlags(s, &flags));
	CHECK(flags == (id % 2 ? cudaStreamNonBlocking : 0u));
	/* Learn this stream's CUPTI id from one last, unmarked kernel. */
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(1, 1, 1), (void *[]){ &s }, 0, s));
	CHECK_CUDA(cudaStreamDestroy(s));
	return NULL;
}

int main(void)
{
	simgpu_test_setup();
	CHECK(cuptiActivityRegisterCallbacks(requested, completed) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME) == CUPTI_SUCCESS);
	size_t sizes[] = { 8 };
	simgpu_define_kernel(&kernel, "thread_kernel", 1, sizes);

	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == CUPTI_SUCCESS);
	size_t dropped = 1;
	CHECK(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped) == CUPTI_SUCCESS);
	CHECK_EQ_U64(dropped, 0);
	CHECK_EQ_U64(n_kernels, KERNELS + THREADS);
	CHECK_EQ_U64(n_external, KERNELS);

	/* Each thread's external ids all land on kernels of one stream, and
	 * different threads' on different streams. */
	for (int i = 0; i < THREADS; i++)
		stream_of_thread[i] = 0;
	int matched = 0;
	for (uint32_t corr = 1; corr <= MAX_CORRELATION; corr++) {
		uint64_t ext = external_of[corr];
		if (!ext)
			continue;
		int thread = (int)(ext / 1000000) - 1;
		CHECK(thread >= 0 && thread < THREADS);
		uint32_t stream = kernel_stream[corr];
		CHECK(stream != 0); /* an external id always names a kernel here */
		if (!stream_of_thread[thread])
			stream_of_thread[thread] = stream;
		CHECK_EQ_U64(stream_of_thread[thread], stream);
		matched++;
	}
	CHECK_EQ_U64(matched, KERNELS);
	for (int i = 0; i < THREADS; i++)
		for (int j = i + 1; j < THREADS; j++)
			CHECK(!stream_of_thread[i] || stream_of_thread[i] != stream_of_thread[j]);
	size_t free_b, total_b;
	CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
	CHECK_EQ_U64(free_b, total_b);
	return 0;
}
