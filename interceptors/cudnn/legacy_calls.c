/*
 * Wrappers of the cuDNN legacy API calls that do GPU work (convolution,
 * batch normalization, activation, pooling, softmax, tensor ops, dropout).
 * Each forwards its arguments unchanged with the call id pushed as CUPTI
 * external correlation (so every kernel cuDNN launches links to the call),
 * returns the real status with the real errno, and, when recording, emits
 * one dnntrace_lib:call listing every data pointer in the order the API
 * lists them (workspace and reserve last), as the catalogue names them
 * (tracepoints/entry_points.h), with its role and the shape of its
 * descriptor. A pointer an argument of the call itself makes unused (z when
 * alpha2 == 0, ...) is listed with role unused; a NULL optional pointer is
 * listed with tensor -1 and no shape. The bracket is CUDNN_TRACED_CALL's
 * (cudnn_call.h, on core/wrapper.h): each wrapper below is its prototype,
 * its argument list and its description.
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

#define R DNNTRACE_ROLE_READ
#define W DNNTRACE_ROLE_WRITE
#define RW DNNTRACE_ROLE_READ_WRITE
#define WS DNNTRACE_ROLE_WORKSPACE

/* A double parameter as an integer event parameter: value * 1e9, rounded. */
static long long nano_units(double value)
{
	double scaled = value * 1e9;
	return (long long)(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
}

/* --- convolutions ------------------------------------------------------- */

/*
 * out = conv(in1, in2) and its two gradients: three calls of one shape that
 * differ in which operand has a filter descriptor (add_* then says how to
 * list it) and in the algorithm's type. out blends with beta.
 */
#define CONVOLUTION(name, in1, in1_desc_type, add_in1, in2, in2_desc_type, add_in2, algo_type, \
		    out, out_desc_type, add_out)                                        \
	CUDNN_TRACED_CALL(name,                                                         \
		(cudnnHandle_t handle, const void *alpha, const in1_desc_type in1##Desc, \
		 const void *in1, const in2_desc_type in2##Desc, const void *in2,       \
		 const cudnnConvolutionDescriptor_t convDesc, algo_type algo, void *workSpace, \
		 size_t workSpaceSizeInBytes, const void *beta, const out_desc_type out##Desc, \
		 void *out),                                                            \
		(handle, alpha, in1##Desc, in1, in2##Desc, in2, convDesc, algo, workSpace, \
		 workSpaceSizeInBytes, beta, out##Desc, out),                           \
		add_in1(&event, in1##Desc, in1, R);                                     \
		add_in2(&event, in2##Desc, in2, R);                                     \
		add_out(&event, out##Desc, out, beta);                                  \
		cudnn_arg_bytes(&event, workSpace, workSpaceSizeInBytes, WS);           \
		lib_call_param(&event, algo);                                           \
		lib_call_param(&event, (long long)workSpaceSizeInBytes))

CONVOLUTION(cudnnConvolutionForward, x, cudnnTensorDescriptor_t, cudnn_arg_tensor,
	    w, cudnnFilterDescriptor_t, cudnn_arg_filter, cudnnConvolutionFwdAlgo_t,
	    y, cudnnTensorDescriptor_t, cudnn_arg_output)
CONVOLUTION(cudnnConvolutionBackwardData, w, cudnnFilterDescriptor_t, cudnn_arg_filter,
	    dy, cudnnTensorDescriptor_t, cudnn_arg_tensor, cudnnConvolutionBwdDataAlgo_t,
	    dx, cudnnTensorDescriptor_t, cudnn_arg_output)
CONVOLUTION(cudnnConvolutionBackwardFilter, x, cudnnTensorDescriptor_t, cudnn_arg_tensor,
	    dy, cudnnTensorDescriptor_t, cudnn_arg_tensor, cudnnConvolutionBwdFilterAlgo_t,
	    dw, cudnnFilterDescriptor_t, cudnn_arg_filter_output)

CUDNN_TRACED_CALL(cudnnConvolutionBackwardBias,
	(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t dyDesc,
	 const void *dy, const void *beta, const cudnnTensorDescriptor_t dbDesc, void *db),
	(handle, alpha, dyDesc, dy, beta, dbDesc, db),
	cudnn_arg_tensor(&event, dyDesc, dy, R);
	cudnn_arg_output(&event, dbDesc, db, beta))

/* y = act(alpha1 * conv(x, w) + alpha2 * z + bias): z is read only when alpha2 != 0. */
CUDNN_TRACED_CALL(cudnnConvolutionBiasActivationForward,
	(cudnnHandle_t handle, const void *alpha1, const cudnnTensorDescriptor_t xDesc,
	 const void *x, const cudnnFilterDescriptor_t wDesc, const void *w,
	 const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
	 void *workSpace, size_t workSpaceSizeInBytes, const void *alpha2,
	 const cudnnTensorDescriptor_t zDesc, const void *z,
	 const cudnnTensorDescriptor_t biasDesc, const void *bias,
	 const cudnnActivationDescriptor_t activationDesc, const cudnnTensorDescriptor_t yDesc,
	 void *y),
	(handle, alpha1, xDesc, x, wDesc, w, convDesc, algo, workSpace, workSpaceSizeInBytes,
	 alpha2, zDesc, z, biasDesc, bias, activationDesc, yDesc, y),
	struct cudnn_shape y_shape;
	cudnn_tensor_shape(yDesc, &y_shape);
	cudnn_arg_tensor(&event, xDesc, x, R);
	cudnn_arg_filter(&event, wDesc, w, R);
	if (cudnn_host_scale(alpha2, &y_shape) != 0.0)
		cudnn_arg_tensor(&event, zDesc, z, R);
	else
		lib_call_unused(&event, z);
	cudnn_arg_tensor(&event, biasDesc, bias, R);
	cudnn_arg_tensor(&event, yDesc, y, W);
	cudnn_arg_bytes(&event, workSpace, workSpaceSizeInBytes, WS);
	lib_call_param(&event, algo);
	lib_call_param(&event, (long long)workSpaceSizeInBytes))

/* --- batch normalization ------------------------------------------------- */

/* Scale, bias, means and variances all have the derived descriptor bn. */
CUDNN_TRACED_CALL(cudnnBatchNormalizationForwardTraining,
	(cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
	 const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc,
	 void *y, const cudnnTensorDescriptor_t bn, const void *bnScale, const void *bnBias,
	 double exponentialAverageFactor, void *resultRunningMean, void *resultRunningVariance,
	 double epsilon, void *resultSaveMean, void *resultSaveInvVariance),
	(handle, mode, alpha, beta, xDesc, x, yDesc, y, bn, bnScale, bnBias,
	 exponentialAverageFactor, resultRunningMean, resultRunningVariance, epsilon,
	 resultSaveMean, resultSaveInvVariance),
	cudnn_arg_tensor(&event, xDesc, x, R);
	cudnn_arg_output(&event, yDesc, y, beta);
	cudnn_arg_tensor(&event, bn, bnScale, R);
	cudnn_arg_tensor(&event, bn, bnBias, R);
	cudnn_arg_tensor(&event, bn, resultRunningMean, RW);
	cudnn_arg_tensor(&event, bn, resultRunningVariance, RW);
	cudnn_arg_tensor(&event, bn, resultSaveMean, W);
	cudnn_arg_tensor(&event, bn, resultSaveInvVariance, W);
	lib_call_param(&event, mode);
	lib_call_param(&event, nano_units(epsilon));
	lib_call_param(&event, nano_units(exponentialAverageFactor)))

/* z is read only for CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION; reserve is written for backward. */
CUDNN_TRACED_CALL(cudnnBatchNormalizationForwardTrainingEx,
	(cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	 const void *alpha, const void *beta, const cudnnTensorDescriptor_t xDesc,
	 const void *xData, const cudnnTensorDescriptor_t zDesc, const void *zData,
	 const cudnnTensorDescriptor_t yDesc, void *yData, const cudnnTensorDescriptor_t bn,
	 const void *bnScale, const void *bnBias, double exponentialAverageFactor,
	 void *resultRunningMean, void *resultRunningVariance, double epsilon,
	 void *resultSaveMean, void *resultSaveInvVariance,
	 cudnnActivationDescriptor_t activationDesc, void *workspace,
	 size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes),
	(handle, mode, bnOps, alpha, beta, xDesc, xData, zDesc, zData, yDesc, yData, bn, bnScale,
	 bnBias, exponentialAverageFactor, resultRunningMean, resultRunningVariance, epsilon,
	 resultSaveMean, resultSaveInvVariance, activationDesc, workspace, workSpaceSizeInBytes,
	 reserveSpace, reserveSpaceSizeInBytes),
	cudnn_arg_tensor(&event, xDesc, xData, R);
	if (bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
		cudnn_arg_tensor(&event, zDesc, zData, R);
	else
		lib_call_unused(&event, zData);
	cudnn_arg_output(&event, yDesc, yData, beta);
	cudnn_arg_tensor(&event, bn, bnScale, R);
	cudnn_arg_tensor(&event, bn, bnBias, R);
	cudnn_arg_tensor(&event, bn, resultRunningMean, RW);
	cudnn_arg_tensor(&event, bn, resultRunningVariance, RW);
	cudnn_arg_tensor(&event, bn, resultSaveMean, W);
	cudnn_arg_tensor(&event, bn, resultSaveInvVariance, W);
	cudnn_arg_bytes(&event, workspace, workSpaceSizeInBytes, WS);
	cudnn_arg_bytes(&event, reserveSpace, reserveSpaceSizeInBytes, W);
	lib_call_param(&event, mode);
	lib_call_param(&event, bnOps);
	lib_call_param(&event, nano_units(epsilon));
	lib_call_param(&event, nano_units(exponentialAverageFactor));
	lib_call_param(&event, (long long)workSpaceSizeInBytes);
	lib_call_param(&event, (long long)reserveSpaceSizeInBytes))

CUDNN_TRACED_CALL(cudnnBatchNormalizationForwardInference,
	(cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
	 const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc,
	 void *y, const cudnnTensorDescriptor_t bn, const void *bnScale, const void *bnBias,
	 const void *estimatedMean, const void *estimatedVariance, double epsilon),
	(handle, mode, alpha, beta, xDesc, x, yDesc, y, bn, bnScale, bnBias, estimatedMean,
	 estimatedVariance, epsilon),
	cudnn_arg_tensor(&event, xDesc, x, R);
	cudnn_arg_output(&event, yDesc, y, beta);
	cudnn_arg_tensor(&event, bn, bnScale, R);
	cudnn_arg_tensor(&event, bn, bnBias, R);
	cudnn_arg_tensor(&event, bn, estimatedMean, R);
	cudnn_arg_tensor(&event, bn, estimatedVariance, R);
	lib_call_param(&event, mode);
	lib_call_param(&event, nano_units(epsilon)))

/* dx blends by betaDataDiff; dscale and dbias by betaParamDiff. */
CUDNN_TRACED_CALL(cudnnBatchNormalizationBackward,
	(cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alphaDataDiff,
	 const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
	 const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t dyDesc,
	 const void *dy, const cudnnTensorDescriptor_t dxDesc, void *dx,
	 const cudnnTensorDescriptor_t bn, const void *bnScale, void *dBnScaleResult,
	 void *dBnBiasResult, double epsilon, const void *savedMean,
	 const void *savedInvVariance),
	(handle, mode, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, xDesc, x,
	 dyDesc, dy, dxDesc, dx, bn, bnScale, dBnScaleResult, dBnBiasResult, epsilon, savedMean,
	 savedInvVariance),
	cudnn_arg_tensor(&event, xDesc, x, R);
	cudnn_arg_tensor(&event, dyDesc, dy, R);
	cudnn_arg_output(&event, dxDesc, dx, betaDataDiff);
	cudnn_arg_tensor(&event, bn, bnScale, R);
	cudnn_arg_output(&event, bn, dBnScaleResult, betaParamDiff);
	cudnn_arg_output(&event, bn, dBnBiasResult, betaParamDiff);
	cudnn_arg_tensor(&event, bn, savedMean, R);
	cudnn_arg_tensor(&event, bn, savedInvVariance, R);
	lib_call_param(&event, mode);
	lib_call_param(&event, nano_units(epsilon)))

/*
 * y and bias are read only with an activation (bnOps != BN); dz is written
 * only for BN_ADD_ACTIVATION; the reserve written by the forward pass is read.
 */
CUDNN_TRACED_CALL(cudnnBatchNormalizationBackwardEx,
	(cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	 const void *alphaDataDiff, const void *betaDataDiff, const void *alphaParamDiff,
	 const void *betaParamDiff, const cudnnTensorDescriptor_t xDesc, const void *xData,
	 const cudnnTensorDescriptor_t yDesc, const void *yData,
	 const cudnnTensorDescriptor_t dyDesc, const void *dyData,
	 const cudnnTensorDescriptor_t dzDesc, void *dzData, const cudnnTensorDescriptor_t dxDesc,
	 void *dxData, const cudnnTensorDescriptor_t bn, const void *bnScaleData,
	 const void *bnBiasData, void *dBnScaleData, void *dBnBiasData, double epsilon,
	 const void *savedMean, const void *savedInvVariance,
	 cudnnActivationDescriptor_t activationDesc, void *workSpace,
	 size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes),
	(handle, mode, bnOps, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, xDesc,
	 xData, yDesc, yData, dyDesc, dyData, dzDesc, dzData, dxDesc, dxData, bn, bnScaleData,
	 bnBiasData, dBnScaleData, dBnBiasData, epsilon, savedMean, savedInvVariance,
	 activationDesc, workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes),
	bool activation = bnOps != CUDNN_BATCHNORM_OPS_BN;
	cudnn_arg_tensor(&event, xDesc, xData, R);
	if (activation)
		cudnn_arg_tensor(&event, yDesc, yData, R);
	else
		lib_call_unused(&event, yData);
	cudnn_arg_tensor(&event, dyDesc, dyData, R);
	if (bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
		cudnn_arg_output(&event, dzDesc, dzData, betaDataDiff);
	else
		lib_call_unused(&event, dzData);
	cudnn_arg_output(&event, dxDesc, dxData, betaDataDiff);
	cudnn_arg_tensor(&event, bn, bnScaleData, R);
	if (activation)
		cudnn_arg_tensor(&event, bn, bnBiasData, R);
	else
		lib_call_unused(&event, bnBiasData);
	cudnn_arg_output(&event, bn, dBnScaleData, betaParamDiff);
	cudnn_arg_output(&event, bn, dBnBiasData, betaParamDiff);
	cudnn_arg_tensor(&event, bn, savedMean, R);
	cudnn_arg_tensor(&event, bn, savedInvVariance, R);
	cudnn_arg_bytes(&event, workSpace, workSpaceSizeInBytes, WS);
	cudnn_arg_bytes(&event, reserveSpace, reserveSpaceSizeInBytes, R);
	lib_call_param(&event, mode);
	lib_call_param(&event, bnOps);
	lib_call_param(&event, nano_units(epsilon));
	lib_call_param(&event, (long long)workSpaceSizeInBytes);
	lib_call_param(&event, (long long)reserveSpaceSizeInBytes))

/* --- activation and pooling ---------------------------------------------- */

/*
 * y = op(x) and its gradient dx = op'(y, dy, x): activation and pooling
 * differ only in the descriptor that says which op (op_desc_type).
 */
#define FORWARD_OP(name, op_desc_type)                                                  \
	CUDNN_TRACED_CALL(name,                                                         \
		(cudnnHandle_t handle, op_desc_type opDesc, const void *alpha,          \
		 const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,  \
		 const cudnnTensorDescriptor_t yDesc, void *y),                         \
		(handle, opDesc, alpha, xDesc, x, beta, yDesc, y),                      \
		cudnn_arg_tensor(&event, xDesc, x, R);                                  \
		cudnn_arg_output(&event, yDesc, y, beta))

#define BACKWARD_OP(name, op_desc_type)                                                 \
	CUDNN_TRACED_CALL(name,                                                         \
		(cudnnHandle_t handle, op_desc_type opDesc, const void *alpha,          \
		 const cudnnTensorDescriptor_t yDesc, const void *y,                    \
		 const cudnnTensorDescriptor_t dyDesc, const void *dy,                  \
		 const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,  \
		 const cudnnTensorDescriptor_t dxDesc, void *dx),                       \
		(handle, opDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx), \
		cudnn_arg_tensor(&event, yDesc, y, R);                                  \
		cudnn_arg_tensor(&event, dyDesc, dy, R);                                \
		cudnn_arg_tensor(&event, xDesc, x, R);                                  \
		cudnn_arg_output(&event, dxDesc, dx, beta))

FORWARD_OP(cudnnActivationForward, cudnnActivationDescriptor_t)
BACKWARD_OP(cudnnActivationBackward, cudnnActivationDescriptor_t)
FORWARD_OP(cudnnPoolingForward, const cudnnPoolingDescriptor_t)
BACKWARD_OP(cudnnPoolingBackward, const cudnnPoolingDescriptor_t)

/* --- softmax ------------------------------------------------------------- */

CUDNN_TRACED_CALL(cudnnSoftmaxForward,
	(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode,
	 const void *alpha, const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	 const cudnnTensorDescriptor_t yDesc, void *y),
	(handle, algo, mode, alpha, xDesc, x, beta, yDesc, y),
	cudnn_arg_tensor(&event, xDesc, x, R);
	cudnn_arg_output(&event, yDesc, y, beta);
	lib_call_param(&event, algo);
	lib_call_param(&event, mode))

CUDNN_TRACED_CALL(cudnnSoftmaxBackward,
	(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode,
	 const void *alpha, const cudnnTensorDescriptor_t yDesc, const void *y,
	 const cudnnTensorDescriptor_t dyDesc, const void *dy, const void *beta,
	 const cudnnTensorDescriptor_t dxDesc, void *dx),
	(handle, algo, mode, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx),
	cudnn_arg_tensor(&event, yDesc, y, R);
	cudnn_arg_tensor(&event, dyDesc, dy, R);
	cudnn_arg_output(&event, dxDesc, dx, beta);
	lib_call_param(&event, algo);
	lib_call_param(&event, mode))

/* --- tensor ops ---------------------------------------------------------- */

/* C = alpha * A + beta * C */
CUDNN_TRACED_CALL(cudnnAddTensor,
	(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t aDesc,
	 const void *A, const void *beta, const cudnnTensorDescriptor_t cDesc, void *C),
	(handle, alpha, aDesc, A, beta, cDesc, C),
	cudnn_arg_tensor(&event, aDesc, A, R);
	cudnn_arg_output(&event, cDesc, C, beta))

/* C = op(alpha1 * A, alpha2 * B) + beta * C */
CUDNN_TRACED_CALL(cudnnOpTensor,
	(cudnnHandle_t handle, const cudnnOpTensorDescriptor_t opTensorDesc, const void *alpha1,
	 const cudnnTensorDescriptor_t aDesc, const void *A, const void *alpha2,
	 const cudnnTensorDescriptor_t bDesc, const void *B, const void *beta,
	 const cudnnTensorDescriptor_t cDesc, void *C),
	(handle, opTensorDesc, alpha1, aDesc, A, alpha2, bDesc, B, beta, cDesc, C),
	cudnn_arg_tensor(&event, aDesc, A, R);
	cudnn_arg_tensor(&event, bDesc, B, R);
	cudnn_arg_output(&event, cDesc, C, beta))

/* --- dropout ------------------------------------------------------------- */

/*
 * out = dropout(in) with the mask in the reserve: the forward pass writes
 * the reserve (reserve_role W), the backward pass reads it (R).
 */
#define DROPOUT(name, in, out, reserve_role)                                            \
	CUDNN_TRACED_CALL(name,                                                         \
		(cudnnHandle_t handle, const cudnnDropoutDescriptor_t dropoutDesc,      \
		 const cudnnTensorDescriptor_t in##desc, const void *in,                \
		 const cudnnTensorDescriptor_t out##desc, void *out, void *reserveSpace, \
		 size_t reserveSpaceSizeInBytes),                                       \
		(handle, dropoutDesc, in##desc, in, out##desc, out, reserveSpace,       \
		 reserveSpaceSizeInBytes),                                              \
		cudnn_arg_tensor(&event, in##desc, in, R);                              \
		cudnn_arg_tensor(&event, out##desc, out, W);                            \
		cudnn_arg_bytes(&event, reserveSpace, reserveSpaceSizeInBytes,          \
				reserve_role);                                          \
		lib_call_param(&event, (long long)reserveSpaceSizeInBytes))

DROPOUT(cudnnDropoutForward, x, y, W)
DROPOUT(cudnnDropoutBackward, dy, dx, R)
