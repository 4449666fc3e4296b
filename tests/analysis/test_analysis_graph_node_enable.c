/*
 * A node disabled with cudaGraphNodeSetEnabled (trace format 8,
 * graph_node_enable) is never taken for a child graph's kernel at a launch
 * where it is disabled (analysis/model/graph_nodes.c, "Child graphs"), on
 * a model fed by hand with the events an H200 gave for child graphs
 * (test_analysis_graph_children.c says which). Ground truth: the scenario
 * written here, a graph {child {f(t0)} -> f(t1)}:
 *  - exec 1: launched with its own f node disabled (only the child's
 *    record), enabled (both records), disabled again (a failed enable call
 *    changes nothing): the child's kernel is t0 each time, the own node's
 *    t1 at the launch it runs;
 *  - exec 2, a second instantiation of the same graph, its own f node
 *    disabled before its one launch (so no record ever carries that
 *    node): the child's kernel is t0, never ambiguous;
 *  - exec 3: {child {f, a node made before tracing: source unknown} ->
 *    f(t4)} with f(t4) disabled: the child's kernel is unknown (counted),
 *    never t4's.
 * Must never pass with disabled nodes kept as candidates: exec 2's kernel
 * would be unknown, exec 3's would touch t4.
 */
#include <stdlib.h>

#include "analysis/derive/group.h"
#include "analysis/derive/group_build.h"
#include "analysis/model/model.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

enum { VPID = 4, F = 1, N_TENSORS = 5 };

static void on(struct dt_model *m, struct dt_event e)
{
	e.vpid = VPID;
	dt_model_on_event(m, &e);
}

static void kernel_node(struct dt_model *m, uint64_t call_id, uint64_t node, int64_t tensor)
{
	int64_t tensors[1] = {tensor};
	on(m, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE, .call_id = call_id,
			.api = DNNTRACE_API_cudaGraphAddKernelNode, .node_id = node,
			.name_id = F, .tensors = tensors, .n_tensors = 1});
}

static void clone(struct dt_model *m, uint64_t node, uint64_t original, uint64_t exec)
{
	on(m, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE_CLONE, .node_id = node,
			.original_node_id = original, .graph_exec = exec});
}

static void set_enabled(struct dt_model *m, uint64_t exec, uint64_t node, bool enabled,
		int result)
{
	on(m, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE_ENABLE,
			.api = DNNTRACE_API_cudaGraphNodeSetEnabled, .graph_exec = exec,
			.node_id = node, .enabled = enabled, .result = result});
}

/* One launch of exec: n records of f, run by nodes[i], 100 ns apart. */
static void graph_launch(struct dt_model *m, uint64_t exec, uint64_t call_id, uint64_t start,
		const uint64_t *nodes, int n)
{
	on(m, (struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH, .ts = start - 10,
			.call_id = call_id, .api = DNNTRACE_API_cudaGraphLaunch,
			.graph_exec = exec, .stream = 5});
	on(m, (struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.correlation_id = (uint32_t)call_id, .call_id = call_id});
	for (int i = 0; i < n; i++)
		on(m, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
				.correlation_id = (uint32_t)call_id, .gpu_stream = 9,
				.gpu_start = start + 100 * (uint64_t)i,
				.gpu_end = start + 100 * (uint64_t)i + 50, .name = "f",
				.node_id = nodes[i]});
}

static void feed(struct dt_model *m)
{
	on(m, (struct dt_event){.kind = DT_EVENT_STATUS, .cupti_ok = 1, .name = "ok"});
	on(m, (struct dt_event){.kind = DT_EVENT_FUNCTION, .id = F, .name = "f"});
	for (int64_t id = 0; id < N_TENSORS; id++)
		on(m, (struct dt_event){.kind = DT_EVENT_ALLOC, .ts = 1 + (uint64_t)id,
				.api = DNNTRACE_API_cudaMalloc, .mem_kind = DNNTRACE_MEM_DEVICE,
				.ptr = 0x10000 * (uint64_t)(id + 1), .bytes = 256, .tensor = id});

	/* the graph: inner {f(t0)} as a child, then the parent's own f(t1) */
	kernel_node(m, 10, 731, 0);
	clone(m, 518, 731, 0);              /* the child node's copy of inner */
	kernel_node(m, 11, 402, 1);
	/* exec 1 */
	clone(m, 977, 518, 0x1e);
	clone(m, 263, 44, 0x1e);            /* the child node itself */
	clone(m, 845, 402, 0x1e);
	const uint64_t child_only[] = {6001}, both[] = {6001, 845};
	set_enabled(m, 0x1e, 402, false, 0);
	graph_launch(m, 0x1e, 20, 1000, child_only, 1);
	set_enabled(m, 0x1e, 402, true, 0);
	graph_launch(m, 0x1e, 21, 2000, both, 2);
	set_enabled(m, 0x1e, 402, false, 0);
	set_enabled(m, 0x1e, 402, true, 1); /* failed: still disabled */
	graph_launch(m, 0x1e, 22, 3000, child_only, 1);

	/* exec 2: the same graph again, its own node disabled for good */
	clone(m, 1977, 518, 0x2e);
	clone(m, 1263, 44, 0x2e);
	clone(m, 1845, 402, 0x2e);
	set_enabled(m, 0x2e, 402, false, 0);
	const uint64_t child_only2[] = {7001};
	graph_launch(m, 0x2e, 23, 4000, child_only2, 1);

	/* exec 3: inner {node 333 of unknown source}, parent's own f(t4) disabled */
	clone(m, 533, 333, 0);
	kernel_node(m, 12, 404, 4);
	clone(m, 933, 533, 0x3e);
	clone(m, 934, 45, 0x3e);
	clone(m, 935, 404, 0x3e);
	set_enabled(m, 0x3e, 404, false, 0);
	const uint64_t child_only3[] = {8001};
	graph_launch(m, 0x3e, 24, 5000, child_only3, 1);
}

/* Kernel k touches exactly tensor want, or every live tensor (want -1). */
static void check_kernel(const struct dt_group *g, size_t k, int64_t want)
{
	const struct dt_kernel *kernel = &g->kernels[k];
	if (want < 0) {
		CHECK_EQ_INT(kernel->n_touches, N_TENSORS);
		return;
	}
	CHECK_EQ_INT(kernel->n_touches, 1);
	if (kernel->n_touches == 1)
		CHECK_EQ_INT(g->tensors[g->touches[kernel->touches_at].tensor].id, want);
}

int main(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m);
	dt_model_finish(&m);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	CHECK_EQ_INT(g->n_kernels, 6);
	/* by GPU start: exec 1 disabled, enabled (child, own), disabled;
	 * exec 2; exec 3 */
	const int64_t want[6] = {0, 0, 1, 0, 0, -1};
	for (size_t k = 0; k < 6 && k < g->n_kernels; k++)
		check_kernel(g, k, want[k]);
	CHECK_EQ_INT(g->graph_kernels_unknown, 1);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
	printf("a node disabled at a launch is never taken for a child graph's kernel\n");
	return 0;
}
