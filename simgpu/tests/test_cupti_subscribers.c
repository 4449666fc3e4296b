/*
 * cuptiSubscribe / cuptiUnsubscribe of the simulated CUPTI: one subscriber
 * at a time (a second: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), a
 * free slot again after unsubscribing, the header's parameter errors, and
 * SIMGPU_CUPTI_BUSY=1 (another profiler) refusing every subscription.
 * Activity records still work while subscribed (the tracer's case).
 */
#include <cupti.h>

#include "simgpu/tests/simgpu_test.h"

static void CUPTIAPI ignore(void *userdata, CUpti_CallbackDomain domain,
			    CUpti_CallbackId cbid, const void *data)
{
	(void)userdata, (void)domain, (void)cbid, (void)data;
}

int main(void)
{
	simgpu_test_setup();
	CUpti_SubscriberHandle first = NULL, second = NULL;
	CHECK(cuptiSubscribe(NULL, ignore, NULL) == CUPTI_ERROR_INVALID_PARAMETER);
	CHECK(cuptiSubscribe(&first, ignore, NULL) == CUPTI_SUCCESS && first != NULL);
	CHECK(cuptiSubscribe(&second, ignore, NULL) ==
	      CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	CHECK(second == NULL);
	CUpti_SubscriberParams params = { 0 };
	CHECK(cuptiSubscribe_v2(&second, ignore, NULL, &params) == CUPTI_ERROR_INVALID_PARAMETER);
	params.structSize = sizeof params;
	CHECK(cuptiSubscribe_v2(&second, ignore, NULL, &params) ==
	      CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	CHECK(cuptiUnsubscribe(NULL) == CUPTI_ERROR_INVALID_PARAMETER);
	CHECK(cuptiUnsubscribe(first) == CUPTI_SUCCESS);
	CHECK(cuptiUnsubscribe(first) == CUPTI_ERROR_INVALID_PARAMETER);
	CHECK(cuptiSubscribe_v2(&second, ignore, NULL, &params) == CUPTI_SUCCESS);
	CHECK(cuptiUnsubscribe(second) == CUPTI_SUCCESS);

	/* Subscribed, the activity API still attaches (what dnntrace does). */
	CHECK(cuptiSubscribe(&first, ignore, NULL) == CUPTI_SUCCESS);
	CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS);
	CHECK(cuptiUnsubscribe(first) == CUPTI_SUCCESS);

	setenv("SIMGPU_CUPTI_BUSY", "1", 1);
	CHECK(cuptiSubscribe(&first, ignore, NULL) ==
	      CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
	printf("cupti subscribers: one at a time\n");
	return 0;
}
