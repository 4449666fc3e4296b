/*
 * Wrappers of the cuDNN legacy API calls that do GPU work (convolution,
 * batch normalization, activation, pooling, softmax, tensor ops, dropout).
 * Each forwards its arguments unchanged with the call id pushed as CUPTI
 * external correlation (so every kernel cuDNN launches links to the call),
 * returns the real status with the real errno, and, when recording, emits
 * one dnntrace_lib:call listing every data pointer in the order the API
 * lists them (workspace and reserve last) with its role and the shape of
 * its descriptor. A pointer an argument of the call itself makes unused
 * (z when alpha2 == 0, ...) is left out; a NULL optional pointer is listed
 * with tensor -1 and no shape.
 *
 * Roles follow cudnn_ops.h / cudnn_cnn.h: alpha/beta are host scaling
 * factors (y = alpha * op(...) + beta * y), so an output is READ_WRITE when
 * *beta != 0. Must never read device memory, and never allocate per call.
 *
 * Tested on the simulated libcudnn and, for statuses, on the real one
 * without a GPU. Assumed on a real GPU: the kernels real cuDNN launches
 * inside a call (driver API included) carry the pushed correlation id, and
 * cudnnGetStream is cheap and side-effect free (asked once per handle).
 */
#include <cudnn.h>

#include "interceptors/cudnn/cudnn_call.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"

#define R DNNTRACE_ROLE_READ
#define W DNNTRACE_ROLE_WRITE
#define RW DNNTRACE_ROLE_READ_WRITE
#define WS DNNTRACE_ROLE_WORKSPACE

static void begin(struct lib_call *c, enum dnntrace_lib_api_id api, cudnnHandle_t handle,
		  const char *arg_names, const char *param_names)
{
	lib_call_begin(c, api, handle, cudnn_handle_stream(handle), arg_names, param_names);
}

static void finish(struct lib_call *c, const struct traced_call *traced, cudnnStatus_t status)
{
	lib_call_emit(c, traced->call_id, traced->start_ns, (int)status);
	traced_call_leave(traced);
}

/* A double parameter as an integer event parameter: value * 1e9, rounded. */
static long long nano_units(double value)
{
	double scaled = value * 1e9;
	return (long long)(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
}

DNNTRACE_EXPORT cudnnStatus_t cudnnConvolutionForward(
	cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t xDesc,
	const void *x, const cudnnFilterDescriptor_t wDesc, const void *w,
	const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *beta,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	__typeof__(&cudnnConvolutionForward) real = REAL(cudnnConvolutionForward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, workSpace,
			    workSpaceSizeInBytes, beta, yDesc, y);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, alpha, xDesc, x, wDesc, w, convDesc, algo, workSpace,
				    workSpaceSizeInBytes, beta, yDesc, y);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnConvolutionForward, handle, "x,w,y,workspace",
	      "algo,workspace_bytes");
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_filter(&c, NULL, wDesc, w, R);
	cudnn_arg_output(&c, NULL, yDesc, y, beta);
	cudnn_arg_bytes(&c, NULL, workSpace, workSpaceSizeInBytes, WS);
	lib_call_param(&c, algo);
	lib_call_param(&c, (long long)workSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnConvolutionBackwardData(
	cudnnHandle_t handle, const void *alpha, const cudnnFilterDescriptor_t wDesc,
	const void *w, const cudnnTensorDescriptor_t dyDesc, const void *dy,
	const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionBwdDataAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	__typeof__(&cudnnConvolutionBackwardData) real = REAL(cudnnConvolutionBackwardData);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, alpha, wDesc, w, dyDesc, dy, convDesc, algo, workSpace,
			    workSpaceSizeInBytes, beta, dxDesc, dx);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, alpha, wDesc, w, dyDesc, dy, convDesc, algo, workSpace,
				    workSpaceSizeInBytes, beta, dxDesc, dx);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnConvolutionBackwardData, handle, "w,dy,dx,workspace",
	      "algo,workspace_bytes");
	cudnn_arg_filter(&c, NULL, wDesc, w, R);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_output(&c, NULL, dxDesc, dx, beta);
	cudnn_arg_bytes(&c, NULL, workSpace, workSpaceSizeInBytes, WS);
	lib_call_param(&c, algo);
	lib_call_param(&c, (long long)workSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnConvolutionBackwardFilter(
	cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t xDesc,
	const void *x, const cudnnTensorDescriptor_t dyDesc, const void *dy,
	const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionBwdFilterAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *beta,
	const cudnnFilterDescriptor_t dwDesc, void *dw)
{
	__typeof__(&cudnnConvolutionBackwardFilter) real = REAL(cudnnConvolutionBackwardFilter);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, alpha, xDesc, x, dyDesc, dy, convDesc, algo, workSpace,
			    workSpaceSizeInBytes, beta, dwDesc, dw);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, alpha, xDesc, x, dyDesc, dy, convDesc, algo, workSpace,
				    workSpaceSizeInBytes, beta, dwDesc, dw);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnConvolutionBackwardFilter, handle, "x,dy,dw,workspace",
	      "algo,workspace_bytes");
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_filter_output(&c, NULL, dwDesc, dw, beta);
	cudnn_arg_bytes(&c, NULL, workSpace, workSpaceSizeInBytes, WS);
	lib_call_param(&c, algo);
	lib_call_param(&c, (long long)workSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnConvolutionBackwardBias(cudnnHandle_t handle,
							   const void *alpha,
							   const cudnnTensorDescriptor_t dyDesc,
							   const void *dy, const void *beta,
							   const cudnnTensorDescriptor_t dbDesc,
							   void *db)
{
	__typeof__(&cudnnConvolutionBackwardBias) real = REAL(cudnnConvolutionBackwardBias);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, alpha, dyDesc, dy, beta, dbDesc, db);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, alpha, dyDesc, dy, beta, dbDesc, db);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnConvolutionBackwardBias, handle, "dy,db", NULL);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_output(&c, NULL, dbDesc, db, beta);
	finish(&c, &traced, status);
	return status;
}

/* y = act(alpha1 * conv(x, w) + alpha2 * z + bias): z is read only when alpha2 != 0. */
DNNTRACE_EXPORT cudnnStatus_t cudnnConvolutionBiasActivationForward(
	cudnnHandle_t handle, const void *alpha1, const cudnnTensorDescriptor_t xDesc,
	const void *x, const cudnnFilterDescriptor_t wDesc, const void *w,
	const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *alpha2,
	const cudnnTensorDescriptor_t zDesc, const void *z, const cudnnTensorDescriptor_t biasDesc,
	const void *bias, const cudnnActivationDescriptor_t activationDesc,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	__typeof__(&cudnnConvolutionBiasActivationForward) real =
		REAL(cudnnConvolutionBiasActivationForward);
	struct traced_call traced;
	struct lib_call c;
	struct cudnn_shape y_shape;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, alpha1, xDesc, x, wDesc, w, convDesc, algo, workSpace,
			    workSpaceSizeInBytes, alpha2, zDesc, z, biasDesc, bias,
			    activationDesc, yDesc, y);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, alpha1, xDesc, x, wDesc, w, convDesc, algo, workSpace,
				    workSpaceSizeInBytes, alpha2, zDesc, z, biasDesc, bias,
				    activationDesc, yDesc, y);
	traced_call_end(&traced);
	cudnn_tensor_shape(yDesc, &y_shape);
	begin(&c, DNNTRACE_LIB_cudnnConvolutionBiasActivationForward, handle, NULL,
	      "algo,workspace_bytes");
	cudnn_arg_tensor(&c, "x", xDesc, x, R);
	cudnn_arg_filter(&c, "w", wDesc, w, R);
	if (cudnn_host_scale(alpha2, &y_shape) != 0.0)
		cudnn_arg_tensor(&c, "z", zDesc, z, R);
	cudnn_arg_tensor(&c, "bias", biasDesc, bias, R);
	cudnn_arg_tensor(&c, "y", yDesc, y, W);
	cudnn_arg_bytes(&c, "workspace", workSpace, workSpaceSizeInBytes, WS);
	lib_call_param(&c, algo);
	lib_call_param(&c, (long long)workSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnBatchNormalizationForwardTraining(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc,
	void *y, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale,
	const void *bnBias, double exponentialAverageFactor, void *resultRunningMean,
	void *resultRunningVariance, double epsilon, void *resultSaveMean,
	void *resultSaveInvVariance)
{
	__typeof__(&cudnnBatchNormalizationForwardTraining) real =
		REAL(cudnnBatchNormalizationForwardTraining);
	struct traced_call traced;
	struct lib_call c;
	cudnnTensorDescriptor_t p = bnScaleBiasMeanVarDesc;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, mode, alpha, beta, xDesc, x, yDesc, y, p, bnScale, bnBias,
			    exponentialAverageFactor, resultRunningMean, resultRunningVariance,
			    epsilon, resultSaveMean, resultSaveInvVariance);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, mode, alpha, beta, xDesc, x, yDesc, y, p, bnScale,
				    bnBias, exponentialAverageFactor, resultRunningMean,
				    resultRunningVariance, epsilon, resultSaveMean,
				    resultSaveInvVariance);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnBatchNormalizationForwardTraining, handle,
	      "x,y,scale,bias,running_mean,running_var,save_mean,save_inv_var",
	      "mode,epsilon_e9,exp_avg_factor_e9");
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, yDesc, y, beta);
	cudnn_arg_tensor(&c, NULL, p, bnScale, R);
	cudnn_arg_tensor(&c, NULL, p, bnBias, R);
	cudnn_arg_tensor(&c, NULL, p, resultRunningMean, RW);
	cudnn_arg_tensor(&c, NULL, p, resultRunningVariance, RW);
	cudnn_arg_tensor(&c, NULL, p, resultSaveMean, W);
	cudnn_arg_tensor(&c, NULL, p, resultSaveInvVariance, W);
	lib_call_param(&c, mode);
	lib_call_param(&c, nano_units(epsilon));
	lib_call_param(&c, nano_units(exponentialAverageFactor));
	finish(&c, &traced, status);
	return status;
}

/* z is read only for CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION; reserve is written for backward. */
DNNTRACE_EXPORT cudnnStatus_t cudnnBatchNormalizationForwardTrainingEx(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	const void *alpha, const void *beta, const cudnnTensorDescriptor_t xDesc,
	const void *xData, const cudnnTensorDescriptor_t zDesc, const void *zData,
	const cudnnTensorDescriptor_t yDesc, void *yData,
	const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale,
	const void *bnBias, double exponentialAverageFactor, void *resultRunningMean,
	void *resultRunningVariance, double epsilon, void *resultSaveMean,
	void *resultSaveInvVariance, cudnnActivationDescriptor_t activationDesc, void *workspace,
	size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
	__typeof__(&cudnnBatchNormalizationForwardTrainingEx) real =
		REAL(cudnnBatchNormalizationForwardTrainingEx);
	struct traced_call traced;
	struct lib_call c;
	cudnnTensorDescriptor_t p = bnScaleBiasMeanVarDesc;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, mode, bnOps, alpha, beta, xDesc, xData, zDesc, zData, yDesc,
			    yData, p, bnScale, bnBias, exponentialAverageFactor,
			    resultRunningMean, resultRunningVariance, epsilon, resultSaveMean,
			    resultSaveInvVariance, activationDesc, workspace,
			    workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, mode, bnOps, alpha, beta, xDesc, xData, zDesc, zData,
				    yDesc, yData, p, bnScale, bnBias, exponentialAverageFactor,
				    resultRunningMean, resultRunningVariance, epsilon,
				    resultSaveMean, resultSaveInvVariance, activationDesc,
				    workspace, workSpaceSizeInBytes, reserveSpace,
				    reserveSpaceSizeInBytes);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnBatchNormalizationForwardTrainingEx, handle, NULL,
	      "mode,bn_ops,epsilon_e9,exp_avg_factor_e9,workspace_bytes,reserve_bytes");
	cudnn_arg_tensor(&c, "x", xDesc, xData, R);
	if (bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
		cudnn_arg_tensor(&c, "z", zDesc, zData, R);
	cudnn_arg_output(&c, "y", yDesc, yData, beta);
	cudnn_arg_tensor(&c, "scale", p, bnScale, R);
	cudnn_arg_tensor(&c, "bias", p, bnBias, R);
	cudnn_arg_tensor(&c, "running_mean", p, resultRunningMean, RW);
	cudnn_arg_tensor(&c, "running_var", p, resultRunningVariance, RW);
	cudnn_arg_tensor(&c, "save_mean", p, resultSaveMean, W);
	cudnn_arg_tensor(&c, "save_inv_var", p, resultSaveInvVariance, W);
	cudnn_arg_bytes(&c, "workspace", workspace, workSpaceSizeInBytes, WS);
	cudnn_arg_bytes(&c, "reserve", reserveSpace, reserveSpaceSizeInBytes, W);
	lib_call_param(&c, mode);
	lib_call_param(&c, bnOps);
	lib_call_param(&c, nano_units(epsilon));
	lib_call_param(&c, nano_units(exponentialAverageFactor));
	lib_call_param(&c, (long long)workSpaceSizeInBytes);
	lib_call_param(&c, (long long)reserveSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnBatchNormalizationForwardInference(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc,
	void *y, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale,
	const void *bnBias, const void *estimatedMean, const void *estimatedVariance,
	double epsilon)
{
	__typeof__(&cudnnBatchNormalizationForwardInference) real =
		REAL(cudnnBatchNormalizationForwardInference);
	struct traced_call traced;
	struct lib_call c;
	cudnnTensorDescriptor_t p = bnScaleBiasMeanVarDesc;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, mode, alpha, beta, xDesc, x, yDesc, y, p, bnScale, bnBias,
			    estimatedMean, estimatedVariance, epsilon);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, mode, alpha, beta, xDesc, x, yDesc, y, p, bnScale,
				    bnBias, estimatedMean, estimatedVariance, epsilon);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnBatchNormalizationForwardInference, handle,
	      "x,y,scale,bias,mean,var", "mode,epsilon_e9");
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, yDesc, y, beta);
	cudnn_arg_tensor(&c, NULL, p, bnScale, R);
	cudnn_arg_tensor(&c, NULL, p, bnBias, R);
	cudnn_arg_tensor(&c, NULL, p, estimatedMean, R);
	cudnn_arg_tensor(&c, NULL, p, estimatedVariance, R);
	lib_call_param(&c, mode);
	lib_call_param(&c, nano_units(epsilon));
	finish(&c, &traced, status);
	return status;
}

/* dx blends by betaDataDiff; dscale and dbias by betaParamDiff. */
DNNTRACE_EXPORT cudnnStatus_t cudnnBatchNormalizationBackward(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alphaDataDiff,
	const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnTensorDescriptor_t dxDesc, void *dx,
	const cudnnTensorDescriptor_t dBnScaleBiasDesc, const void *bnScale,
	void *dBnScaleResult, void *dBnBiasResult, double epsilon, const void *savedMean,
	const void *savedInvVariance)
{
	__typeof__(&cudnnBatchNormalizationBackward) real = REAL(cudnnBatchNormalizationBackward);
	struct traced_call traced;
	struct lib_call c;
	cudnnTensorDescriptor_t p = dBnScaleBiasDesc;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
			    betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, p, bnScale,
			    dBnScaleResult, dBnBiasResult, epsilon, savedMean, savedInvVariance);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, mode, alphaDataDiff, betaDataDiff, alphaParamDiff,
				    betaParamDiff, xDesc, x, dyDesc, dy, dxDesc, dx, p, bnScale,
				    dBnScaleResult, dBnBiasResult, epsilon, savedMean,
				    savedInvVariance);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnBatchNormalizationBackward, handle,
	      "x,dy,dx,scale,dscale,dbias,saved_mean,saved_inv_var", "mode,epsilon_e9");
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_output(&c, NULL, dxDesc, dx, betaDataDiff);
	cudnn_arg_tensor(&c, NULL, p, bnScale, R);
	cudnn_arg_output(&c, NULL, p, dBnScaleResult, betaParamDiff);
	cudnn_arg_output(&c, NULL, p, dBnBiasResult, betaParamDiff);
	cudnn_arg_tensor(&c, NULL, p, savedMean, R);
	cudnn_arg_tensor(&c, NULL, p, savedInvVariance, R);
	lib_call_param(&c, mode);
	lib_call_param(&c, nano_units(epsilon));
	finish(&c, &traced, status);
	return status;
}

/*
 * y and bias are read only with an activation (bnOps != BN); dz is written
 * only for BN_ADD_ACTIVATION; the reserve written by the forward pass is read.
 */
DNNTRACE_EXPORT cudnnStatus_t cudnnBatchNormalizationBackwardEx(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	const void *alphaDataDiff, const void *betaDataDiff, const void *alphaParamDiff,
	const void *betaParamDiff, const cudnnTensorDescriptor_t xDesc, const void *xData,
	const cudnnTensorDescriptor_t yDesc, const void *yData,
	const cudnnTensorDescriptor_t dyDesc, const void *dyData,
	const cudnnTensorDescriptor_t dzDesc, void *dzData, const cudnnTensorDescriptor_t dxDesc,
	void *dxData, const cudnnTensorDescriptor_t dBnScaleBiasDesc, const void *bnScaleData,
	const void *bnBiasData, void *dBnScaleData, void *dBnBiasData, double epsilon,
	const void *savedMean, const void *savedInvVariance,
	cudnnActivationDescriptor_t activationDesc, void *workSpace, size_t workSpaceSizeInBytes,
	void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
	__typeof__(&cudnnBatchNormalizationBackwardEx) real =
		REAL(cudnnBatchNormalizationBackwardEx);
	struct traced_call traced;
	struct lib_call c;
	cudnnTensorDescriptor_t p = dBnScaleBiasDesc;
	bool activation = bnOps != CUDNN_BATCHNORM_OPS_BN;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, mode, bnOps, alphaDataDiff, betaDataDiff, alphaParamDiff,
			    betaParamDiff, xDesc, xData, yDesc, yData, dyDesc, dyData, dzDesc,
			    dzData, dxDesc, dxData, p, bnScaleData, bnBiasData, dBnScaleData,
			    dBnBiasData, epsilon, savedMean, savedInvVariance, activationDesc,
			    workSpace, workSpaceSizeInBytes, reserveSpace,
			    reserveSpaceSizeInBytes);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, mode, bnOps, alphaDataDiff, betaDataDiff,
				    alphaParamDiff, betaParamDiff, xDesc, xData, yDesc, yData,
				    dyDesc, dyData, dzDesc, dzData, dxDesc, dxData, p, bnScaleData,
				    bnBiasData, dBnScaleData, dBnBiasData, epsilon, savedMean,
				    savedInvVariance, activationDesc, workSpace,
				    workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnBatchNormalizationBackwardEx, handle, NULL,
	      "mode,bn_ops,epsilon_e9,workspace_bytes,reserve_bytes");
	cudnn_arg_tensor(&c, "x", xDesc, xData, R);
	if (activation)
		cudnn_arg_tensor(&c, "y", yDesc, yData, R);
	cudnn_arg_tensor(&c, "dy", dyDesc, dyData, R);
	if (bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
		cudnn_arg_output(&c, "dz", dzDesc, dzData, betaDataDiff);
	cudnn_arg_output(&c, "dx", dxDesc, dxData, betaDataDiff);
	cudnn_arg_tensor(&c, "scale", p, bnScaleData, R);
	if (activation)
		cudnn_arg_tensor(&c, "bias", p, bnBiasData, R);
	cudnn_arg_output(&c, "dscale", p, dBnScaleData, betaParamDiff);
	cudnn_arg_output(&c, "dbias", p, dBnBiasData, betaParamDiff);
	cudnn_arg_tensor(&c, "saved_mean", p, savedMean, R);
	cudnn_arg_tensor(&c, "saved_inv_var", p, savedInvVariance, R);
	cudnn_arg_bytes(&c, "workspace", workSpace, workSpaceSizeInBytes, WS);
	cudnn_arg_bytes(&c, "reserve", reserveSpace, reserveSpaceSizeInBytes, R);
	lib_call_param(&c, mode);
	lib_call_param(&c, bnOps);
	lib_call_param(&c, nano_units(epsilon));
	lib_call_param(&c, (long long)workSpaceSizeInBytes);
	lib_call_param(&c, (long long)reserveSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnActivationForward(cudnnHandle_t handle,
						     cudnnActivationDescriptor_t activationDesc,
						     const void *alpha,
						     const cudnnTensorDescriptor_t xDesc,
						     const void *x, const void *beta,
						     const cudnnTensorDescriptor_t yDesc, void *y)
{
	__typeof__(&cudnnActivationForward) real = REAL(cudnnActivationForward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, activationDesc, alpha, xDesc, x, beta, yDesc, y);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, activationDesc, alpha, xDesc, x, beta, yDesc, y);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnActivationForward, handle, "x,y", NULL);
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, yDesc, y, beta);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnActivationBackward(
	cudnnHandle_t handle, cudnnActivationDescriptor_t activationDesc, const void *alpha,
	const cudnnTensorDescriptor_t yDesc, const void *y, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	__typeof__(&cudnnActivationBackward) real = REAL(cudnnActivationBackward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, activationDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta,
			    dxDesc, dx);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, activationDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x,
				    beta, dxDesc, dx);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnActivationBackward, handle, "y,dy,x,dx", NULL);
	cudnn_arg_tensor(&c, NULL, yDesc, y, R);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, dxDesc, dx, beta);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnPoolingForward(cudnnHandle_t handle,
						  const cudnnPoolingDescriptor_t poolingDesc,
						  const void *alpha,
						  const cudnnTensorDescriptor_t xDesc, const void *x,
						  const void *beta,
						  const cudnnTensorDescriptor_t yDesc, void *y)
{
	__typeof__(&cudnnPoolingForward) real = REAL(cudnnPoolingForward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, poolingDesc, alpha, xDesc, x, beta, yDesc, y);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, poolingDesc, alpha, xDesc, x, beta, yDesc, y);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnPoolingForward, handle, "x,y", NULL);
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, yDesc, y, beta);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnPoolingBackward(
	cudnnHandle_t handle, const cudnnPoolingDescriptor_t poolingDesc, const void *alpha,
	const cudnnTensorDescriptor_t yDesc, const void *y, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	__typeof__(&cudnnPoolingBackward) real = REAL(cudnnPoolingBackward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, poolingDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta,
			    dxDesc, dx);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, poolingDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x,
				    beta, dxDesc, dx);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnPoolingBackward, handle, "y,dy,x,dx", NULL);
	cudnn_arg_tensor(&c, NULL, yDesc, y, R);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, dxDesc, dx, beta);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSoftmaxForward(cudnnHandle_t handle,
						  cudnnSoftmaxAlgorithm_t algo,
						  cudnnSoftmaxMode_t mode, const void *alpha,
						  const cudnnTensorDescriptor_t xDesc, const void *x,
						  const void *beta,
						  const cudnnTensorDescriptor_t yDesc, void *y)
{
	__typeof__(&cudnnSoftmaxForward) real = REAL(cudnnSoftmaxForward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, algo, mode, alpha, xDesc, x, beta, yDesc, y);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, algo, mode, alpha, xDesc, x, beta, yDesc, y);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnSoftmaxForward, handle, "x,y", "algo,mode");
	cudnn_arg_tensor(&c, NULL, xDesc, x, R);
	cudnn_arg_output(&c, NULL, yDesc, y, beta);
	lib_call_param(&c, algo);
	lib_call_param(&c, mode);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnSoftmaxBackward(
	cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode,
	const void *alpha, const cudnnTensorDescriptor_t yDesc, const void *y,
	const cudnnTensorDescriptor_t dyDesc, const void *dy, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	__typeof__(&cudnnSoftmaxBackward) real = REAL(cudnnSoftmaxBackward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, algo, mode, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, algo, mode, alpha, yDesc, y, dyDesc, dy, beta, dxDesc,
				    dx);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnSoftmaxBackward, handle, "y,dy,dx", "algo,mode");
	cudnn_arg_tensor(&c, NULL, yDesc, y, R);
	cudnn_arg_tensor(&c, NULL, dyDesc, dy, R);
	cudnn_arg_output(&c, NULL, dxDesc, dx, beta);
	lib_call_param(&c, algo);
	lib_call_param(&c, mode);
	finish(&c, &traced, status);
	return status;
}

/* C = alpha * A + beta * C */
DNNTRACE_EXPORT cudnnStatus_t cudnnAddTensor(cudnnHandle_t handle, const void *alpha,
					     const cudnnTensorDescriptor_t aDesc, const void *A,
					     const void *beta,
					     const cudnnTensorDescriptor_t cDesc, void *C)
{
	__typeof__(&cudnnAddTensor) real = REAL(cudnnAddTensor);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, alpha, aDesc, A, beta, cDesc, C);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, alpha, aDesc, A, beta, cDesc, C);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnAddTensor, handle, "A,C", NULL);
	cudnn_arg_tensor(&c, NULL, aDesc, A, R);
	cudnn_arg_output(&c, NULL, cDesc, C, beta);
	finish(&c, &traced, status);
	return status;
}

/* C = op(alpha1 * A, alpha2 * B) + beta * C */
DNNTRACE_EXPORT cudnnStatus_t cudnnOpTensor(
	cudnnHandle_t handle, const cudnnOpTensorDescriptor_t opTensorDesc, const void *alpha1,
	const cudnnTensorDescriptor_t aDesc, const void *A, const void *alpha2,
	const cudnnTensorDescriptor_t bDesc, const void *B, const void *beta,
	const cudnnTensorDescriptor_t cDesc, void *C)
{
	__typeof__(&cudnnOpTensor) real = REAL(cudnnOpTensor);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, opTensorDesc, alpha1, aDesc, A, alpha2, bDesc, B, beta, cDesc,
			    C);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, opTensorDesc, alpha1, aDesc, A, alpha2, bDesc, B, beta,
				    cDesc, C);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnOpTensor, handle, "A,B,C", NULL);
	cudnn_arg_tensor(&c, NULL, aDesc, A, R);
	cudnn_arg_tensor(&c, NULL, bDesc, B, R);
	cudnn_arg_output(&c, NULL, cDesc, C, beta);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnDropoutForward(cudnnHandle_t handle,
						  const cudnnDropoutDescriptor_t dropoutDesc,
						  const cudnnTensorDescriptor_t xdesc,
						  const void *x,
						  const cudnnTensorDescriptor_t ydesc, void *y,
						  void *reserveSpace,
						  size_t reserveSpaceSizeInBytes)
{
	__typeof__(&cudnnDropoutForward) real = REAL(cudnnDropoutForward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, dropoutDesc, xdesc, x, ydesc, y, reserveSpace,
			    reserveSpaceSizeInBytes);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, dropoutDesc, xdesc, x, ydesc, y, reserveSpace,
				    reserveSpaceSizeInBytes);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnDropoutForward, handle, "x,y,reserve", "reserve_bytes");
	cudnn_arg_tensor(&c, NULL, xdesc, x, R);
	cudnn_arg_tensor(&c, NULL, ydesc, y, W);
	cudnn_arg_bytes(&c, NULL, reserveSpace, reserveSpaceSizeInBytes, W);
	lib_call_param(&c, (long long)reserveSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}

DNNTRACE_EXPORT cudnnStatus_t cudnnDropoutBackward(cudnnHandle_t handle,
						   const cudnnDropoutDescriptor_t dropoutDesc,
						   const cudnnTensorDescriptor_t dydesc,
						   const void *dy,
						   const cudnnTensorDescriptor_t dxdesc, void *dx,
						   void *reserveSpace,
						   size_t reserveSpaceSizeInBytes)
{
	__typeof__(&cudnnDropoutBackward) real = REAL(cudnnDropoutBackward);
	struct traced_call traced;
	struct lib_call c;

	if (!real)
		return CUDNN_MISSING_STATUS;
	if (!cudnn_call_recording())
		return real(handle, dropoutDesc, dydesc, dy, dxdesc, dx, reserveSpace,
			    reserveSpaceSizeInBytes);
	traced_call_begin(&traced);
	cudnnStatus_t status = real(handle, dropoutDesc, dydesc, dy, dxdesc, dx, reserveSpace,
				    reserveSpaceSizeInBytes);
	traced_call_end(&traced);
	begin(&c, DNNTRACE_LIB_cudnnDropoutBackward, handle, "dy,dx,reserve", "reserve_bytes");
	cudnn_arg_tensor(&c, NULL, dydesc, dy, R);
	cudnn_arg_tensor(&c, NULL, dxdesc, dx, W);
	cudnn_arg_bytes(&c, NULL, reserveSpace, reserveSpaceSizeInBytes, R);
	lib_call_param(&c, (long long)reserveSpaceSizeInBytes);
	finish(&c, &traced, status);
	return status;
}
