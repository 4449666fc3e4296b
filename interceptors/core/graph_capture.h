/*
 * Which graph nodes a traced call became while its stream was capturing a
 * CUDA graph (cudaStreamBeginCapture): a launch one kernel node, a library
 * call the nodes of every kernel, copy and set it enqueued (on its stream
 * or on streams it forked), a copy or set one node. Each becomes a
 * dnntrace_api:captured_node event (call id, CUPTI's node id), so the
 * analysis gives the kernels a graph launch runs the tensors and roles
 * their calls had. And the node lists and ids the graph wrappers need.
 *
 * Costs one relaxed atomic load per call until the process first begins a
 * capture (the capture wrappers say so); must never change a CUDA error
 * the program could see (it asks the driver only, whose calls leave the
 * runtime's last error alone).
 */
#ifndef DNNTRACE_GRAPH_CAPTURE_H
#define DNNTRACE_GRAPH_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A capture began in this process (set by the BeginCapture wrappers). */
void graph_capture_began(void);

/*
 * After a traced call on stream returned: if the stream captures, one
 * captured_node event per node added to its graph since the last traced
 * call that looked (every node added since is this call's: assumed, as
 * long as no untraced call adds kernel nodes to the same graph between).
 * api: the dnntrace_api id of the entry point (a _ptsz/_ptds one: a NULL
 * stream is the calling thread's default stream), or -1 for a library
 * call (a NULL stream is the legacy stream, which never captures).
 */
void graph_capture_note(const void *stream, int api, uint64_t call_id);

/*
 * After a traced call on stream returned: if the stream captures, true and
 * *node_id the CUPTI id of the graph's last node (the one the call just
 * added: a captured cudaMallocAsync's alloc node, cudaFreeAsync's free
 * node), which no later call then claims as its captured node. api as for
 * graph_capture_note.
 */
bool graph_capture_last_node(const void *stream, int api, uint64_t *node_id);

/*
 * The dnntrace_api:graph_exec_update event of cudaGraphExecUpdate and its
 * driver twin, runtime and driver alike: the new graph's CUPTI node ids in
 * cuGraphGetNodes order (the first 4096: the analysis then pairs only
 * those; 0 where CUPTI cannot say) when the update worked.
 * Its buffers are per thread, allocated once: an update allocates nothing
 * after a thread's first.
 */
void graph_exec_update_record(uint64_t call_id, int api, const void *exec,
			      const void *graph, int result, uint64_t start_ns);

#endif
