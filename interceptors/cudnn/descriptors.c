/*
 * Wrappers of the cuDNN calls that change what later calls read: the
 * legacy tensor and filter descriptor setters and destroys (their shapes
 * are remembered in cudnn_desc_cache), cudnnSetStream (the handle's stream,
 * and the dnntrace_lib:set_stream event) and cudnnDestroy.
 *
 * Each forwards its arguments unchanged and returns the real status with
 * errno as the real function left it. Bookkeeping happens whether or not a
 * session listens (a session may start later). Must never emit a call event.
 */
#include <errno.h>

#include <cudnn.h>

#include "interceptors/cudnn/cudnn_call.h"
#include "interceptors/cudnn/desc_cache.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_lib.h"

/* After a setter: remember what it set, or forget on failure; errno kept. */
static void remember(cudnnStatus_t status, const void *desc, cudnnDataType_t type, int rank,
		     const int *dims)
{
	int saved_errno = errno;
	if (status == CUDNN_STATUS_SUCCESS)
		cudnn_desc_remember(desc, type, rank, dims);
	else
		cudnn_desc_forget(desc);
	errno = saved_errno;
}

static void forget(const void *desc)
{
	int saved_errno = errno;
	cudnn_desc_forget(desc);
	errno = saved_errno;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t tensorDesc,
							 cudnnTensorFormat_t format,
							 cudnnDataType_t dataType, int n, int c,
							 int h, int w)
{
	__typeof__(&cudnnSetTensor4dDescriptor) real = REAL(cudnnSetTensor4dDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(tensorDesc, format, dataType, n, c, h, w);
	const int dims[4] = { n, c, h, w };
	remember(status, tensorDesc, dataType, 4, dims);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetTensor4dDescriptorEx(cudnnTensorDescriptor_t tensorDesc,
							   cudnnDataType_t dataType, int n,
							   int c, int h, int w, int nStride,
							   int cStride, int hStride, int wStride)
{
	__typeof__(&cudnnSetTensor4dDescriptorEx) real = REAL(cudnnSetTensor4dDescriptorEx);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride,
				    wStride);
	const int dims[4] = { n, c, h, w };
	remember(status, tensorDesc, dataType, 4, dims);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetTensorNdDescriptor(cudnnTensorDescriptor_t tensorDesc,
							 cudnnDataType_t dataType, int nbDims,
							 const int dimA[], const int strideA[])
{
	__typeof__(&cudnnSetTensorNdDescriptor) real = REAL(cudnnSetTensorNdDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(tensorDesc, dataType, nbDims, dimA, strideA);
	remember(status, tensorDesc, dataType, nbDims, dimA);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetTensorNdDescriptorEx(cudnnTensorDescriptor_t tensorDesc,
							   cudnnTensorFormat_t format,
							   cudnnDataType_t dataType, int nbDims,
							   const int dimA[])
{
	__typeof__(&cudnnSetTensorNdDescriptorEx) real = REAL(cudnnSetTensorNdDescriptorEx);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(tensorDesc, format, dataType, nbDims, dimA);
	remember(status, tensorDesc, dataType, nbDims, dimA);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t tensorDesc)
{
	__typeof__(&cudnnDestroyTensorDescriptor) real = REAL(cudnnDestroyTensorDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	forget(tensorDesc); /* first: once destroyed, the address may be reused */
	return real(tensorDesc);
}

/* The derived descriptors are read back from cuDNN when next used. */
DNNTRACE_EXPORT cudnnStatus_t cudnnDeriveBNTensorDescriptor(cudnnTensorDescriptor_t derivedBnDesc,
							    const cudnnTensorDescriptor_t xDesc,
							    cudnnBatchNormMode_t mode)
{
	__typeof__(&cudnnDeriveBNTensorDescriptor) real = REAL(cudnnDeriveBNTensorDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(derivedBnDesc, xDesc, mode);
	forget(derivedBnDesc);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnDeriveNormTensorDescriptor(
	cudnnTensorDescriptor_t derivedNormScaleBiasDesc,
	cudnnTensorDescriptor_t derivedNormMeanVarDesc, const cudnnTensorDescriptor_t xDesc,
	cudnnNormMode_t mode, int groupCnt)
{
	__typeof__(&cudnnDeriveNormTensorDescriptor) real = REAL(cudnnDeriveNormTensorDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(derivedNormScaleBiasDesc, derivedNormMeanVarDesc, xDesc, mode,
				    groupCnt);
	forget(derivedNormScaleBiasDesc);
	forget(derivedNormMeanVarDesc);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t filterDesc,
							 cudnnDataType_t dataType,
							 cudnnTensorFormat_t format, int k, int c,
							 int h, int w)
{
	__typeof__(&cudnnSetFilter4dDescriptor) real = REAL(cudnnSetFilter4dDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(filterDesc, dataType, format, k, c, h, w);
	const int dims[4] = { k, c, h, w };
	remember(status, filterDesc, dataType, 4, dims);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetFilterNdDescriptor(cudnnFilterDescriptor_t filterDesc,
							 cudnnDataType_t dataType,
							 cudnnTensorFormat_t format, int nbDims,
							 const int filterDimA[])
{
	__typeof__(&cudnnSetFilterNdDescriptor) real = REAL(cudnnSetFilterNdDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	cudnnStatus_t status = real(filterDesc, dataType, format, nbDims, filterDimA);
	remember(status, filterDesc, dataType, nbDims, filterDimA);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t filterDesc)
{
	__typeof__(&cudnnDestroyFilterDescriptor) real = REAL(cudnnDestroyFilterDescriptor);
	if (!real)
		return CUDNN_MISSING_STATUS;
	forget(filterDesc);
	return real(filterDesc);
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSetStream(cudnnHandle_t handle, cudaStream_t streamId)
{
	__typeof__(&cudnnSetStream) real = REAL(cudnnSetStream);
	if (!real)
		return CUDNN_MISSING_STATUS;
	bool recording = tracer_enter(lttng_ust_tracepoint_enabled(dnntrace_lib, set_stream));
	cudnnStatus_t status = real(handle, streamId);
	int saved_errno = errno;
	if (status == CUDNN_STATUS_SUCCESS)
		cudnn_handle_remember_stream(handle, streamId);
	if (recording) {
		lttng_ust_tracepoint(dnntrace_lib, set_stream, DNNTRACE_LIB_cudnnSetStream, handle,
				     streamId, (int)status);
		tracer_leave();
	}
	errno = saved_errno;
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnDestroy(cudnnHandle_t handle)
{
	__typeof__(&cudnnDestroy) real = REAL(cudnnDestroy);
	if (!real)
		return CUDNN_MISSING_STATUS;
	int saved_errno = errno;
	cudnn_handle_forget(handle);
	errno = saved_errno;
	return real(handle);
}
