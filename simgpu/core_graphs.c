/*
 * CUDA graphs in the simulated driver (libcuda.so.1): graphs of kernel,
 * memcpy, memset and host nodes with dependencies, their executable
 * instances, graph launches (each node on the launch stream's timeline,
 * its record carrying the launch call's correlation id) and stream capture
 * (kernel launches, copies, sets and host functions; streams join a
 * capture through events). Order of a launch: a topological sort computed
 * at instantiation (Kahn's algorithm, FIFO: nodes without dependencies in
 * creation order, then each node as soon as its last dependency is
 * placed), run one after another on the launch stream; a host node runs
 * in the launching thread once the device has done everything before it.
 * Handles are found in live lists before they are ever dereferenced.
 * Kernels compute nothing: this file never reads what their parameters
 * point to; copies and sets move real bytes (core_transfer.c).
 */
#include "simgpu/sim_internal.h"

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

enum node_kind { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST };

struct node_op {
	enum node_kind kind;
	union {
		struct kernel_launch launch;
		struct sim_copy_args copy;
		struct sim_set_args set;
		struct {
			void (*fn)(void *);
			void *user_data;
		} host;
	} u;
};

struct CUgraphNode_st {
	uint32_t magic;
	uint64_t id;          /* graphNodeId in CUPTI records */
	struct node_op op;
	size_t ndeps;
	size_t *deps;         /* indices of the nodes it depends on */
};

/* A stream that joined a capture. Per-thread default streams are never
 * freed; a created one may be, so it is only compared, never read, until
 * it is found live again. */
struct capture_member {
	struct CUstream_st *stream;
	int per_thread;
};

struct CUgraph_st {
	uint32_t magic;
	uint32_t id;          /* graphId in CUPTI records */
	struct CUgraphNode_st **nodes; /* in creation order */
	size_t n, cap;
	int capturing;        /* a stream capture is building it */
	struct capture_member *members; /* streams that joined that capture */
	size_t nmembers;
	struct CUgraph_st *next;
};

struct exec_node {
	uint64_t node_id;
	struct node_op op;
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
	free(g->members);
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

/* Appends a checked node to g. Caller holds sim_lock. */
static cudaError_t append_node(struct CUgraph_st *g, const size_t *deps,
			       size_t ndeps, struct node_op op,
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
					 .op = op, .ndeps = ndeps,
					 .deps = copy };
	g->nodes[g->n++] = node;
	if (out)
		*out = node;
	return cudaSuccess;
}

/* What a node is checked for when it is added (or captured). Caller holds
 * sim_lock. */
static cudaError_t check_op(const struct node_op *op, int has_args)
{
	switch (op->kind) {
	case NODE_KERNEL:
		return sim_kernel_check(op->u.launch.func, op->u.launch.grid,
					op->u.launch.block,
					op->u.launch.shared_mem, has_args, NULL);
	case NODE_MEMCPY:
		return sim_copy_locked(NULL, &op->u.copy, 0, NULL, NULL);
	case NODE_MEMSET:
		return sim_set_locked(NULL, &op->u.set, 0, NULL);
	default:
		return op->u.host.fn ? cudaSuccess : cudaErrorInvalidValue;
	}
}

static cudaError_t add_node(CUgraphNode *out, CUgraph graph,
			    const CUgraphNode *deps, size_t ndeps,
			    struct node_op op, int has_args)
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
		err = check_op(&op, has_args);
	if (err == cudaSuccess)
		err = append_node(g, indices, ndeps, op, out);
	pthread_mutex_unlock(&sim_lock);
	free(indices);
	return err;
}

cudaError_t sim_graph_add_kernel_node(CUgraphNode *out, CUgraph graph,
				      const CUgraphNode *deps, size_t ndeps,
				      const void *func, dim3 grid, dim3 block,
				      unsigned int shared_mem, int has_args)
{
	struct node_op op = { .kind = NODE_KERNEL,
			      .u.launch = { func, grid, block, shared_mem } };
	return add_node(out, graph, deps, ndeps, op, has_args);
}

cudaError_t sim_graph_add_copy_node(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    const struct sim_copy_args *c)
{
	if (!c)
		return cudaErrorInvalidValue;
	struct node_op op = { .kind = NODE_MEMCPY, .u.copy = *c };
	return add_node(out, graph, deps, ndeps, op, 1);
}

cudaError_t sim_graph_add_set_node(CUgraphNode *out, CUgraph graph,
				   const CUgraphNode *deps, size_t ndeps,
				   const struct sim_set_args *p)
{
	if (!p)
		return cudaErrorInvalidValue;
	struct node_op op = { .kind = NODE_MEMSET, .u.set = *p };
	return add_node(out, graph, deps, ndeps, op, 1);
}

cudaError_t sim_graph_add_host_node(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    void (*fn)(void *), void *user_data)
{
	struct node_op op = { .kind = NODE_HOST,
			      .u.host = { fn, user_data } };
	return add_node(out, graph, deps, ndeps, op, 1);
}

/* The copy has nodes of its own (new graphNodeIds), in the same order
 * with the same dependencies. */
cudaError_t sim_graph_clone(CUgraph *out, CUgraph graph)
{
	if (!out || !graph)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = find_graph(graph), *c = NULL;
	if (!g)
		err = cudaErrorInvalidValue;
	else if (!(c = new_graph()))
		err = cudaErrorMemoryAllocation;
	for (size_t i = 0; err == cudaSuccess && i < g->n; i++)
		err = append_node(c, g->nodes[i]->deps, g->nodes[i]->ndeps,
				  g->nodes[i]->op, NULL);
	if (err == cudaSuccess)
		*out = c;
	else if (c)
		free_graph(c);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* cuda.h: with nodes NULL, *num is the count; else up to *num nodes are
 * written, the rest of the array NULL, and *num the number written. */
cudaError_t sim_graph_get_nodes(CUgraph graph, CUgraphNode *nodes, size_t *num)
{
	if (!graph || !num)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = find_graph(graph);
	if (g && nodes) {
		for (size_t i = 0; i < *num; i++)
			nodes[i] = i < g->n ? g->nodes[i] : NULL;
		if (*num > g->n)
			*num = g->n;
	} else if (g) {
		*num = g->n;
	}
	pthread_mutex_unlock(&sim_lock);
	return g ? cudaSuccess : cudaErrorInvalidValue;
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
						    g->nodes[done]->op };
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

/* Puts a kernel node on s; w gets its record. Caller holds sim_lock. */
static void run_kernel(struct CUstream_st *s, const struct kernel_launch *k,
		       struct simgpu_work *w)
{
	/* Checked when added; the name is the current one. */
	sim_kernel_check(k->func, k->grid, k->block, k->shared_mem, 1, &w->name);
	sim_timeline_schedule(s, sim_kernel_duration_ns(k->grid), &w->start_ns,
			      &w->end_ns);
	sim_power_record_kernel(w->start_ns, w->end_ns);
	w->kind = SIMGPU_WORK_KERNEL;
	w->stream_id = s->cupti_id;
	w->grid[0] = k->grid.x;
	w->grid[1] = k->grid.y;
	w->grid[2] = k->grid.z;
	w->block[0] = k->block.x;
	w->block[1] = k->block.y;
	w->block[2] = k->block.z;
	w->dynamic_shared_mem = k->shared_mem;
}

/*
 * Assumed, not observed on a GPU: a destroyed or never-created exec is
 * CUDA_ERROR_INVALID_VALUE (the code cuda.h lists), not a crash; nodes of
 * independent branches do not overlap (one stream, in order); a host node
 * runs inside the launch call, in the calling thread, once the device has
 * done everything before it (a real driver runs it on a thread of its own
 * and returns at once: the order the program sees is the same). Every copy
 * and set is checked before anything runs: one whose memory was freed
 * since it was added fails the launch with cudaErrorInvalidValue and
 * nothing runs.
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
	struct simgpu_work *records = NULL;
	struct exec_node *order = NULL;
	size_t n = 0, nrec = 0;
	uint32_t graph_id = 0;
	pthread_mutex_lock(&sim_lock);
	struct CUgraphExec_st *e = find_exec(exec);
	struct CUstream_st *s = NULL;
	if (!e)
		err = cudaErrorInvalidValue;
	else if (!(s = sim_stream_resolve(stream, per_thread_default)))
		err = cudaErrorInvalidResourceHandle;
	else if (e->n && (!(records = calloc(e->n, sizeof(*records))) ||
			  !(order = malloc(e->n * sizeof(*order)))))
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		/* A host function may destroy the exec: run a copy of it. */
		n = e->n;
		graph_id = e->graph_id;
		if (n)
			memcpy(order, e->order, n * sizeof(*order));
		for (size_t i = 0; err == cudaSuccess && i < n; i++)
			if (order[i].op.kind == NODE_MEMCPY ||
			    order[i].op.kind == NODE_MEMSET)
				err = check_op(&order[i].op, 1);
	}
	if (err == cudaSuccess) {
		api.correlation_id = sim_next_correlation_id();
		api.stream_id = s->cupti_id;
		api.start_ns = api.end_ns = api_start;
	}
	for (size_t i = 0; err == cudaSuccess && s && i < n; i++) {
		const struct node_op *op = &order[i].op;
		struct simgpu_work *w = &records[nrec];
		struct sim_instant end;
		*w = (struct simgpu_work){ 0 };
		switch (op->kind) {
		case NODE_KERNEL:
			run_kernel(s, &op->u.launch, w);
			break;
		case NODE_MEMCPY:
			w->kind = SIMGPU_WORK_MEMCPY;
			w->is_async = 1;
			sim_copy_locked(s, &op->u.copy, 1, w, &end);
			break;
		case NODE_MEMSET:
			w->kind = SIMGPU_WORK_MEMSET;
			w->is_async = 1;
			sim_set_locked(s, &op->u.set, 1, w);
			break;
		case NODE_HOST: {
			struct sim_instant until = s->ready;
			pthread_mutex_unlock(&sim_lock);
			sim_wait_device_time(until);
			op->u.host.fn(op->u.host.user_data);
			pthread_mutex_lock(&sim_lock);
			/* It may have destroyed the stream: the rest is lost. */
			s = sim_stream_resolve(stream, per_thread_default);
			continue;
		}
		}
		if (op->kind != NODE_KERNEL && w->bytes == 0)
			continue; /* an empty copy or set: no GPU work */
		w->correlation_id = api.correlation_id;
		w->context_id = 1;
		w->api_start_ns = api_start;
		w->graph_id = graph_id;
		w->graph_node_id = order[i].node_id;
		if (nrec == 0)
			api.start_ns = w->start_ns;
		api.end_ns = w->end_ns;
		nrec++;
	}
	pthread_mutex_unlock(&sim_lock);
	free(order);
	if (err != cudaSuccess) {
		free(records);
		return err;
	}
	sim_report_graph_launch(&api, records, nrec);
	return cudaSuccess;
}

/* ---- stream capture ---- */

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
	if (err == cudaSuccess) {
		s->capture->capturing = 1;
		s->capture_origin = 1;
		s->ncapture_deps = 0;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* Replaces (or, add: extends) s's capture dependencies. Holds sim_lock. */
static cudaError_t set_capture_deps(struct CUstream_st *s, const size_t *deps,
				    size_t n, int add)
{
	size_t have = add ? s->ncapture_deps : 0;
	size_t *all = realloc(s->capture_deps,
			      (have + n ? have + n : 1) * sizeof(*all));
	if (!all)
		return cudaErrorMemoryAllocation;
	s->capture_deps = all;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < have && all[j] != deps[i])
			j++;
		if (j == have)
			all[have++] = deps[i];
	}
	s->ncapture_deps = have;
	return cudaSuccess;
}

/* The node after s's captured work; then the work s's next node follows. */
static cudaError_t capture_append(struct CUstream_st *s, struct node_op op)
{
	struct CUgraph_st *g = s->capture;
	size_t index = g->n;
	cudaError_t err = append_node(g, s->capture_deps, s->ncapture_deps, op,
				      NULL);
	if (err == cudaSuccess)
		err = set_capture_deps(s, &index, 1, 0);
	return err;
}

/* Whether each node of `want` is in `have` or one of their ancestors. */
static int reaches(const struct CUgraph_st *g, const size_t *have, size_t nhave,
		   const size_t *want, size_t nwant)
{
	if (!nwant)
		return 1;
	unsigned char *seen = calloc(g->n, 1);
	size_t *stack = malloc(g->n * sizeof(*stack));
	size_t top = 0;
	int ok = seen && stack;
	for (size_t i = 0; ok && i < nhave; i++)
		if (!seen[have[i]])
			seen[have[i]] = 1, stack[top++] = have[i];
	while (ok && top) {
		const struct CUgraphNode_st *node = g->nodes[stack[--top]];
		for (size_t d = 0; d < node->ndeps; d++)
			if (!seen[node->deps[d]])
				seen[node->deps[d]] = 1,
				stack[top++] = node->deps[d];
	}
	for (size_t i = 0; ok && i < nwant; i++)
		ok = seen[want[i]];
	free(seen), free(stack);
	return ok;
}

static void leave_capture(struct CUstream_st *s)
{
	s->capture = NULL;
	s->capture_origin = 0;
	free(s->capture_deps);
	s->capture_deps = NULL;
	s->ncapture_deps = 0;
}

/*
 * Only the stream that began the capture ends it
 * (cudaErrorStreamCaptureUnmatched); every stream that joined it must
 * have been joined back, its last captured work among what the origin's
 * work depends on, else cudaErrorStreamCaptureUnjoined and the capture is
 * lost (cuda_runtime_api.h). Either way every member leaves the capture.
 */
cudaError_t sim_stream_end_capture(cudaStream_t stream,
				   int per_thread_default, CUgraph *out)
{
	if (!out)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct CUgraph_st *g = s ? s->capture : NULL;
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (!g)
		err = cudaErrorInvalidValue;
	else if (!s->capture_origin)
		err = cudaErrorStreamCaptureUnmatched;
	if (err != cudaSuccess) {
		pthread_mutex_unlock(&sim_lock);
		return err;
	}
	for (size_t i = 0; i < g->nmembers; i++) {
		struct CUstream_st *m = g->members[i].stream;
		if ((!g->members[i].per_thread && sim_stream_resolve(m, 0) != m) ||
		    m->capture != g)
			continue; /* destroyed since, or left */
		if (!reaches(g, s->capture_deps, s->ncapture_deps,
			     m->capture_deps, m->ncapture_deps))
			err = cudaErrorStreamCaptureUnjoined;
		leave_capture(m);
	}
	leave_capture(s);
	g->capturing = 0;
	if (err == cudaSuccess)
		*out = g;
	else
		free_graph(g);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

int sim_graph_capture_launch(struct CUstream_st *s, const void *func,
			     dim3 grid, dim3 block, size_t shared_mem)
{
	if (!s->capture)
		return 0;
	struct node_op op = { .kind = NODE_KERNEL,
			      .u.launch = { func, grid, block,
					    (unsigned int)shared_mem } };
	/* Out of host memory: the node is lost (as a real capture would be
	 * invalidated); the launch still reports success. */
	capture_append(s, op);
	return 1;
}

cudaError_t sim_graph_capture_copy(struct CUstream_st *s,
				   const struct sim_copy_args *c)
{
	struct node_op op = { .kind = NODE_MEMCPY, .u.copy = *c };
	cudaError_t err = check_op(&op, 1);
	return err != cudaSuccess ? err : capture_append(s, op);
}

cudaError_t sim_graph_capture_set(struct CUstream_st *s,
				  const struct sim_set_args *p)
{
	struct node_op op = { .kind = NODE_MEMSET, .u.set = *p };
	cudaError_t err = check_op(&op, 1);
	return err != cudaSuccess ? err : capture_append(s, op);
}

static void forget_capture(struct CUevent_st *e)
{
	free(e->capture_deps);
	e->capture_deps = NULL;
	e->ncapture_deps = 0;
	e->capture = NULL;
	e->capture_graph_id = 0;
}

cudaError_t sim_graph_event_record(struct CUstream_st *s, struct CUevent_st *e,
				   int *captured)
{
	forget_capture(e);
	*captured = s->capture != NULL;
	if (!*captured)
		return cudaSuccess;
	size_t n = s->ncapture_deps;
	e->capture_deps = malloc((n ? n : 1) * sizeof(*e->capture_deps));
	if (!e->capture_deps)
		return cudaErrorMemoryAllocation;
	if (n)
		memcpy(e->capture_deps, s->capture_deps, n * sizeof(size_t));
	e->ncapture_deps = n;
	e->capture = s->capture;
	e->capture_graph_id = s->capture->id;
	return cudaSuccess;
}

/*
 * Assumed, not observed on a GPU: waiting for an event recorded in a
 * capture that has ended is a no-op; a stream capturing into another
 * graph gets cudaErrorStreamCaptureIsolation; an event recorded outside
 * any capture orders a capturing stream's work on the timeline only (it
 * adds no node).
 */
cudaError_t sim_graph_event_wait(struct CUstream_st *s, struct CUevent_st *e,
				 int *captured)
{
	struct CUgraph_st *g = e->capture ? find_graph(e->capture) : NULL;
	*captured = 0;
	if (e->capture && (!g || g->id != e->capture_graph_id || !g->capturing)) {
		*captured = 1; /* its capture is over */
		return cudaSuccess;
	}
	if (!g)
		return cudaSuccess;
	*captured = 1;
	if (s->capture == g)
		return set_capture_deps(s, e->capture_deps, e->ncapture_deps, 1);
	if (s->capture)
		return cudaErrorStreamCaptureIsolation;
	if (s->is_legacy)
		return cudaErrorStreamCaptureImplicit;
	struct capture_member *members =
		realloc(g->members, (g->nmembers + 1) * sizeof(*members));
	if (!members)
		return cudaErrorMemoryAllocation;
	g->members = members;
	cudaError_t err = set_capture_deps(s, e->capture_deps, e->ncapture_deps,
					   0);
	if (err != cudaSuccess)
		return err;
	g->members[g->nmembers++] =
		(struct capture_member){ s, s->is_per_thread };
	s->capture = g;
	s->capture_origin = 0;
	return cudaSuccess;
}

cudaError_t sim_launch_host_func(cudaStream_t stream, int per_thread_default,
				 void (*fn)(void *), void *user_data)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	if (!fn)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct sim_instant until = s ? s->ready : (struct sim_instant){ 0, 0 };
	int captured = s && s->capture;
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (captured) {
		struct node_op op = { .kind = NODE_HOST,
				      .u.host = { fn, user_data } };
		err = capture_append(s, op);
	}
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess || captured)
		return err;
	/* Not captured: run in the calling thread once the stream's earlier
	 * work has completed (a real driver runs it later on a thread of its
	 * own; the order the program sees is the same). */
	sim_wait_device_time(until);
	fn(user_data);
	return sim_enter();
}
