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
 * tensors its node had then, whatever changes later. Must never decide
 * roles or touch groups: group_build.c turns a source into touches.
 *
 * Assumed, not seen on a GPU: CUPTI's kernel records of a launch carry
 * the id of the exec's copy of a node (the node the GRAPHNODE_CLONED
 * callback names), and cudaGraphExecUpdate pairs the new graph's nodes,
 * in cuGraphGetNodes order, with the exec's in the order of their
 * originals' ids (both orders the nodes' creation order).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/model/graph_nodes.h"

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

static bool is_copy_node_api(int api)
{
	return dnntrace_api_kind(api) == DNNTRACE_KIND_GRAPH_COPY_NODE;
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
		uint64_t node_id, const int64_t *tensors, uint32_t n_tensors, int result)
{
	if (result != 0 || !node_id)
		return;
	struct dt_node_call *c = DT_PUSH_SLOT(p->node_calls, p->n_node_calls,
			p->cap_node_calls);
	c->call_id = call_id;
	c->api = api;
	c->tensors_at = p->n_launch_tensors;
	c->n_tensors = n_tensors;
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
		(struct dt_exec_node){original_node_id, node_id};
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

static int compare_launch_nodes(const void *a, const void *b)
{
	uint64_t x = ((const struct dt_launch_node *)a)->node;
	uint64_t y = ((const struct dt_launch_node *)b)->node;
	return x < y ? -1 : x > y;
}

void dt_graph_on_launch(struct dt_process *p, uint64_t ts, uint64_t exec)
{
	struct dt_launch *l = &p->launches[p->n_launches - 1];
	struct dt_exec *e = l->result == 0 && exec ? find_exec(p, exec, false) : NULL;
	if (!e || !e->n_nodes)
		return;
	l->nodes_at = p->n_launch_nodes;
	l->n_nodes = (uint32_t)e->n_nodes;
	for (size_t i = 0; i < e->n_nodes; i++)
		*DT_PUSH_SLOT(p->launch_nodes, p->n_launch_nodes, p->cap_launch_nodes) =
			(struct dt_launch_node){e->nodes[i].node, source_of(p, e->nodes[i].node)};
	dt_sort(&p->launch_nodes[l->nodes_at], l->n_nodes, sizeof(struct dt_launch_node),
			compare_launch_nodes);
	/* A copy or set node writes its destination at every launch, before
	 * the kernels that depend on it: from this launch on it has been
	 * written (the first-use refinement of tensor_uses.c). */
	for (size_t i = 0; i < l->n_nodes; i++) {
		uint64_t index;
		if (!dt_u64map_get(&p->node_call_index, p->launch_nodes[l->nodes_at + i].source_call,
				&index) || !is_copy_node_api(p->node_calls[index].api) ||
		    !p->node_calls[index].n_tensors)
			continue;
		struct dt_tensor *t = dt_process_find_tensor(p,
				p->launch_tensors[p->node_calls[index].tensors_at]);
		if (t && (t->first_write_ns == DT_NO_TIME || ts < t->first_write_ns))
			t->first_write_ns = ts;
	}
}

void dt_graph_on_event(struct dt_process *p, const struct dt_event *e)
{
	switch (e->kind) {
	case DT_EVENT_CAPTURED_NODE:
		on_captured_node(p, e->call_id, e->node_id);
		break;
	case DT_EVENT_GRAPH_NODE:
		on_graph_node(p, e->call_id, e->api, e->graph_exec, e->node_id, e->tensors,
				e->n_tensors, e->result);
		break;
	case DT_EVENT_GRAPH_NODE_CLONE:
		on_graph_node_clone(p, e->node_id, e->original_node_id, e->graph_exec);
		break;
	case DT_EVENT_GRAPH_EXEC_UPDATE:
		on_graph_exec_update(p, e->graph_exec, e->tensors, e->n_tensors, e->result);
		break;
	default:
		break;
	}
}

uint64_t dt_process_graph_node_source(const struct dt_process *p, size_t launch_index,
		uint64_t node_id)
{
	const struct dt_launch *l = &p->launches[launch_index];
	const struct dt_launch_node *nodes = p->launch_nodes ? &p->launch_nodes[l->nodes_at] : NULL;
	size_t lo = 0, hi = l->n_nodes;
	while (node_id && nodes && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (nodes[mid].node == node_id)
			return nodes[mid].source_call;
		if (nodes[mid].node < node_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
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
}
