/*
 * A shadow of the cuDNN backend (graph API) descriptors the program builds,
 * so that cudnnBackendExecute can say which role each variant-pack pointer
 * plays: tensors (uid, type, dims, virtual), operations (which attribute -
 * X, W, Y, DX, ... - names which tensor), operation graphs, and what leads
 * from an execution plan back to its graph (engine config, engine, engine
 * heuristics results). Each graph gets a summary - one entry per tensor uid
 * with its merged role - shared by every engine, config and plan made from
 * it.
 *
 * Fed by the wrappers of cudnnBackendCreateDescriptor / SetAttribute /
 * GetAttribute / Finalize / DestroyDescriptor after the real call succeeded.
 * Must never call into cuDNN (the wrappers do the queries) and never emit
 * trace events; all state sits behind one mutex, never held across a call
 * into cuDNN.
 */
#ifndef DNNTRACE_CUDNN_BACKEND_SHADOW_H
#define DNNTRACE_CUDNN_BACKEND_SHADOW_H

#include <stdint.h>

#include <cudnn.h>

#include "interceptors/core/lib_call.h"

/* Variant-pack entries an event can hold (the workspace comes after them). */
enum { BACKEND_SHADOW_PACK_MAX = LIB_CALL_MAX_ARGS - 1 };

void backend_shadow_created(cudnnBackendDescriptor_t desc, cudnnBackendDescriptorType_t type);
void backend_shadow_destroyed(cudnnBackendDescriptor_t desc);
void backend_shadow_set(cudnnBackendDescriptor_t desc, cudnnBackendAttributeName_t name,
			cudnnBackendAttributeType_t type, int64_t count, const void *elements);
/* After a successful GetAttribute that returned descriptors. */
void backend_shadow_got(cudnnBackendDescriptor_t desc, cudnnBackendAttributeName_t name,
			cudnnBackendAttributeType_t type, int64_t count, const void *elements);

/*
 * The entries of a variant pack the program built while we watched (at
 * most BACKEND_SHADOW_PACK_MAX); false when it is unknown to us.
 */
bool backend_shadow_pack(cudnnBackendDescriptor_t pack, int64_t *uids, void **ptrs,
			 unsigned *count, void **workspace);

/* True when desc is a known execution plan (its wrapper then asks its workspace size). */
bool backend_shadow_is_plan(cudnnBackendDescriptor_t desc);
void backend_shadow_plan_workspace(cudnnBackendDescriptor_t plan, int64_t bytes);

/*
 * Adds one argument per variant-pack entry (uid, pointer) with the role,
 * type and shape the plan's graph gives it (DNNTRACE_ROLE_UNKNOWN when it
 * cannot say), then the workspace (role unused when there is none); then
 * the params ops, workspace_bytes (-1 when unknown) and, per entry, its
 * uid and the cudnnBackendAttributeName_t naming it in the graph (-1: a
 * uid in no graph), as the catalogue names them.
 */
void backend_shadow_describe(cudnnBackendDescriptor_t plan, const int64_t *uids,
			     void *const *ptrs, unsigned count, void *workspace,
			     struct lib_call *c);

#endif
