/*
 * The graph-node events that the runtime's graph wrappers and their driver
 * twins make alike (runtime/graphs.c and driver/graphs.c, runtime/ and
 * driver/graph_node_enable.c): how an API names a node's pointers and its
 * result type stay in the wrapper; what the event then says is written
 * here once.
 *
 * result is the real function's status as an int: cudaSuccess and
 * CUDA_SUCCESS are both 0 (checked in graph_node_record.c). Must never be
 * called outside a recording wrapper (tracer_enter returned true), never
 * change a result or write to the caller's parameters, never allocate,
 * lock or make a system call.
 */
#ifndef DNNTRACE_GRAPH_NODE_RECORD_H
#define DNNTRACE_GRAPH_NODE_RECORD_H

#include <stdbool.h>

#include "interceptors/core/traced_call.h"
#include "tracepoints/dnntrace_enums.h"

/*
 * Which event a generic node call (cudaGraphAddNode & co., cuGraphAddNode
 * & co.) makes for its node's type: graph_node (a kernel, copy or set
 * node), graph_mem_node (an alloc or free node added), or none. Each API
 * says which its own node types are (runtime_generic_event,
 * driver_generic_event).
 */
enum graph_generic_event { GRAPH_GENERIC_NONE, GRAPH_GENERIC_NODE, GRAPH_GENERIC_MEM_NODE };

/* Whether a session listens for that event (NONE: never). */
bool graph_generic_event_enabled(enum graph_generic_event event);

/*
 * A copy or set node's dnntrace_api:graph_node event (function_id 0): the
 * tensor at dst (written), then, when has_src, the one at src (read).
 * exec: the exec whose copy of node changed, NULL for the graph's own
 * node. Tensors and the node's CUPTI id only when the call worked.
 */
void graph_copy_node_record(const struct traced_call *call, enum dnntrace_api_id api,
			    const void *exec, const void *node, const void *dst, const void *src,
			    bool has_src, int result);

/*
 * cudaGraphNodeSetEnabled's and cuGraphNodeSetEnabled's
 * dnntrace_api:graph_node_enable event: the exec, the CUPTI id of the
 * graph's node passed (the exec's copy of it is the one that stops or
 * resumes running; 0 when the call failed) and the state asked for.
 */
void graph_node_enable_record(const struct traced_call *call, enum dnntrace_api_id api,
			      const void *exec, const void *node, unsigned int enabled, int result);

#endif
