/*
 * The events the graph model tests (test_analysis_graph_*.c) feed by hand,
 * each as a trace gives it, for one process: tensors, kernel nodes, node
 * clones and graph launches with their kernel records. Must never decide
 * what a test expects: each test's scenario and its checks are its own.
 */
#ifndef DNNTRACE_TESTS_ANALYSIS_GRAPH_EVENTS_H
#define DNNTRACE_TESTS_ANALYSIS_GRAPH_EVENTS_H

#include <stdint.h>

#include "analysis/model/model.h"
#include "tracepoints/dnntrace_enums.h"

/* e, from process vpid. */
static inline void feed_event(struct dt_model *m, int64_t vpid, struct dt_event e)
{
	e.vpid = vpid;
	dt_model_on_event(m, &e);
}

/* cudaMalloc of tensors first to last (ids): 256 bytes at 0x10000 * (id + 1)
 * on device 0, at ts 1 + id. */
static inline void feed_tensors(struct dt_model *m, int64_t vpid, int64_t first, int64_t last)
{
	for (int64_t id = first; id <= last; id++)
		feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_ALLOC,
				.ts = 1 + (uint64_t)id, .api = DNNTRACE_API_cudaMalloc,
				.mem_kind = DNNTRACE_MEM_DEVICE,
				.ptr = 0x10000 * (uint64_t)(id + 1), .bytes = 256, .tensor = id});
}

/* Call call_id added node, a kernel node of function on tensor, to a graph
 * (cudaGraphAddKernelNode). */
static inline void feed_kernel_node(struct dt_model *m, int64_t vpid, uint64_t call_id,
		uint64_t node, uint64_t function, int64_t tensor)
{
	int64_t tensors[1] = {tensor};
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE, .call_id = call_id,
			.api = DNNTRACE_API_cudaGraphAddKernelNode, .node_id = node,
			.name_id = function, .tensors = tensors, .n_tensors = 1});
}

/* node, CUPTI's clone of original, made for exec (0: for no exec, as a
 * child graph node's copy of its graph). */
static inline void feed_clone(struct dt_model *m, int64_t vpid, uint64_t node, uint64_t original,
		uint64_t exec)
{
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GRAPH_NODE_CLONE, .node_id = node,
			.original_node_id = original, .graph_exec = exec});
}

/* One cudaGraphLaunch of exec on stream 5 (call call_id, returned at
 * start - 10, correlation call_id): kernel records names[i] run by
 * nodes[i] on GPU stream 9, from start on, 100 ns apart, 50 ns each. */
static inline void feed_graph_launch(struct dt_model *m, int64_t vpid, uint64_t exec,
		uint64_t call_id, uint64_t start, const char *const *names,
		const uint64_t *nodes, int n)
{
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH, .ts = start - 10,
			.call_id = call_id, .api = DNNTRACE_API_cudaGraphLaunch,
			.graph_exec = exec, .stream = 5});
	feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.correlation_id = (uint32_t)call_id, .call_id = call_id});
	for (int i = 0; i < n; i++)
		feed_event(m, vpid, (struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
				.correlation_id = (uint32_t)call_id, .gpu_stream = 9,
				.gpu_start = start + 100 * (uint64_t)i,
				.gpu_end = start + 100 * (uint64_t)i + 50, .name = names[i],
				.node_id = nodes[i]});
}

#endif
