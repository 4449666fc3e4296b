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
 * The resource domain: CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, raised by the
 * simulated driver for every node cuGraphClone, cuGraphInstantiate or a
 * child graph node copies (CUpti_GraphData as cupti_callbacks.h says),
 * on the calling thread. An instantiation's clones carry no graphExec, as
 * an H200's CUPTI 13.0 raised them. GRAPHEXEC_CREATE_STARTING and
 * GRAPHEXEC_CREATED come as the H200 raised them (tests/gpu/
 * probe_graph_callbacks.cu, 2026-11-28): after the clones, both naming the
 * exec. SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS, read at each instantiation, can
 * change that for tests of a tracer: "after" (the default, the H200's
 * order), "none" (neither raised), "around" (STARTING, the clones, CREATED
 * naming the exec) or "unnamed" (as around, neither naming an exec). Other
 * resource callbacks are accepted and never raised. And the graph ids the
 * activity records carry: cuptiGetGraphNodeId, cuptiGetGraphId,
 * cuptiGetGraphExecId.
 *
 * Must never call back from a thread other than the caller's, nor hold a
 * lock while calling back (the subscriber may make CUDA calls).
 */
#include "simgpu/cupti/cupti_callbacks.h"

#include <dlfcn.h>
#include <pthread.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/core/simgpu_open_driver.h"

static _Atomic(CUpti_CallbackFunc) subscriber_callback;
static void *subscriber_userdata;
static _Atomic unsigned char runtime_on[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static _Atomic unsigned char driver_on[CUPTI_DRIVER_TRACE_CBID_SIZE];
static _Atomic unsigned char resource_on[CUPTI_CBID_RESOURCE_SIZE];
/* The handle handed out: any unique non-NULL address. */
static int the_subscriber;

static int busy(void)
{
	const char *text = getenv("SIMGPU_CUPTI_BUSY");
	return text && strcmp(text, "1") == 0;
}

/* ---- graphs: the driver's clone reports and ids ---- */

static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;
static simgpu_graph_object_id_fn object_id;
static simgpu_set_graph_clone_callback_fn set_clone_callback;
static void node_cloned(const struct simgpu_graph_clone *c);

/* The driver's graph hooks, clone reports on; 0 when the driver has none. */
static int find_driver_hooks(void)
{
	pthread_mutex_lock(&hooks_lock);
	if (!object_id) {
		void *driver = simgpu_open_driver();
		if (driver) {
			object_id = (simgpu_graph_object_id_fn)dlsym(driver,
					SIMGPU_GRAPH_OBJECT_ID_SYMBOL);
			set_clone_callback = (simgpu_set_graph_clone_callback_fn)dlsym(
				driver, SIMGPU_SET_GRAPH_CLONE_CALLBACK_SYMBOL);
			if (!object_id || !set_clone_callback) {
				object_id = NULL;
				dlclose(driver);
			} else {
				set_clone_callback(node_cloned);
			}
			/* else the handle stays open for the process lifetime */
		}
	}
	int found = object_id != NULL;
	pthread_mutex_unlock(&hooks_lock);
	return found;
}

/* Where an instantiation's GRAPHEXEC callbacks come (the top comment). */
enum exec_callbacks { EXEC_CALLBACKS_NONE, EXEC_CALLBACKS_AROUND, EXEC_CALLBACKS_AFTER,
		      EXEC_CALLBACKS_UNNAMED };

static enum exec_callbacks exec_callbacks(void)
{
	const char *text = getenv("SIMGPU_CUPTI_GRAPHEXEC_CALLBACKS");
	if (!text)
		return EXEC_CALLBACKS_AFTER;
	return strcmp(text, "around") == 0 ? EXEC_CALLBACKS_AROUND :
	       strcmp(text, "none") == 0 ? EXEC_CALLBACKS_NONE :
	       strcmp(text, "unnamed") == 0 ? EXEC_CALLBACKS_UNNAMED : EXEC_CALLBACKS_AFTER;
}

static void raise_resource(CUpti_CallbackId cbid, const struct simgpu_graph_clone *c,
			   CUgraphExec exec)
{
	CUpti_CallbackFunc fn = atomic_load(&subscriber_callback);
	if (!fn || !atomic_load(&resource_on[cbid]))
		return;
	CUpti_GraphData graph = {
		.graph = (CUgraph)c->graph,
		.originalGraph = (CUgraph)c->original_graph,
		.node = (CUgraphNode)c->node,
		.originalNode = (CUgraphNode)c->original_node,
		.nodeType = (CUgraphNodeType)c->node_type,
		.graphExec = exec,
	};
	CUpti_ResourceData data = { 0 };
	data.resourceDescriptor = &graph;
	fn(subscriber_userdata, CUPTI_CB_DOMAIN_RESOURCE, cbid, &data);
}

/* The driver's report of one clone, or of an instantiation's start or end
 * (which surround its clones), as CUPTI's resource callbacks. The clones
 * never name their exec (as on an H200). */
static void node_cloned(const struct simgpu_graph_clone *c)
{
	static __thread struct simgpu_graph_clone held_starting; /* "after" */
	if (c->mark == SIMGPU_CLONE_NODE) {
		raise_resource(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, c, NULL);
		return;
	}
	bool starting = c->mark == SIMGPU_CLONE_EXEC_STARTING;
	switch (exec_callbacks()) {
	case EXEC_CALLBACKS_NONE:
		return;
	case EXEC_CALLBACKS_AROUND:
		if (starting)
			raise_resource(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING, c, NULL);
		else
			raise_resource(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, c,
				       (CUgraphExec)c->graph_exec);
		return;
	case EXEC_CALLBACKS_UNNAMED:
		raise_resource(starting ? CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING :
			       CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, c, NULL);
		return;
	case EXEC_CALLBACKS_AFTER:
		if (starting) {
			held_starting = *c;
			return;
		}
		raise_resource(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING, &held_starting,
			       (CUgraphExec)c->graph_exec);
		raise_resource(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, c, (CUgraphExec)c->graph_exec);
		return;
	}
}

static CUptiResult graph_id(int what, const void *handle, uint64_t *id)
{
	if (!handle || !id)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (!find_driver_hooks())
		return CUPTI_ERROR_NOT_INITIALIZED;
	return object_id(what, handle, id) == 0 ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult cuptiGetGraphNodeId(CUgraphNode node, uint64_t *nodeId)
{
	return graph_id(0, node, nodeId);
}

CUptiResult cuptiGetGraphId(CUgraph graph, uint32_t *pId)
{
	uint64_t id = 0;
	CUptiResult r = pId ? graph_id(1, graph, &id) : CUPTI_ERROR_INVALID_PARAMETER;
	if (r == CUPTI_SUCCESS)
		*pId = (uint32_t)id;
	return r;
}

CUptiResult cuptiGetGraphExecId(CUgraphExec graphExec, uint32_t *pId)
{
	uint64_t id = 0;
	CUptiResult r = pId ? graph_id(2, graphExec, &id) : CUPTI_ERROR_INVALID_PARAMETER;
	if (r == CUPTI_SUCCESS)
		*pId = (uint32_t)id;
	return r;
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
	set_all(resource_on, CUPTI_CBID_RESOURCE_SIZE, 0);
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
	case CUPTI_CB_DOMAIN_RESOURCE:
		*size = CUPTI_CBID_RESOURCE_SIZE;
		return resource_on;
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
	if (domain == CUPTI_CB_DOMAIN_RESOURCE && enable && !find_driver_hooks())
		return CUPTI_ERROR_NOT_INITIALIZED;
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
	if (domain == CUPTI_CB_DOMAIN_RESOURCE && enable && !find_driver_hooks())
		return CUPTI_ERROR_NOT_INITIALIZED;
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
