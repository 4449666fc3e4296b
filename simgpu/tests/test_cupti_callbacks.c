/*
 * The simulated CUPTI's callback API (simgpu/cupti/cupti_callbacks.c), as
 * dnntrace's --gpu-records=work links with it: subscribed and enabled after
 * cuInit with no API record kind on, an enabled call is called back in the
 * calling thread, ENTER then EXIT, with the correlation id its kernel or
 * copy record carries; calls not enabled (or disabled again) are not; one
 * subscriber at a time; bad handles, domains and cbids refused.
 */
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "simgpu/simgpu.h"
#include "simgpu/tests/simgpu_test.h"

#define CHECK_CUPTI(call, want) CHECK((call) == (want))

struct call_back {
	CUpti_CallbackDomain domain;
	CUpti_CallbackId cbid;
	CUpti_ApiCallbackSite site;
	uint32_t correlation_id;
	pthread_t thread;
	int userdata;
};
static struct call_back calls[64];
static int n_calls;
static int kernel_correlation, copy_correlation, other_records;

static void CUPTIAPI on_call(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
			     const void *data)
{
	const CUpti_CallbackData *d = data;
	CHECK(n_calls < 64);
	calls[n_calls++] = (struct call_back){ domain, cbid, d->callbackSite, d->correlationId,
					       pthread_self(), *(int *)userdata };
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*size = 64 * 1024;
	*buffer = aligned_alloc(8, *size);
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	CUpti_Activity *r = NULL;
	(void)ctx, (void)stream, (void)size;
	while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
			kernel_correlation = (int)((CUpti_ActivityKernel10 *)r)->correlationId;
		else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY)
			copy_correlation = (int)((CUpti_ActivityMemcpy6 *)r)->correlationId;
		else
			other_records++;
	}
	free(buffer);
}

int main(void)
{
	static int userdata = 42;
	static char kernel, host[256];
	size_t sizes[1] = { 8 };
	CUpti_SubscriberHandle subscriber = NULL, second = NULL;

	alarm(60);
	simgpu_test_setup();
	CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), CUPTI_SUCCESS);
	simgpu_define_kernel(&kernel, "kernel", 1, sizes);
	void *d;
	CHECK_CUDA(cudaMalloc(&d, 4096)); /* cuInit: callbacks are chosen after it */
	void *args[1] = { &d };

	CHECK_CUPTI(cuptiSubscribe(&subscriber, on_call, &userdata), CUPTI_SUCCESS);
	CHECK(subscriber != NULL);
	CHECK_CUPTI(cuptiSubscribe(&second, on_call, NULL), CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	CHECK_CUPTI(cuptiEnableCallback(1, second, CUPTI_CB_DOMAIN_RUNTIME_API,
					CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
		    CUPTI_ERROR_INVALID_PARAMETER);
	/* the resource domain is simulated for graph node clones (test_graphs.c);
	 * the synchronize domain is not */
	CHECK_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_SYNCHRONIZE, 1),
		    CUPTI_ERROR_INVALID_PARAMETER);
	CHECK_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
					CUPTI_CBID_RESOURCE_SIZE),
		    CUPTI_ERROR_INVALID_PARAMETER);
	CHECK_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
					CUPTI_RUNTIME_TRACE_CBID_SIZE),
		    CUPTI_ERROR_INVALID_PARAMETER);
	CHECK_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
					CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
		    CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
					CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020),
		    CUPTI_SUCCESS);

	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(32, 1, 1), args, 0, 0));
	CHECK(n_calls == 2); /* called back before the call returned */
	CHECK_CUDA(cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemset(d, 0, 16)); /* not enabled */
	void *other;
	CHECK_CUDA(cudaMalloc(&other, 512)); /* not enabled */
	CHECK_CUDA(cudaDeviceSynchronize());
	CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);

	CHECK(n_calls == 4);
	CUpti_CallbackId want_cbid[2] = { CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
					  CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020 };
	for (int i = 0; i < 4; i++) {
		CHECK(calls[i].domain == CUPTI_CB_DOMAIN_RUNTIME_API);
		CHECK(calls[i].cbid == want_cbid[i / 2]);
		CHECK(calls[i].site == (i % 2 ? CUPTI_API_EXIT : CUPTI_API_ENTER));
		CHECK(pthread_equal(calls[i].thread, pthread_self()));
		CHECK(calls[i].userdata == 42);
		CHECK(calls[i].correlation_id == calls[i - i % 2].correlation_id);
	}
	CHECK(kernel_correlation > 0 && (uint32_t)kernel_correlation == calls[0].correlation_id);
	CHECK(copy_correlation > 0 && (uint32_t)copy_correlation == calls[2].correlation_id);
	CHECK(other_records == 0); /* no API or external correlation record asked for */

	/* Disabled again: no call back; unsubscribed: another may subscribe. */
	CHECK_CUPTI(cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
					CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
		    CUPTI_SUCCESS);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(32, 1, 1), args, 0, 0));
	CHECK(n_calls == 4);
	CHECK_CUPTI(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API), CUPTI_SUCCESS);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(32, 1, 1), args, 0, 0));
	CHECK(n_calls == 6 && calls[4].domain == CUPTI_CB_DOMAIN_DRIVER_API &&
	      calls[4].cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
	CHECK_CUPTI(cuptiUnsubscribe(subscriber), CUPTI_SUCCESS);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(32, 1, 1), args, 0, 0));
	CHECK(n_calls == 6);
	CHECK_CUPTI(cuptiSubscribe(&second, on_call, &userdata), CUPTI_SUCCESS);
	CHECK_CUPTI(cuptiUnsubscribe(second), CUPTI_SUCCESS);
	CHECK_CUDA(cudaFree(other));
	CHECK_CUDA(cudaFree(d));
	puts("simulated CUPTI callbacks: ok");
	return 0;
}
