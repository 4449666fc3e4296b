/*
 * CUPTI's callback subscriber of the simulated libcupti: cuptiSubscribe[_v2]
 * and cuptiUnsubscribe keep the one subscriber CUPTI allows (a second one,
 * or any while SIMGPU_CUPTI_BUSY=1 says another profiler holds CUPTI, is
 * CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED). A tracer subscribes
 * this way to find out whether it is CUPTI's only client. No callback is
 * ever delivered: enabling one (cuptiEnableCallback, cuptiEnableDomain...)
 * stays "not supported" (simgpu/exports), so no program believes it gets
 * callbacks. Must never touch the activity state (cupti_activity.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

struct CUpti_Subscriber_st {
	CUpti_CallbackFunc callback;
	void *userdata;
};

static pthread_mutex_t subscriber_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUpti_Subscriber_st the_subscriber;
static int subscribed;

static int another_profiler(void)
{
	const char *busy = getenv("SIMGPU_CUPTI_BUSY");
	return busy && strcmp(busy, "1") == 0;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *subscriber,
				    CUpti_CallbackFunc callback, void *userdata)
{
	if (!subscriber)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (another_profiler())
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	CUptiResult result = CUPTI_SUCCESS;
	pthread_mutex_lock(&subscriber_lock);
	if (subscribed) {
		result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	} else {
		the_subscriber.callback = callback;
		the_subscriber.userdata = userdata;
		subscribed = 1;
		*subscriber = &the_subscriber;
	}
	pthread_mutex_unlock(&subscriber_lock);
	return result;
}

/* The parameters only name the subscriber (cupti_callbacks.h); a
   structSize of 0 is the header's one listed misuse. */
CUptiResult CUPTIAPI cuptiSubscribe_v2(CUpti_SubscriberHandle *subscriber,
				       CUpti_CallbackFunc callback, void *userdata,
				       CUpti_SubscriberParams *pParams)
{
	if (pParams && pParams->structSize == 0)
		return CUPTI_ERROR_INVALID_PARAMETER;
	return cuptiSubscribe(subscriber, callback, userdata);
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
	CUptiResult result = CUPTI_SUCCESS;
	pthread_mutex_lock(&subscriber_lock);
	if (!subscriber || subscriber != &the_subscriber || !subscribed)
		result = CUPTI_ERROR_INVALID_PARAMETER;
	else
		subscribed = 0;
	pthread_mutex_unlock(&subscriber_lock);
	return result;
}
