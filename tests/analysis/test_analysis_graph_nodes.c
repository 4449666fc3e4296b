/*
 * Graph kernels take their node's tensors (analysis/model/graph_nodes.c), on a
 * model fed by hand with format 4's graph events: nodes from a captured
 * launch, a captured library call (roles known) and explicit parameters;
 * an exec instantiated from them (clones with ids of their own); the
 * exec's node re-pointed (cudaGraphExecKernelNodeSetParams) after a first
 * launch, which keeps what it ran; the exec updated from a graph of three
 * other nodes, paired in creation order; a record of a node nobody
 * described: unknown, touching every live tensor, counted. Ground truth:
 * the scenario written here.
 */
#include <stdlib.h>

#include "analysis/derive/group.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/liveness.h"
#include "analysis/model/model.h"
#include "tests/analysis/check.h"
#include "tests/analysis/graph_events.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

enum { VPID = 3 };
static const uint64_t EXEC = 0xe000;

static void node_params(struct dt_model *m, uint64_t call_id, uint64_t exec,
		uint64_t node, int64_t tensor)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GRAPH_NODE, .vpid = VPID,
			.call_id = call_id, .api = DNNTRACE_API_cudaGraphAddKernelNode,
			.graph_exec = exec, .node_id = node, .tensors = &tensor, .n_tensors = 1});
}

static void captured(struct dt_model *m, uint64_t call_id, uint64_t node)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_CAPTURED_NODE, .vpid = VPID,
			.call_id = call_id, .node_id = node});
}

/* One graph launch (call call_id at ts) of EXEC running nodes, one GPU
 * kernel each from start on, 100 ns apart. */
static void graph_launch(struct dt_model *m, uint64_t call_id, uint64_t ts,
		uint32_t correlation, uint64_t start, const uint64_t *nodes, int n)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH, .vpid = VPID,
			.ts = ts, .call_id = call_id, .api = DNNTRACE_API_cudaGraphLaunch,
			.graph_exec = EXEC, .stream = 5});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = VPID, .correlation_id = correlation, .call_id = call_id});
	for (int i = 0; i < n; i++)
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL, .vpid = VPID,
				.correlation_id = correlation, .gpu_stream = 9,
				.gpu_start = start + 100 * (uint64_t)i,
				.gpu_end = start + 100 * (uint64_t)i + 50, .name = "k",
				.node_id = nodes[i]});
}

static void feed(struct dt_model *m)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS, .vpid = VPID,
			.cupti_ok = 1, .name = "ok"});
	feed_tensors(m, VPID, 0, 3);
	/* captured: launch 10 (tensor 0) -> node 100; GEMM 11 (1 read, 2
	 * written) -> node 101; by hand: call 12, node 102 on tensor 3 */
	int64_t t0 = 0;
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH, .vpid = VPID, .ts = 10,
			.call_id = 10, .api = DNNTRACE_API___cudaLaunchKernel, .name = "k",
			.stream = 5, .tensors = &t0, .n_tensors = 1});
	captured(m, 10, 100);
	int64_t tensors[] = {1, 2};
	uint64_t ptrs[] = {0x20000, 0x30000};
	uint8_t roles[] = {DNNTRACE_ROLE_READ, DNNTRACE_ROLE_WRITE}, dtypes[2] = {0},
		ranks[2] = {0};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LIB_CALL, .vpid = VPID,
			.ts = 11, .call_id = 11, .api = DNNTRACE_LIB_cublasSgemm_v2, .stream = 5,
			.n_tensors = 2, .tensors = tensors, .ptrs = ptrs, .roles = roles,
			.dtypes = dtypes, .ranks = ranks});
	captured(m, 11, 101);
	node_params(m, 12, 0, 102, 3);
	/* instantiation: the exec's copies 200, 201, 202 */
	feed_clone(m, VPID, 200, 100, EXEC);
	feed_clone(m, VPID, 201, 101, EXEC);
	feed_clone(m, VPID, 202, 102, EXEC);
	const uint64_t all[] = {200, 201, 202};
	graph_launch(m, 20, 20, 500, 1000, all, 3);
	/* the exec's copy of 102 on tensor 0 from now on */
	node_params(m, 21, EXEC, 102, 0);
	graph_launch(m, 22, 30, 501, 2000, all + 2, 1);
	/* updated from nodes 300, 301, 302 (tensors 2, 3, 1) */
	node_params(m, 23, 0, 300, 2);
	node_params(m, 24, 0, 301, 3);
	node_params(m, 25, 0, 302, 1);
	const int64_t update[] = {300, 301, 302};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GRAPH_EXEC_UPDATE, .vpid = VPID,
			.graph_exec = EXEC, .tensors = update, .n_tensors = 3});
	const uint64_t with_unknown[] = {200, 201, 202, 999};
	graph_launch(m, 26, 40, 502, 3000, with_unknown, 4);
}

int main(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	CHECK_EQ_INT(g->n_kernels, 8);
	const int64_t t0[] = {0}, t1[] = {1}, t2[] = {2}, t3[] = {3}, gemm[] = {1, 2},
		all[] = {0, 1, 2, 3};
	check_touches(g, 0, t0, 1);     /* launch 20: the captured launch's */
	check_touches(g, 1, gemm, 2);   /* the GEMM's, with its roles */
	const struct dt_touch *read = &g->touches[g->kernels[1].touches_at];
	CHECK_EQ_INT(read[0].roles, DT_ROLE_READ);
	CHECK_EQ_INT(read[1].roles, DT_ROLE_WRITE);
	check_touches(g, 2, t3, 1);     /* the explicit node's */
	check_touches(g, 3, t0, 1);     /* launch 22: re-pointed */
	check_touches(g, 4, t2, 1);     /* launch 26: updated, paired in order */
	check_touches(g, 5, t3, 1);
	check_touches(g, 6, t1, 1);
	check_touches(g, 7, all, 4);    /* node 999: unknown, every live tensor */
	CHECK_EQ_INT(g->graph_kernels_unknown, 1);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);

	/* one op per graph launch, its kernels' uses together */
	n = dt_groups_build(&m, DT_GRANULARITY_OP, &groups);
	g = &groups[0];
	CHECK_EQ_INT(g->n_kernels, 3);
	const int64_t first[] = {0, 1, 2, 3};
	check_touches(g, 0, first, 4);
	check_touches(g, 1, t0, 1);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
	printf("graph kernels take their nodes' tensors at each launch\n");
	return 0;
}
