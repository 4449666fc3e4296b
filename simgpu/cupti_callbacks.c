/*
 * The simulated CUPTI's callback API: cuptiSubscribe, cuptiUnsubscribe,
 * cuptiEnableCallback, cuptiEnableDomain, for the runtime and driver API
 * domains, as dnntrace's --gpu-records=work and kernels use them
 * (interceptors/core/cupti_session.c, link_callback).
 *
 * As the real CUPTI: one subscriber at a time (a second gets
 * CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, as does any under
 * SIMGPU_CUPTI_BUSY=1); callbacks may be enabled at any time, cuInit or
 * not; CUpti_CallbackData.correlationId is the id the call's kernel, copy
 * and set records carry (a graph launch's: its graph's records), with or
 * without API records enabled. Unlike the real one, both sites are called
 * back once the call's work is reported, in a row, still inside the call
 * in the calling thread (the real CUPTI calls ENTER before the call runs):
 * a subscriber keeping state from ENTER to EXIT sees the same thread and
 * call. functionParams, functionReturnValue and symbolName are NULL.
 *
 * Must never call back from a thread other than the caller's, nor hold a
 * lock while calling back (the subscriber may make CUDA calls).
 */
#include "simgpu/cupti_callbacks.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Atomic(CUpti_CallbackFunc) subscriber_callback;
static void *subscriber_userdata;
static _Atomic unsigned char runtime_on[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static _Atomic unsigned char driver_on[CUPTI_DRIVER_TRACE_CBID_SIZE];
/* The handle handed out: any unique non-NULL address. */
static int the_subscriber;

static int busy(void)
{
	const char *text = getenv("SIMGPU_CUPTI_BUSY");
	return text && strcmp(text, "1") == 0;
}

CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback,
			   void *userdata)
{
	if (!subscriber)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (busy())
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	CUptiResult attached = simgpu_cupti_attach();
	if (attached != CUPTI_SUCCESS)
		return attached;
	CUpti_CallbackFunc none = NULL;
	if (!callback)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (!atomic_compare_exchange_strong(&subscriber_callback, &none, callback))
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	subscriber_userdata = userdata; /* set before any call is enabled */
	*subscriber = (CUpti_SubscriberHandle)&the_subscriber;
	return CUPTI_SUCCESS;
}

/* The parameters only name the subscriber (cupti_callbacks.h); a
   structSize of 0 is the header's one listed misuse. */
CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc callback,
			      void *userdata, CUpti_SubscriberParams *pParams)
{
	if (pParams && pParams->structSize == 0)
		return CUPTI_ERROR_INVALID_PARAMETER;
	return cuptiSubscribe(subscriber, callback, userdata);
}

static int is_ours(CUpti_SubscriberHandle subscriber)
{
	return subscriber == (CUpti_SubscriberHandle)&the_subscriber &&
	       atomic_load(&subscriber_callback) != NULL;
}

static void set_all(_Atomic unsigned char *table, int size, unsigned char on)
{
	for (int i = 0; i < size; i++)
		atomic_store(&table[i], on);
}

CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
	if (!is_ours(subscriber))
		return CUPTI_ERROR_INVALID_PARAMETER;
	set_all(runtime_on, CUPTI_RUNTIME_TRACE_CBID_SIZE, 0);
	set_all(driver_on, CUPTI_DRIVER_TRACE_CBID_SIZE, 0);
	atomic_store(&subscriber_callback, NULL);
	return CUPTI_SUCCESS;
}

static _Atomic unsigned char *domain_table(CUpti_CallbackDomain domain, int *size)
{
	switch (domain) {
	case CUPTI_CB_DOMAIN_RUNTIME_API:
		*size = CUPTI_RUNTIME_TRACE_CBID_SIZE;
		return runtime_on;
	case CUPTI_CB_DOMAIN_DRIVER_API:
		*size = CUPTI_DRIVER_TRACE_CBID_SIZE;
		return driver_on;
	default:
		return NULL;
	}
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
				CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
	int size = 0;
	_Atomic unsigned char *table = domain_table(domain, &size);
	if (!is_ours(subscriber) || !table || cbid == 0 || cbid >= (CUpti_CallbackId)size)
		return CUPTI_ERROR_INVALID_PARAMETER;
	atomic_store(&table[cbid], enable != 0);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
			      CUpti_CallbackDomain domain)
{
	int size = 0;
	_Atomic unsigned char *table = domain_table(domain, &size);
	if (!is_ours(subscriber) || !table)
		return CUPTI_ERROR_INVALID_PARAMETER;
	set_all(table, size, enable != 0);
	return CUPTI_SUCCESS;
}

static int on(_Atomic unsigned char *table, int size, int cbid)
{
	return cbid > 0 && cbid < size && atomic_load_explicit(&table[cbid], memory_order_relaxed);
}

int simgpu_cupti_callback_wanted(int runtime_cbid, int driver_cbid)
{
	return on(runtime_on, CUPTI_RUNTIME_TRACE_CBID_SIZE, runtime_cbid) ||
	       on(driver_on, CUPTI_DRIVER_TRACE_CBID_SIZE, driver_cbid);
}

static void call_back(CUpti_CallbackFunc callback, CUpti_CallbackDomain domain, int cbid,
		      uint32_t correlation_id)
{
	uint64_t shared = 0;
	CUpti_CallbackData data = {
		.callbackSite = CUPTI_API_ENTER,
		.functionName = "",
		.correlationData = &shared,
		.correlationId = correlation_id,
		.contextUid = 1,
	};
	callback(subscriber_userdata, domain, (CUpti_CallbackId)cbid, &data);
	data.callbackSite = CUPTI_API_EXIT;
	callback(subscriber_userdata, domain, (CUpti_CallbackId)cbid, &data);
}

void simgpu_cupti_call_back(const struct simgpu_work *w, uint32_t correlation_id)
{
	CUpti_CallbackFunc callback = atomic_load(&subscriber_callback);
	if (!callback)
		return;
	if (on(runtime_on, CUPTI_RUNTIME_TRACE_CBID_SIZE, w->api_cbid))
		call_back(callback, CUPTI_CB_DOMAIN_RUNTIME_API, w->api_cbid, correlation_id);
	if (on(driver_on, CUPTI_DRIVER_TRACE_CBID_SIZE, w->driver_cbid))
		call_back(callback, CUPTI_CB_DOMAIN_DRIVER_API, w->driver_cbid, correlation_id);
}
