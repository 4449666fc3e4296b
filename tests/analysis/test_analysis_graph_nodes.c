/*
 * Graph kernels take their node's tensors (analysis/graph_nodes.c), on a
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

#include "analysis/group.h"
#include "analysis/model.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

enum { VPID = 3 };
static const uint64_t EXEC = 0xe000;

static void alloc(struct dt_model *m, uint64_t ts, int64_t id)
{
	dt_model_on_alloc(m, VPID, ts, DNNTRACE_API_cudaMalloc, DNNTRACE_MEM_DEVICE, 0, 0,
			0x10000 * (uint64_t)(id + 1), 256, id, 0);
}

static void node_params(struct dt_model *m, uint64_t call_id, uint64_t exec,
		uint64_t node, int64_t tensor)
{
	dt_model_on_graph_node(m, VPID, call_id, DNNTRACE_API_cudaGraphAddKernelNode, exec, node,
			&tensor, 1, 0);
}

/* One graph launch (call call_id at ts) of EXEC running nodes, one GPU
 * kernel each from start on, 100 ns apart. */
static void graph_launch(struct dt_model *m, uint64_t call_id, uint64_t ts,
		uint32_t correlation, uint64_t start, const uint64_t *nodes, int n)
{
	dt_model_on_graph_exec_launch(m, VPID, 0, ts, call_id,
			DNNTRACE_API_cudaGraphLaunch, EXEC, 5, 0);
	dt_model_on_external_correlation(m, VPID, correlation, call_id);
	for (int i = 0; i < n; i++) {
		dt_model_on_gpu_kernel(m, VPID, correlation, 0, 9, start + 100 * (uint64_t)i,
				start + 100 * (uint64_t)i + 50, "k");
		dt_model_set_kernel_graph_node(m, VPID, nodes[i]);
	}
}

static void feed(struct dt_model *m)
{
	dt_model_on_status(m, VPID, 1, "ok");
	for (int64_t id = 0; id < 4; id++)
		alloc(m, 1 + (uint64_t)id, id);
	/* captured: launch 10 (tensor 0) -> node 100; GEMM 11 (1 read, 2
	 * written) -> node 101; by hand: call 12, node 102 on tensor 3 */
	int64_t t0 = 0;
	dt_model_on_launch(m, VPID, 0, 10, 10, DNNTRACE_API___cudaLaunchKernel, "k", 5,
			&t0, 1, 0);
	dt_model_on_captured_node(m, VPID, 10, 100);
	int64_t tensors[] = {1, 2};
	uint64_t ptrs[] = {0x20000, 0x30000};
	uint8_t roles[] = {DNNTRACE_ROLE_READ, DNNTRACE_ROLE_WRITE}, dtypes[2] = {0},
		ranks[2] = {0};
	struct dt_lib_call_event gemm = {
		.call_id = 11, .api = DNNTRACE_LIB_cublasSgemm_v2, .stream = 5, .n_args = 2,
		.tensors = tensors, .ptrs = ptrs, .roles = roles, .dtypes = dtypes,
		.ranks = ranks,
	};
	dt_model_on_lib_call(m, VPID, 11, &gemm);
	dt_model_on_captured_node(m, VPID, 11, 101);
	node_params(m, 12, 0, 102, 3);
	/* instantiation: the exec's copies 200, 201, 202 */
	dt_model_on_graph_node_clone(m, VPID, 200, 100, EXEC);
	dt_model_on_graph_node_clone(m, VPID, 201, 101, EXEC);
	dt_model_on_graph_node_clone(m, VPID, 202, 102, EXEC);
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
	dt_model_on_graph_exec_update(m, VPID, EXEC, update, 3, 0);
	const uint64_t with_unknown[] = {200, 201, 202, 999};
	graph_launch(m, 26, 40, 502, 3000, with_unknown, 4);
}

/* Kernel k touches exactly the tensor ids in want (in that order). */
static void check_touches(const struct dt_group *g, size_t k, const int64_t *want, uint32_t n)
{
	const struct dt_kernel *kernel = &g->kernels[k];
	CHECK_EQ_INT(kernel->n_touches, n);
	for (uint32_t i = 0; i < n && i < kernel->n_touches; i++)
		CHECK_EQ_INT(g->tensors[g->touches[kernel->touches_at + i].tensor].id, want[i]);
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
