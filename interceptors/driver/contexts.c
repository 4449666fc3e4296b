/*
 * Wrappers of the driver's context calls that end tensors (cuda.h): a
 * destroyed context (cuCtxDestroy_v2) frees the memory it owns, a reset
 * primary context (cuDevicePrimaryCtxReset_v2, and
 * cuDevicePrimaryCtxRelease_v2 when it released the last reference) frees
 * its device's, so each writes one dnntrace_api:free (api: the call) for
 * every such tensor the live map holds, as cudaDeviceReset does
 * (core/allocation_record.h). cuCtxCreate's variants only note the context
 * they made (core/context_owner.h), always, so that its tensors can be told
 * from the primary context's. Each forwards with the same arguments and
 * returns the result unchanged; must never end a tensor when the call failed.
 */
#include <cuda.h>

#include "interceptors/core/allocation_record.h"
#include "interceptors/core/context_owner.h"
#include "interceptors/core/wrapper.h"
#include "interceptors/driver/cuda_driver_ptds.h"

DNNTRACE_PROTOTYPE_IS(cuCtxCreate_v2, PFN_cuCtxCreate_v3020);
DNNTRACE_PROTOTYPE_IS(cuCtxCreate_v3, PFN_cuCtxCreate_v11040);
DNNTRACE_PROTOTYPE_IS(cuCtxCreate_v4, PFN_cuCtxCreate_v12050);

#define NOT_FOUND CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND

#define CREATE(name, params, args)                                                         \
	DNNTRACE_BOOKKEEPING_CALL(CUresult, name, params, args, NOT_FOUND, (void)0,           \
				  if (result == CUDA_SUCCESS && pctx)                         \
					  (void)context_owner_add((uintptr_t)*pctx))

CREATE(cuCtxCreate_v2, (CUcontext *pctx, unsigned int flags, CUdevice dev), (pctx, flags, dev))
CREATE(cuCtxCreate_v3,
       (CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
	CUdevice dev),
       (pctx, paramsArray, numParams, flags, dev))
CREATE(cuCtxCreate_v4,
       (CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev),
       (pctx, ctxCreateParams, flags, dev))

/*
 * A primary context was reset by this release when it is no longer active
 * (cuda.h: "The context is automatically reset once the last reference to
 * it is released"). Assumed, not seen on a real GPU: the driver reports
 * the reset context as inactive. A retain by another thread between the
 * release and this question hides the reset (its tensors then stay live).
 */
static bool primary_context_was_reset(CUresult result, CUdevice dev)
{
	__typeof__(&cuDevicePrimaryCtxGetState) get_state = REAL(cuDevicePrimaryCtxGetState);
	unsigned int flags = 0;
	int active = 1;

	return result == CUDA_SUCCESS && get_state &&
	       get_state(dev, &flags, &active) == CUDA_SUCCESS && !active;
}

DNNTRACE_RECORDED_CALL(CUresult, cuCtxDestroy_v2, (CUcontext ctx), (ctx), NOT_FOUND,
		       allocation_free_enabled(),
		       allocation_record_context_end(api, (uintptr_t)ctx, (int)result))

DNNTRACE_RECORDED_CALL(CUresult, cuDevicePrimaryCtxReset_v2, (CUdevice dev), (dev), NOT_FOUND,
		       allocation_free_enabled(),
		       allocation_record_device_end(api, dev, (int)result))

DNNTRACE_RECORDED_CALL(CUresult, cuDevicePrimaryCtxRelease_v2, (CUdevice dev), (dev), NOT_FOUND,
		       allocation_free_enabled(),
		       if (primary_context_was_reset(result, dev))
			       allocation_record_device_end(api, dev, (int)result))
