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
#include "tests/analysis/graph_events.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

enum { VPID = 4, F = 1, N_TENSORS = 5 };

static void set_enabled(struct dt_model *m, uint64_t exec, uint64_t node, bool enabled,
		int result)
{
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE_ENABLE,
			.api = DNNTRACE_API_cudaGraphNodeSetEnabled, .graph_exec = exec,
			.node_id = node, .enabled = enabled, .result = result});
}

static void feed(struct dt_model *m)
{
	feed_event(m, VPID,
		   (struct dt_event){.kind = DT_EVENT_STATUS, .cupti_ok = 1, .name = "ok"});
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_FUNCTION, .id = F, .name = "f"});
	feed_tensors(m, VPID, 0, N_TENSORS - 1);

	/* the graph: inner {f(t0)} as a child, then the parent's own f(t1) */
	feed_kernel_node(m, VPID, 10, 731, F, 0);
	feed_clone(m, VPID, 518, 731, 0);              /* the child node's copy of inner */
	feed_kernel_node(m, VPID, 11, 402, F, 1);
	/* exec 1 */
	feed_clone(m, VPID, 977, 518, 0x1e);
	feed_clone(m, VPID, 263, 44, 0x1e);            /* the child node itself */
	feed_clone(m, VPID, 845, 402, 0x1e);
	static const char *const f[] = {"f"}, *const f_f[] = {"f", "f"};
	const uint64_t child_only[] = {6001}, both[] = {6001, 845};
	set_enabled(m, 0x1e, 402, false, 0);
	feed_graph_launch(m, VPID, 0x1e, 20, 1000, f, child_only, 1);
	set_enabled(m, 0x1e, 402, true, 0);
	feed_graph_launch(m, VPID, 0x1e, 21, 2000, f_f, both, 2);
	set_enabled(m, 0x1e, 402, false, 0);
	set_enabled(m, 0x1e, 402, true, 1); /* failed: still disabled */
	feed_graph_launch(m, VPID, 0x1e, 22, 3000, f, child_only, 1);

	/* exec 2: the same graph again, its own node disabled for good */
	feed_clone(m, VPID, 1977, 518, 0x2e);
	feed_clone(m, VPID, 1263, 44, 0x2e);
	feed_clone(m, VPID, 1845, 402, 0x2e);
	set_enabled(m, 0x2e, 402, false, 0);
	const uint64_t child_only2[] = {7001};
	feed_graph_launch(m, VPID, 0x2e, 23, 4000, f, child_only2, 1);

	/* exec 3: inner {node 333 of unknown source}, parent's own f(t4) disabled */
	feed_clone(m, VPID, 533, 333, 0);
	feed_kernel_node(m, VPID, 12, 404, F, 4);
	feed_clone(m, VPID, 933, 533, 0x3e);
	feed_clone(m, VPID, 934, 45, 0x3e);
	feed_clone(m, VPID, 935, 404, 0x3e);
	set_enabled(m, 0x3e, 404, false, 0);
	const uint64_t child_only3[] = {8001};
	feed_graph_launch(m, VPID, 0x3e, 24, 5000, f, child_only3, 1);
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
		check_touches_one_or_all(g, k, want[k], N_TENSORS);
	CHECK_EQ_INT(g->graph_kernels_unknown, 1);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
	printf("a node disabled at a launch is never taken for a child graph's kernel\n");
	return 0;
}
