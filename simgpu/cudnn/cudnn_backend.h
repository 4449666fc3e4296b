/*
 * Internals of the simulated cuDNN backend (graph) API shared by
 * cudnn_backend_desc.c (descriptors: attributes, finalize, lifetime) and
 * cudnn_backend_exec.c (graph analysis, plans, execution). Never include it
 * from a program.
 */
#ifndef SIMGPU_CUDNN_BACKEND_H
#define SIMGPU_CUDNN_BACKEND_H

#include "simgpu/cudnn/cudnn_internal.h"

#define SIM_BACKEND_MAGIC 0x42434b44u

/* Engines every graph offers (README.md): 0 needs a workspace, 1 none. */
#define SIM_ENGINE_COUNT 2

/* One attribute as the program set it: `count` elements of `type`. */
struct sim_attr {
	cudnnBackendAttributeName_t name;
	cudnnBackendAttributeType_t type;
	int64_t count;
	void *data;
};

/*
 * A backend descriptor. Descriptors that reference others (an operation
 * its tensors, a plan its engine config...) hold a reference on them, so a
 * program may destroy them in any order; `refs` counts the program's own
 * reference (until cudnnBackendDestroyDescriptor) plus those.
 */
struct sim_backend {
	uint32_t magic;
	cudnnBackendDescriptorType_t type;
	int finalized;
	int destroyed_by_program;
	int refs;
	int nattrs, cap;
	struct sim_attr *attrs;
	int64_t workspace_bytes; /* engine configs and plans: set at finalize */
};

/* The descriptor behind a handle, or NULL if it is not a live one. */
struct sim_backend *sim_backend_of(cudnnBackendDescriptor_t d);
/* The attribute `name` as set, or NULL. */
const struct sim_attr *sim_backend_attr(const struct sim_backend *b,
					cudnnBackendAttributeName_t name);
/* The single descriptor an attribute names (NULL if not exactly one). */
struct sim_backend *sim_backend_attr_desc(const struct sim_backend *b,
					  cudnnBackendAttributeName_t name);
int64_t sim_backend_attr_int(const struct sim_backend *b, cudnnBackendAttributeName_t name,
			     int64_t fallback);

/* Finalize checks of graph-level descriptors (cudnn_backend_exec.c). */
cudnnStatus_t sim_backend_finalize_operation(struct sim_backend *op);
cudnnStatus_t sim_backend_finalize_graph(struct sim_backend *graph);
/* The graph's workspace under engine `index`; < 0 if the index is invalid. */
int64_t sim_backend_graph_workspace(const struct sim_backend *graph, int64_t index);

#endif
