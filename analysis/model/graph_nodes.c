/*
 * CUDA graph nodes in the model (trace format 4, tracepoints/README.md
 * "CUDA graphs"): which call each graph node takes its tensors (and their
 * roles) from, followed through stream capture (captured_node: the launch
 * or library call the node came from), explicit parameters (graph_node:
 * the event's own tensors), clones and instantiation (graph_node_clone:
 * the copy takes the original's source as it is then), parameter updates
 * of an exec's node (graph_node with an exec) and whole-exec updates
 * (graph_exec_update); and, at each graph launch, a snapshot of the
 * sources of the exec's nodes, so every kernel of that launch gets the
 * tensors its node had then, whatever changes later. Graph memory (format
 * 5, graph_mem_node): an alloc node's allocation has one id in the trace,
 * and each launch of its graph makes it a tensor of its own (a lifetime),
 * which the launch's kernels, and ordinary calls while it lives, use; a
 * free node ends it when the launch's last GPU work ends (dt_graph_finish),
 * a cudaFree / cudaFreeAsync of it at that call. Must never decide roles
 * or touch groups: group_build.c turns a source into touches.
 *
 * Assumed, not recorded: where in its launch an alloc or free node runs
 * (the trace has no records of memory nodes and no dependency edges): a
 * lifetime begins at the launch call and ends with the launch's last GPU
 * work, so it covers every kernel of the launch, as a real allocation
 * ordered before its users and freed after them does, and may be longer.
 *
 * Seen on an H200 (CUPTI 13.0, 2026-11-27): CUPTI's kernel records of a
 * launch carry the id of the exec's copy of a node (the node the
 * GRAPHNODE_CLONED callback names). A clone with no exec (a trace of a
 * tracer older than 1787bc8 on a real GPU, where CUPTI named none, or one
 * made outside every instantiation the tracer brackets) belongs to no
 * exec: that exec's kernels have unknown tensors, counted in the summary,
 * never guessed. Assumed, not seen: cudaGraphExecUpdate pairs
 * the new graph's nodes, in cuGraphGetNodes order, with the exec's in the
 * order of their originals' ids (both orders the nodes' creation order).
 *
 * Child graphs (dt_graph_resolve_flattened). Seen on an H200 (CUDA 13.0,
 * CUPTI 13.0.1, 2026-11-28, tests/gpu/probe_graph_callbacks.cu), and only
 * there: cudaGraphAddChildGraphNode copies the child into an embedded
 * graph (a clone, no exec); instantiation clones that embedded graph again
 * and the parent's nodes, the child node included (clones of the exec);
 * then it flattens the child's kernels into the exec under ids of their
 * own, for which CUPTI raises no callback, and the kernel records of a
 * launch carry those ids. So such a record names a node no event names.
 * The rule: for a kernel record of a launch of exec E whose node id no
 * captured, node, clone or memory node event names, the candidates are
 * E's nodes at that launch (its clones) whose source is known (the clone
 * chain, clone -> original -> ..., ends at a node event or a captured
 * call: the source travels down the chain), that run a kernel, that are
 * not disabled at that launch (format 8: cudaGraphNodeSetEnabled and
 * cuGraphNodeSetEnabled are traced, graph_node_enable, and a launch keeps
 * the state each node had at its call: a disabled node runs nothing, so
 * its clone is uncarried there too, and were it a candidate a child's
 * record of the same kernel could take its tensors), and whose
 * own id no kernel record of the process carries. The record takes a
 * candidate only when, in its launch, it is the one unnamed record with
 * its kernel's name and that candidate the one candidate that may run a
 * kernel of that name (a candidate whose kernel the trace does not name,
 * a captured library call's, may run any: it blocks, never resolves).
 * Grid and block are not compared: node events do not carry them. Each
 * candidate is thus taken at most once per launch; anything else stays
 * unknown (counted in the summary, touching every live tensor), as before.
 * Why it is sound, on what the H200 showed: every node E runs has a
 * kernel record per launch; a record of one of E's own nodes carries that
 * clone's id, so a clone no record carries is a node E does not run under
 * its own id, i.e. one of the copies of an embedded graph's nodes; and the
 * flattened kernel runs the same function as the embedded copy it was
 * made from. Where records were lost (CUPTI's dropped count, damaged
 * records, events the trace discarded), a clone of E's own could go
 * uncarried for that reason alone, so nothing is resolved then. A disabled
 * node runs nothing (CUDA's documentation: "functionally equivalent to
 * empty nodes"), so it is never a candidate while disabled; a trace of
 * format 7 or older does not say which nodes are disabled, and there a
 * disabled node of the same kernel as a child's makes that launch
 * ambiguous (unknown) or, where the child's own copy is no candidate,
 * wrong. Assumed, not seen: a node inside a conditional node would also
 * be an uncarried clone; conditional nodes are not traced, and such a
 * node only misleads where it runs the same kernel as the one child
 * kernel of its name whose source is unknown.
 * The node id layout (graph id << 32 | index on the H200) is undocumented
 * and never relied on.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/model/graph_nodes.h"

#include "analysis/model/api_names.h"

#include "tracepoints/dnntrace_enums.h"
#include "tracepoints/entry_kinds.h"

static struct dt_exec *find_exec(struct dt_process *p, uint64_t exec, bool create)
{
	uint64_t index;
	if (dt_u64map_get(&p->exec_index, exec, &index))
		return &p->execs[index];
	if (!create)
		return NULL;
	struct dt_exec *e = DT_PUSH_SLOT(p->execs, p->n_execs, p->cap_execs);
	memset(e, 0, sizeof(*e));
	e->exec = exec;
	dt_u64map_put(&p->exec_index, exec, p->n_execs - 1);
	return e;
}

/* Whether a graph_node event gives a copy or set node (its first tensor
 * written at every launch): by its entry point's kind, or, for the generic
 * node API (GRAPH_ANY_NODE), by naming no function (tracepoints/README.md:
 * the tracer writes a kernel it could not name with no tensors). */
static bool is_copy_node_event(int api, uint64_t function_id)
{
	enum dnntrace_entry_kind kind = dnntrace_api_kind(api);
	return kind == DNNTRACE_KIND_GRAPH_COPY_NODE ||
	       (kind == DNNTRACE_KIND_GRAPH_ANY_NODE && function_id == 0);
}

static uint64_t source_of(const struct dt_process *p, uint64_t node)
{
	uint64_t source = 0;
	dt_u64map_get(&p->node_source, node, &source);
	return source;
}

static void on_captured_node(struct dt_process *p, uint64_t call_id, uint64_t node_id)
{
	dt_u64map_put(&p->captured_calls, call_id, 1);
	if (node_id)
		dt_u64map_put(&p->node_source, node_id, call_id);
}

static void on_graph_node(struct dt_process *p, uint64_t call_id, int api, uint64_t exec,
		uint64_t node_id, uint64_t function_id, const int64_t *tensors,
		uint32_t n_tensors, int result)
{
	if (result != 0 || !node_id)
		return;
	struct dt_node_call *c = DT_PUSH_SLOT(p->node_calls, p->n_node_calls,
			p->cap_node_calls);
	c->call_id = call_id;
	c->api = api;
	c->tensors_at = p->n_launch_tensors;
	c->n_tensors = n_tensors;
	c->mem = 0;
	c->function_id = function_id;
	c->copied_from = 0;
	c->copy = is_copy_node_event(api, function_id);
	for (uint32_t i = 0; i < n_tensors; i++)
		*DT_PUSH_SLOT(p->launch_tensors, p->n_launch_tensors,
				p->cap_launch_tensors) = tensors[i];
	dt_u64map_put(&p->node_call_index, call_id, p->n_node_calls - 1);
	if (!exec) {
		dt_u64map_put(&p->node_source, node_id, call_id);
		return;
	}
	/* the exec's copy of node_id (the node of the graph it came from) */
	struct dt_exec *e = find_exec(p, exec, false);
	for (size_t i = 0; e && i < e->n_nodes; i++)
		if (e->nodes[i].original == node_id)
			dt_u64map_put(&p->node_source, e->nodes[i].node, call_id);
}

/* An alloc or free node: a node call with the allocation's id as its one
 * tensor (keyed by the call, or by the node for a captured allocation,
 * whose event has no call id); an alloc node's allocation becomes known. */
static void on_graph_mem_node(struct dt_process *p, const struct dt_event *e)
{
	if (e->result != 0 || !e->node_id || e->tensor < 0)
		return;
	uint64_t key = e->call_id ? e->call_id : (1ULL << 63) | e->node_id;
	struct dt_node_call *c = DT_PUSH_SLOT(p->node_calls, p->n_node_calls,
			p->cap_node_calls);
	*c = (struct dt_node_call){key, e->api, p->n_launch_tensors, 1,
		e->is_free ? DT_MEM_NODE_FREE : DT_MEM_NODE_ALLOC, 0, 0, false};
	*DT_PUSH_SLOT(p->launch_tensors, p->n_launch_tensors, p->cap_launch_tensors) =
		e->tensor;
	dt_u64map_put(&p->node_call_index, key, p->n_node_calls - 1);
	dt_u64map_put(&p->node_source, e->node_id, key);
	uint64_t index;
	if (e->is_free || dt_u64map_get(&p->graph_alloc_index, (uint64_t)e->tensor, &index))
		return;
	/* The event names no device: the process's last allocation's
	 * (device 0 before any; assumed, one device is the common case). */
	*DT_PUSH_SLOT(p->graph_allocs, p->n_graph_allocs, p->cap_graph_allocs) =
		(struct dt_graph_alloc){e->tensor, e->bytes, e->ptr,
			p->last_alloc_device >= 0 ? p->last_alloc_device : 0, -1, 0};
	dt_u64map_put(&p->graph_alloc_index, (uint64_t)e->tensor, p->n_graph_allocs - 1);
}

static struct dt_graph_alloc *graph_alloc(const struct dt_process *p, int64_t id)
{
	uint64_t index;
	return id >= 0 && dt_u64map_get(&p->graph_alloc_index, (uint64_t)id, &index) ?
		&p->graph_allocs[index] : NULL;
}

int64_t dt_graph_live_tensor(const struct dt_process *p, int64_t id)
{
	const struct dt_graph_alloc *a = p->n_graph_allocs ? graph_alloc(p, id) : NULL;
	return a && a->live >= 0 ? a->live : id;
}

int64_t dt_graph_on_free(struct dt_process *p, int64_t id)
{
	struct dt_graph_alloc *a = p->n_graph_allocs ? graph_alloc(p, id) : NULL;
	if (!a || a->live < 0)
		return id;
	int64_t live = a->live;
	a->live = -1;
	return live;
}

/* The node call of a launch node's source, if the source is one. */
static const struct dt_node_call *node_call_of(const struct dt_process *p, uint64_t source)
{
	uint64_t index;
	return dt_u64map_get(&p->node_call_index, source, &index) ? &p->node_calls[index] : NULL;
}

/* A new lifetime of a, begun by the graph launch l at ts. */
static void begin_lifetime(struct dt_process *p, struct dt_graph_alloc *a,
		const struct dt_launch *l, uint64_t ts)
{
	if (a->live >= 0) /* still live: the launch freed it first
			   * (AUTO_FREE_ON_LAUNCH: it succeeded) */
		dt_process_tensor(p, a->live)->free_ns = ts;
	int64_t id = (int64_t)((++p->graph_lifetimes << 32) | ((uint64_t)a->id & 0xffffffffu));
	struct dt_tensor *t = dt_process_tensor(p, id);
	t->bytes = a->bytes;
	t->device = a->device;
	t->kind = DNNTRACE_MEM_STREAM_ORDERED;
	t->ptr = a->ptr;
	t->stream = l->stream;
	t->alloc_ns = ts;
	t->allocated = true;
	a->live = id;
	a->lifetimes++;
}

/*
 * A launch node whose source's tensors include a graph allocation takes,
 * at this launch, a copy of that source with the allocation's live
 * lifetime in its place (a new node call, keyed (1 << 62) | n). A launch
 * source (a captured kernel launch) is copied likewise; a captured library
 * call is left as it is (its roles would be lost): its uses of graph
 * memory are not seen.
 */
static void use_lifetimes(struct dt_process *p, struct dt_launch_node *node)
{
	uint64_t index;
	const struct dt_node_call *c = node_call_of(p, node->source_call);
	size_t at;
	uint32_t n;
	int api;
	bool copy = c && c->copy;
	if (c && c->mem)
		return;
	if (c) {
		at = c->tensors_at, n = c->n_tensors, api = c->api;
	} else if (dt_u64map_get(&p->launch_index, node->source_call, &index)) {
		at = p->launches[index].tensors_at, n = p->launches[index].n_tensors;
		api = p->launches[index].api;
	} else {
		return;
	}
	bool uses = false;
	for (uint32_t i = 0; i < n && !uses; i++)
		uses = dt_graph_live_tensor(p, p->launch_tensors[at + i]) != p->launch_tensors[at + i];
	if (!uses)
		return;
	uint64_t key = (1ULL << 62) | ++p->graph_node_copies;
	size_t copy_at = p->n_launch_tensors;
	for (uint32_t i = 0; i < n; i++) {
		int64_t id = p->launch_tensors[at + i];
		*DT_PUSH_SLOT(p->launch_tensors, p->n_launch_tensors, p->cap_launch_tensors) =
			dt_graph_live_tensor(p, id);
	}
	*DT_PUSH_SLOT(p->node_calls, p->n_node_calls, p->cap_node_calls) =
		(struct dt_node_call){key, api, copy_at, n, 0, c ? c->function_id : 0,
			c && c->copied_from ? c->copied_from : node->source_call, copy};
	dt_u64map_put(&p->node_call_index, key, p->n_node_calls - 1);
	node->source_call = key;
}

/*
 * Graph memory at a launch: every alloc node's allocation gets a new
 * lifetime, every node using graph memory the live lifetimes, and every
 * free node's allocation's lifetime ends with this launch's GPU work.
 */
static void launch_graph_memory(struct dt_process *p, struct dt_launch *l, uint64_t ts)
{
	struct dt_launch_node *nodes = &p->launch_nodes[l->nodes_at];
	bool any = false;
	for (size_t i = 0; i < l->n_nodes; i++) {
		const struct dt_node_call *c = node_call_of(p, nodes[i].source_call);
		struct dt_graph_alloc *a;
		if (c && c->mem == DT_MEM_NODE_ALLOC &&
		    (a = graph_alloc(p, p->launch_tensors[c->tensors_at]))) {
			begin_lifetime(p, a, l, ts);
			any = true;
		}
		any = any || (c && c->mem == DT_MEM_NODE_FREE);
	}
	for (size_t i = 0; i < l->n_nodes && (any || p->n_graph_allocs); i++)
		use_lifetimes(p, &nodes[i]);
	for (size_t i = 0; i < l->n_nodes; i++) {
		const struct dt_node_call *c = node_call_of(p, nodes[i].source_call);
		struct dt_graph_alloc *a;
		if (c && c->mem == DT_MEM_NODE_FREE &&
		    (a = graph_alloc(p, p->launch_tensors[c->tensors_at])) && a->live >= 0) {
			*DT_PUSH_SLOT(p->graph_ends, p->n_graph_ends, p->cap_graph_ends) =
				(struct dt_graph_end){a->live, l->call_id, ts, l->stream};
			a->live = -1;
		}
	}
}

/*
 * A graph allocation's next lifetime begins when its launch's stream gets
 * there, never before the previous one ended (a launch with its allocation
 * still live fails; the stream runs the launches in order): a launch call
 * made while the stream still runs the previous launch begins its lifetime
 * when that one's ends. Lifetimes are in creation order in p->tensors,
 * one address per graph allocation.
 */
static void order_lifetimes(struct dt_process *p)
{
	struct dt_u64map last_free = {0};
	for (size_t i = 0; i < p->n_tensors; i++) {
		struct dt_tensor *t = &p->tensors[i];
		uint64_t was;
		if (t->id < (int64_t)(1LL << 32) || !graph_alloc(p, t->id & 0xffffffff))
			continue;
		if (dt_u64map_get(&last_free, t->ptr, &was) && was != DT_NO_TIME &&
		    was > t->alloc_ns)
			t->alloc_ns = was;
		if (t->free_ns != DT_NO_TIME && t->free_ns < t->alloc_ns)
			t->free_ns = t->alloc_ns;
		dt_u64map_put(&last_free, t->ptr, t->free_ns);
	}
	dt_u64map_free(&last_free);
}

/* The start of the first and the end of the last GPU work (kernels,
 * copies, sets) of each call, by call id. */
static void gpu_span_of_calls(const struct dt_process *p, struct dt_u64map *first_start,
		struct dt_u64map *last_end)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t n = pass ? p->n_gpu_copies : p->n_kernels;
		for (size_t i = 0; i < n; i++) {
			uint32_t correlation = pass ? p->gpu_copies[i].correlation_id :
				p->kernels[i].correlation_id;
			uint64_t start = pass ? p->gpu_copies[i].start : p->kernels[i].start;
			uint64_t end = pass ? p->gpu_copies[i].end : p->kernels[i].end, call, was;
			if (!dt_u64map_get(&p->call_of_correlation, correlation, &call))
				continue;
			if (!dt_u64map_get(last_end, call, &was) || end > was)
				dt_u64map_put(last_end, call, end);
			if (!dt_u64map_get(first_start, call, &was) || start < was)
				dt_u64map_put(first_start, call, start);
		}
	}
}

/* A copy or set node's write by a launch of unknown entry: just before
 * the launch's first GPU work recorded, which may be a kernel that reads
 * it (the node's own record missing), so that kernel reads it too; a
 * launch with no GPU work recorded ran no kernel to read it: its return
 * stands, as noted. */
static void date_graph_writes(struct dt_process *p, const struct dt_u64map *first_start)
{
	for (size_t i = 0; i < p->n_graph_writes; i++) {
		uint64_t start;
		if (dt_u64map_get(first_start, p->graph_writes[i].launch_call_id, &start) &&
		    start > 0)
			dt_process_note_write(p, p->graph_writes[i].tensor, start - 1);
	}
}

void dt_graph_finish(struct dt_process *p)
{
	if (!p->n_graph_ends && !p->n_graph_writes) {
		if (p->n_graph_allocs)
			order_lifetimes(p);
		return;
	}
	struct dt_u64map first_start = {0}, last_end = {0};
	gpu_span_of_calls(p, &first_start, &last_end);
	date_graph_writes(p, &first_start);
	dt_u64map_free(&first_start);
	for (size_t i = 0; i < p->n_graph_ends; i++) {
		const struct dt_graph_end *g = &p->graph_ends[i];
		struct dt_tensor *t = dt_process_find_tensor(p, g->tensor);
		uint64_t end;
		if (!t || t->free_ns != DT_NO_TIME)
			continue;
		if (dt_u64map_get(&last_end, g->launch_call_id, &end) && end > g->launch_ns) {
			t->free_ns = end;
			continue;
		}
		/* no GPU work recorded: freed when the launch's stream reaches
		 * the launch (stream_order.c), as a cudaFreeAsync there */
		t->free_ns = g->launch_ns;
		*DT_PUSH_SLOT(p->stream_calls, p->n_stream_calls, p->cap_stream_calls) =
			(struct dt_stream_call){(size_t)(t - p->tensors), g->stream, true};
	}
	dt_u64map_free(&last_end);
	order_lifetimes(p);
}

static void on_graph_node_clone(struct dt_process *p, uint64_t node_id,
		uint64_t original_node_id, uint64_t exec)
{
	if (!node_id)
		return;
	dt_u64map_put(&p->node_source, node_id, source_of(p, original_node_id));
	if (!exec)
		return;
	struct dt_exec *e = find_exec(p, exec, true);
	/* An original cloned into this handle again: a new exec reuses a
	 * destroyed one's handle; its nodes start afresh. */
	for (size_t i = 0; i < e->n_nodes; i++)
		if (e->nodes[i].original == original_node_id) {
			e->n_nodes = 0;
			break;
		}
	*DT_PUSH_SLOT(e->nodes, e->n_nodes, e->cap_nodes) =
		(struct dt_exec_node){original_node_id, node_id, false};
}

static int compare_originals(const void *a, const void *b)
{
	uint64_t x = ((const struct dt_exec_node *)a)->original;
	uint64_t y = ((const struct dt_exec_node *)b)->original;
	return x < y ? -1 : x > y;
}

static void on_graph_exec_update(struct dt_process *p, uint64_t exec,
		const int64_t *node_ids, uint32_t n_node_ids, int result)
{
	struct dt_exec *e = find_exec(p, exec, false);
	if (result != 0 || !e)
		return;
	struct dt_exec_node *pairs = dt_xmalloc(e->n_nodes * sizeof(*pairs) + 1);
	if (e->n_nodes)
		memcpy(pairs, e->nodes, e->n_nodes * sizeof(*pairs));
	dt_sort(pairs, e->n_nodes, sizeof(*pairs), compare_originals);
	/* A node the update cannot pair (more exec nodes than listed, an id
	 * CUPTI could not give) has unknown tensors from now on. */
	for (size_t i = 0; i < e->n_nodes; i++) {
		uint64_t source = i < n_node_ids && node_ids[i] > 0 ?
			source_of(p, (uint64_t)node_ids[i]) : 0;
		dt_u64map_put(&p->node_source, pairs[i].node, source);
	}
	free(pairs);
}

/*
 * cudaGraphNodeSetEnabled / cuGraphNodeSetEnabled: the exec's copy of the
 * graph's node runs nothing from the exec's next launch on (disabled) or
 * runs again, in call order; each launch's snapshot keeps the state it had
 * then. cudaGraphExecUpdate leaves the state as it is (assumed: CUDA's
 * documentation says nothing either way; a node wrongly held disabled is
 * harmless, its records carry its own id).
 */
static void on_graph_node_enable(struct dt_process *p, uint64_t exec, uint64_t node_id,
		bool enabled, int result)
{
	struct dt_exec *e = result == 0 && node_id ? find_exec(p, exec, false) : NULL;
	for (size_t i = 0; e && i < e->n_nodes; i++)
		if (e->nodes[i].original == node_id)
			e->nodes[i].disabled = !enabled;
}

static int compare_launch_nodes(const void *a, const void *b)
{
	uint64_t x = ((const struct dt_launch_node *)a)->node;
	uint64_t y = ((const struct dt_launch_node *)b)->node;
	return x < y ? -1 : x > y;
}

void dt_graph_on_launch(struct dt_process *p, uint64_t ts, uint64_t start_ns, uint64_t exec)
{
	struct dt_launch *l = &p->launches[p->n_launches - 1];
	struct dt_exec *e = l->result == 0 && exec ? find_exec(p, exec, false) : NULL;
	if (!e || !e->n_nodes)
		return;
	l->nodes_at = p->n_launch_nodes;
	l->n_nodes = (uint32_t)e->n_nodes;
	for (size_t i = 0; i < e->n_nodes; i++)
		*DT_PUSH_SLOT(p->launch_nodes, p->n_launch_nodes, p->cap_launch_nodes) =
			(struct dt_launch_node){e->nodes[i].node, source_of(p, e->nodes[i].node),
				e->nodes[i].disabled};
	dt_sort(&p->launch_nodes[l->nodes_at], l->n_nodes, sizeof(struct dt_launch_node),
			compare_launch_nodes);
	/* the call's entry: its GPU work may start before it returns */
	bool entry_known = start_ns && start_ns <= ts;
	uint64_t entry = entry_known ? start_ns : ts;
	launch_graph_memory(p, l, entry);
	/*
	 * A copy or set node writes its destination at every launch, before
	 * the kernels that depend on it: from this launch on it has been
	 * written (the first-use refinement of tensor_uses.c). Dated at the
	 * call's entry, never its return: the launch's GPU work may start,
	 * and a kernel read what the node wrote, before the call returns (a
	 * host slowed by load or ASan; seen on simgpu, where a kernel of a
	 * launch began 15.7 us before the launch's event). Dated at the
	 * return, that kernel's read was taken for a first write and its
	 * input lost. With no entry in the trace, dt_graph_finish dates it
	 * at the launch's first GPU work.
	 */
	for (size_t i = 0; i < l->n_nodes; i++) {
		uint64_t index;
		if (!dt_u64map_get(&p->node_call_index, p->launch_nodes[l->nodes_at + i].source_call,
				&index) || !p->node_calls[index].copy ||
		    !p->node_calls[index].n_tensors)
			continue;
		int64_t tensor = p->launch_tensors[p->node_calls[index].tensors_at];
		dt_process_note_write(p, tensor, entry);
		if (!entry_known)
			*DT_PUSH_SLOT(p->graph_writes, p->n_graph_writes, p->cap_graph_writes) =
				(struct dt_graph_write){tensor, l->call_id};
	}
}

void dt_graph_on_event(struct dt_process *p, const struct dt_event *e)
{
	switch (e->kind) {
	case DT_EVENT_CAPTURED_NODE:
		on_captured_node(p, e->call_id, e->node_id);
		break;
	case DT_EVENT_GRAPH_NODE:
		on_graph_node(p, e->call_id, e->api, e->graph_exec, e->node_id, e->name_id,
				e->tensors, e->n_tensors, e->result);
		break;
	case DT_EVENT_GRAPH_NODE_CLONE:
		on_graph_node_clone(p, e->node_id, e->original_node_id, e->graph_exec);
		break;
	case DT_EVENT_GRAPH_EXEC_UPDATE:
		on_graph_exec_update(p, e->graph_exec, e->tensors, e->n_tensors, e->result);
		break;
	case DT_EVENT_GRAPH_MEM_NODE:
		on_graph_mem_node(p, e);
		break;
	case DT_EVENT_GRAPH_NODE_ENABLE:
		on_graph_node_enable(p, e->graph_exec, e->node_id, e->enabled, e->result);
		break;
	default:
		break;
	}
}

/* The launch node of node_id at graph launch launch_index, or NULL. */
static const struct dt_launch_node *launch_node(const struct dt_process *p,
		size_t launch_index, uint64_t node_id)
{
	const struct dt_launch *l = &p->launches[launch_index];
	const struct dt_launch_node *nodes = p->launch_nodes ? &p->launch_nodes[l->nodes_at] : NULL;
	size_t lo = 0, hi = l->n_nodes;
	while (node_id && nodes && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (nodes[mid].node == node_id)
			return &nodes[mid];
		if (nodes[mid].node < node_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint64_t dt_process_graph_node_source(const struct dt_process *p, size_t launch_index,
		uint64_t node_id)
{
	const struct dt_launch_node *n = launch_node(p, launch_index, node_id);
	return n ? n->source_call : 0;
}

uint64_t dt_process_kernel_graph_node(const struct dt_process *p, size_t kernel_index)
{
	uint64_t node;
	if (p->n_kernels_flattened &&
	    dt_u64map_get(&p->flattened_nodes, kernel_index, &node))
		return node;
	return p->kernels[kernel_index].graph_node_id;
}

/*
 * The kernel a node runs whose tensors come from source: *kind
 * SOURCE_NOT_KERNEL (a copy, set or memory node, a captured copy or set:
 * their GPU work is copy and set records, assumed as CUPTI documents it),
 * SOURCE_ANY_KERNEL (a kernel the trace does not name: a captured library
 * call's, a kernel node of unknown function), or SOURCE_NAMED with its
 * name returned.
 */
enum source_kind { SOURCE_NOT_KERNEL, SOURCE_ANY_KERNEL, SOURCE_NAMED };

static const char *source_kernel(const struct dt_process *p, uint64_t source,
		enum source_kind *kind)
{
	const struct dt_node_call *c = node_call_of(p, source);
	uint64_t index, name;
	if (c && c->copied_from) /* a copy for graph memory runs what it copies */
		source = c->copied_from, c = node_call_of(p, source);
	*kind = SOURCE_ANY_KERNEL;
	if (c && (c->mem || c->copy)) {
		*kind = SOURCE_NOT_KERNEL;
		return NULL;
	}
	const char *named = NULL;
	if (c && c->function_id && dt_u64map_get(&p->function_names, c->function_id, &name))
		named = (const char *)(uintptr_t)name;
	else if (!c && dt_u64map_get(&p->launch_index, source, &index))
		named = p->launches[index].name;
	else if (!c && !dt_u64map_get(&p->lib_call_index, source, &index))
		*kind = SOURCE_NOT_KERNEL;
	if (named && *named)
		*kind = SOURCE_NAMED;
	return *kind == SOURCE_NAMED ? named : NULL;
}

/* A kernel record of a graph launch whose node no event names. */
struct unnamed_record {
	size_t launch, kernel;
};

static int compare_unnamed(const void *a, const void *b)
{
	const struct unnamed_record *x = a, *y = b;
	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	return x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

/* The graph launch (index into launches) kernel record k belongs to. */
static bool graph_launch_of(const struct dt_process *p, const struct dt_gpu_kernel *k,
		size_t *launch)
{
	uint64_t call, index;
	if (!k->graph_node_id || !dt_u64map_get(&p->call_of_correlation, k->correlation_id, &call) ||
	    !dt_u64map_get(&p->launch_index, call, &index) ||
	    !dt_api_is_graph_launch(p->launches[index].api) || !p->launches[index].n_nodes)
		return false;
	*launch = index;
	return true;
}

/* A kernel name's key in the maps below (FNV-1a; never the map's empty
 * key). Names that share a key only ever make more doubt: a resolution
 * compares the names themselves. */
static uint64_t name_key(const char *name)
{
	uint64_t h = 14695981039346656037ULL;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 1099511628211ULL;
	return h == DT_MAP_EMPTY ? h - 1 : h;
}

/* key -> value, or 0 once a second value came for key (values nonzero) */
static void put_once(struct dt_u64map *map, uint64_t key, uint64_t value)
{
	uint64_t was;
	dt_u64map_put(map, key, dt_u64map_get(map, key, &was) ? 0 : value);
}

/*
 * The unnamed records of one launch, rec[0..n): each resolved to the one
 * candidate that can be its node, if there is one (the rule: the top of
 * this file). A candidate that may run any kernel leaves every record of
 * the launch unknown. Linear in the launch's nodes and records.
 */
static void resolve_launch(struct dt_process *p, const struct dt_u64map *carried,
		const struct unnamed_record *rec, size_t n)
{
	const struct dt_launch *l = &p->launches[rec[0].launch];
	const struct dt_launch_node *nodes = &p->launch_nodes[l->nodes_at];
	struct dt_u64map records = {0}, candidates = {0};
	bool any_kernel = false;
	for (uint32_t i = 0; i < l->n_nodes && !any_kernel; i++) {
		uint64_t unused;
		enum source_kind kind;
		if (!nodes[i].source_call || nodes[i].disabled ||
		    dt_u64map_get(carried, nodes[i].node, &unused))
			continue;
		const char *runs = source_kernel(p, nodes[i].source_call, &kind);
		any_kernel = kind == SOURCE_ANY_KERNEL;
		if (kind == SOURCE_NAMED)
			put_once(&candidates, name_key(runs), nodes[i].node);
	}
	for (size_t r = 0; r < n && !any_kernel; r++)
		if (*p->kernels[rec[r].kernel].name)
			put_once(&records, name_key(p->kernels[rec[r].kernel].name), rec[r].kernel + 1);
	for (size_t r = 0; r < n && !any_kernel; r++) {
		const char *name = p->kernels[rec[r].kernel].name;
		uint64_t key = name_key(name), only_record, node;
		if (!*name || !dt_u64map_get(&records, key, &only_record) ||
		    only_record != rec[r].kernel + 1 ||
		    !dt_u64map_get(&candidates, key, &node) || !node)
			continue;
		enum source_kind kind;
		const char *runs = source_kernel(p, launch_node(p, rec[r].launch, node)->source_call,
				&kind);
		if (kind == SOURCE_NAMED && strcmp(runs, name) == 0) {
			dt_u64map_put(&p->flattened_nodes, rec[r].kernel, node);
			p->n_kernels_flattened++;
		}
	}
	dt_u64map_free(&records);
	dt_u64map_free(&candidates);
}

void dt_graph_resolve_flattened(struct dt_process *p, bool records_lost)
{
	if (records_lost || p->records_dropped || p->n_damaged_kernel_correlations ||
	    !p->n_launch_nodes)
		return;
	struct dt_u64map carried = {0};
	struct unnamed_record *unnamed = NULL;
	size_t n = 0, cap = 0, launch;
	uint64_t unused;
	for (size_t i = 0; i < p->n_kernels; i++) {
		const struct dt_gpu_kernel *k = &p->kernels[i];
		if (k->graph_node_id)
			dt_u64map_put(&carried, k->graph_node_id, 1);
		if (graph_launch_of(p, k, &launch) && !launch_node(p, launch, k->graph_node_id) &&
		    !dt_u64map_get(&p->node_source, k->graph_node_id, &unused))
			*DT_PUSH_SLOT(unnamed, n, cap) = (struct unnamed_record){launch, i};
	}
	dt_sort(unnamed, n, sizeof(*unnamed), compare_unnamed);
	for (size_t from = 0, to; from < n; from = to) {
		for (to = from + 1; to < n && unnamed[to].launch == unnamed[from].launch; to++)
			;
		resolve_launch(p, &carried, &unnamed[from], to - from);
	}
	free(unnamed);
	dt_u64map_free(&carried);
}

void dt_process_free_graphs(struct dt_process *p)
{
	free(p->node_calls);
	dt_u64map_free(&p->node_call_index);
	dt_u64map_free(&p->captured_calls);
	dt_u64map_free(&p->node_source);
	for (size_t i = 0; i < p->n_execs; i++)
		free(p->execs[i].nodes);
	free(p->execs);
	dt_u64map_free(&p->exec_index);
	free(p->launch_nodes);
	dt_u64map_free(&p->flattened_nodes);
	free(p->graph_allocs);
	dt_u64map_free(&p->graph_alloc_index);
	free(p->graph_ends);
	free(p->graph_writes);
}
