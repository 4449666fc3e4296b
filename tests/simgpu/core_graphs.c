/*
 * CUDA graphs in the simulated driver (libcuda.so.1): graphs of kernel
 * nodes with dependencies, their executable instances, graph launches
 * (each node a kernel on the launch stream's timeline, all reported with
 * the launch call's correlation id) and stream capture of kernel launches.
 * Order of a launch: a topological sort computed at instantiation (Kahn's
 * algorithm, FIFO: nodes without dependencies in creation order, then each
 * node as soon as its last dependency is placed), run one after another on
 * the launch stream. Handles are found in live lists before they are ever
 * dereferenced. Kernels compute nothing: this file never reads what their
 * parameters point to.
 */
#include "tests/simgpu/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define SIM_GRAPH_MAGIC 0x47525048U /* "GRPH" */
#define SIM_NODE_MAGIC 0x4e4f4445U  /* "NODE" */
#define SIM_EXEC_MAGIC 0x47455845U  /* "GEXE" */

struct kernel_launch {
	const void *func; /* a CUfunction or CUkernel: registry entries live forever */
	dim3 grid, block;
	unsigned int shared_mem;
};

struct CUgraphNode_st {
	uint32_t magic;
	uint64_t id;          /* graphNodeId in CUPTI records */
	struct kernel_launch launch;
	size_t ndeps;
	size_t *deps;         /* indices of the nodes it depends on */
};

struct CUgraph_st {
	uint32_t magic;
	uint32_t id;          /* graphId in CUPTI records */
	struct CUgraphNode_st **nodes; /* in creation order */
	size_t n, cap;
	struct CUgraph_st *next;
};

struct exec_node {
	uint64_t node_id;
	struct kernel_launch launch;
};

struct CUgraphExec_st {
	uint32_t magic;
	uint32_t graph_id;
	size_t n;
	struct exec_node *order; /* a topological order of the graph's nodes */
	struct CUgraphExec_st *next;
};

static struct CUgraph_st *live_graphs;
static struct CUgraphExec_st *live_execs;
static uint32_t last_graph_id;
static uint64_t last_node_id;

/* Caller holds sim_lock. */
static struct CUgraph_st *find_graph(CUgraph g)
{
	for (struct CUgraph_st *x = live_graphs; x; x = x->next)
		if (x == g)
			return x;
	return NULL;
}

static struct CUgraphExec_st *find_exec(CUgraphExec e)
{
	for (struct CUgraphExec_st *x = live_execs; x; x = x->next)
		if (x == e)
			return x;
	return NULL;
}

/* Index of node in g, or g->n when it is not one of g's. */
static size_t node_index(const struct CUgraph_st *g, CUgraphNode node)
{
	size_t i = 0;
	while (i < g->n && g->nodes[i] != node)
		i++;
	return i;
}

static struct CUgraph_st *new_graph(void)
{
	struct CUgraph_st *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->magic = SIM_GRAPH_MAGIC;
	g->id = ++last_graph_id;
	g->next = live_graphs;
	live_graphs = g;
	return g;
}

static void free_graph(struct CUgraph_st *g)
{
	for (struct CUgraph_st **link = &live_graphs; *link; link = &(*link)->next)
		if (*link == g) {
			*link = g->next;
			break;
		}
	for (size_t i = 0; i < g->n; i++) {
		free(g->nodes[i]->deps);
		free(g->nodes[i]);
	}
	free(g->nodes);
	free(g);
}

cudaError_t sim_graph_create(CUgraph *out, unsigned int flags)
{
	if (!out || flags != 0)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = new_graph();
	pthread_mutex_unlock(&sim_lock);
	if (!g)
		return cudaErrorMemoryAllocation;
	*out = g;
	return cudaSuccess;
}

cudaError_t sim_graph_destroy(CUgraph graph)
{
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph ? find_graph(graph) : NULL;
	if (g)
		free_graph(g);
	pthread_mutex_unlock(&sim_lock);
	return g ? cudaSuccess : cudaErrorInvalidValue;
}

/* Appends a checked kernel node to g. Caller holds sim_lock. */
static cudaError_t append_node(struct CUgraph_st *g, const size_t *deps,
			       size_t ndeps, struct kernel_launch launch,
			       CUgraphNode *out)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 8;
		struct CUgraphNode_st **nodes =
			realloc(g->nodes, cap * sizeof(*nodes));
		if (!nodes)
			return cudaErrorMemoryAllocation;
		g->nodes = nodes;
		g->cap = cap;
	}
	struct CUgraphNode_st *node = calloc(1, sizeof(*node));
	size_t *copy = ndeps ? malloc(ndeps * sizeof(*copy)) : NULL;
	if (!node || (ndeps && !copy)) {
		free(node), free(copy);
		return cudaErrorMemoryAllocation;
	}
	if (ndeps)
		memcpy(copy, deps, ndeps * sizeof(*copy));
	*node = (struct CUgraphNode_st){ .magic = SIM_NODE_MAGIC,
					 .id = ++last_node_id,
					 .launch = launch, .ndeps = ndeps,
					 .deps = copy };
	g->nodes[g->n++] = node;
	if (out)
		*out = node;
	return cudaSuccess;
}

cudaError_t sim_graph_add_kernel_node(CUgraphNode *out, CUgraph graph,
				      const CUgraphNode *deps, size_t ndeps,
				      const void *func, dim3 grid, dim3 block,
				      unsigned int shared_mem, int has_args)
{
	if (!out || !graph || (ndeps && !deps))
		return cudaErrorInvalidValue;
	size_t *indices = ndeps ? malloc(ndeps * sizeof(*indices)) : NULL;
	if (ndeps && !indices)
		return cudaErrorMemoryAllocation;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = find_graph(graph);
	if (!g)
		err = cudaErrorInvalidValue;
	/* Every dependency a node of this graph, named once (cuda.h). */
	for (size_t i = 0; err == cudaSuccess && i < ndeps; i++) {
		indices[i] = node_index(g, deps[i]);
		if (indices[i] == g->n)
			err = cudaErrorInvalidValue;
		for (size_t j = 0; err == cudaSuccess && j < i; j++)
			if (indices[j] == indices[i])
				err = cudaErrorInvalidValue;
	}
	if (err == cudaSuccess)
		err = sim_kernel_check(func, grid, block, shared_mem, has_args,
				       NULL);
	if (err == cudaSuccess) {
		struct kernel_launch launch = { func, grid, block, shared_mem };
		err = append_node(g, indices, ndeps, launch, out);
	}
	pthread_mutex_unlock(&sim_lock);
	free(indices);
	return err;
}

/* Kahn's algorithm, FIFO (see the top of this file). Caller holds sim_lock. */
static int topological_order(const struct CUgraph_st *g, struct exec_node *order)
{
	size_t *pending = calloc(g->n ? g->n : 1, sizeof(*pending));
	size_t *queue = calloc(g->n ? g->n : 1, sizeof(*queue));
	if (!pending || !queue) {
		free(pending), free(queue);
		return -1;
	}
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < g->n; i++) {
		pending[i] = g->nodes[i]->ndeps;
		if (!pending[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		size_t done = queue[head];
		order[head++] = (struct exec_node){ g->nodes[done]->id,
						    g->nodes[done]->launch };
		for (size_t i = 0; i < g->n; i++)
			for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
				if (g->nodes[i]->deps[d] == done && --pending[i] == 0)
					queue[tail++] = i;
	}
	free(pending), free(queue);
	/* Dependencies only point to earlier nodes, so nothing is left out. */
	return 0;
}

cudaError_t sim_graph_instantiate(CUgraphExec *out, CUgraph graph,
				  unsigned long long flags)
{
	const unsigned long long known =
		CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
		CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
		CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
		CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
	if (!out || !graph || (flags & ~known))
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = find_graph(graph);
	struct CUgraphExec_st *e = NULL;
	if (!g)
		err = cudaErrorInvalidValue;
	else if (!(e = calloc(1, sizeof(*e))) ||
		 !(e->order = calloc(g->n ? g->n : 1, sizeof(*e->order))) ||
		 topological_order(g, e->order) != 0)
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		e->magic = SIM_EXEC_MAGIC;
		e->graph_id = g->id;
		e->n = g->n;
		e->next = live_execs;
		live_execs = e;
		*out = e;
	} else if (e) {
		free(e->order);
		free(e);
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaError_t sim_graph_exec_destroy(CUgraphExec exec)
{
	pthread_mutex_lock(&sim_lock);
	struct CUgraphExec_st *e = NULL;
	for (struct CUgraphExec_st **link = &live_execs; exec && *link;
	     link = &(*link)->next)
		if (*link == exec) {
			e = *link;
			*link = e->next;
			break;
		}
	pthread_mutex_unlock(&sim_lock);
	if (!e)
		return cudaErrorInvalidValue;
	free(e->order);
	free(e);
	return cudaSuccess;
}

/*
 * Assumed, not observed on a GPU: a destroyed or never-created exec is
 * CUDA_ERROR_INVALID_VALUE (the code cuda.h lists), not a crash; the
 * kernels of independent branches do not overlap (one stream, in order).
 */
cudaError_t sim_graph_launch(CUgraphExec exec, cudaStream_t stream,
			     int per_thread_default, int cbid)
{
	uint64_t api_start = sim_now_ns();
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	if (!exec)
		return cudaErrorInvalidValue;
	struct simgpu_work api = {
		.kind = SIMGPU_WORK_GRAPH_LAUNCH,
		.context_id = 1,
		.api_start_ns = api_start,
		.driver_cbid = cbid,
	};
	struct simgpu_work *kernels = NULL;
	size_t n = 0;
	pthread_mutex_lock(&sim_lock);
	struct CUgraphExec_st *e = find_exec(exec);
	struct CUstream_st *s = NULL;
	if (!e)
		err = cudaErrorInvalidValue;
	else if (!(s = sim_stream_resolve(stream, per_thread_default)))
		err = cudaErrorInvalidResourceHandle;
	else if (e->n && !(kernels = calloc(e->n, sizeof(*kernels))))
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		n = e->n;
		api.correlation_id = sim_next_correlation_id();
		api.stream_id = s->cupti_id;
		api.start_ns = api.end_ns = api_start;
		for (size_t i = 0; i < n; i++) {
			const struct exec_node *node = &e->order[i];
			struct simgpu_work *w = &kernels[i];
			/* Checked when added; the name is the current one. */
			sim_kernel_check(node->launch.func, node->launch.grid,
					 node->launch.block,
					 node->launch.shared_mem, 1, &w->name);
			sim_timeline_schedule(s,
					      sim_kernel_duration_ns(node->launch.grid),
					      &w->start_ns, &w->end_ns);
			sim_power_record_kernel(w->start_ns, w->end_ns);
			w->kind = SIMGPU_WORK_KERNEL;
			w->correlation_id = api.correlation_id;
			w->context_id = 1;
			w->stream_id = s->cupti_id;
			w->api_start_ns = api_start;
			w->grid[0] = node->launch.grid.x;
			w->grid[1] = node->launch.grid.y;
			w->grid[2] = node->launch.grid.z;
			w->block[0] = node->launch.block.x;
			w->block[1] = node->launch.block.y;
			w->block[2] = node->launch.block.z;
			w->dynamic_shared_mem = node->launch.shared_mem;
			w->graph_id = e->graph_id;
			w->graph_node_id = node->node_id;
			if (i == 0)
				api.start_ns = w->start_ns;
			api.end_ns = w->end_ns;
		}
	}
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess)
		return err;
	sim_report_graph_launch(&api, kernels, n);
	return cudaSuccess;
}

/* ---- stream capture (kernel launches only) ---- */

/*
 * Assumed, not observed on a GPU: capture on the legacy stream is
 * cudaErrorStreamCaptureUnsupported; beginning twice or ending a stream
 * that is not capturing is cudaErrorInvalidValue (the code the headers
 * list). The capture mode is checked and otherwise ignored.
 */
cudaError_t sim_stream_begin_capture(cudaStream_t stream,
				     int per_thread_default, int mode)
{
	if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
	    mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
	    mode != CU_STREAM_CAPTURE_MODE_RELAXED)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (s->is_legacy)
		err = cudaErrorStreamCaptureUnsupported;
	else if (s->capture)
		err = cudaErrorInvalidValue;
	else if (!(s->capture = new_graph()))
		err = cudaErrorMemoryAllocation;
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaError_t sim_stream_end_capture(cudaStream_t stream,
				   int per_thread_default, CUgraph *out)
{
	if (!out)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (!s->capture)
		err = cudaErrorInvalidValue;
	else {
		*out = s->capture;
		s->capture = NULL;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

int sim_graph_capture_launch(struct CUstream_st *s, const void *func,
			     dim3 grid, dim3 block, size_t shared_mem)
{
	struct CUgraph_st *g = s->capture;
	if (!g)
		return 0;
	size_t previous = g->n ? g->n - 1 : 0;
	struct kernel_launch launch = { func, grid, block,
					(unsigned int)shared_mem };
	/* Out of host memory: the node is lost (as a real capture would be
	 * invalidated); the launch still reports success. */
	append_node(g, &previous, g->n ? 1 : 0, launch, NULL);
	return 1;
}
