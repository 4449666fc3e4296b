/*
 * Wrappers of the cuDNN backend (graph) API. cudnnBackendCreateDescriptor,
 * SetAttribute, GetAttribute, Finalize and DestroyDescriptor feed the shadow
 * of the program's descriptors (cudnn_backend_shadow.c) and otherwise only
 * forward; cudnnBackendExecute is traced like a legacy call: call id pushed
 * as CUPTI external correlation around the real call, then one
 * dnntrace_lib:call with every variant-pack pointer, its role from the
 * plan's graph, and the workspace; the params say each pointer's uid and
 * the attribute that names it.
 *
 * The variant pack is read from the shadow (what the program set), or
 * through the real cudnnBackendGetAttribute after the call when it was
 * built before the tracer saw it. Each wrapper returns the real
 * status with errno as the real function left it. The brackets are
 * core/wrapper.h's (bookkeeping) and cudnn_call.h's (the traced execute).
 * Must never change an argument or hold the shadow's lock while cuDNN runs.
 */
#include <cudnn.h>

#include "interceptors/cudnn/backend_shadow.h"
#include "interceptors/cudnn/cudnn_call.h"

/* Each descriptor call forwards always and feeds the shadow (core/wrapper.h's bookkeeping bracket). */
DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnBackendCreateDescriptor,
	(cudnnBackendDescriptorType_t descriptorType, cudnnBackendDescriptor_t *descriptor),
	(descriptorType, descriptor), CUDNN_MISSING_STATUS, (void)0,
	if (result == CUDNN_STATUS_SUCCESS && descriptor)
		backend_shadow_created(*descriptor, descriptorType))

/* Forgotten first: the address may be reused at once. */
DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnBackendDestroyDescriptor,
	(cudnnBackendDescriptor_t descriptor), (descriptor), CUDNN_MISSING_STATUS,
	backend_shadow_destroyed(descriptor), (void)0)

DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnBackendSetAttribute,
	(cudnnBackendDescriptor_t descriptor, cudnnBackendAttributeName_t attributeName,
	 cudnnBackendAttributeType_t attributeType, int64_t elementCount,
	 const void *arrayOfElements),
	(descriptor, attributeName, attributeType, elementCount, arrayOfElements),
	CUDNN_MISSING_STATUS, (void)0,
	if (result == CUDNN_STATUS_SUCCESS)
		backend_shadow_set(descriptor, attributeName, attributeType, elementCount,
				   arrayOfElements))

/* What cuDNN filled: min(requested, present) elements. */
DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnBackendGetAttribute,
	(cudnnBackendDescriptor_t const descriptor, cudnnBackendAttributeName_t attributeName,
	 cudnnBackendAttributeType_t attributeType, int64_t requestedElementCount,
	 int64_t *elementCount, void *arrayOfElements),
	(descriptor, attributeName, attributeType, requestedElementCount, elementCount,
	 arrayOfElements),
	CUDNN_MISSING_STATUS, (void)0,
	if (result == CUDNN_STATUS_SUCCESS && elementCount)
		backend_shadow_got(descriptor, attributeName, attributeType,
				   *elementCount < requestedElementCount ? *elementCount
									 : requestedElementCount,
				   arrayOfElements))

/* A finalized plan's workspace size is asked once, here, not at every execute. */
static void remember_plan_workspace(cudnnBackendDescriptor_t descriptor)
{
	__typeof__(&cudnnBackendGetAttribute) get = REAL(cudnnBackendGetAttribute);
	int64_t bytes = -1, count = 0;

	if (get && backend_shadow_is_plan(descriptor) &&
	    get(descriptor, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &count,
		&bytes) == CUDNN_STATUS_SUCCESS && count == 1)
		backend_shadow_plan_workspace(descriptor, bytes);
}

DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnBackendFinalize,
	(cudnnBackendDescriptor_t descriptor), (descriptor), CUDNN_MISSING_STATUS, (void)0,
	if (result == CUDNN_STATUS_SUCCESS)
		remember_plan_workspace(descriptor))

/*
 * The variant pack's entries (at most PACK_MAX: the workspace comes after
 * them): as the program set them, or, for a pack built before we could see
 * it, asked of cuDNN; count 0 when neither can say. The real
 * cudnnBackendGetAttribute is assumed (not tested on a real GPU) to copy
 * min(requested, present) entries and report the count present.
 */
enum { PACK_MAX = BACKEND_SHADOW_PACK_MAX };

static unsigned read_variant_pack(cudnnBackendDescriptor_t pack, int64_t *uids, void **ptrs,
				  void **workspace)
{
	__typeof__(&cudnnBackendGetAttribute) get = REAL(cudnnBackendGetAttribute);
	int64_t n_uids = 0, n_ptrs = 0, n_workspace = 0;

	unsigned count = 0;
	*workspace = NULL;
	if (backend_shadow_pack(pack, uids, ptrs, &count, workspace))
		return count;
	if (!get || !pack)
		return 0;
	if (get(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &n_workspace,
		workspace) != CUDNN_STATUS_SUCCESS)
		*workspace = NULL;
	if (get(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, PACK_MAX, &n_uids,
		uids) != CUDNN_STATUS_SUCCESS ||
	    get(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, PACK_MAX, &n_ptrs,
		ptrs) != CUDNN_STATUS_SUCCESS)
		return 0;
	/* A larger pack is cut here; its count is what cuDNN reports, not what fits. */
	int64_t n = n_uids < n_ptrs ? n_uids : n_ptrs;
	if (n > PACK_MAX)
		n = PACK_MAX;
	return n > 0 ? (unsigned)n : 0;
}

/* The pack is read once the call returned: what the program set, or what cuDNN says. */
CUDNN_TRACED_CALL(cudnnBackendExecute,
	(cudnnHandle_t handle, cudnnBackendDescriptor_t executionPlan,
	 cudnnBackendDescriptor_t variantPack),
	(handle, executionPlan, variantPack),
	int64_t uids[PACK_MAX];
	void *ptrs[PACK_MAX];
	void *workspace;
	unsigned count = read_variant_pack(variantPack, uids, ptrs, &workspace);
	backend_shadow_describe(executionPlan, uids, ptrs, count, workspace, &event))
