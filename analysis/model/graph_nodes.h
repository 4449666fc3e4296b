/*
 * CUDA graph nodes in the event model (graph_nodes.c, trace format 4):
 * which call each graph node takes its tensors from, and at each graph
 * launch a snapshot of that for the exec's nodes, which derive/group_build.c
 * turns into the touches of each graph kernel. Must never decide roles or
 * touch groups.
 */
#ifndef DNNTRACE_ANALYSIS_MODEL_GRAPH_NODES_H
#define DNNTRACE_ANALYSIS_MODEL_GRAPH_NODES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model/event.h"
#include "analysis/model/model.h"

/* captured_node, graph_node, graph_node_clone, graph_exec_update (the
 * model's dispatch hands them here). */
void dt_graph_on_event(struct dt_process *p, const struct dt_event *e);
/* The process's last launch, a graph launch of exec at ts, just stored:
 * snapshots the sources of the exec's nodes (none for exec 0 or unknown). */
void dt_graph_on_launch(struct dt_process *p, uint64_t ts, uint64_t exec);
/* The call whose tensors a kernel of graph launch launch_index, run by
 * node node_id, takes; 0: unknown. */
uint64_t dt_process_graph_node_source(const struct dt_process *p, size_t launch_index,
		uint64_t node_id);
void dt_process_free_graphs(struct dt_process *p);

#endif
