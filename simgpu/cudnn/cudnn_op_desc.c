/*
 * The simulated cuDNN's operation descriptors (convolution, activation,
 * pooling, dropout, op-tensor) and the output-shape helpers, with the real
 * library's argument checks (observed on the real libcudnn.so.9 where it
 * answers without a GPU). Must never touch device memory; the only kernel
 * here is the dropout state initialisation the real library also launches.
 */
#include <stdlib.h>
#include <string.h>

#include "simgpu/cudnn/cudnn_internal.h"

/* Allocates a zeroed object of `size` bytes tagged `magic` into *out. */
static cudnnStatus_t create_object(void **out, size_t size, uint32_t magic)
{
	if (!out)
		return CUDNN_STATUS_BAD_PARAM;
	uint32_t *obj = calloc(1, size);
	if (!obj)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	*obj = magic; /* every struct starts with its magic */
	*out = obj;
	return CUDNN_STATUS_SUCCESS;
}

/* NULL is fine (as the real library); another kind of object is not. */
static cudnnStatus_t destroy_object(void *obj, uint32_t magic)
{
	if (!obj)
		return CUDNN_STATUS_SUCCESS;
	if (*(uint32_t *)obj != magic)
		return CUDNN_STATUS_BAD_PARAM;
	*(uint32_t *)obj = 0;
	free(obj);
	return CUDNN_STATUS_SUCCESS;
}

static int nan_ok(cudnnNanPropagation_t nan)
{
	return nan == CUDNN_NOT_PROPAGATE_NAN || nan == CUDNN_PROPAGATE_NAN;
}

/* ---- convolution ---- */

int sim_conv_set(cudnnConvolutionDescriptor_t desc)
{
	return desc && desc->magic == SIM_CONV_MAGIC && desc->is_set;
}

static int conv_ok(cudnnConvolutionDescriptor_t d)
{
	return d && d->magic == SIM_CONV_MAGIC;
}

cudnnStatus_t CUDNNWINAPI cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t *convDesc)
{
	cudnnStatus_t st = create_object((void **)convDesc, sizeof **convDesc, SIM_CONV_MAGIC);
	if (st == CUDNN_STATUS_SUCCESS) {
		(*convDesc)->group_count = 1; /* observed defaults */
		(*convDesc)->math_type = CUDNN_DEFAULT_MATH;
	}
	return st;
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyConvolutionDescriptor(cudnnConvolutionDescriptor_t convDesc)
{
	return destroy_object(convDesc, SIM_CONV_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionNdDescriptor(cudnnConvolutionDescriptor_t convDesc,
	int arrayLength, const int padA[], const int filterStrideA[], const int dilationA[],
	cudnnConvolutionMode_t mode, cudnnDataType_t computeType)
{
	if (!conv_ok(convDesc) || arrayLength < 0 ||
	    (arrayLength > 0 && (!padA || !filterStrideA || !dilationA)))
		return CUDNN_STATUS_BAD_PARAM;
	if (arrayLength > CUDNN_DIM_MAX - 2)
		return CUDNN_STATUS_NOT_SUPPORTED;
	if ((mode != CUDNN_CONVOLUTION && mode != CUDNN_CROSS_CORRELATION) ||
	    sim_dtype_bytes(computeType) == 0)
		return CUDNN_STATUS_BAD_PARAM;
	for (int i = 0; i < arrayLength; i++)
		if (padA[i] < 0 || filterStrideA[i] <= 0 || dilationA[i] <= 0)
			return CUDNN_STATUS_BAD_PARAM;
	convDesc->nb_spatial = arrayLength;
	for (int i = 0; i < arrayLength; i++) {
		convDesc->pad[i] = padA[i];
		convDesc->stride[i] = filterStrideA[i];
		convDesc->dilation[i] = dilationA[i];
	}
	convDesc->mode = mode;
	convDesc->compute_type = computeType;
	convDesc->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t convDesc,
	int pad_h, int pad_w, int u, int v, int dilation_h, int dilation_w,
	cudnnConvolutionMode_t mode, cudnnDataType_t computeType)
{
	int pad[2] = { pad_h, pad_w }, stride[2] = { u, v }, dil[2] = { dilation_h, dilation_w };
	return cudnnSetConvolutionNdDescriptor(convDesc, 2, pad, stride, dil, mode, computeType);
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolution2dDescriptor(const cudnnConvolutionDescriptor_t convDesc,
	int *pad_h, int *pad_w, int *u, int *v, int *dilation_h, int *dilation_w,
	cudnnConvolutionMode_t *mode, cudnnDataType_t *computeType)
{
	if (!conv_ok(convDesc) || !pad_h || !pad_w || !u || !v || !dilation_h ||
	    !dilation_w || !mode || !computeType || convDesc->nb_spatial != 2)
		return CUDNN_STATUS_BAD_PARAM;
	*pad_h = convDesc->pad[0], *pad_w = convDesc->pad[1];
	*u = convDesc->stride[0], *v = convDesc->stride[1];
	*dilation_h = convDesc->dilation[0], *dilation_w = convDesc->dilation[1];
	*mode = convDesc->mode;
	*computeType = convDesc->compute_type;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionNdDescriptor(const cudnnConvolutionDescriptor_t convDesc,
	int arrayLengthRequested, int *arrayLength, int padA[], int strideA[], int dilationA[],
	cudnnConvolutionMode_t *mode, cudnnDataType_t *computeType)
{
	if (!conv_ok(convDesc) || !arrayLength || !mode || !computeType ||
	    arrayLengthRequested < 0 ||
	    (arrayLengthRequested > 0 && (!padA || !strideA || !dilationA)))
		return CUDNN_STATUS_BAD_PARAM;
	*arrayLength = convDesc->nb_spatial;
	for (int i = 0; i < arrayLengthRequested && i < convDesc->nb_spatial; i++) {
		padA[i] = convDesc->pad[i];
		strideA[i] = convDesc->stride[i];
		dilationA[i] = convDesc->dilation[i];
	}
	*mode = convDesc->mode;
	*computeType = convDesc->compute_type;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t convDesc,
	cudnnMathType_t mathType)
{
	if (!conv_ok(convDesc) || mathType < CUDNN_DEFAULT_MATH || mathType > CUDNN_FMA_MATH)
		return CUDNN_STATUS_BAD_PARAM;
	convDesc->math_type = mathType;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionMathType(cudnnConvolutionDescriptor_t convDesc,
	cudnnMathType_t *mathType)
{
	if (!conv_ok(convDesc) || !mathType)
		return CUDNN_STATUS_BAD_PARAM;
	*mathType = convDesc->math_type;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionGroupCount(cudnnConvolutionDescriptor_t convDesc,
	int groupCount)
{
	if (!conv_ok(convDesc) || groupCount < 1)
		return CUDNN_STATUS_BAD_PARAM;
	convDesc->group_count = groupCount;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionGroupCount(cudnnConvolutionDescriptor_t convDesc,
	int *groupCount)
{
	if (!conv_ok(convDesc) || !groupCount)
		return CUDNN_STATUS_BAD_PARAM;
	*groupCount = convDesc->group_count;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionReorderType(cudnnConvolutionDescriptor_t convDesc,
	cudnnReorderType_t reorderType)
{
	if (!conv_ok(convDesc) ||
	    (reorderType != CUDNN_DEFAULT_REORDER && reorderType != CUDNN_NO_REORDER))
		return CUDNN_STATUS_BAD_PARAM;
	convDesc->reorder_type = reorderType;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionReorderType(cudnnConvolutionDescriptor_t convDesc,
	cudnnReorderType_t *reorderType)
{
	if (!conv_ok(convDesc) || !reorderType)
		return CUDNN_STATUS_BAD_PARAM;
	*reorderType = convDesc->reorder_type;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionNdForwardOutputDim(
	const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t inputTensorDesc,
	const cudnnFilterDescriptor_t filterDesc, int nbDims, int tensorOuputDimA[])
{
	if (!sim_conv_set(convDesc) || !sim_tensor_set(inputTensorDesc) ||
	    !sim_filter_set(filterDesc) || !tensorOuputDimA)
		return CUDNN_STATUS_BAD_PARAM;
	const int nb = inputTensorDesc->nb_dims;
	if (nb != filterDesc->nb_dims || nb != convDesc->nb_spatial + 2 || nbDims != nb ||
	    inputTensorDesc->dims[1] != convDesc->group_count * filterDesc->dims[1] ||
	    filterDesc->dims[0] % convDesc->group_count != 0)
		return CUDNN_STATUS_BAD_PARAM;
	int out[CUDNN_DIM_MAX];
	out[0] = inputTensorDesc->dims[0];
	out[1] = filterDesc->dims[0];
	for (int i = 0; i < convDesc->nb_spatial; i++) {
		int padded = inputTensorDesc->dims[i + 2] + 2 * convDesc->pad[i];
		int span = (filterDesc->dims[i + 2] - 1) * convDesc->dilation[i] + 1;
		if (span > padded)
			return CUDNN_STATUS_BAD_PARAM;
		out[i + 2] = 1 + (padded - span) / convDesc->stride[i];
	}
	memcpy(tensorOuputDimA, out, (size_t)nb * sizeof *out);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolution2dForwardOutputDim(
	const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t inputTensorDesc,
	const cudnnFilterDescriptor_t filterDesc, int *n, int *c, int *h, int *w)
{
	int out[4];
	if (!n || !c || !h || !w)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = cudnnGetConvolutionNdForwardOutputDim(convDesc, inputTensorDesc,
								 filterDesc, 4, out);
	if (st == CUDNN_STATUS_SUCCESS)
		*n = out[0], *c = out[1], *h = out[2], *w = out[3];
	return st;
}

/* ---- activation ---- */

static int activation_ok(cudnnActivationDescriptor_t d)
{
	return d && d->magic == SIM_ACTIVATION_MAGIC;
}

cudnnStatus_t CUDNNWINAPI cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t *activationDesc)
{
	return create_object((void **)activationDesc, sizeof **activationDesc, SIM_ACTIVATION_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyActivationDescriptor(cudnnActivationDescriptor_t activationDesc)
{
	return destroy_object(activationDesc, SIM_ACTIVATION_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnSetActivationDescriptor(cudnnActivationDescriptor_t activationDesc,
	cudnnActivationMode_t mode, cudnnNanPropagation_t reluNanOpt, double coef)
{
	if (!activationDesc || activationDesc->magic != SIM_ACTIVATION_MAGIC)
		return CUDNN_STATUS_BAD_PARAM;
	if (mode != CUDNN_ACTIVATION_SIGMOID && mode != CUDNN_ACTIVATION_RELU &&
	    mode != CUDNN_ACTIVATION_TANH && mode != CUDNN_ACTIVATION_CLIPPED_RELU &&
	    mode != CUDNN_ACTIVATION_ELU && mode != CUDNN_ACTIVATION_IDENTITY &&
	    mode != CUDNN_ACTIVATION_SWISH)
		return CUDNN_STATUS_BAD_PARAM;
	if (!nan_ok(reluNanOpt))
		return CUDNN_STATUS_BAD_PARAM;
	activationDesc->mode = mode;
	activationDesc->nan_opt = reluNanOpt;
	activationDesc->coef = coef;
	activationDesc->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetActivationDescriptor(const cudnnActivationDescriptor_t activationDesc,
	cudnnActivationMode_t *mode, cudnnNanPropagation_t *reluNanOpt, double *coef)
{
	if (!activation_ok(activationDesc) || !mode || !reluNanOpt || !coef)
		return CUDNN_STATUS_BAD_PARAM;
	*mode = activationDesc->mode;
	*reluNanOpt = activationDesc->nan_opt;
	*coef = activationDesc->coef;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetActivationDescriptorSwishBeta(cudnnActivationDescriptor_t activationDesc,
	double swish_beta)
{
	if (!activation_ok(activationDesc))
		return CUDNN_STATUS_BAD_PARAM;
	activationDesc->swish_beta = swish_beta;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetActivationDescriptorSwishBeta(cudnnActivationDescriptor_t activationDesc,
	double *swish_beta)
{
	if (!activation_ok(activationDesc) || !swish_beta)
		return CUDNN_STATUS_BAD_PARAM;
	*swish_beta = activationDesc->swish_beta;
	return CUDNN_STATUS_SUCCESS;
}

/* ---- pooling ---- */

static int pooling_ok(cudnnPoolingDescriptor_t d)
{
	return d && d->magic == SIM_POOLING_MAGIC;
}

cudnnStatus_t CUDNNWINAPI cudnnCreatePoolingDescriptor(cudnnPoolingDescriptor_t *poolingDesc)
{
	return create_object((void **)poolingDesc, sizeof **poolingDesc, SIM_POOLING_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyPoolingDescriptor(cudnnPoolingDescriptor_t poolingDesc)
{
	return destroy_object(poolingDesc, SIM_POOLING_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnSetPoolingNdDescriptor(cudnnPoolingDescriptor_t poolingDesc,
	const cudnnPoolingMode_t mode, const cudnnNanPropagation_t maxpoolingNanOpt, int nbDims,
	const int windowDimA[], const int paddingA[], const int strideA[])
{
	if (!pooling_ok(poolingDesc) || !windowDimA || !paddingA || !strideA)
		return CUDNN_STATUS_BAD_PARAM;
	if (mode != CUDNN_POOLING_MAX && mode != CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING &&
	    mode != CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING &&
	    mode != CUDNN_POOLING_MAX_DETERMINISTIC)
		return CUDNN_STATUS_BAD_PARAM;
	if (!nan_ok(maxpoolingNanOpt) || nbDims < 1)
		return CUDNN_STATUS_BAD_PARAM;
	if (nbDims > CUDNN_DIM_MAX - 2)
		return CUDNN_STATUS_NOT_SUPPORTED;
	/* Observed: a negative padding is accepted, a zero window or stride not. */
	for (int i = 0; i < nbDims; i++)
		if (windowDimA[i] <= 0 || strideA[i] <= 0)
			return CUDNN_STATUS_BAD_PARAM;
	poolingDesc->mode = mode;
	poolingDesc->nan_opt = maxpoolingNanOpt;
	poolingDesc->nb_spatial = nbDims;
	for (int i = 0; i < nbDims; i++) {
		poolingDesc->window[i] = windowDimA[i];
		poolingDesc->pad[i] = paddingA[i];
		poolingDesc->stride[i] = strideA[i];
	}
	poolingDesc->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetPooling2dDescriptor(cudnnPoolingDescriptor_t poolingDesc,
	cudnnPoolingMode_t mode, cudnnNanPropagation_t maxpoolingNanOpt, int windowHeight,
	int windowWidth, int verticalPadding, int horizontalPadding, int verticalStride,
	int horizontalStride)
{
	int win[2] = { windowHeight, windowWidth }, pad[2] = { verticalPadding, horizontalPadding };
	int stride[2] = { verticalStride, horizontalStride };
	return cudnnSetPoolingNdDescriptor(poolingDesc, mode, maxpoolingNanOpt, 2, win, pad, stride);
}

cudnnStatus_t CUDNNWINAPI cudnnGetPooling2dDescriptor(const cudnnPoolingDescriptor_t poolingDesc,
	cudnnPoolingMode_t *mode, cudnnNanPropagation_t *maxpoolingNanOpt, int *windowHeight,
	int *windowWidth, int *verticalPadding, int *horizontalPadding, int *verticalStride,
	int *horizontalStride)
{
	if (!pooling_ok(poolingDesc) || !mode || !maxpoolingNanOpt || !windowHeight ||
	    !windowWidth || !verticalPadding || !horizontalPadding || !verticalStride ||
	    !horizontalStride || poolingDesc->nb_spatial != 2)
		return CUDNN_STATUS_BAD_PARAM;
	*mode = poolingDesc->mode;
	*maxpoolingNanOpt = poolingDesc->nan_opt;
	*windowHeight = poolingDesc->window[0], *windowWidth = poolingDesc->window[1];
	*verticalPadding = poolingDesc->pad[0], *horizontalPadding = poolingDesc->pad[1];
	*verticalStride = poolingDesc->stride[0], *horizontalStride = poolingDesc->stride[1];
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetPoolingNdDescriptor(const cudnnPoolingDescriptor_t poolingDesc,
	int nbDimsRequested, cudnnPoolingMode_t *mode, cudnnNanPropagation_t *maxpoolingNanOpt,
	int *nbDims, int windowDimA[], int paddingA[], int strideA[])
{
	if (!pooling_ok(poolingDesc) || !mode || !maxpoolingNanOpt || !nbDims ||
	    nbDimsRequested < 0 ||
	    (nbDimsRequested > 0 && (!windowDimA || !paddingA || !strideA)))
		return CUDNN_STATUS_BAD_PARAM;
	*mode = poolingDesc->mode;
	*maxpoolingNanOpt = poolingDesc->nan_opt;
	*nbDims = poolingDesc->nb_spatial;
	for (int i = 0; i < nbDimsRequested && i < poolingDesc->nb_spatial; i++) {
		windowDimA[i] = poolingDesc->window[i];
		paddingA[i] = poolingDesc->pad[i];
		strideA[i] = poolingDesc->stride[i];
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetPoolingNdForwardOutputDim(const cudnnPoolingDescriptor_t poolingDesc,
	const cudnnTensorDescriptor_t inputTensorDesc, int nbDims, int outputTensorDimA[])
{
	if (!pooling_ok(poolingDesc) || !poolingDesc->is_set ||
	    !sim_tensor_set(inputTensorDesc) || !outputTensorDimA)
		return CUDNN_STATUS_BAD_PARAM;
	const int nb = inputTensorDesc->nb_dims;
	if (nb != poolingDesc->nb_spatial + 2 || nbDims != nb)
		return CUDNN_STATUS_BAD_PARAM;
	int out[CUDNN_DIM_MAX];
	out[0] = inputTensorDesc->dims[0];
	out[1] = inputTensorDesc->dims[1];
	for (int i = 0; i < poolingDesc->nb_spatial; i++) {
		int padded = inputTensorDesc->dims[i + 2] + 2 * poolingDesc->pad[i];
		if (poolingDesc->window[i] > padded)
			return CUDNN_STATUS_BAD_PARAM;
		out[i + 2] = 1 + (padded - poolingDesc->window[i]) / poolingDesc->stride[i];
	}
	memcpy(outputTensorDimA, out, (size_t)nb * sizeof *out);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetPooling2dForwardOutputDim(const cudnnPoolingDescriptor_t poolingDesc,
	const cudnnTensorDescriptor_t inputTensorDesc, int *n, int *c, int *h, int *w)
{
	int out[4];
	if (!n || !c || !h || !w)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = cudnnGetPoolingNdForwardOutputDim(poolingDesc, inputTensorDesc, 4, out);
	if (st == CUDNN_STATUS_SUCCESS)
		*n = out[0], *c = out[1], *h = out[2], *w = out[3];
	return st;
}

/* ---- dropout ---- */

/* Bytes of random-generator state a handle's dropout needs (a model value). */
#define SIM_DROPOUT_STATE_BYTES (64u * 1024u)

cudnnStatus_t CUDNNWINAPI cudnnCreateDropoutDescriptor(cudnnDropoutDescriptor_t *dropoutDesc)
{
	return create_object((void **)dropoutDesc, sizeof **dropoutDesc, SIM_DROPOUT_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc)
{
	return destroy_object(dropoutDesc, SIM_DROPOUT_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnDropoutGetStatesSize(cudnnHandle_t handle, size_t *sizeInBytes)
{
	if (!sim_handle_ok(handle) || !sizeInBytes)
		return CUDNN_STATUS_BAD_PARAM;
	*sizeInBytes = SIM_DROPOUT_STATE_BYTES;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnDropoutGetReserveSpaceSize(cudnnTensorDescriptor_t xdesc,
	size_t *sizeInBytes)
{
	if (!xdesc || xdesc->magic != SIM_TENSOR_MAGIC || !sizeInBytes)
		return CUDNN_STATUS_BAD_PARAM;
	/* Observed on the real library: one bit per element, in whole 4-byte words. */
	uint64_t bytes = xdesc->is_set ? (sim_tensor_elements(xdesc) + 7) / 8 : 0;
	*sizeInBytes = (size_t)((bytes + 3) / 4 * 4);
	return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t set_dropout(cudnnDropoutDescriptor_t d, cudnnHandle_t handle, float dropout,
				 void *states, size_t state_bytes, unsigned long long seed,
				 int initialise)
{
	if (!d || d->magic != SIM_DROPOUT_MAGIC || !sim_handle_ok(handle) ||
	    dropout < 0.0f || dropout > 1.0f)
		return CUDNN_STATUS_BAD_PARAM;
	if (states && state_bytes < SIM_DROPOUT_STATE_BYTES)
		return CUDNN_STATUS_BAD_PARAM;
	if (states && initialise) {
		/* The real library seeds the states on the GPU: one kernel. */
		const void *ptrs[1] = { states };
		cudnnStatus_t st = sim_launch(handle, SIM_K_DROPOUT_INIT, 0, state_bytes,
					      state_bytes / 4, 1, ptrs);
		if (st != CUDNN_STATUS_SUCCESS)
			return st;
	}
	d->dropout = dropout;
	d->states = states;
	d->state_bytes = state_bytes;
	d->seed = seed;
	d->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc,
	cudnnHandle_t handle, float dropout, void *states, size_t stateSizeInBytes,
	unsigned long long seed)
{
	return set_dropout(dropoutDesc, handle, dropout, states, stateSizeInBytes, seed, 1);
}

cudnnStatus_t CUDNNWINAPI cudnnRestoreDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc,
	cudnnHandle_t handle, float dropout, void *states, size_t stateSizeInBytes,
	unsigned long long seed)
{
	return set_dropout(dropoutDesc, handle, dropout, states, stateSizeInBytes, seed, 0);
}

cudnnStatus_t CUDNNWINAPI cudnnGetDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc,
	cudnnHandle_t handle, float *dropout, void **states, unsigned long long *seed)
{
	if (!dropoutDesc || dropoutDesc->magic != SIM_DROPOUT_MAGIC || !sim_handle_ok(handle) ||
	    !dropout || !states || !seed)
		return CUDNN_STATUS_BAD_PARAM;
	*dropout = dropoutDesc->dropout;
	*states = dropoutDesc->states;
	*seed = dropoutDesc->seed;
	return CUDNN_STATUS_SUCCESS;
}

/* ---- op tensor ---- */

cudnnStatus_t CUDNNWINAPI cudnnCreateOpTensorDescriptor(cudnnOpTensorDescriptor_t *opTensorDesc)
{
	return create_object((void **)opTensorDesc, sizeof **opTensorDesc, SIM_OPTENSOR_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyOpTensorDescriptor(cudnnOpTensorDescriptor_t opTensorDesc)
{
	return destroy_object(opTensorDesc, SIM_OPTENSOR_MAGIC);
}

cudnnStatus_t CUDNNWINAPI cudnnSetOpTensorDescriptor(cudnnOpTensorDescriptor_t opTensorDesc,
	cudnnOpTensorOp_t opTensorOp, cudnnDataType_t opTensorCompType,
	cudnnNanPropagation_t opTensorNanOpt)
{
	if (!opTensorDesc || opTensorDesc->magic != SIM_OPTENSOR_MAGIC ||
	    opTensorOp < CUDNN_OP_TENSOR_ADD || opTensorOp > CUDNN_OP_TENSOR_NOT ||
	    sim_dtype_bytes(opTensorCompType) == 0 || !nan_ok(opTensorNanOpt))
		return CUDNN_STATUS_BAD_PARAM;
	opTensorDesc->op = opTensorOp;
	opTensorDesc->compute_type = opTensorCompType;
	opTensorDesc->nan_opt = opTensorNanOpt;
	opTensorDesc->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetOpTensorDescriptor(const cudnnOpTensorDescriptor_t opTensorDesc,
	cudnnOpTensorOp_t *opTensorOp, cudnnDataType_t *opTensorCompType,
	cudnnNanPropagation_t *opTensorNanOpt)
{
	if (!opTensorDesc || opTensorDesc->magic != SIM_OPTENSOR_MAGIC || !opTensorOp ||
	    !opTensorCompType || !opTensorNanOpt)
		return CUDNN_STATUS_BAD_PARAM;
	*opTensorOp = opTensorDesc->op;
	*opTensorCompType = opTensorDesc->compute_type;
	*opTensorNanOpt = opTensorDesc->nan_opt;
	return CUDNN_STATUS_SUCCESS;
}
