/*
 * Graph memory nodes in the model (analysis/model/graph_nodes.c, format
 * 5), fed by hand: an exec with an alloc node, a kernel node on the
 * allocation and an ordinary tensor, and a free node, launched twice: two
 * lifetimes, each a tensor of its own, begun at its launch call's entry
 * and ended with its launch's last kernel; an exec whose allocation
 * outlives its launch: an ordinary launch after it uses that lifetime, a
 * cudaFree ends it, the next launch begins another that is never freed;
 * the allocation's own id is no tensor. Ground truth: the scenario
 * written here.
 */
#include <stdlib.h>

#include "analysis/derive/group.h"
#include "analysis/derive/group_build.h"
#include "analysis/model/model.h"
#include "tests/analysis/check.h"
#include "tests/analysis/graph_events.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

enum { VPID = 4 };
static const uint64_t EXEC = 0xe000, EXEC2 = 0xe100, PTR_A = 0x700000000000ull,
		      PTR_B = 0x700000200000ull;

static void mem_node(struct dt_model *m, uint64_t call_id, uint64_t node, int64_t id,
		uint64_t ptr, bool is_free)
{
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GRAPH_MEM_NODE, .call_id = call_id,
			.api = is_free ? DNNTRACE_API_cudaGraphAddMemFreeNode :
			DNNTRACE_API_cudaGraphAddMemAllocNode,
			.node_id = node, .ptr = ptr, .bytes = is_free ? 0 : 1024, .tensor = id,
			.is_free = is_free});
}

static void kernel_node(struct dt_model *m, uint64_t call_id, uint64_t node,
		const int64_t *tensors, uint32_t n)
{
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE, .call_id = call_id,
			.api = DNNTRACE_API_cudaGraphAddKernelNode, .node_id = node,
			.tensors = tensors, .n_tensors = n});
}

static void gpu_kernel(struct dt_model *m, uint64_t call_id, uint32_t correlation,
		uint64_t start, uint64_t node)
{
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.correlation_id = correlation, .call_id = call_id});
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.correlation_id = correlation, .gpu_stream = 9, .gpu_start = start,
			.gpu_end = start + 50, .name = "k", .node_id = node});
}

/* A graph launch of exec entered at start_ns, returning at ts, whose one
 * kernel (node) runs at gpu_start. */
static void launch(struct dt_model *m, uint64_t exec, uint64_t call_id, uint64_t start_ns,
		uint64_t ts, uint64_t gpu_start, uint64_t node)
{
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH, .ts = ts,
			.start_ns = start_ns, .call_id = call_id,
			.api = DNNTRACE_API_cudaGraphLaunch, .graph_exec = exec, .stream = 5});
	gpu_kernel(m, call_id, (uint32_t)call_id, gpu_start, node);
}

static void feed(struct dt_model *m)
{
	feed_event(m, VPID,
		   (struct dt_event){.kind = DT_EVENT_STATUS, .cupti_ok = 1, .name = "ok"});
	feed_tensors(m, VPID, 0, 0); /* x */
	/* exec 1: alloc a (id 5) -> k(a, x) -> free a */
	const int64_t uses_a[] = {5, 0}, uses_b[] = {6};
	mem_node(m, 10, 100, 5, PTR_A, false);
	kernel_node(m, 11, 101, uses_a, 2);
	mem_node(m, 12, 102, 5, PTR_A, true);
	feed_clone(m, VPID, 200, 100, EXEC);
	feed_clone(m, VPID, 201, 101, EXEC);
	feed_clone(m, VPID, 202, 102, EXEC);
	launch(m, EXEC, 20, 15, 1100, 1000, 201);
	/* entered while the first launch still runs on the GPU: its lifetime
	 * begins when the first's ends */
	launch(m, EXEC, 22, 1020, 2100, 2000, 201);
	/* exec 2 (captured: no call ids): alloc b (id 6) -> k(b) */
	mem_node(m, 0, 110, 6, PTR_B, false);
	kernel_node(m, 31, 111, uses_b, 1);
	feed_clone(m, VPID, 210, 110, EXEC2);
	feed_clone(m, VPID, 211, 111, EXEC2);
	launch(m, EXEC2, 40, 2900, 3100, 3000, 211);
	/* an ordinary launch on b, then cudaFree(b) */
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_LAUNCH, .ts = 3200, .call_id = 41,
			.api = DNNTRACE_API___cudaLaunchKernel, .name = "k", .stream = 5,
			.tensors = uses_b, .n_tensors = 1});
	gpu_kernel(m, 41, 41, 3300, 0);
	feed_event(m, VPID, (struct dt_event){.kind = DT_EVENT_FREE, .ts = 3500,
			.api = DNNTRACE_API_cudaFree, .tensor = 6});
	launch(m, EXEC2, 52, 3900, 4100, 4000, 211);
	dt_model_finish(m);
}

static void check_lifetime(const struct dt_process *p, int64_t id, uint64_t alloc_ns,
		uint64_t free_ns, uint64_t ptr)
{
	const struct dt_tensor *t = dt_process_find_tensor(p, id);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_INT(t->alloc_ns, alloc_ns);
	CHECK_EQ_INT(t->free_ns, free_ns);
	CHECK_EQ_INT(t->ptr, ptr);
	CHECK_EQ_INT(t->bytes, 1024);
	CHECK(t->allocated);
}

int main(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m);
	const struct dt_process *p = dt_model_find_process(&m, VPID);
	CHECK(p != NULL);
	const int64_t a1 = (1ll << 32) | 5, a2 = (2ll << 32) | 5, b1 = (3ll << 32) | 6,
		b2 = (4ll << 32) | 6;
	check_lifetime(p, a1, 15, 1050, PTR_A);
	check_lifetime(p, a2, 1050, 2050, PTR_A);
	check_lifetime(p, b1, 2900, 3500, PTR_B);
	check_lifetime(p, b2, 3900, DT_NO_TIME, PTR_B);
	/* the allocations' own ids are no tensors */
	CHECK(dt_process_find_tensor(p, 5) == NULL);
	CHECK(dt_process_find_tensor(p, 6) == NULL);

	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	CHECK_EQ_INT(g->n_kernels, 5);
	const int64_t k0[] = {a1, 0}, k1[] = {a2, 0}, k2[] = {b1}, k4[] = {b2};
	check_touches(g, 0, k0, 2);
	check_touches(g, 1, k1, 2);
	check_touches(g, 2, k2, 1);
	check_touches(g, 3, k2, 1); /* the ordinary launch: b's live lifetime */
	check_touches(g, 4, k4, 1);
	CHECK_EQ_INT(g->graph_kernels_unknown, 0);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
	printf("graph memory: one tensor per launch of each allocation\n");
	return 0;
}
