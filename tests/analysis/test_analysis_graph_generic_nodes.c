/*
 * Graph nodes made through the generic node API (cudaGraphAddNode &
 * co., kind GRAPH_ANY_NODE: one kind for every node type) are told apart
 * by the event alone (analysis/model/graph_nodes.c, tracepoints/README.md):
 * a copy or set node's graph_node names no function (function_id 0) and
 * writes its first tensor at every launch; a kernel node's names its
 * function and writes nothing by itself. Fed by hand, in a trace's order:
 * an exec of a generic memset node into v (cudaGraphAddNode), a generic
 * memcpy node x -> u (cuGraphAddNode_v2), and generic kernel nodes on v, u
 * and z (nothing ever writes z). Ground truth, the scenario written here:
 * the kernels on v and u read what the nodes wrote (read and write); the
 * kernel on z writes it only (the first-use refinement of tensor_uses.c:
 * had its node been taken for a copy, z would count as written before it
 * and the kernel as reading it). Must never depend on the machine's timing.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/derive/group.h"
#include "analysis/derive/group_build.h"
#include "analysis/model/model.h"
#include "tests/analysis/check.h"
#include "tests/analysis/graph_events.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

enum { VPID = 3 };
static const uint64_t EXEC = 0xe000, FUNCTION = 7;
enum { V, U, X, Z };    /* tensor ids */

static void graph_node(struct dt_model *m, uint64_t call_id, int api, uint64_t function_id,
		uint64_t node, const int64_t *tensors, uint32_t n)
{
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE, .call_id = call_id,
			.api = api, .name_id = function_id, .node_id = node, .tensors = tensors,
			.n_tensors = n});
}

static void feed(struct dt_model *m)
{
	feed_event(m, VPID,
		   (struct dt_event){.kind = DT_EVENT_STATUS, .cupti_ok = 1, .name = "ok"});
	feed_tensors(m, VPID, V, Z);
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_MEMCPY, .ts = 10, .call_id = 1,
			.api = DNNTRACE_API_cudaMemcpy, .tensor = X});
	const int64_t v[] = {V}, u[] = {U}, z[] = {Z}, copy[] = {U, X};
	graph_node(m, 10, DNNTRACE_API_cudaGraphAddNode, 0, 100, v, 1);
	graph_node(m, 11, DNNTRACE_API_cuGraphAddNode_v2, 0, 101, copy, 2);
	graph_node(m, 12, DNNTRACE_API_cudaGraphAddNode, FUNCTION, 102, v, 1);
	graph_node(m, 13, DNNTRACE_API_cudaGraphAddNode, FUNCTION, 103, u, 1);
	graph_node(m, 14, DNNTRACE_API_cuGraphAddNode, FUNCTION, 104, z, 1);
	for (uint64_t i = 0; i < 5; i++)
		feed_clone(m, VPID, 200 + i, 100 + i, EXEC);
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.correlation_id = 20, .call_id = 20});
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH, .ts = 1500,
			.start_ns = 1000, .call_id = 20, .api = DNNTRACE_API_cudaGraphLaunch,
			.graph_exec = EXEC, .stream = 5});
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GPU_MEMSET, .correlation_id = 20,
			.gpu_stream = 9, .gpu_start = 2000, .gpu_end = 2050});
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GPU_MEMCPY, .correlation_id = 20,
			.gpu_stream = 9, .gpu_start = 2100, .gpu_end = 2150});
	for (uint64_t i = 0; i < 3; i++)
		feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
				.correlation_id = 20, .gpu_stream = 9, .gpu_start = 2200 + 200 * i,
				.gpu_end = 2300 + 200 * i, .name = "k", .node_id = 202 + i});
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
	CHECK_EQ_INT(groups[0].n_kernels, 3);
	check_touch_roles(&groups[0], 0, V, DT_ROLE_READ | DT_ROLE_WRITE); /* the memset's v */
	check_touch_roles(&groups[0], 1, U, DT_ROLE_READ | DT_ROLE_WRITE); /* the memcpy's u */
	check_touch_roles(&groups[0], 2, Z, DT_ROLE_WRITE);    /* a kernel node's z: no read */
	CHECK_EQ_INT(groups[0].graph_kernels_unknown, 0);
	dt_group_free(&groups[0]);
	free(groups);
	dt_model_free(&m);
	printf("generic copy and set nodes write before the kernels read; generic kernel "
	       "nodes do not\n");
	return 0;
}
