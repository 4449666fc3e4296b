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
#include "simgpu/core/sim_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SIM_GRAPH_MAGIC 0x47525048U /* "GRPH" */
#define SIM_NODE_MAGIC 0x4e4f4445U  /* "NODE" */
#define SIM_EXEC_MAGIC 0x47455845U  /* "GEXE" */

struct kernel_launch {
	const void *func; /* a CUfunction or CUkernel: registry entries live forever */
	dim3 grid, block;
	unsigned int shared_mem;
	/* A copy of the parameter values, as a real node keeps them
	 * (cuGraphKernelNodeGetParams hands this array back): nparams
	 * pointers into one block that follows them (owned by the node). */
	size_t nparams;
	void **params;
};

enum node_kind { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_CHILD,
		 NODE_MEM_ALLOC, NODE_MEM_FREE };

struct CUgraph_st;

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
		struct CUgraph_st *child; /* the node's own copy of the graph */
		struct sim_graph_alloc *mem; /* a memory node's allocation */
	} u;
};

struct CUgraphNode_st {
	uint32_t magic;
	uint64_t id;          /* graphNodeId in CUPTI records */
	struct node_op op;
	size_t ndeps;
	size_t *deps;         /* indices of the nodes it depends on */
	/* A node of an exec (or a clone): the node it was cloned from, only
	 * compared (never dereferenced), with that node's id and creation
	 * index in its graph. */
	const struct CUgraphNode_st *origin;
	uint64_t origin_id;
	size_t origin_index;
	int disabled;         /* an exec's node: cuGraphNodeSetEnabled(exec, origin, 0) */
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
	CUgraphNode *dep_scratch; /* cuStreamGetCaptureInfo's dependencies */
	int embedded;         /* a child graph node's copy: the node owns it */
	struct capture_member *members; /* streams that joined that capture */
	size_t nmembers;
	struct CUgraph_st *next;
};

struct exec_node {
	uint64_t node_id;
	struct node_op op;
	int disabled;
};

/*
 * An executable graph: its own copies of the graph's nodes (each with an
 * id of its own, as CUPTI's records name them), in a topological order.
 * Seen on an H200 (CUDA 13.0, CUPTI 13.0.1, tests/gpu/probe_graph_callbacks.cu):
 * instantiation clones every node of the graph, in creation order
 * (CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, original node -> exec node), and
 * the kernel records of a launch carry the exec's id as graphId and the
 * clone's id as graphNodeId. A child graph node is cloned too (after the
 * nodes of its embedded graph, which is cloned into a graph of its own,
 * each node reported), but never runs: its graph's nodes are flattened
 * into the exec under ids of their own, for which CUPTI raises no callback
 * at all, and those ids are what the records of their work carry. A child
 * inside a child is the same, one level down.
 */
struct CUgraphExec_st {
	uint32_t magic;
	uint32_t id;          /* graphId in CUPTI records */
	uint32_t graph_id;    /* the graph it was instantiated from */
	int auto_free;        /* CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH */
	size_t n;
	struct CUgraphNode_st **nodes; /* a topological order of the graph's nodes,
					* child graphs flattened: what runs */
	/* The exec's clones of the graph's child graph nodes, each owning its
	 * clone of the embedded graph: named by CUPTI callbacks, never run. */
	size_t n_children;
	struct CUgraphNode_st **children;
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

/* A node's own copy of its kernel parameters (none for other kinds). */
static void free_graph(struct CUgraph_st *g);

static void release_op(struct node_op *op)
{
	if (op->kind == NODE_CHILD && op->u.child) {
		free_graph(op->u.child);
		op->u.child = NULL;
	}
	if (op->kind == NODE_KERNEL) {
		free(op->u.launch.params);
		op->u.launch.params = NULL;
		op->u.launch.nparams = 0;
	}
}

static void free_node(struct CUgraphNode_st *node)
{
	release_op(&node->op);
	free(node->deps);
	free(node);
}

/*
 * Copies nparams parameter values from args into one block owned by k
 * (the layout is the kernel's, sim_kernel_layout_locked). args NULL (or a
 * kernel with no parameters): none. Caller holds sim_lock.
 */
static int copy_params(struct kernel_launch *k, void *const *args)
{
	const size_t *offsets = NULL, *sizes = NULL;
	size_t n = args ? sim_kernel_layout_locked(k->func, &offsets, &sizes) : 0;
	k->nparams = 0;
	k->params = NULL;
	if (!n)
		return 0;
	size_t bytes = 0;
	for (size_t i = 0; i < n; i++)
		if (offsets[i] + sizes[i] > bytes)
			bytes = offsets[i] + sizes[i];
	void **ptrs = malloc(n * sizeof(*ptrs) + bytes);
	if (!ptrs)
		return -1;
	unsigned char *values = (unsigned char *)(ptrs + n);
	for (size_t i = 0; i < n; i++) {
		ptrs[i] = values + offsets[i];
		memcpy(ptrs[i], args[i], sizes[i]);
	}
	k->nparams = n;
	k->params = ptrs;
	return 0;
}

struct clone_list;
static struct CUgraph_st *clone_graph_locked(const struct CUgraph_st *g,
					     struct clone_list *reports);
static struct CUgraph_st *graph_of_node(const void *node, size_t *index);

/* *dst = *src with a parameter copy (or child graph copy) of its own;
 * reports (may be NULL) collects the child's copied nodes. Caller holds
 * sim_lock. */
static int dup_op_reported(struct node_op *dst, const struct node_op *src,
			   struct clone_list *reports)
{
	*dst = *src;
	if (src->kind == NODE_KERNEL && src->u.launch.params)
		return copy_params(&dst->u.launch, src->u.launch.params);
	if (src->kind == NODE_CHILD) {
		dst->u.child = clone_graph_locked(src->u.child, reports);
		if (dst->u.child)
			dst->u.child->embedded = 1; /* the node owns it */
		return dst->u.child ? 0 : -1;
	}
	return 0;
}

static int dup_op(struct node_op *dst, const struct node_op *src)
{
	return dup_op_reported(dst, src, NULL);
}

static void free_graph(struct CUgraph_st *g)
{
	for (struct CUgraph_st **link = &live_graphs; *link; link = &(*link)->next)
		if (*link == g) {
			*link = g->next;
			break;
		}
	for (size_t i = 0; i < g->n; i++)
		free_node(g->nodes[i]);
	free(g->nodes);
	free(g->members);
	free(g->dep_scratch);
	free(g);
}

/* ---- CUPTI's resource callbacks: a node cloned (clone, instantiate) ---- */

static _Atomic(simgpu_graph_clone_fn) clone_callback;

void simgpu_internal_set_graph_clone_callback(simgpu_graph_clone_fn fn);
void simgpu_internal_set_graph_clone_callback(simgpu_graph_clone_fn fn)
{
	atomic_store(&clone_callback, fn);
}

static int node_type_of(enum node_kind kind)
{
	switch (kind) {
	case NODE_KERNEL:
		return CU_GRAPH_NODE_TYPE_KERNEL;
	case NODE_MEMCPY:
		return CU_GRAPH_NODE_TYPE_MEMCPY;
	case NODE_MEMSET:
		return CU_GRAPH_NODE_TYPE_MEMSET;
	case NODE_CHILD:
		return CU_GRAPH_NODE_TYPE_GRAPH;
	case NODE_MEM_ALLOC:
		return CU_GRAPH_NODE_TYPE_MEM_ALLOC;
	case NODE_MEM_FREE:
		return CU_GRAPH_NODE_TYPE_MEM_FREE;
	default:
		return CU_GRAPH_NODE_TYPE_HOST;
	}
}

/* The clones one call made, for CUPTI (empty when nobody listens; out of
 * memory: the rest are lost). Filled under sim_lock, delivered after. */
struct clone_list {
	struct simgpu_graph_clone *r;
	size_t n, cap;
	int on;
	const void *exec; /* an instantiation's exec: every clone it makes is its */
	const void *graph; /* and the graph it instantiates */
};

static void clone_list_init(struct clone_list *l)
{
	*l = (struct clone_list){ .on = atomic_load(&clone_callback) != NULL };
}

static void report_clone(struct clone_list *l, const struct CUgraphNode_st *node,
			 const void *graph, const void *from_graph, const void *exec)
{
	if (!l || !l->on)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct simgpu_graph_clone *r = realloc(l->r, cap * sizeof(*r));
		if (!r) {
			l->on = 0;
			return;
		}
		l->r = r, l->cap = cap;
	}
	l->r[l->n++] = (struct simgpu_graph_clone){
		.graph = (void *)graph,
		.original_graph = (void *)from_graph,
		.node = (void *)node,
		.original_node = (void *)node->origin,
		.node_type = node_type_of(node->op.kind),
		.graph_exec = (void *)(exec ? exec : l->exec),
		.mark = SIMGPU_CLONE_NODE,
	};
}

/* Called without sim_lock: the callback may ask for ids. An
 * instantiation's clones (graph_exec set) come between its exec's
 * create-starting and created marks, which name the graph instantiated
 * (as the H200's GRAPHEXEC callbacks did; the CUPTI side says where they
 * come). */
static void deliver_clones(struct clone_list *l)
{
	simgpu_graph_clone_fn fn = atomic_load(&clone_callback);
	struct simgpu_graph_clone mark = { 0 };
	if (fn && l->n && l->exec) {
		mark = (struct simgpu_graph_clone){ .graph = (void *)l->graph,
			.graph_exec = (void *)l->exec };
		mark.mark = SIMGPU_CLONE_EXEC_STARTING;
		fn(&mark);
	}
	for (size_t i = 0; fn && i < l->n; i++)
		fn(&l->r[i]);
	if (mark.graph_exec) {
		mark.mark = SIMGPU_CLONE_EXEC_CREATED;
		fn(&mark);
	}
	free(l->r);
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
	if (g && g->embedded)
		g = NULL; /* a child graph node's: the node owns it */
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

/*
 * Whether a copy or set reaches into a graph allocation. Such a copy is
 * checked when it runs, not when it is added or launched: the allocation
 * is live only between its alloc and free nodes. Assumed, as a real GPU
 * would: a copy that then reaches memory that is not live faults, a
 * sticky cudaErrorIllegalAddress (core_sticky_error.c).
 */
static int touches_graph_memory(const struct node_op *op)
{
	if (op->kind == NODE_MEMCPY)
		return sim_graph_mem_at(op->u.copy.dst) || sim_graph_mem_at(op->u.copy.src);
	if (op->kind == NODE_MEMSET)
		return sim_graph_mem_at(op->u.set.dst) != NULL;
	return 0;
}

/* Whether g has memory nodes (its children included). */
static int has_memory_nodes(const struct CUgraph_st *g)
{
	for (size_t i = 0; i < g->n; i++) {
		enum node_kind k = g->nodes[i]->op.kind;
		if (k == NODE_MEM_ALLOC || k == NODE_MEM_FREE ||
		    (k == NODE_CHILD && has_memory_nodes(g->nodes[i]->op.u.child)))
			return 1;
	}
	return 0;
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
		if (touches_graph_memory(op))
			return cudaSuccess;
		return sim_copy_locked(NULL, &op->u.copy, 0, NULL, NULL);
	case NODE_MEMSET:
		if (touches_graph_memory(op))
			return cudaSuccess;
		return sim_set_locked(NULL, &op->u.set, 0, NULL);
	case NODE_MEM_ALLOC:
	case NODE_MEM_FREE:
		return cudaSuccess;
	default:
		return op->u.host.fn ? cudaSuccess : cudaErrorInvalidValue;
	}
}

static cudaError_t add_node(CUgraphNode *out, CUgraph graph,
			    const CUgraphNode *deps, size_t ndeps,
			    struct node_op op, int has_args, void *const *args)
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
	if (err == cudaSuccess && op.kind == NODE_KERNEL &&
	    copy_params(&op.u.launch, args) != 0)
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		err = append_node(g, indices, ndeps, op, out);
		if (err != cudaSuccess)
			release_op(&op);
	}
	pthread_mutex_unlock(&sim_lock);
	free(indices);
	return err;
}

cudaError_t sim_graph_add_kernel_node(CUgraphNode *out, CUgraph graph,
				      const CUgraphNode *deps, size_t ndeps,
				      const void *func, dim3 grid, dim3 block,
				      unsigned int shared_mem, int has_args,
				      void **args)
{
	struct node_op op = { .kind = NODE_KERNEL,
			      .u.launch = { func, grid, block, shared_mem, 0, NULL } };
	return add_node(out, graph, deps, ndeps, op, has_args, args);
}

cudaError_t sim_graph_add_copy_node(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    const struct sim_copy_args *c)
{
	if (!c)
		return cudaErrorInvalidValue;
	struct node_op op = { .kind = NODE_MEMCPY, .u.copy = *c };
	return add_node(out, graph, deps, ndeps, op, 1, NULL);
}

cudaError_t sim_graph_add_set_node(CUgraphNode *out, CUgraph graph,
				   const CUgraphNode *deps, size_t ndeps,
				   const struct sim_set_args *p)
{
	if (!p)
		return cudaErrorInvalidValue;
	struct node_op op = { .kind = NODE_MEMSET, .u.set = *p };
	return add_node(out, graph, deps, ndeps, op, 1, NULL);
}

cudaError_t sim_graph_add_host_node(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    void (*fn)(void *), void *user_data)
{
	struct node_op op = { .kind = NODE_HOST,
			      .u.host = { fn, user_data } };
	return add_node(out, graph, deps, ndeps, op, 1, NULL);
}

/*
 * Memory nodes (cuda.h, cuGraphAddMemAllocNode / cuGraphAddMemFreeNode):
 * an alloc node's address is fixed when the node is added and the same at
 * every launch; a free node takes an address an alloc node returned (any
 * graph's), at most once per graph, else cudaErrorInvalidValue. Not
 * modelled: the rule that an allocation freed in its own graph cannot be
 * freed in another one too (cuda.h), and the pool properties (every
 * allocation is device memory of device 0, assumed).
 */
cudaError_t sim_graph_add_mem_alloc_node(CUgraphNode *out, CUgraph graph,
					 const CUgraphNode *deps, size_t ndeps,
					 uint64_t size, uint64_t *va)
{
	if (!out || !graph || !va || !size)
		return cudaErrorInvalidValue;
	struct sim_graph_alloc *a = NULL;
	pthread_mutex_lock(&sim_lock);
	cudaError_t err = find_graph(graph) ? sim_graph_mem_reserve(size, &a)
					    : cudaErrorInvalidValue;
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess)
		return err;
	/* A failed add leaves the reserved range unused (never handed out). */
	struct node_op op = { .kind = NODE_MEM_ALLOC, .u.mem = a };
	err = add_node(out, graph, deps, ndeps, op, 1, NULL);
	if (err == cudaSuccess)
		*va = a->va;
	return err;
}

/* Whether g already frees a (a free node of it). Caller holds sim_lock. */
static int graph_frees(const struct CUgraph_st *g, const struct sim_graph_alloc *a)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->nodes[i]->op.kind == NODE_MEM_FREE && g->nodes[i]->op.u.mem == a)
			return 1;
	return 0;
}

cudaError_t sim_graph_add_mem_free_node(CUgraphNode *out, CUgraph graph,
					const CUgraphNode *deps, size_t ndeps,
					uint64_t va)
{
	if (!out || !graph || !va)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = find_graph(graph);
	struct sim_graph_alloc *a = sim_graph_mem_at((const void *)(uintptr_t)va);
	cudaError_t err = g && a && a->va == va && !graph_frees(g, a) ?
		cudaSuccess : cudaErrorInvalidValue;
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess)
		return err;
	struct node_op op = { .kind = NODE_MEM_FREE, .u.mem = a };
	return add_node(out, graph, deps, ndeps, op, 1, NULL);
}

cudaError_t sim_graph_mem_node_get(CUgraphNode node, int is_alloc,
				   uint64_t *va, uint64_t *size)
{
	if (!node || !va)
		return cudaErrorInvalidValue;
	size_t i;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph_of_node(node, &i);
	if (!g || g->nodes[i]->op.kind != (is_alloc ? NODE_MEM_ALLOC : NODE_MEM_FREE))
		err = cudaErrorInvalidValue;
	else {
		*va = g->nodes[i]->op.u.mem->va;
		if (size)
			*size = g->nodes[i]->op.u.mem->size;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* A copy of g with nodes of its own (new graphNodeIds), in the same order
 * with the same dependencies, each reported as a clone (a child graph
 * node's graph copied too); NULL when out of memory. Caller holds sim_lock. */
static struct CUgraph_st *clone_graph_locked(const struct CUgraph_st *g,
					     struct clone_list *reports)
{
	struct CUgraph_st *c = new_graph();
	if (!c)
		return NULL;
	for (size_t i = 0; i < g->n; i++) {
		struct node_op op;
		if (dup_op_reported(&op, &g->nodes[i]->op, reports) != 0) {
			free_graph(c);
			return NULL;
		}
		if (append_node(c, g->nodes[i]->deps, g->nodes[i]->ndeps, op, NULL) !=
		    cudaSuccess) {
			release_op(&op);
			free_graph(c);
			return NULL;
		}
		c->nodes[i]->origin = g->nodes[i];
		c->nodes[i]->origin_id = g->nodes[i]->id;
		c->nodes[i]->origin_index = i;
		report_clone(reports, c->nodes[i], c, g, NULL);
	}
	return c;
}

cudaError_t sim_graph_clone(CUgraph *out, CUgraph graph)
{
	if (!out || !graph)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	struct clone_list reports;
	pthread_mutex_lock(&sim_lock);
	clone_list_init(&reports);
	struct CUgraph_st *g = find_graph(graph), *c = NULL;
	if (!g)
		err = cudaErrorInvalidValue;
	else if (has_memory_nodes(g))
		err = cudaErrorNotSupported; /* cuda.h: cannot be cloned (code assumed) */
	else if (!(c = clone_graph_locked(g, &reports)))
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess)
		*out = c;
	else
		reports.n = 0;
	pthread_mutex_unlock(&sim_lock);
	deliver_clones(&reports);
	return err;
}

/*
 * A child graph node: the node owns a copy of child (cuda.h: the graph is
 * cloned), whose nodes are reported as clones of child's. The copy is
 * found by cudaGraphChildGraphNodeGetGraph; destroying it is
 * cudaErrorInvalidValue (assumed; cuda.h forbids it).
 */
cudaError_t sim_graph_add_child_node(CUgraphNode *out, CUgraph graph,
				     const CUgraphNode *deps, size_t ndeps, CUgraph child)
{
	if (!out || !graph || !child || (ndeps && !deps))
		return cudaErrorInvalidValue;
	size_t *indices = ndeps ? malloc(ndeps * sizeof(*indices)) : NULL;
	if (ndeps && !indices)
		return cudaErrorMemoryAllocation;
	cudaError_t err = cudaSuccess;
	struct clone_list reports;
	pthread_mutex_lock(&sim_lock);
	clone_list_init(&reports);
	struct CUgraph_st *g = find_graph(graph), *c = find_graph(child), *copy = NULL;
	if (!g || !c || g == c)
		err = cudaErrorInvalidValue;
	else if (has_memory_nodes(c))
		err = cudaErrorNotSupported; /* cuda.h: only with its ownership moved */
	for (size_t i = 0; err == cudaSuccess && i < ndeps; i++) {
		indices[i] = node_index(g, deps[i]);
		if (indices[i] == g->n)
			err = cudaErrorInvalidValue;
		for (size_t j = 0; err == cudaSuccess && j < i; j++)
			if (indices[j] == indices[i])
				err = cudaErrorInvalidValue;
	}
	if (err == cudaSuccess && !(copy = clone_graph_locked(c, &reports)))
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		copy->embedded = 1;
		struct node_op op = { .kind = NODE_CHILD, .u.child = copy };
		err = append_node(g, indices, ndeps, op, out);
		if (err != cudaSuccess)
			free_graph(copy);
	}
	if (err != cudaSuccess)
		reports.n = 0;
	pthread_mutex_unlock(&sim_lock);
	free(indices);
	deliver_clones(&reports);
	return err;
}

cudaError_t sim_graph_child_graph(CUgraphNode node, CUgraph *out)
{
	if (!node || !out)
		return cudaErrorInvalidValue;
	size_t i;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph_of_node(node, &i);
	if (!g || g->nodes[i]->op.kind != NODE_CHILD)
		err = cudaErrorInvalidValue;
	else
		*out = g->nodes[i]->op.u.child;
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

/* Kahn's algorithm, FIFO (see the top of this file): node indices.
 * Caller holds sim_lock. */
static int topological_order(const struct CUgraph_st *g, size_t *order)
{
	size_t *pending = calloc(g->n ? g->n : 1, sizeof(*pending));
	if (!pending)
		return -1;
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < g->n; i++) {
		pending[i] = g->nodes[i]->ndeps;
		if (!pending[i])
			order[tail++] = i;
	}
	while (head < tail) {
		size_t done = order[head++];
		for (size_t i = 0; i < g->n; i++)
			for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
				if (g->nodes[i]->deps[d] == done && --pending[i] == 0)
					order[tail++] = i;
	}
	free(pending);
	/* Dependencies only point to earlier nodes, so nothing is left out. */
	return 0;
}

static void free_exec(struct CUgraphExec_st *e)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->nodes[i])
			free_node(e->nodes[i]);
	free(e->nodes);
	for (size_t i = 0; i < e->n_children; i++)
		free_node(e->children[i]);
	free(e->children);
	free(e);
}

/* Appends node to e's nodes (what runs). Caller holds sim_lock; -1 when
 * out of memory (node not taken). */
static int push_exec_node(struct CUgraphExec_st *e, size_t *cap, struct CUgraphNode_st *node)
{
	if (e->n == *cap) {
		size_t grown = *cap ? 2 * *cap : 8;
		struct CUgraphNode_st **nodes = realloc(e->nodes, grown * sizeof(*nodes));
		if (!nodes)
			return -1;
		e->nodes = nodes, *cap = grown;
	}
	e->nodes[e->n++] = node;
	return 0;
}

/* A copy of from (its parameters, or its child graph, copies of their
 * own), with a new id; origin_index as given. Caller holds sim_lock;
 * reports (may be NULL) gets a child graph's copied nodes. */
static struct CUgraphNode_st *copy_node(const struct CUgraphNode_st *from, size_t origin_index,
					struct clone_list *reports)
{
	struct CUgraphNode_st *node = calloc(1, sizeof(*node));
	if (!node || dup_op_reported(&node->op, &from->op, reports) != 0) {
		free(node);
		return NULL;
	}
	node->magic = SIM_NODE_MAGIC;
	node->id = ++last_node_id;
	node->origin = from;
	node->origin_id = from->id;
	node->origin_index = origin_index;
	return node;
}

/*
 * Appends to e's nodes the nodes of g, an embedded graph (the exec's own
 * clone of it), in a topological order, a child graph node's graph in its
 * place, each a copy with a fresh id and no report (as on the H200: CUPTI
 * names no such node; its records carry the id). Caller holds sim_lock; -1
 * when out of memory.
 */
static int flatten_embedded(struct CUgraphExec_st *e, size_t *cap, const struct CUgraph_st *g)
{
	size_t *order = calloc(g->n ? g->n : 1, sizeof(*order));
	int status = order && topological_order(g, order) == 0 ? 0 : -1;
	for (size_t i = 0; status == 0 && i < g->n; i++) {
		const struct CUgraphNode_st *from = g->nodes[order[i]];
		if (from->op.kind == NODE_CHILD) {
			status = flatten_embedded(e, cap, from->op.u.child);
			continue;
		}
		/* a node of an embedded graph pairs with nothing in an update */
		struct CUgraphNode_st *node = copy_node(from, SIZE_MAX, NULL);
		if (!node || push_exec_node(e, cap, node) != 0) {
			if (node)
				free_node(node);
			status = -1;
		}
	}
	free(order);
	return status;
}

/*
 * e's copy of g, as the H200 made it (see struct CUgraphExec_st): first
 * every node of g cloned, in creation order, each reported (a child graph
 * node after its embedded graph's clone, whose nodes are reported first);
 * then, in a topological order, the clones run, a child graph node's
 * embedded clone flattened in its place (flatten_embedded). Caller holds
 * sim_lock; -1 when out of memory.
 */
static int clone_into_exec(struct CUgraphExec_st *e, const struct CUgraph_st *g,
			   struct clone_list *reports)
{
	size_t n = g->n ? g->n : 1, cap = 0, n_children = 0;
	struct CUgraphNode_st **clones = calloc(n, sizeof(*clones));
	size_t *order = calloc(n, sizeof(*order));
	int status = clones && order && topological_order(g, order) == 0 ? 0 : -1;
	for (size_t i = 0; status == 0 && i < g->n; i++) {
		if (!(clones[i] = copy_node(g->nodes[i], i, reports))) {
			status = -1;
			break;
		}
		report_clone(reports, clones[i], e, g, e);
		n_children += clones[i]->op.kind == NODE_CHILD;
	}
	if (status == 0 && n_children &&
	    !(e->children = calloc(n_children, sizeof(*e->children))))
		status = -1;
	/* each clone taken by e (free_exec frees it) is NULL here */
	for (size_t i = 0; status == 0 && i < g->n; i++) {
		struct CUgraphNode_st *node = clones[order[i]];
		if (node->op.kind == NODE_CHILD) {
			e->children[e->n_children++] = node;
			clones[order[i]] = NULL;
			status = flatten_embedded(e, &cap, node->op.u.child);
		} else if (push_exec_node(e, &cap, node) == 0) {
			clones[order[i]] = NULL;
		} else {
			status = -1;
		}
	}
	for (size_t i = 0; clones && i < g->n; i++)
		if (clones[i])
			free_node(clones[i]);
	free(clones);
	free(order);
	return status;
}

/* The exec's copy of g (see clone_into_exec). Caller holds sim_lock. */
static struct CUgraphExec_st *new_exec(const struct CUgraph_st *g, struct clone_list *reports)
{
	struct CUgraphExec_st *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	/* numbered before the clones of embedded graphs, as on the H200 */
	e->id = ++last_graph_id;
	reports->exec = e;
	reports->graph = g;
	if (clone_into_exec(e, g, reports) != 0) {
		free_exec(e);
		return NULL;
	}
	e->magic = SIM_EXEC_MAGIC;
	e->graph_id = g->id;
	return e;
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
	struct clone_list reports;
	clone_list_init(&reports);
	if (!g)
		err = cudaErrorInvalidValue;
	/* cuda_runtime_api.h: a graph with memory nodes has at most one
	 * executable graph at a time (the error code is assumed). */
	for (struct CUgraphExec_st *x = live_execs; g && x && err == cudaSuccess; x = x->next)
		if (x->graph_id == g->id && has_memory_nodes(g))
			err = cudaErrorInvalidValue;
	if (err == cudaSuccess && !(e = new_exec(g, &reports)))
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		e->auto_free = (flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) != 0;
		e->next = live_execs;
		live_execs = e;
		*out = e;
	} else {
		reports.n = 0;
	}
	pthread_mutex_unlock(&sim_lock);
	deliver_clones(&reports);
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
	if (e)
		free_exec(e);
	pthread_mutex_unlock(&sim_lock);
	return e ? cudaSuccess : cudaErrorInvalidValue;
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

/* A copy or set of a graph launch reached graph memory that is not live:
 * a fault once the stream's work so far is done. Caller holds sim_lock. */
static void fault(struct CUstream_st *s)
{
	sim_arm_sticky_error(cudaErrorIllegalAddress, s->ready);
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
		graph_id = e->id;
		/* Parameters are not copied: kernels never read them. */
		for (size_t i = 0; i < n; i++)
			order[i] = (struct exec_node){ e->nodes[i]->id,
						       e->nodes[i]->op,
						       e->nodes[i]->disabled };
		for (size_t i = 0; err == cudaSuccess && i < n; i++)
			if (!order[i].disabled && (order[i].op.kind == NODE_MEMCPY ||
						   order[i].op.kind == NODE_MEMSET))
				err = check_op(&order[i].op, 1);
		/* cuda.h (cuGraphLaunch): an allocation of this exec still live
		 * from an earlier launch fails it, unless instantiated with
		 * AUTO_FREE_ON_LAUNCH: then it is freed first. */
		for (size_t i = 0; err == cudaSuccess && i < n; i++)
			if (order[i].op.kind == NODE_MEM_ALLOC && order[i].op.u.mem->live &&
			    !e->auto_free)
				err = cudaErrorInvalidValue;
		for (size_t i = 0; err == cudaSuccess && i < n; i++)
			if (order[i].op.kind == NODE_MEM_ALLOC && order[i].op.u.mem->live)
				sim_graph_mem_unmap(order[i].op.u.mem);
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
		if (order[i].disabled)
			continue; /* an empty node (cuda.h): no work, no record */
		switch (op->kind) {
		case NODE_KERNEL:
			run_kernel(s, &op->u.launch, w);
			break;
		case NODE_MEMCPY:
			w->kind = SIMGPU_WORK_MEMCPY;
			w->is_async = 1;
			if (sim_copy_locked(s, &op->u.copy, 1, w, &end) != cudaSuccess)
				fault(s);
			break;
		case NODE_MEMSET:
			w->kind = SIMGPU_WORK_MEMSET;
			w->is_async = 1;
			if (sim_set_locked(s, &op->u.set, 1, w) != cudaSuccess)
				fault(s);
			break;
		case NODE_MEM_ALLOC:
			/* Out of device memory: the allocation stays unmapped and
			 * what uses it faults (assumed; a real launch would fail). */
			sim_graph_mem_map(op->u.mem);
			continue;
		case NODE_MEM_FREE:
			/* Not live (freed already by cudaFree): nothing to do
			 * (assumed; undefined on a real GPU). */
			sim_graph_mem_unmap(op->u.mem);
			continue;
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
		case NODE_CHILD:
			continue; /* never in an exec: flattened when instantiated */
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
			     dim3 grid, dim3 block, size_t shared_mem,
			     void **args)
{
	if (!s->capture)
		return 0;
	struct node_op op = { .kind = NODE_KERNEL,
			      .u.launch = { func, grid, block,
					    (unsigned int)shared_mem, 0, NULL } };
	/* Out of host memory: the node is lost (as a real capture would be
	 * invalidated); the launch still reports success. */
	if (copy_params(&op.u.launch, args) == 0 &&
	    capture_append(s, op) != cudaSuccess)
		release_op(&op);
	return 1;
}

/*
 * cuMemAllocAsync on a capturing stream: an alloc node (its allocation
 * reserved now, address fixed) instead of an allocation; cuMemFreeAsync:
 * a free node, for an address an alloc node returned (anything else is
 * cudaErrorInvalidValue, assumed). Pools are not looked at: the graph's
 * allocations are its own (as a real capture makes them).
 */
cudaError_t sim_graph_capture_alloc(struct CUstream_st *s, uint64_t size,
				    uint64_t *va)
{
	struct sim_graph_alloc *a;
	cudaError_t err = sim_graph_mem_reserve(size, &a);
	if (err != cudaSuccess)
		return err;
	struct node_op op = { .kind = NODE_MEM_ALLOC, .u.mem = a };
	err = capture_append(s, op);
	if (err == cudaSuccess)
		*va = a->va;
	return err;
}

cudaError_t sim_graph_capture_free(struct CUstream_st *s, const void *p)
{
	struct sim_graph_alloc *a = sim_graph_mem_at(p);
	if (!a || a->va != (uint64_t)(uintptr_t)p || graph_frees(s->capture, a))
		return cudaErrorInvalidValue;
	struct node_op op = { .kind = NODE_MEM_FREE, .u.mem = a };
	return capture_append(s, op);
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

/* ---- node parameters, updates, ids and capture queries ---- */

/* The live graph holding node, and its index there. Caller holds sim_lock. */
static struct CUgraph_st *graph_of_node(const void *node, size_t *index)
{
	for (struct CUgraph_st *g = live_graphs; g; g = g->next) {
		size_t i = node_index(g, (CUgraphNode)node);
		if (i < g->n) {
			*index = i;
			return g;
		}
	}
	return NULL;
}

cudaError_t sim_graph_node_type(CUgraphNode node, int *type)
{
	if (!node || !type)
		return cudaErrorInvalidValue;
	size_t i;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph_of_node(node, &i);
	if (g)
		*type = node_type_of(g->nodes[i]->op.kind);
	pthread_mutex_unlock(&sim_lock);
	return g ? cudaSuccess : cudaErrorInvalidValue;
}

/*
 * The node's kernel: params point to the node's own copy of the values
 * (valid while the node lives and keeps them; cuda.h gives no lifetime,
 * assumed). Not a kernel node: cudaErrorInvalidValue.
 */
cudaError_t sim_graph_kernel_node_get(CUgraphNode node, struct sim_kernel_node *out)
{
	if (!node || !out)
		return cudaErrorInvalidValue;
	size_t i;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph_of_node(node, &i);
	if (!g || g->nodes[i]->op.kind != NODE_KERNEL)
		err = cudaErrorInvalidValue;
	else {
		const struct kernel_launch *k = &g->nodes[i]->op.u.launch;
		*out = (struct sim_kernel_node){ k->func, k->grid, k->block,
						 k->shared_mem, k->params };
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* Checks p as a launch and makes it op's kernel (parameters copied).
 * Caller holds sim_lock. */
static cudaError_t set_kernel_op(struct node_op *op, const struct sim_kernel_node *p,
				 int has_args)
{
	struct node_op next = { .kind = NODE_KERNEL,
				.u.launch = { p->func, p->grid, p->block,
					      p->shared_mem, 0, NULL } };
	cudaError_t err = check_op(&next, has_args);
	if (err != cudaSuccess)
		return err;
	if (copy_params(&next.u.launch, p->params) != 0)
		return cudaErrorMemoryAllocation;
	release_op(op);
	*op = next;
	return cudaSuccess;
}

cudaError_t sim_graph_kernel_node_set(CUgraphNode node, const struct sim_kernel_node *p,
				      int has_args)
{
	if (!node || !p)
		return cudaErrorInvalidValue;
	size_t i;
	cudaError_t err;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph_of_node(node, &i);
	if (!g || g->nodes[i]->op.kind != NODE_KERNEL)
		err = cudaErrorInvalidValue;
	else
		err = set_kernel_op(&g->nodes[i]->op, p, has_args);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/*
 * cuGraphExecKernelNodeSetParams: node is the node of the graph exec was
 * instantiated from (still alive); the exec's copy of it takes p; the
 * graph's node keeps its own. Assumed beyond cuda.h's list: a node that is
 * not a kernel node of that graph, or a dead exec, is
 * cudaErrorInvalidValue; the function may change (cuda.h allows it within
 * one context, and there is one context here).
 */
cudaError_t sim_graph_exec_kernel_node_set(CUgraphExec exec, CUgraphNode node,
					   const struct sim_kernel_node *p, int has_args)
{
	if (!exec || !node || !p)
		return cudaErrorInvalidValue;
	size_t gi;
	cudaError_t err = cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUgraphExec_st *e = find_exec(exec);
	struct CUgraph_st *g = graph_of_node(node, &gi);
	for (size_t i = 0; e && g && g->id == e->graph_id && i < e->n; i++)
		if (e->nodes[i]->origin == node &&
		    e->nodes[i]->origin_id == g->nodes[gi]->id) {
			if (e->nodes[i]->op.kind == NODE_KERNEL)
				err = set_kernel_op(&e->nodes[i]->op, p, has_args);
			break;
		}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/*
 * cuGraphNodeSetParams / cuGraphExecNodeSetParams of a copy or set node:
 * the graph's node (exec NULL) or the exec's copy of it takes copy (a copy
 * node) or set (a set node), checked as when a node is added; a node of
 * another kind, or a dead exec, is cudaErrorInvalidValue. Assumed, simpler
 * than cuda.h: an exec's copy may take any copy or set (the real driver
 * allows only 1-D address changes within one context; there is one here).
 */
cudaError_t sim_graph_copy_node_set(CUgraphExec exec, CUgraphNode node,
				    const struct sim_copy_args *copy,
				    const struct sim_set_args *set)
{
	if (!node || !copy == !set)
		return cudaErrorInvalidValue;
	struct node_op next = copy ? (struct node_op){ .kind = NODE_MEMCPY, .u.copy = *copy }
				   : (struct node_op){ .kind = NODE_MEMSET, .u.set = *set };
	size_t gi;
	cudaError_t err = cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUgraph_st *g = graph_of_node(node, &gi);
	struct node_op *target = NULL;
	if (g && !exec)
		target = &g->nodes[gi]->op;
	struct CUgraphExec_st *e = exec && g ? find_exec(exec) : NULL;
	for (size_t i = 0; e && g->id == e->graph_id && i < e->n; i++)
		if (e->nodes[i]->origin == node && e->nodes[i]->origin_id == g->nodes[gi]->id) {
			target = &e->nodes[i]->op;
			break;
		}
	if (target && target->kind == next.kind) {
		err = check_op(&next, 1);
		if (err == cudaSuccess)
			*target = next;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/* The exec's node cloned from the graph's node of creation index i. */
static struct CUgraphNode_st *exec_node_of(const struct CUgraphExec_st *e, size_t i)
{
	for (size_t k = 0; k < e->n; k++)
		if (e->nodes[k]->origin_index == i)
			return e->nodes[k];
	return NULL;
}

/*
 * cuGraphExecUpdate: the exec takes the parameters of graph's nodes, which
 * must be topologically identical. Pairing (assumed, simpler than the
 * driver's edge-order matching, and the same for graphs built alike): the
 * graph's i-th node in creation order with the exec's clone of the i-th
 * node of the graph it was instantiated from. Checked, with the result
 * codes cuda.h names: the node count (TOPOLOGY_CHANGED, no error node),
 * each pair's type (NODE_TYPE_CHANGED), dependencies (TOPOLOGY_CHANGED,
 * the graph's node, and the dependency that differs as from-node), a
 * copy's memory types (PARAMETERS_CHANGED). Nothing is changed unless
 * every pair passes: then CUDA_SUCCESS and every exec node takes its
 * pair's parameters (kernels, copies, sets, host functions alike).
 */
cudaError_t sim_graph_exec_update(CUgraphExec exec, CUgraph graph,
				  struct sim_update_result *r)
{
	if (!r)
		return cudaErrorInvalidValue;
	*r = (struct sim_update_result){ CU_GRAPH_EXEC_UPDATE_ERROR, NULL, NULL };
	if (!exec || !graph)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUgraphExec_st *e = find_exec(exec);
	struct CUgraph_st *g = find_graph(graph);
	if (!e || !g) {
		pthread_mutex_unlock(&sim_lock);
		return cudaErrorInvalidValue;
	}
	/* Graphs with child graph nodes are not updated here (assumed
	 * acceptable: cuda.h lets a driver refuse what it does not support). */
	for (size_t i = 0; i < g->n && err == cudaSuccess; i++)
		if (g->nodes[i]->op.kind == NODE_CHILD) {
			r->result = CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED;
			r->error_node = g->nodes[i];
			err = cudaErrorGraphExecUpdateFailure;
		}
	for (size_t i = 0; i < e->n && err == cudaSuccess; i++)
		if (e->nodes[i]->origin_index == SIZE_MAX) {
			r->result = CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED;
			err = cudaErrorGraphExecUpdateFailure;
		}
	if (err == cudaSuccess && g->n != e->n) {
		r->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
		err = cudaErrorGraphExecUpdateFailure;
	}
	for (size_t i = 0; err == cudaSuccess && i < g->n; i++) {
		const struct CUgraphNode_st *want = g->nodes[i];
		const struct CUgraphNode_st *have = exec_node_of(e, i);
		int code = CU_GRAPH_EXEC_UPDATE_SUCCESS;
		if (!have || have->op.kind != want->op.kind)
			code = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
		else if (have->ndeps != want->ndeps)
			code = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
		for (size_t d = 0; code == CU_GRAPH_EXEC_UPDATE_SUCCESS && d < want->ndeps; d++)
			if (have->deps[d] != want->deps[d]) {
				code = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
				r->error_from_node = g->nodes[want->deps[d]];
			}
		/* a memory node keeps its allocation (assumed: cuda.h lists
		 * no update of memory nodes) */
		if (code == CU_GRAPH_EXEC_UPDATE_SUCCESS &&
		    (want->op.kind == NODE_MEM_ALLOC || want->op.kind == NODE_MEM_FREE) &&
		    have->op.u.mem != want->op.u.mem)
			code = CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
		if (code == CU_GRAPH_EXEC_UPDATE_SUCCESS && want->op.kind == NODE_MEMCPY &&
		    (have->op.u.copy.want_src != want->op.u.copy.want_src ||
		     have->op.u.copy.want_dst != want->op.u.copy.want_dst))
			code = CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
		if (code != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
			r->result = code;
			r->error_node = (CUgraphNode)want;
			err = cudaErrorGraphExecUpdateFailure;
		}
	}
	/* Copies first, so that running out of memory changes nothing. */
	struct node_op *next = NULL;
	if (err == cudaSuccess && g->n &&
	    !(next = calloc(g->n, sizeof(*next))))
		err = cudaErrorMemoryAllocation;
	size_t copied = 0;
	while (err == cudaSuccess && copied < g->n &&
	       dup_op(&next[copied], &g->nodes[copied]->op) == 0)
		copied++;
	if (err == cudaSuccess && copied < g->n)
		err = cudaErrorMemoryAllocation;
	if (err == cudaSuccess) {
		for (size_t i = 0; i < g->n; i++) {
			struct CUgraphNode_st *have = exec_node_of(e, i);
			release_op(&have->op);
			have->op = next[i];
		}
		r->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
	} else {
		for (size_t i = 0; i < copied; i++)
			release_op(&next[i]);
	}
	pthread_mutex_unlock(&sim_lock);
	free(next);
	return err;
}

/*
 * The ids CUPTI reports (cuptiGetGraphNodeId, cuptiGetGraphId,
 * cuptiGetGraphExecId): what 0 node, 1 graph, 2 exec. Handles are looked
 * up in the live lists first. Returns 0, or -1 for an unknown handle.
 */
int simgpu_internal_graph_object_id(int what, const void *handle, uint64_t *id);
int simgpu_internal_graph_object_id(int what, const void *handle, uint64_t *id)
{
	int found = 0;
	pthread_mutex_lock(&sim_lock);
	if (what == 1) {
		struct CUgraph_st *g = handle ? find_graph((CUgraph)handle) : NULL;
		if (g)
			*id = g->id, found = 1;
	} else if (what == 2) {
		struct CUgraphExec_st *e = handle ? find_exec((CUgraphExec)handle) : NULL;
		if (e)
			*id = e->id, found = 1;
	} else {
		size_t i;
		struct CUgraph_st *g = handle ? graph_of_node(handle, &i) : NULL;
		if (g)
			*id = g->nodes[i]->id, found = 1;
		for (struct CUgraphExec_st *e = live_execs; !found && handle && e; e = e->next) {
			for (size_t k = 0; !found && k < e->n; k++)
				if (e->nodes[k] == handle)
					*id = e->nodes[k]->id, found = 1;
			for (size_t k = 0; !found && k < e->n_children; k++)
				if (e->children[k] == handle)
					*id = e->children[k]->id, found = 1;
		}
	}
	pthread_mutex_unlock(&sim_lock);
	return found ? 0 : -1;
}

/*
 * cuStreamGetCaptureInfo_v3: whether the stream captures, the capture's id
 * (the graph's id here: unique per capture, assumed), its graph and the
 * nodes its next captured work will depend on (an array the graph owns,
 * valid until the next call on the stream, as cuda.h says). Edge data is
 * never set (NULL: default edges). A capture that was invalidated is not
 * modelled.
 */
cudaError_t sim_stream_capture_info(cudaStream_t stream, int per_thread_default,
				    int *status, uint64_t *id, CUgraph *graph,
				    const CUgraphNode **deps, size_t *ndeps)
{
	if (!status)
		return cudaErrorInvalidValue;
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, per_thread_default);
	struct CUgraph_st *g = s ? s->capture : NULL;
	if (!s)
		err = cudaErrorInvalidResourceHandle;
	else if (g && deps) {
		CUgraphNode *scratch = realloc(g->dep_scratch, (s->ncapture_deps ? s->ncapture_deps : 1) *
							     sizeof(*scratch));
		if (!scratch)
			err = cudaErrorMemoryAllocation;
		else {
			g->dep_scratch = scratch;
			for (size_t i = 0; i < s->ncapture_deps; i++)
				scratch[i] = g->nodes[s->capture_deps[i]];
		}
	}
	if (err == cudaSuccess) {
		*status = g ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
		if (id && g)
			*id = g->id;
		if (graph)
			*graph = g;
		if (deps)
			*deps = g ? g->dep_scratch : NULL;
		if (ndeps)
			*ndeps = g ? s->ncapture_deps : 0;
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

/*
 * cuGraphNodeSetEnabled / cuGraphNodeGetEnabled: node is the node of the
 * graph exec was instantiated from (still alive); the exec's copy of it
 * runs nothing at the exec's later launches while disabled ("functionally
 * equivalent to empty nodes", cuda.h), its parameters kept. Only kernel,
 * memset and memcpy nodes (cuda.h's note); anything else, a node of
 * another graph, or a dead exec: cudaErrorInvalidValue, the one error
 * cuda.h lists (assumed to be the one a real driver gives for each).
 * cuGraphExecUpdate keeps the state (assumed: cuda.h says nothing).
 */
static struct CUgraphNode_st *switchable_exec_node(CUgraphExec exec, CUgraphNode node)
{
	size_t gi;
	struct CUgraphExec_st *e = find_exec(exec);
	struct CUgraph_st *g = node ? graph_of_node(node, &gi) : NULL;
	for (size_t i = 0; e && g && g->id == e->graph_id && i < e->n; i++)
		if (e->nodes[i]->origin == node && e->nodes[i]->origin_id == g->nodes[gi]->id) {
			enum node_kind kind = e->nodes[i]->op.kind;
			return kind == NODE_KERNEL || kind == NODE_MEMCPY || kind == NODE_MEMSET ?
				e->nodes[i] : NULL;
		}
	return NULL;
}

cudaError_t sim_graph_node_set_enabled(CUgraphExec exec, CUgraphNode node, int enabled)
{
	pthread_mutex_lock(&sim_lock);
	struct CUgraphNode_st *n = switchable_exec_node(exec, node);
	if (n)
		n->disabled = !enabled;
	pthread_mutex_unlock(&sim_lock);
	return n ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t sim_graph_node_get_enabled(CUgraphExec exec, CUgraphNode node, int *enabled)
{
	if (!enabled)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	struct CUgraphNode_st *n = switchable_exec_node(exec, node);
	if (n)
		*enabled = !n->disabled;
	pthread_mutex_unlock(&sim_lock);
	return n ? cudaSuccess : cudaErrorInvalidValue;
}
