/*
 * Captured nodes (see graph_capture.h). The graph a stream captures into
 * and its nodes come from the real driver (cuStreamGetCaptureInfo_v3,
 * cuGraphGetNodes: helpers, never our wrappers), node ids from CUPTI. How
 * many nodes of each capture earlier calls already claimed is kept per
 * capture id in a small table under one lock, taken only by calls on a
 * capturing stream. Assumed, not seen on a GPU: cuGraphGetNodes lists a
 * graph's nodes in the order they were added (the simulated driver does;
 * cuda.h does not say).
 */
#include "interceptors/core/graph_capture.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "interceptors/core/cupti_session.h"
#include "interceptors/core/event_count.h"
#include "interceptors/core/real_functions.h"
#include "tracepoints/dnntrace_api.h"
#include "tracepoints/entry_points.h"

static atomic_bool capture_began;

enum { CAPTURES = 64, NODES_ON_STACK = 256, MAX_UPDATE_NODES = 4096 };

static pthread_mutex_t claims_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	uint64_t capture_id;
	size_t claimed;
	uint64_t last_use;
} claims[CAPTURES];
static uint64_t claims_clock;

void graph_capture_began(void)
{
	atomic_store_explicit(&capture_began, true, memory_order_relaxed);
}

/* Nodes [*from, n) of capture id are the caller's; n becomes claimed. A
 * capture not in the table starts from 0 (the least recently used entry
 * makes room: a capture that long idle is over). */
static size_t claim(uint64_t id, size_t n)
{
	pthread_mutex_lock(&claims_lock);
	int slot = -1, oldest = 0;
	for (int i = 0; i < CAPTURES; i++) {
		if (claims[i].capture_id == id && id) {
			slot = i;
			break;
		}
		if (claims[i].last_use < claims[oldest].last_use)
			oldest = i;
	}
	if (slot < 0) {
		slot = oldest;
		claims[slot].capture_id = id;
		claims[slot].claimed = 0;
	}
	size_t from = claims[slot].claimed;
	if (n > from)
		claims[slot].claimed = n;
	claims[slot].last_use = ++claims_clock;
	pthread_mutex_unlock(&claims_lock);
	return from;
}

/* Whether api's NULL stream is the per-thread default stream. */
static bool per_thread_api(int api)
{
	const char *name = NULL;
	switch (api) {
#define DT_NAME_CASE(id, entry, kind, proc, cbid) \
	case id: name = #entry; break;
	DNNTRACE_API_ENTRIES(DT_NAME_CASE)
#undef DT_NAME_CASE
	default:
		return false;
	}
	return strstr(name, "_ptsz") || strstr(name, "_ptds");
}

void graph_capture_note(const void *stream, int api, uint64_t call_id)
{
	if (!atomic_load_explicit(&capture_began, memory_order_relaxed))
		return;
	CUstream s = (CUstream)stream;
	if (!s && per_thread_api(api))
		s = CU_STREAM_PER_THREAD;
	if (!s || s == CU_STREAM_LEGACY ||
	    !lttng_ust_tracepoint_enabled(dnntrace_api, captured_node))
		return;
	__typeof__(&cuStreamGetCaptureInfo_v3) info = REAL(cuStreamGetCaptureInfo_v3);
	__typeof__(&cuGraphGetNodes) get_nodes = REAL(cuGraphGetNodes);
	CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
	cuuint64_t id = 0;
	CUgraph graph = NULL;
	size_t n = 0;
	if (!info || !get_nodes ||
	    info(s, &status, &id, &graph, NULL, NULL, NULL) != CUDA_SUCCESS ||
	    status != CU_STREAM_CAPTURE_STATUS_ACTIVE || !graph ||
	    get_nodes(graph, NULL, &n) != CUDA_SUCCESS)
		return;
	size_t from = claim(id, n);
	if (from >= n)
		return;
	CUgraphNode on_stack[NODES_ON_STACK];
	CUgraphNode *nodes = n <= NODES_ON_STACK ? on_stack : malloc(n * sizeof(*nodes));
	size_t got = n;
	if (nodes && get_nodes(graph, nodes, &got) == CUDA_SUCCESS) {
		for (size_t i = from; i < got && i < n; i++) {
			uint64_t node_id;
			if (cupti_session_graph_node_id(nodes[i], &node_id))
				DNNTRACE_EMIT(dnntrace_api, captured_node, call_id, node_id);
		}
	}
	if (nodes != on_stack)
		free(nodes);
}

bool graph_capture_last_node(const void *stream, int api, uint64_t *node_id)
{
	if (!atomic_load_explicit(&capture_began, memory_order_relaxed))
		return false;
	CUstream s = (CUstream)stream;
	if (!s && per_thread_api(api))
		s = CU_STREAM_PER_THREAD;
	if (!s || s == CU_STREAM_LEGACY)
		return false;
	__typeof__(&cuStreamGetCaptureInfo_v3) info = REAL(cuStreamGetCaptureInfo_v3);
	__typeof__(&cuGraphGetNodes) get_nodes = REAL(cuGraphGetNodes);
	CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
	cuuint64_t id = 0;
	CUgraph graph = NULL;
	size_t n = 0;
	if (!info || !get_nodes ||
	    info(s, &status, &id, &graph, NULL, NULL, NULL) != CUDA_SUCCESS ||
	    status != CU_STREAM_CAPTURE_STATUS_ACTIVE || !graph ||
	    get_nodes(graph, NULL, &n) != CUDA_SUCCESS || !n)
		return false;
	(void)claim(id, n);
	*node_id = 0;
	CUgraphNode on_stack[NODES_ON_STACK];
	CUgraphNode *nodes = n <= NODES_ON_STACK ? on_stack : malloc(n * sizeof(*nodes));
	size_t got = n;
	if (nodes && get_nodes(graph, nodes, &got) == CUDA_SUCCESS && got)
		cupti_session_graph_node_id(nodes[got - 1], node_id);
	if (nodes != on_stack)
		free(nodes);
	return true;
}

/*
 * Per-thread scratch of the update records: the node handles and their
 * ids, allocated on a thread's first update and grown only when a graph
 * has more nodes than any before, freed when the thread exits. An update
 * after the first allocates nothing.
 */
struct update_scratch {
	CUgraphNode *nodes;
	size_t cap;
	int64_t ids[MAX_UPDATE_NODES];
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static __thread struct update_scratch *scratch;

static void free_scratch(void *p)
{
	struct update_scratch *s = p;
	free(s->nodes);
	free(s);
}

static void make_scratch_key(void)
{
	(void)pthread_key_create(&scratch_key, free_scratch);
}

static struct update_scratch *thread_scratch(void)
{
	if (scratch)
		return scratch;
	pthread_once(&scratch_once, make_scratch_key);
	scratch = calloc(1, sizeof(*scratch));
	if (scratch)
		(void)pthread_setspecific(scratch_key, scratch);
	return scratch;
}

/* Up to max ids of graph's nodes into ids (s's node buffer grown to fit). */
static unsigned node_ids(struct update_scratch *s, const void *graph, int64_t *ids,
			 unsigned max)
{
	__typeof__(&cuGraphGetNodes) get_nodes = REAL(cuGraphGetNodes);
	size_t n = 0;
	if (!graph || !get_nodes || get_nodes((CUgraph)graph, NULL, &n) != CUDA_SUCCESS || !n)
		return 0;
	if (n > s->cap) {
		CUgraphNode *grown = realloc(s->nodes, n * sizeof(*grown));
		if (!grown)
			return 0;
		s->nodes = grown, s->cap = n;
	}
	unsigned written = 0;
	size_t got = n;
	if (get_nodes((CUgraph)graph, s->nodes, &got) == CUDA_SUCCESS) {
		for (size_t i = 0; i < got && written < max; i++) {
			uint64_t id = 0;
			cupti_session_graph_node_id(s->nodes[i], &id);
			ids[written++] = (int64_t)id; /* 0: CUPTI could not say */
		}
	}
	return written;
}

void graph_exec_update_record(uint64_t call_id, int api, const void *exec,
			      const void *graph, int result, uint64_t start_ns)
{
	struct update_scratch *s = result == 0 ? thread_scratch() : NULL;
	unsigned n = s ? node_ids(s, graph, s->ids, MAX_UPDATE_NODES) : 0;
	DNNTRACE_EMIT(dnntrace_api, graph_exec_update, call_id, api, exec,
			     s ? s->ids : NULL, n, result, start_ns);
}
