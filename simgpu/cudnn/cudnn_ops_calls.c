/*
 * The simulated cuDNN's legacy non-convolution calls: batch normalisation
 * (training, inference, backward, the Ex forms and their workspace /
 * reserve sizes), activation, pooling, softmax, add/op tensor and dropout.
 * Each validates like the real library and launches exactly one kernel
 * (README.md). Computes nothing.
 */
#include "simgpu/cudnn/cudnn_internal.h"

static int activation_set(cudnnActivationDescriptor_t d)
{
	return d && d->magic == SIM_ACTIVATION_MAGIC && d->is_set;
}

/* Same set-ness, shape and type: what element-wise calls need of a pair. */
static int same_tensor(cudnnTensorDescriptor_t a, cudnnTensorDescriptor_t b)
{
	return sim_tensor_set(a) && sim_tensor_set(b) && sim_same_shape(a, b) &&
	       a->dtype == b->dtype;
}

/* ---- batch normalisation ---- */

/*
 * x and y alike, and the scale/bias/mean/variance descriptor 1xCx1x1
 * (spatial modes) or 1xCxHxW (per-activation), as the header's comment says.
 */
static cudnnStatus_t bn_check(cudnnBatchNormMode_t mode, cudnnTensorDescriptor_t x,
			      cudnnTensorDescriptor_t y, cudnnTensorDescriptor_t param)
{
	if (mode != CUDNN_BATCHNORM_PER_ACTIVATION && mode != CUDNN_BATCHNORM_SPATIAL &&
	    mode != CUDNN_BATCHNORM_SPATIAL_PERSISTENT)
		return CUDNN_STATUS_BAD_PARAM;
	if (!same_tensor(x, y) || !sim_tensor_set(param) || param->nb_dims != x->nb_dims ||
	    x->nb_dims < 4)
		return CUDNN_STATUS_BAD_PARAM;
	for (int i = 0; i < x->nb_dims; i++) {
		int want = i == 0 ? 1
			 : i == 1 || mode == CUDNN_BATCHNORM_PER_ACTIVATION ? x->dims[i]
			 : 1;
		if (param->dims[i] != want)
			return CUDNN_STATUS_BAD_PARAM;
	}
	return CUDNN_STATUS_SUCCESS;
}

/* Pointers that come in pairs (running mean/var, saved mean/inv var). */
static int both_or_neither(const void *a, const void *b)
{
	return (a == NULL) == (b == NULL);
}

static int bn_ops_ok(cudnnBatchNormOps_t ops)
{
	return ops == CUDNN_BATCHNORM_OPS_BN || ops == CUDNN_BATCHNORM_OPS_BN_ACTIVATION ||
	       ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION;
}

/* Model sizes (README.md): per-channel partial sums; a ReLU bit mask. */
static size_t bn_workspace_bytes(cudnnTensorDescriptor_t x)
{
	return (size_t)(2 * (uint64_t)x->dims[1] * sizeof(float));
}

static size_t bn_reserve_bytes(cudnnBatchNormOps_t ops, cudnnTensorDescriptor_t x)
{
	size_t mask = ops == CUDNN_BATCHNORM_OPS_BN ? 0
		      : (size_t)((sim_tensor_elements(x) + 31) / 32 * 4);
	return (size_t)x->dims[1] * sizeof(float) + mask;
}

cudnnStatus_t CUDNNWINAPI cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t zDesc,
	const cudnnTensorDescriptor_t yDesc, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc,
	const cudnnActivationDescriptor_t activationDesc, size_t *sizeInBytes)
{
	(void)zDesc, (void)activationDesc;
	if (!sim_handle_ok(handle) || !sizeInBytes || !bn_ops_ok(bnOps))
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, yDesc, bnScaleBiasMeanVarDesc);
	if (st)
		return st;
	*sizeInBytes = bn_workspace_bytes(xDesc);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetBatchNormalizationBackwardExWorkspaceSize(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t yDesc,
	const cudnnTensorDescriptor_t dyDesc, const cudnnTensorDescriptor_t dzDesc,
	const cudnnTensorDescriptor_t dxDesc, const cudnnTensorDescriptor_t dBnScaleBiasDesc,
	const cudnnActivationDescriptor_t activationDesc, size_t *sizeInBytes)
{
	(void)yDesc, (void)dzDesc, (void)activationDesc;
	if (!sim_handle_ok(handle) || !sizeInBytes || !bn_ops_ok(bnOps) ||
	    !same_tensor(xDesc, dyDesc))
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, dxDesc, dBnScaleBiasDesc);
	if (st)
		return st;
	*sizeInBytes = bn_workspace_bytes(xDesc);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetBatchNormalizationTrainingExReserveSpaceSize(
	cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
	const cudnnActivationDescriptor_t activationDesc, const cudnnTensorDescriptor_t xDesc,
	size_t *sizeInBytes)
{
	(void)activationDesc;
	if (!sim_handle_ok(handle) || !sizeInBytes || !bn_ops_ok(bnOps) ||
	    !sim_tensor_set(xDesc) || xDesc->nb_dims < 4 ||
	    (mode != CUDNN_BATCHNORM_PER_ACTIVATION && mode != CUDNN_BATCHNORM_SPATIAL &&
	     mode != CUDNN_BATCHNORM_SPATIAL_PERSISTENT))
		return CUDNN_STATUS_BAD_PARAM;
	*sizeInBytes = bn_reserve_bytes(bnOps, xDesc);
	return CUDNN_STATUS_SUCCESS;
}

/* The Ex forms' extra operands: z for ADD_ACTIVATION, an activation, space. */
static cudnnStatus_t bn_ex_check(cudnnBatchNormOps_t ops, cudnnTensorDescriptor_t x,
				 cudnnTensorDescriptor_t zDesc, const void *z,
				 cudnnActivationDescriptor_t act, const void *ws, size_t ws_bytes,
				 const void *reserve, size_t reserve_bytes)
{
	if (!bn_ops_ok(ops))
		return CUDNN_STATUS_BAD_PARAM;
	if (ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION && (!z || !same_tensor(zDesc, x)))
		return CUDNN_STATUS_BAD_PARAM;
	if (ops != CUDNN_BATCHNORM_OPS_BN && !activation_set(act))
		return CUDNN_STATUS_BAD_PARAM;
	if ((ws_bytes > 0 && !ws) || ws_bytes < bn_workspace_bytes(x))
		return CUDNN_STATUS_BAD_PARAM;
	if ((reserve_bytes > 0 && !reserve) || reserve_bytes < bn_reserve_bytes(ops, x))
		return CUDNN_STATUS_BAD_PARAM;
	return CUDNN_STATUS_SUCCESS;
}

/* The training forward both forms share once their operands are checked. */
static cudnnStatus_t bn_forward_training(cudnnHandle_t handle, cudnnTensorDescriptor_t xDesc,
	const void *x, const void *z, cudnnTensorDescriptor_t yDesc, void *y,
	cudnnTensorDescriptor_t pDesc, const void *scale, const void *bias, void *running_mean,
	void *running_var, void *save_mean, void *save_inv_var, void *ws, void *reserve)
{
	const void *ptrs[12] = { x, z, y, scale, bias, running_mean, running_var,
				 save_mean, save_inv_var, ws, reserve, NULL };
	uint64_t params = 2 + (running_mean ? 2 : 0) + (save_mean ? 2 : 0);
	uint64_t bytes = sim_tensor_bytes(xDesc) * (z ? 2 : 1) + sim_tensor_bytes(yDesc) +
			 params * sim_tensor_bytes(pDesc);
	return sim_launch(handle, SIM_K_BN_FWD_TRAIN, 0, bytes, sim_tensor_elements(xDesc), 12, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationForwardTraining(cudnnHandle_t handle,
	cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc,
	void *y, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale,
	const void *bnBias, double exponentialAverageFactor, void *resultRunningMean,
	void *resultRunningVariance, double epsilon, void *resultSaveMean,
	void *resultSaveInvVariance)
{
	(void)exponentialAverageFactor;
	if (!sim_handle_ok(handle) || !alpha || !beta || !x || !y || !bnScale || !bnBias ||
	    !both_or_neither(resultRunningMean, resultRunningVariance) ||
	    !both_or_neither(resultSaveMean, resultSaveInvVariance) ||
	    epsilon < CUDNN_BN_MIN_EPSILON)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, yDesc, bnScaleBiasMeanVarDesc);
	if (st)
		return st;
	return bn_forward_training(handle, xDesc, x, NULL, yDesc, y, bnScaleBiasMeanVarDesc,
				   bnScale, bnBias, resultRunningMean, resultRunningVariance,
				   resultSaveMean, resultSaveInvVariance, NULL, NULL);
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationForwardTrainingEx(cudnnHandle_t handle,
	cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const void *alpha, const void *beta,
	const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t zDesc,
	const void *zData, const cudnnTensorDescriptor_t yDesc, void *yData,
	const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale,
	const void *bnBias, double exponentialAverageFactor, void *resultRunningMean,
	void *resultRunningVariance, double epsilon, void *resultSaveMean,
	void *resultSaveInvVariance, cudnnActivationDescriptor_t activationDesc, void *workspace,
	size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
	(void)exponentialAverageFactor;
	if (!sim_handle_ok(handle) || !alpha || !beta || !xData || !yData || !bnScale ||
	    !bnBias || !both_or_neither(resultRunningMean, resultRunningVariance) ||
	    !both_or_neither(resultSaveMean, resultSaveInvVariance) ||
	    epsilon < CUDNN_BN_MIN_EPSILON)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, yDesc, bnScaleBiasMeanVarDesc);
	if (!st)
		st = bn_ex_check(bnOps, xDesc, zDesc, zData, activationDesc, workspace,
				 workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes);
	if (st)
		return st;
	const void *z = bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION ? zData : NULL;
	return bn_forward_training(handle, xDesc, xData, z, yDesc, yData, bnScaleBiasMeanVarDesc,
				   bnScale, bnBias, resultRunningMean, resultRunningVariance,
				   resultSaveMean, resultSaveInvVariance, workspace, reserveSpace);
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationForwardInference(cudnnHandle_t handle,
	cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc,
	void *y, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale,
	const void *bnBias, const void *estimatedMean, const void *estimatedVariance, double epsilon)
{
	if (!sim_handle_ok(handle) || !alpha || !beta || !x || !y || !bnScale || !bnBias ||
	    !estimatedMean || !estimatedVariance || epsilon < CUDNN_BN_MIN_EPSILON)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, yDesc, bnScaleBiasMeanVarDesc);
	if (st)
		return st;
	const void *ptrs[6] = { x, y, bnScale, bnBias, estimatedMean, estimatedVariance };
	return sim_launch(handle, SIM_K_BN_FWD_INFER, 0,
			  sim_tensor_bytes(xDesc) + sim_tensor_bytes(yDesc) +
				  4 * sim_tensor_bytes(bnScaleBiasMeanVarDesc),
			  sim_tensor_elements(xDesc), 6, ptrs);
}

static cudnnStatus_t bn_backward(cudnnHandle_t handle, cudnnTensorDescriptor_t xDesc,
	const void *x, const void *y, const void *dy, void *dz, void *dx,
	cudnnTensorDescriptor_t pDesc, const void *scale, const void *bias, void *dscale,
	void *dbias, const void *saved_mean, const void *saved_inv_var, void *ws, void *reserve)
{
	const void *ptrs[14] = { x, y, dy, dz, dx, scale, bias, dscale, dbias,
				 saved_mean, saved_inv_var, ws, reserve, NULL };
	uint64_t big = 3 + (y ? 1 : 0) + (dz ? 1 : 0); /* x, dy, dx (+ y, dz) */
	uint64_t params = 3 + (bias ? 1 : 0) + (saved_mean ? 2 : 0);
	return sim_launch(handle, SIM_K_BN_BWD, 0,
			  big * sim_tensor_bytes(xDesc) + params * sim_tensor_bytes(pDesc),
			  sim_tensor_elements(xDesc), 14, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationBackward(cudnnHandle_t handle,
	cudnnBatchNormMode_t mode, const void *alphaDataDiff, const void *betaDataDiff,
	const void *alphaParamDiff, const void *betaParamDiff, const cudnnTensorDescriptor_t xDesc,
	const void *x, const cudnnTensorDescriptor_t dyDesc, const void *dy,
	const cudnnTensorDescriptor_t dxDesc, void *dx,
	const cudnnTensorDescriptor_t dBnScaleBiasDesc, const void *bnScale, void *dBnScaleResult,
	void *dBnBiasResult, double epsilon, const void *savedMean, const void *savedInvVariance)
{
	if (!sim_handle_ok(handle) || !alphaDataDiff || !betaDataDiff || !alphaParamDiff ||
	    !betaParamDiff || !x || !dy || !dx || !bnScale || !dBnScaleResult || !dBnBiasResult ||
	    !both_or_neither(savedMean, savedInvVariance) || epsilon < CUDNN_BN_MIN_EPSILON ||
	    !same_tensor(xDesc, dyDesc))
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, dxDesc, dBnScaleBiasDesc);
	if (st)
		return st;
	return bn_backward(handle, xDesc, x, NULL, dy, NULL, dx, dBnScaleBiasDesc, bnScale, NULL,
			   dBnScaleResult, dBnBiasResult, savedMean, savedInvVariance, NULL, NULL);
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationBackwardEx(cudnnHandle_t handle,
	cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const void *alphaDataDiff,
	const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
	const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t yDesc,
	const void *yData, const cudnnTensorDescriptor_t dyDesc, const void *dyData,
	const cudnnTensorDescriptor_t dzDesc, void *dzData, const cudnnTensorDescriptor_t dxDesc,
	void *dxData, const cudnnTensorDescriptor_t dBnScaleBiasDesc, const void *bnScaleData,
	const void *bnBiasData, void *dBnScaleData, void *dBnBiasData, double epsilon,
	const void *savedMean, const void *savedInvVariance,
	cudnnActivationDescriptor_t activationDesc, void *workSpace, size_t workSpaceSizeInBytes,
	void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
	if (!sim_handle_ok(handle) || !alphaDataDiff || !betaDataDiff || !alphaParamDiff ||
	    !betaParamDiff || !xData || !dyData || !dxData || !bnScaleData || !dBnScaleData ||
	    !dBnBiasData || !both_or_neither(savedMean, savedInvVariance) ||
	    epsilon < CUDNN_BN_MIN_EPSILON || !same_tensor(xDesc, dyDesc))
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = bn_check(mode, xDesc, dxDesc, dBnScaleBiasDesc);
	if (!st)
		st = bn_ex_check(bnOps, xDesc, dzDesc, dzData, activationDesc, workSpace,
				 workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes);
	/* With an activation, y and bias are needed to recompute it. */
	if (!st && bnOps != CUDNN_BATCHNORM_OPS_BN &&
	    (!yData || !bnBiasData || !same_tensor(yDesc, xDesc)))
		st = CUDNN_STATUS_BAD_PARAM;
	if (st)
		return st;
	int act = bnOps != CUDNN_BATCHNORM_OPS_BN;
	void *dz = bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION ? dzData : NULL;
	return bn_backward(handle, xDesc, xData, act ? yData : NULL, dyData, dz, dxData,
			   dBnScaleBiasDesc, bnScaleData, act ? bnBiasData : NULL, dBnScaleData,
			   dBnBiasData, savedMean, savedInvVariance, workSpace, reserveSpace);
}

/* ---- activation, pooling, softmax ---- */

cudnnStatus_t CUDNNWINAPI cudnnActivationForward(cudnnHandle_t handle,
	cudnnActivationDescriptor_t activationDesc, const void *alpha,
	const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	if (!sim_handle_ok(handle) || !activation_set(activationDesc) || !alpha || !beta ||
	    !x || !y || !same_tensor(xDesc, yDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[2] = { x, y };
	return sim_launch(handle, SIM_K_ACT_FWD, 0, 2 * sim_tensor_bytes(xDesc),
			  sim_tensor_elements(xDesc), 2, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnActivationBackward(cudnnHandle_t handle,
	cudnnActivationDescriptor_t activationDesc, const void *alpha,
	const cudnnTensorDescriptor_t yDesc, const void *y, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	if (!sim_handle_ok(handle) || !activation_set(activationDesc) || !alpha || !beta ||
	    !y || !dy || !x || !dx || !same_tensor(yDesc, dyDesc) || !same_tensor(xDesc, dxDesc) ||
	    !same_tensor(xDesc, yDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[4] = { y, dy, x, dx };
	return sim_launch(handle, SIM_K_ACT_BWD, 0, 4 * sim_tensor_bytes(xDesc),
			  sim_tensor_elements(xDesc), 4, ptrs);
}

/* y has the shape pooling `x` through `pool` gives. */
static int pooled_shape(cudnnPoolingDescriptor_t pool, cudnnTensorDescriptor_t x,
			cudnnTensorDescriptor_t y)
{
	int out[CUDNN_DIM_MAX];
	if (!sim_tensor_set(x) || !sim_tensor_set(y) || x->dtype != y->dtype ||
	    x->nb_dims != y->nb_dims ||
	    cudnnGetPoolingNdForwardOutputDim(pool, x, x->nb_dims, out) != CUDNN_STATUS_SUCCESS)
		return 0;
	for (int i = 0; i < y->nb_dims; i++)
		if (out[i] != y->dims[i])
			return 0;
	return 1;
}

cudnnStatus_t CUDNNWINAPI cudnnPoolingForward(cudnnHandle_t handle,
	const cudnnPoolingDescriptor_t poolingDesc, const void *alpha,
	const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	if (!sim_handle_ok(handle) || !poolingDesc || !alpha || !beta || !x || !y ||
	    !pooled_shape(poolingDesc, xDesc, yDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[2] = { x, y };
	return sim_launch(handle, SIM_K_POOL_FWD, 0,
			  sim_tensor_bytes(xDesc) + sim_tensor_bytes(yDesc),
			  sim_tensor_elements(yDesc), 2, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnPoolingBackward(cudnnHandle_t handle,
	const cudnnPoolingDescriptor_t poolingDesc, const void *alpha,
	const cudnnTensorDescriptor_t yDesc, const void *y, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	if (!sim_handle_ok(handle) || !poolingDesc || !alpha || !beta || !y || !dy || !x ||
	    !dx || !same_tensor(yDesc, dyDesc) || !same_tensor(xDesc, dxDesc) ||
	    !pooled_shape(poolingDesc, xDesc, yDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[4] = { y, dy, x, dx };
	return sim_launch(handle, SIM_K_POOL_BWD, 0,
			  2 * sim_tensor_bytes(yDesc) + 2 * sim_tensor_bytes(xDesc),
			  sim_tensor_elements(xDesc), 4, ptrs);
}

static int softmax_ok(cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode)
{
	return (algo == CUDNN_SOFTMAX_FAST || algo == CUDNN_SOFTMAX_ACCURATE ||
		algo == CUDNN_SOFTMAX_LOG) &&
	       (mode == CUDNN_SOFTMAX_MODE_INSTANCE || mode == CUDNN_SOFTMAX_MODE_CHANNEL);
}

cudnnStatus_t CUDNNWINAPI cudnnSoftmaxForward(cudnnHandle_t handle,
	cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode, const void *alpha,
	const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	if (!sim_handle_ok(handle) || !softmax_ok(algo, mode) || !alpha || !beta || !x || !y ||
	    !same_tensor(xDesc, yDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[2] = { x, y };
	return sim_launch(handle, SIM_K_SOFTMAX_FWD, 0, 2 * sim_tensor_bytes(xDesc),
			  sim_tensor_elements(xDesc), 2, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnSoftmaxBackward(cudnnHandle_t handle,
	cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode, const void *alpha,
	const cudnnTensorDescriptor_t yDesc, const void *y, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const void *beta, const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	if (!sim_handle_ok(handle) || !softmax_ok(algo, mode) || !alpha || !beta || !y || !dy ||
	    !dx || !same_tensor(yDesc, dyDesc) || !same_tensor(yDesc, dxDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[3] = { y, dy, dx };
	return sim_launch(handle, SIM_K_SOFTMAX_BWD, 0, 3 * sim_tensor_bytes(yDesc),
			  sim_tensor_elements(yDesc), 3, ptrs);
}

/* ---- tensor arithmetic ---- */

/* `a` broadcasts onto `c`: same rank and type, each dim equal or 1. */
static int broadcasts_to(cudnnTensorDescriptor_t a, cudnnTensorDescriptor_t c)
{
	if (!sim_tensor_set(a) || !sim_tensor_set(c) || a->nb_dims != c->nb_dims ||
	    a->dtype != c->dtype)
		return 0;
	for (int i = 0; i < a->nb_dims; i++)
		if (a->dims[i] != c->dims[i] && a->dims[i] != 1)
			return 0;
	return 1;
}

cudnnStatus_t CUDNNWINAPI cudnnAddTensor(cudnnHandle_t handle, const void *alpha,
	const cudnnTensorDescriptor_t aDesc, const void *A, const void *beta,
	const cudnnTensorDescriptor_t cDesc, void *C)
{
	if (!sim_handle_ok(handle) || !alpha || !beta || !A || !C || !broadcasts_to(aDesc, cDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[2] = { A, C };
	return sim_launch(handle, SIM_K_ADD_TENSOR, 0,
			  sim_tensor_bytes(aDesc) + 2 * sim_tensor_bytes(cDesc),
			  sim_tensor_elements(cDesc), 2, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnOpTensor(cudnnHandle_t handle,
	const cudnnOpTensorDescriptor_t opTensorDesc, const void *alpha1,
	const cudnnTensorDescriptor_t aDesc, const void *A, const void *alpha2,
	const cudnnTensorDescriptor_t bDesc, const void *B, const void *beta,
	const cudnnTensorDescriptor_t cDesc, void *C)
{
	if (!sim_handle_ok(handle) || !opTensorDesc || opTensorDesc->magic != SIM_OPTENSOR_MAGIC ||
	    !opTensorDesc->is_set || !alpha1 || !alpha2 || !beta || !A || !B || !C ||
	    !same_tensor(aDesc, cDesc) || !broadcasts_to(bDesc, cDesc))
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[3] = { A, B, C };
	return sim_launch(handle, SIM_K_OP_TENSOR, 0,
			  sim_tensor_bytes(aDesc) + sim_tensor_bytes(bDesc) + 2 * sim_tensor_bytes(cDesc),
			  sim_tensor_elements(cDesc), 3, ptrs);
}

/* ---- dropout ---- */

static cudnnStatus_t dropout_check(cudnnHandle_t handle, cudnnDropoutDescriptor_t d,
				   cudnnTensorDescriptor_t in, const void *in_ptr,
				   cudnnTensorDescriptor_t out, const void *out_ptr,
				   const void *reserve, size_t reserve_bytes)
{
	size_t need = 0;
	if (!sim_handle_ok(handle) || !d || d->magic != SIM_DROPOUT_MAGIC || !d->is_set ||
	    !in_ptr || !out_ptr || !reserve || !same_tensor(in, out))
		return CUDNN_STATUS_BAD_PARAM;
	cudnnDropoutGetReserveSpaceSize(in, &need);
	/* Dropping anything needs the generator states the descriptor was given. */
	if (reserve_bytes < need || (d->dropout > 0.0f && !d->states))
		return CUDNN_STATUS_BAD_PARAM;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnDropoutForward(cudnnHandle_t handle,
	const cudnnDropoutDescriptor_t dropoutDesc, const cudnnTensorDescriptor_t xdesc,
	const void *x, const cudnnTensorDescriptor_t ydesc, void *y, void *reserveSpace,
	size_t reserveSpaceSizeInBytes)
{
	cudnnStatus_t st = dropout_check(handle, dropoutDesc, xdesc, x, ydesc, y, reserveSpace,
					 reserveSpaceSizeInBytes);
	if (st)
		return st;
	const void *ptrs[3] = { x, y, reserveSpace };
	return sim_launch(handle, SIM_K_DROPOUT_FWD, 0,
			  2 * sim_tensor_bytes(xdesc) + reserveSpaceSizeInBytes,
			  sim_tensor_elements(xdesc), 3, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnDropoutBackward(cudnnHandle_t handle,
	const cudnnDropoutDescriptor_t dropoutDesc, const cudnnTensorDescriptor_t dydesc,
	const void *dy, const cudnnTensorDescriptor_t dxdesc, void *dx, void *reserveSpace,
	size_t reserveSpaceSizeInBytes)
{
	cudnnStatus_t st = dropout_check(handle, dropoutDesc, dydesc, dy, dxdesc, dx, reserveSpace,
					 reserveSpaceSizeInBytes);
	if (st)
		return st;
	const void *ptrs[3] = { dy, dx, reserveSpace };
	return sim_launch(handle, SIM_K_DROPOUT_BWD, 0,
			  2 * sim_tensor_bytes(dydesc) + reserveSpaceSizeInBytes,
			  sim_tensor_elements(dydesc), 3, ptrs);
}
