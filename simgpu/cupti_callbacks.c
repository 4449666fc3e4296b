/*
 * The simulated libcupti's callback API, as far as dnntrace needs it:
 * cuptiSubscribe / cuptiUnsubscribe (one subscriber, as the real CUPTI),
 * cuptiEnableCallback, and in the resource domain the one callback the
 * simulated driver raises, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED (a node
 * copied by cuGraphClone or cuGraphInstantiate, with CUpti_GraphData as
 * cupti_callbacks.h describes it); and the graph ids its activity records
 * carry: cuptiGetGraphNodeId, cuptiGetGraphId, cuptiGetGraphExecId.
 * Callbacks of the runtime and driver API domains are not simulated:
 * enabling one is CUPTI_ERROR_NOT_SUPPORTED (a real CUPTI supports them).
 * It must never hold its lock while calling the subscriber.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "simgpu/simgpu_cupti_hook.h"
#include "simgpu/simgpu_open_driver.h"

struct CUpti_Subscriber_st {
	int unused;
};

static struct CUpti_Subscriber_st the_subscriber;
static pthread_mutex_t callbacks_lock = PTHREAD_MUTEX_INITIALIZER;
static int subscribed;
static _Atomic(CUpti_CallbackFunc) callback;
static void *callback_userdata;
static _Atomic unsigned char resource_on[CUPTI_CBID_RESOURCE_SIZE];
static simgpu_graph_object_id_fn object_id;
static simgpu_set_graph_clone_callback_fn set_clone_callback;

static int cupti_busy(void)
{
	const char *busy = getenv("SIMGPU_CUPTI_BUSY");
	return busy && strcmp(busy, "1") == 0;
}

/* The driver's graph hooks; 0 when the driver has none. Holds the lock. */
static int find_driver_hooks(void)
{
	if (object_id)
		return 1;
	void *driver = simgpu_open_driver();
	if (!driver)
		return 0;
	object_id = (simgpu_graph_object_id_fn)dlsym(driver, SIMGPU_GRAPH_OBJECT_ID_SYMBOL);
	set_clone_callback = (simgpu_set_graph_clone_callback_fn)dlsym(
		driver, SIMGPU_SET_GRAPH_CLONE_CALLBACK_SYMBOL);
	if (!object_id || !set_clone_callback) {
		object_id = NULL;
		dlclose(driver);
		return 0;
	}
	return 1; /* the handle stays open for the process lifetime */
}

/* The driver's report of one clone, as CUPTI's resource callback. */
static void node_cloned(const struct simgpu_graph_clone *c)
{
	CUpti_CallbackFunc fn = atomic_load(&callback);
	if (!fn || !atomic_load(&resource_on[CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED]))
		return;
	CUpti_GraphData graph = {
		.graph = (CUgraph)c->graph,
		.originalGraph = (CUgraph)c->original_graph,
		.node = (CUgraphNode)c->node,
		.originalNode = (CUgraphNode)c->original_node,
		.nodeType = (CUgraphNodeType)c->node_type,
		.graphExec = (CUgraphExec)c->graph_exec,
	};
	CUpti_ResourceData data = { 0 };
	data.resourceDescriptor = &graph;
	fn(callback_userdata, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
	   &data);
}

/* Assumed: a busy CUPTI (another client, SIMGPU_CUPTI_BUSY=1) refuses a
 * subscriber as it refuses activity callbacks. */
CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *subscriber, CUpti_CallbackFunc fn,
			   void *userdata)
{
	if (!subscriber)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (cupti_busy())
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	CUptiResult result = CUPTI_SUCCESS;
	pthread_mutex_lock(&callbacks_lock);
	if (subscribed)
		result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	else {
		subscribed = 1;
		callback_userdata = userdata;
		atomic_store(&callback, fn);
		*subscriber = &the_subscriber;
	}
	pthread_mutex_unlock(&callbacks_lock);
	return result;
}

CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle subscriber)
{
	if (subscriber != &the_subscriber)
		return CUPTI_ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&callbacks_lock);
	subscribed = 0;
	atomic_store(&callback, NULL);
	for (int i = 0; i < CUPTI_CBID_RESOURCE_SIZE; i++)
		atomic_store(&resource_on[i], 0);
	pthread_mutex_unlock(&callbacks_lock);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
				CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
	if (subscriber != &the_subscriber)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (domain != CUPTI_CB_DOMAIN_RESOURCE)
		return CUPTI_ERROR_NOT_SUPPORTED;
	if (cbid >= CUPTI_CBID_RESOURCE_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	CUptiResult result = CUPTI_SUCCESS;
	pthread_mutex_lock(&callbacks_lock);
	if (!subscribed)
		result = CUPTI_ERROR_INVALID_PARAMETER;
	else if (!find_driver_hooks())
		result = CUPTI_ERROR_NOT_INITIALIZED;
	else {
		atomic_store(&resource_on[cbid], enable ? 1 : 0);
		set_clone_callback(node_cloned);
	}
	pthread_mutex_unlock(&callbacks_lock);
	return result;
}

static CUptiResult graph_id(int what, const void *handle, uint64_t *id)
{
	if (!handle || !id)
		return CUPTI_ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&callbacks_lock);
	int have = find_driver_hooks();
	pthread_mutex_unlock(&callbacks_lock);
	if (!have)
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
