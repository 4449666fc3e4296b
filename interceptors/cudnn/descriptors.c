/*
 * Wrappers of the cuDNN calls that change what later calls read: the
 * legacy tensor and filter descriptor setters and destroys (their shapes
 * are remembered in cudnn_desc_cache), cudnnSetStream (the handle's stream,
 * and the dnntrace_lib:set_stream event) and cudnnDestroy.
 *
 * Each forwards its arguments unchanged and returns the real status with
 * errno as the real function left it (core/wrapper.h's bookkeeping
 * bracket). Bookkeeping happens whether or not a session listens (a
 * session may start later). Must never emit a call event.
 */
#include <cudnn.h>

#include "interceptors/cudnn/cudnn_call.h"
#include "interceptors/core/event_count.h"
#include "interceptors/cudnn/desc_cache.h"
#include "tracepoints/dnntrace_lib.h"

/* After a setter: remember what it set, or forget on failure. */
static void remember(cudnnStatus_t status, const void *desc, cudnnDataType_t type, int rank,
		     const int *dims)
{
	if (status == CUDNN_STATUS_SUCCESS)
		cudnn_desc_remember(desc, type, rank, dims);
	else
		cudnn_desc_forget(desc);
}

/* A setter of a descriptor's shape: the rank and dims it was given. */
#define SETTER(name, params, args, desc, type, rank, dims)                                   \
	DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, name, params, args, CUDNN_MISSING_STATUS,   \
				  (void)0, remember(result, desc, type, rank, dims))

/* A 4-d setter: the dims are the four sizes in the order the call takes them. */
#define SETTER_4D(name, params, args, desc, type, d0, d1, d2, d3)                            \
	SETTER(name, params, args, desc, type, 4, ((const int[4]){ d0, d1, d2, d3 }))

/* A destroy: forgotten first, since once destroyed the address may be reused. */
#define DESTROY(name, desc_type)                                                            \
	DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, name, (desc_type desc), (desc),             \
				  CUDNN_MISSING_STATUS, cudnn_desc_forget(desc), (void)0)

SETTER_4D(cudnnSetTensor4dDescriptor,
	  (cudnnTensorDescriptor_t tensorDesc, cudnnTensorFormat_t format,
	   cudnnDataType_t dataType, int n, int c, int h, int w),
	  (tensorDesc, format, dataType, n, c, h, w), tensorDesc, dataType, n, c, h, w)
SETTER_4D(cudnnSetTensor4dDescriptorEx,
	  (cudnnTensorDescriptor_t tensorDesc, cudnnDataType_t dataType, int n, int c, int h,
	   int w, int nStride, int cStride, int hStride, int wStride),
	  (tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride, wStride), tensorDesc,
	  dataType, n, c, h, w)
SETTER(cudnnSetTensorNdDescriptor,
       (cudnnTensorDescriptor_t tensorDesc, cudnnDataType_t dataType, int nbDims,
	const int dimA[], const int strideA[]),
       (tensorDesc, dataType, nbDims, dimA, strideA), tensorDesc, dataType, nbDims, dimA)
SETTER(cudnnSetTensorNdDescriptorEx,
       (cudnnTensorDescriptor_t tensorDesc, cudnnTensorFormat_t format,
	cudnnDataType_t dataType, int nbDims, const int dimA[]),
       (tensorDesc, format, dataType, nbDims, dimA), tensorDesc, dataType, nbDims, dimA)
DESTROY(cudnnDestroyTensorDescriptor, cudnnTensorDescriptor_t)

SETTER_4D(cudnnSetFilter4dDescriptor,
	  (cudnnFilterDescriptor_t filterDesc, cudnnDataType_t dataType,
	   cudnnTensorFormat_t format, int k, int c, int h, int w),
	  (filterDesc, dataType, format, k, c, h, w), filterDesc, dataType, k, c, h, w)
SETTER(cudnnSetFilterNdDescriptor,
       (cudnnFilterDescriptor_t filterDesc, cudnnDataType_t dataType,
	cudnnTensorFormat_t format, int nbDims, const int filterDimA[]),
       (filterDesc, dataType, format, nbDims, filterDimA), filterDesc, dataType, nbDims,
       filterDimA)
DESTROY(cudnnDestroyFilterDescriptor, cudnnFilterDescriptor_t)

/* The derived descriptors are read back from cuDNN when next used. */
DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnDeriveBNTensorDescriptor,
	(cudnnTensorDescriptor_t derivedBnDesc, const cudnnTensorDescriptor_t xDesc,
	 cudnnBatchNormMode_t mode),
	(derivedBnDesc, xDesc, mode), CUDNN_MISSING_STATUS, (void)0,
	cudnn_desc_forget(derivedBnDesc))

DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnDeriveNormTensorDescriptor,
	(cudnnTensorDescriptor_t derivedNormScaleBiasDesc,
	 cudnnTensorDescriptor_t derivedNormMeanVarDesc, const cudnnTensorDescriptor_t xDesc,
	 cudnnNormMode_t mode, int groupCnt),
	(derivedNormScaleBiasDesc, derivedNormMeanVarDesc, xDesc, mode, groupCnt),
	CUDNN_MISSING_STATUS, (void)0,
	cudnn_desc_forget(derivedNormScaleBiasDesc);
	cudnn_desc_forget(derivedNormMeanVarDesc))

/*
 * The handle's stream is remembered whether or not a session listens; the
 * set_stream event only when one listens, and never from inside another
 * wrapper (tracer_enter before the real call, like every recorded call).
 */
DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnSetStream,
	(cudnnHandle_t handle, cudaStream_t streamId), (handle, streamId), CUDNN_MISSING_STATUS,
	bool recording = tracer_enter(lttng_ust_tracepoint_enabled(dnntrace_lib, set_stream)),
	if (result == CUDNN_STATUS_SUCCESS)
		cudnn_handle_remember_stream(handle, streamId);
	if (recording) {
		DNNTRACE_EMIT(dnntrace_lib, set_stream, DNNTRACE_LIB_cudnnSetStream, handle,
				     streamId, (int)result);
		tracer_leave();
	})

DNNTRACE_BOOKKEEPING_CALL(cudnnStatus_t, cudnnDestroy, (cudnnHandle_t handle), (handle),
			  CUDNN_MISSING_STATUS, cudnn_handle_forget(handle), (void)0)
