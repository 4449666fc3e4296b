/*
 * Wrappers of the cuDNN backend (graph) API. cudnnBackendCreateDescriptor,
 * SetAttribute, GetAttribute, Finalize and DestroyDescriptor feed the shadow
 * of the program's descriptors (cudnn_backend_shadow.c) and otherwise only
 * forward; cudnnBackendExecute is traced like a legacy call: call id pushed
 * as CUPTI external correlation around the real call, then one
 * dnntrace_lib:call with every variant-pack pointer, named
 * "uid<N>:<attribute>", its role from the plan's graph, and the workspace.
 *
 * The variant pack is read from the shadow (what the program set), or
 * through the real cudnnBackendGetAttribute after the call when it was
 * built before the tracer saw it. Each wrapper returns the real
 * status with errno as the real function left it; must never change an
 * argument or hold the shadow's lock while cuDNN runs.
 */
#include <errno.h>

#include <cudnn.h>

#include "interceptors/cudnn/backend_shadow.h"
#include "interceptors/cudnn/cudnn_call.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"

DNNTRACE_EXPORT cudnnStatus_t cudnnBackendCreateDescriptor(
	cudnnBackendDescriptorType_t descriptorType, cudnnBackendDescriptor_t *descriptor)
{
	__typeof__(&cudnnBackendCreateDescriptor) real = REAL(cudnnBackendCreateDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(descriptorType, descriptor);
	int saved_errno = errno;
	if (status == CUDNN_STATUS_SUCCESS && descriptor)
		backend_shadow_created(*descriptor, descriptorType);
	errno = saved_errno;
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnBackendDestroyDescriptor(cudnnBackendDescriptor_t descriptor)
{
	__typeof__(&cudnnBackendDestroyDescriptor) real = REAL(cudnnBackendDestroyDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	int saved_errno = errno;
	backend_shadow_destroyed(descriptor); /* first: the address may be reused at once */
	errno = saved_errno;
	return real(descriptor);
}

DNNTRACE_EXPORT cudnnStatus_t cudnnBackendSetAttribute(cudnnBackendDescriptor_t descriptor,
						       cudnnBackendAttributeName_t attributeName,
						       cudnnBackendAttributeType_t attributeType,
						       int64_t elementCount,
						       const void *arrayOfElements)
{
	__typeof__(&cudnnBackendSetAttribute) real = REAL(cudnnBackendSetAttribute);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(descriptor, attributeName, attributeType, elementCount,
				    arrayOfElements);
	int saved_errno = errno;
	if (status == CUDNN_STATUS_SUCCESS)
		backend_shadow_set(descriptor, attributeName, attributeType, elementCount,
				   arrayOfElements);
	errno = saved_errno;
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnBackendGetAttribute(cudnnBackendDescriptor_t const descriptor,
						       cudnnBackendAttributeName_t attributeName,
						       cudnnBackendAttributeType_t attributeType,
						       int64_t requestedElementCount,
						       int64_t *elementCount,
						       void *arrayOfElements)
{
	__typeof__(&cudnnBackendGetAttribute) real = REAL(cudnnBackendGetAttribute);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(descriptor, attributeName, attributeType,
				    requestedElementCount, elementCount, arrayOfElements);
	int saved_errno = errno;
	if (status == CUDNN_STATUS_SUCCESS && elementCount) {
		int64_t filled = *elementCount < requestedElementCount ? *elementCount
								       : requestedElementCount;
		backend_shadow_got(descriptor, attributeName, attributeType, filled,
				   arrayOfElements);
	}
	errno = saved_errno;
	return status;
}

/* A finalized plan's workspace size is asked once, here, not at every execute. */
DNNTRACE_EXPORT cudnnStatus_t cudnnBackendFinalize(cudnnBackendDescriptor_t descriptor)
{
	__typeof__(&cudnnBackendFinalize) real = REAL(cudnnBackendFinalize);
	__typeof__(&cudnnBackendGetAttribute) get = REAL(cudnnBackendGetAttribute);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(descriptor);
	int saved_errno = errno;
	int64_t bytes = -1, count = 0;
	if (status == CUDNN_STATUS_SUCCESS && get && backend_shadow_is_plan(descriptor) &&
	    get(descriptor, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &count,
		&bytes) == CUDNN_STATUS_SUCCESS && count == 1)
		backend_shadow_plan_workspace(descriptor, bytes);
	errno = saved_errno;
	return status;
}

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

DNNTRACE_EXPORT cudnnStatus_t cudnnBackendExecute(cudnnHandle_t handle,
						  cudnnBackendDescriptor_t executionPlan,
						  cudnnBackendDescriptor_t variantPack)
{
	__typeof__(&cudnnBackendExecute) real = REAL(cudnnBackendExecute);
	struct traced_call traced;
	struct lib_call c;
	int64_t uids[PACK_MAX];
	void *ptrs[PACK_MAX];
	void *workspace;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, executionPlan, variantPack);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, executionPlan, variantPack);
	traced_call_end(&traced);
	unsigned count = read_variant_pack(variantPack, uids, ptrs, &workspace);
	lib_call_begin(&c, DNNTRACE_LIB_cudnnBackendExecute, handle, cudnn_handle_stream(handle),
		       NULL, "ops,workspace_bytes");
	backend_shadow_describe(executionPlan, uids, ptrs, count, workspace, &c);
	lib_call_emit(&c, traced.call_id, traced.start_ns, (int)status);
	traced_call_leave(&traced);
	return status;
}
