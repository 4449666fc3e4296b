/*
 * A graph launch's copy and set nodes write what its kernels then read
 * (analysis/model/graph_nodes.c), whenever the launch call returns: the
 * order in which tests/e2e/test_graph_updates.sh, under ASan on a loaded
 * machine, saw the launch's kernel start on the GPU 15.7 us before the
 * call returned, and the kernel reading what the memset node wrote lost
 * its input (roles: kernel 9, inputs '', expected '8'). Fed by hand, in a
 * trace's order (API events, then the GPU records CUPTI delivers later):
 * an exec of a memset node into v, a memcpy node x -> u and a kernel node
 * on each destination, launched with its kernels running before the call
 * returns; once with the call's entry in the trace (start_ns), once
 * without (dated just before the launch's first GPU work,
 * dt_graph_finish), once without it nor the copy and set nodes' own GPU
 * records (the first GPU work is the kernel reading v). Each
 * kernel reads and writes its tensor; a kernel launched before the graph
 * on a tensor nothing wrote still counts as writing it only (the
 * first-use refinement of tensor_uses.c is kept). Ground truth: the
 * scenario written here. Must never depend on the machine's timing.
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

static const uint64_t EXEC = 0xe000;
enum { V, U, X, W };    /* tensor ids */

static void graph_node(struct dt_model *m, int64_t vpid, uint64_t call_id, int api,
		uint64_t node, const int64_t *tensors, uint32_t n)
{
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE, .call_id = call_id,
			.api = api, .node_id = node, .tensors = tensors, .n_tensors = n});
}

/*
 * Process vpid: tensors v, u, x, w; x uploaded; an ordinary launch on w
 * (never written) at GPU time 500; the exec's launch entered at
 * start_ns (0: not in the trace) at 1000, returning at 5000, its memset
 * at 2000, memcpy at 2100 (their records only with copy_records), kernel
 * on v at 2200 and on u at 2400: both before the return.
 */
static void feed(struct dt_model *m, int64_t vpid, uint64_t start_ns, bool copy_records)
{
	feed_event(m, vpid,
		   (struct dt_event){.kind = DT_EVENT_STATUS, .cupti_ok = 1, .name = "ok"});
	feed_tensors(m, vpid, V, W);
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_MEMCPY, .ts = 10, .call_id = 1,
			.api = DNNTRACE_API_cudaMemcpy, .tensor = X});
	const int64_t w[] = {W}, v[] = {V}, u[] = {U}, copy[] = {U, X};
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_LAUNCH, .ts = 400, .start_ns = 390,
			.call_id = 2, .api = DNNTRACE_API___cudaLaunchKernel, .name = "k",
			.stream = 5, .tensors = w, .n_tensors = 1});
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.correlation_id = 2, .call_id = 2});
	graph_node(m, vpid, 10, DNNTRACE_API_cudaGraphAddMemsetNode, 100, v, 1);
	graph_node(m, vpid, 11, DNNTRACE_API_cudaGraphAddMemcpyNode1D, 101, copy, 2);
	graph_node(m, vpid, 12, DNNTRACE_API_cudaGraphAddKernelNode, 102, v, 1);
	graph_node(m, vpid, 13, DNNTRACE_API_cudaGraphAddKernelNode, 103, u, 1);
	for (uint64_t i = 0; i < 4; i++)
		feed_clone(m, vpid, 200 + i, 100 + i, EXEC);
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.correlation_id = 20, .call_id = 20});
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH, .ts = 5000,
			.start_ns = start_ns, .call_id = 20, .api = DNNTRACE_API_cudaGraphLaunch,
			.graph_exec = EXEC, .stream = 5});
	/* the GPU records, delivered after the calls */
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL, .correlation_id = 2,
			.gpu_stream = 9, .gpu_start = 500, .gpu_end = 550, .name = "k"});
	if (copy_records) {
		feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GPU_MEMSET,
				.correlation_id = 20, .gpu_stream = 9, .gpu_start = 2000,
				.gpu_end = 2050});
		feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GPU_MEMCPY,
				.correlation_id = 20, .gpu_stream = 9, .gpu_start = 2100,
				.gpu_end = 2150});
	}
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL, .correlation_id = 20,
			.gpu_stream = 9, .gpu_start = 2200, .gpu_end = 2300, .name = "k",
			.node_id = 202});
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL, .correlation_id = 20,
			.gpu_stream = 9, .gpu_start = 2400, .gpu_end = 2500, .name = "k",
			.node_id = 203});
}

static void check_process(const struct dt_group *g)
{
	CHECK_EQ_INT(g->n_kernels, 3);
	check_touch_roles(g, 0, W, DT_ROLE_WRITE);    /* nothing wrote w: no read */
	check_touch_roles(g, 1, V, DT_ROLE_READ | DT_ROLE_WRITE); /* the memset's v */
	check_touch_roles(g, 2, U, DT_ROLE_READ | DT_ROLE_WRITE); /* the memcpy's u */
	CHECK_EQ_INT(g->graph_kernels_unknown, 0);
}

int main(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m, 3, 1000, true);   /* the call's entry in the trace */
	feed(&m, 4, 0, true);      /* no entry: dated by the launch's GPU work */
	feed(&m, 5, 0, false);     /* nor the copy and set records: its kernels' */
	dt_model_finish(&m);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 3);
	for (size_t i = 0; i < n; i++) {
		check_process(&groups[i]);
		dt_group_free(&groups[i]);
	}
	free(groups);
	dt_model_free(&m);
	printf("a graph launch's copy and set nodes write before its kernels read\n");
	return 0;
}
