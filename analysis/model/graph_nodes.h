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
/* The process's last launch, a graph launch of exec returning at ts
 * (entered at start_ns, 0: unknown), just stored: snapshots the sources of
 * the exec's nodes (none for exec 0 or unknown) and begins and ends the
 * lifetimes of its graph memory. */
void dt_graph_on_launch(struct dt_process *p, uint64_t ts, uint64_t start_ns,
		uint64_t exec);
/* The call whose tensors a kernel of graph launch launch_index, run by
 * node node_id, takes; 0: unknown. */
uint64_t dt_process_graph_node_source(const struct dt_process *p, size_t launch_index,
		uint64_t node_id);
/*
 * Once every event is in: each kernel record of a graph launch that
 * carries a node id no event names (a kernel of a child graph, flattened
 * into the exec under an id of its own) is given the exec's node it ran
 * as, where exactly one can be (graph_nodes.c, top comment); never when
 * records_lost (events were discarded) or the process lost or damaged GPU
 * records. dt_process_kernel_graph_node: the node kernel kernel_index ran
 * as: that one, else the id its record carries.
 */
void dt_graph_resolve_flattened(struct dt_process *p, bool records_lost);
uint64_t dt_process_kernel_graph_node(const struct dt_process *p, size_t kernel_index);
void dt_process_free_graphs(struct dt_process *p);

/*
 * Graph memory (format 5). id, a tensor id from the trace: the tensor of
 * its live lifetime when id is a graph allocation's, else id (an ordinary
 * launch or library call using graph memory uses that lifetime). A free of
 * id: the same, and that lifetime is no longer live. Once every event is
 * in, dt_graph_finish ends each lifetime a launch's free node ended at the
 * end of that launch's last GPU work.
 */
int64_t dt_graph_live_tensor(const struct dt_process *p, int64_t id);
int64_t dt_graph_on_free(struct dt_process *p, int64_t id);
void dt_graph_finish(struct dt_process *p);

#endif
