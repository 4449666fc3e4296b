/*
 * The simulated cuDNN's tensor and filter descriptors: what programs set
 * and read back, with the real library's argument checks (observed on the
 * real libcudnn.so.9, which answers these without a GPU). Must never launch
 * work or touch device memory.
 */
#include <stdlib.h>
#include <string.h>

#include "simgpu/cudnn/cudnn_internal.h"

size_t sim_dtype_bytes(cudnnDataType_t dtype)
{
	switch (dtype) {
	case CUDNN_DATA_FLOAT: case CUDNN_DATA_INT32: case CUDNN_DATA_UINT32:
	case CUDNN_DATA_INT8x4: case CUDNN_DATA_UINT8x4:
		return 4;
	case CUDNN_DATA_DOUBLE: case CUDNN_DATA_INT64: case CUDNN_DATA_COMPLEX_FP32:
		return 8;
	case CUDNN_DATA_COMPLEX_FP64:
		return 16;
	case CUDNN_DATA_HALF: case CUDNN_DATA_BFLOAT16:
		return 2;
	case CUDNN_DATA_INT8: case CUDNN_DATA_UINT8: case CUDNN_DATA_BOOLEAN:
	case CUDNN_DATA_FP8_E4M3: case CUDNN_DATA_FP8_E5M2:
	case CUDNN_DATA_FP8_E8M0: case CUDNN_DATA_FP4_E2M1:
	case CUDNN_DATA_INT4: case CUDNN_DATA_UINT4:
		return 1; /* sub-byte types rounded up: sizes are estimates only */
	case CUDNN_DATA_INT8x32:
		return 32;
	default:
		return 0;
	}
}

/* Types a legacy tensor descriptor may hold. */
static int legacy_dtype_ok(cudnnDataType_t dtype)
{
	return dtype != CUDNN_DATA_FAST_FLOAT_FOR_FP8 && sim_dtype_bytes(dtype) != 0;
}

/* ---- tensor descriptors ---- */

int sim_tensor_set(cudnnTensorDescriptor_t desc)
{
	return desc && desc->magic == SIM_TENSOR_MAGIC && desc->is_set;
}

uint64_t sim_tensor_elements(cudnnTensorDescriptor_t desc)
{
	uint64_t n = 1;
	for (int i = 0; i < desc->nb_dims; i++)
		n *= (uint64_t)desc->dims[i];
	return n;
}

uint64_t sim_tensor_bytes(cudnnTensorDescriptor_t desc)
{
	return sim_tensor_elements(desc) * sim_dtype_bytes(desc->dtype);
}

int sim_same_shape(cudnnTensorDescriptor_t a, cudnnTensorDescriptor_t b)
{
	if (a->nb_dims != b->nb_dims)
		return 0;
	for (int i = 0; i < a->nb_dims; i++)
		if (a->dims[i] != b->dims[i])
			return 0;
	return 1;
}

cudnnStatus_t CUDNNWINAPI cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t *tensorDesc)
{
	if (!tensorDesc)
		return CUDNN_STATUS_BAD_PARAM;
	struct cudnnTensorStruct *d = calloc(1, sizeof *d);
	if (!d)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	d->magic = SIM_TENSOR_MAGIC;
	*tensorDesc = d;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t tensorDesc)
{
	if (!tensorDesc)
		return CUDNN_STATUS_SUCCESS; /* as the real library */
	if (tensorDesc->magic != SIM_TENSOR_MAGIC)
		return CUDNN_STATUS_BAD_PARAM;
	tensorDesc->magic = 0;
	free(tensorDesc);
	return CUDNN_STATUS_SUCCESS;
}

/* Packed strides of `dims` in `format` (NHWC: channels innermost). */
static void packed_strides(cudnnTensorFormat_t format, int nb, const int *dims, int *strides)
{
	int s = 1;
	if (format == CUDNN_TENSOR_NHWC && nb >= 3) {
		strides[1] = 1;
		s = dims[1];
		for (int i = nb - 1; i >= 2; i--) {
			strides[i] = s;
			s *= dims[i];
		}
		strides[0] = s;
		return;
	}
	for (int i = nb - 1; i >= 0; i--) {
		strides[i] = s;
		s *= dims[i];
	}
}

static cudnnStatus_t set_tensor(cudnnTensorDescriptor_t d, cudnnDataType_t dtype,
				int nb, const int *dims, const int *strides)
{
	if (!d || d->magic != SIM_TENSOR_MAGIC || !dims || !strides)
		return CUDNN_STATUS_BAD_PARAM;
	if (nb > CUDNN_DIM_MAX)
		return CUDNN_STATUS_NOT_SUPPORTED; /* as the real library */
	if (nb < 2 || !legacy_dtype_ok(dtype))
		return CUDNN_STATUS_BAD_PARAM;
	/* Observed: a zero stride is accepted only on a dimension of size 1. */
	for (int i = 0; i < nb; i++)
		if (dims[i] <= 0 || strides[i] < 0 || (strides[i] == 0 && dims[i] > 1))
			return CUDNN_STATUS_BAD_PARAM;
	d->dtype = dtype;
	d->nb_dims = nb;
	memcpy(d->dims, dims, (size_t)nb * sizeof *dims);
	memcpy(d->strides, strides, (size_t)nb * sizeof *strides);
	d->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

static int format_ok(cudnnTensorFormat_t format)
{
	return format == CUDNN_TENSOR_NCHW || format == CUDNN_TENSOR_NHWC ||
	       format == CUDNN_TENSOR_NCHW_VECT_C;
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t tensorDesc,
	cudnnTensorFormat_t format, cudnnDataType_t dataType, int n, int c, int h, int w)
{
	int dims[4] = { n, c, h, w }, strides[4];
	if (!format_ok(format))
		return CUDNN_STATUS_BAD_PARAM;
	for (int i = 0; i < 4; i++)
		if (dims[i] <= 0)
			return CUDNN_STATUS_BAD_PARAM;
	packed_strides(format, 4, dims, strides);
	return set_tensor(tensorDesc, dataType, 4, dims, strides);
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensor4dDescriptorEx(cudnnTensorDescriptor_t tensorDesc,
	cudnnDataType_t dataType, int n, int c, int h, int w,
	int nStride, int cStride, int hStride, int wStride)
{
	int dims[4] = { n, c, h, w }, strides[4] = { nStride, cStride, hStride, wStride };
	return set_tensor(tensorDesc, dataType, 4, dims, strides);
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensorNdDescriptor(cudnnTensorDescriptor_t tensorDesc,
	cudnnDataType_t dataType, int nbDims, const int dimA[], const int strideA[])
{
	return set_tensor(tensorDesc, dataType, nbDims, dimA, strideA);
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensorNdDescriptorEx(cudnnTensorDescriptor_t tensorDesc,
	cudnnTensorFormat_t format, cudnnDataType_t dataType, int nbDims, const int dimA[])
{
	int strides[CUDNN_DIM_MAX];
	if (!dimA || !format_ok(format))
		return CUDNN_STATUS_BAD_PARAM;
	if (nbDims > CUDNN_DIM_MAX)
		return CUDNN_STATUS_NOT_SUPPORTED;
	if (nbDims < 2)
		return CUDNN_STATUS_BAD_PARAM;
	for (int i = 0; i < nbDims; i++)
		if (dimA[i] <= 0)
			return CUDNN_STATUS_BAD_PARAM;
	packed_strides(format, nbDims, dimA, strides);
	return set_tensor(tensorDesc, dataType, nbDims, dimA, strides);
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensor4dDescriptor(const cudnnTensorDescriptor_t tensorDesc,
	cudnnDataType_t *dataType, int *n, int *c, int *h, int *w,
	int *nStride, int *cStride, int *hStride, int *wStride)
{
	if (!tensorDesc || tensorDesc->magic != SIM_TENSOR_MAGIC || !dataType || !n ||
	    !c || !h || !w || !nStride || !cStride || !hStride || !wStride)
		return CUDNN_STATUS_BAD_PARAM;
	/* An unset descriptor reads back as zeros (observed). */
	int dims[4] = { 0, 0, 0, 0 }, strides[4] = { 0, 0, 0, 0 };
	for (int i = 0; i < 4 && i < tensorDesc->nb_dims; i++) {
		dims[i] = tensorDesc->dims[i];
		strides[i] = tensorDesc->strides[i];
	}
	*dataType = tensorDesc->dtype;
	*n = dims[0], *c = dims[1], *h = dims[2], *w = dims[3];
	*nStride = strides[0], *cStride = strides[1], *hStride = strides[2], *wStride = strides[3];
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensorNdDescriptor(const cudnnTensorDescriptor_t tensorDesc,
	int nbDimsRequested, cudnnDataType_t *dataType, int *nbDims, int dimA[], int strideA[])
{
	if (!tensorDesc || tensorDesc->magic != SIM_TENSOR_MAGIC || !dataType || !nbDims ||
	    nbDimsRequested < 0 || (nbDimsRequested > 0 && (!dimA || !strideA)))
		return CUDNN_STATUS_BAD_PARAM;
	*dataType = tensorDesc->dtype;
	*nbDims = tensorDesc->nb_dims;
	for (int i = 0; i < nbDimsRequested && i < tensorDesc->nb_dims; i++) {
		dimA[i] = tensorDesc->dims[i];
		strideA[i] = tensorDesc->strides[i];
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensorSizeInBytes(const cudnnTensorDescriptor_t tensorDesc,
	size_t *size)
{
	if (!tensorDesc || tensorDesc->magic != SIM_TENSOR_MAGIC || !size)
		return CUDNN_STATUS_BAD_PARAM;
	if (!tensorDesc->is_set) {
		*size = 0; /* observed */
		return CUDNN_STATUS_SUCCESS;
	}
	/* The span from the first to the last element, strides included. */
	uint64_t last = 0;
	for (int i = 0; i < tensorDesc->nb_dims; i++)
		last += (uint64_t)(tensorDesc->dims[i] - 1) * (uint64_t)tensorDesc->strides[i];
	*size = (size_t)((last + 1) * sim_dtype_bytes(tensorDesc->dtype));
	return CUDNN_STATUS_SUCCESS;
}

/* ---- filter descriptors ---- */

int sim_filter_set(cudnnFilterDescriptor_t desc)
{
	return desc && desc->magic == SIM_FILTER_MAGIC && desc->is_set;
}

uint64_t sim_filter_elements(cudnnFilterDescriptor_t desc)
{
	uint64_t n = 1;
	for (int i = 0; i < desc->nb_dims; i++)
		n *= (uint64_t)desc->dims[i];
	return n;
}

uint64_t sim_filter_bytes(cudnnFilterDescriptor_t desc)
{
	return sim_filter_elements(desc) * sim_dtype_bytes(desc->dtype);
}

cudnnStatus_t CUDNNWINAPI cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t *filterDesc)
{
	if (!filterDesc)
		return CUDNN_STATUS_BAD_PARAM;
	struct cudnnFilterStruct *d = calloc(1, sizeof *d);
	if (!d)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	d->magic = SIM_FILTER_MAGIC;
	*filterDesc = d;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t filterDesc)
{
	if (!filterDesc)
		return CUDNN_STATUS_SUCCESS;
	if (filterDesc->magic != SIM_FILTER_MAGIC)
		return CUDNN_STATUS_BAD_PARAM;
	filterDesc->magic = 0;
	free(filterDesc);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetFilterNdDescriptor(cudnnFilterDescriptor_t filterDesc,
	cudnnDataType_t dataType, cudnnTensorFormat_t format, int nbDims, const int filterDimA[])
{
	if (!filterDesc || filterDesc->magic != SIM_FILTER_MAGIC || !filterDimA ||
	    !format_ok(format) || !legacy_dtype_ok(dataType))
		return CUDNN_STATUS_BAD_PARAM;
	if (nbDims > CUDNN_DIM_MAX)
		return CUDNN_STATUS_NOT_SUPPORTED;
	if (nbDims < 3)
		return CUDNN_STATUS_BAD_PARAM;
	for (int i = 0; i < nbDims; i++)
		if (filterDimA[i] <= 0)
			return CUDNN_STATUS_BAD_PARAM;
	filterDesc->dtype = dataType;
	filterDesc->format = format;
	filterDesc->nb_dims = nbDims;
	memcpy(filterDesc->dims, filterDimA, (size_t)nbDims * sizeof *filterDimA);
	filterDesc->is_set = 1;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t filterDesc,
	cudnnDataType_t dataType, cudnnTensorFormat_t format, int k, int c, int h, int w)
{
	int dims[4] = { k, c, h, w };
	return cudnnSetFilterNdDescriptor(filterDesc, dataType, format, 4, dims);
}

cudnnStatus_t CUDNNWINAPI cudnnGetFilter4dDescriptor(const cudnnFilterDescriptor_t filterDesc,
	cudnnDataType_t *dataType, cudnnTensorFormat_t *format, int *k, int *c, int *h, int *w)
{
	if (!filterDesc || filterDesc->magic != SIM_FILTER_MAGIC || !dataType || !format ||
	    !k || !c || !h || !w)
		return CUDNN_STATUS_BAD_PARAM;
	int dims[4] = { 0, 0, 0, 0 };
	for (int i = 0; i < 4 && i < filterDesc->nb_dims; i++)
		dims[i] = filterDesc->dims[i];
	*dataType = filterDesc->dtype;
	*format = filterDesc->format;
	*k = dims[0], *c = dims[1], *h = dims[2], *w = dims[3];
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetFilterNdDescriptor(const cudnnFilterDescriptor_t filterDesc,
	int nbDimsRequested, cudnnDataType_t *dataType, cudnnTensorFormat_t *format,
	int *nbDims, int filterDimA[])
{
	if (!filterDesc || filterDesc->magic != SIM_FILTER_MAGIC || !dataType || !format ||
	    !nbDims || nbDimsRequested < 0 || (nbDimsRequested > 0 && !filterDimA))
		return CUDNN_STATUS_BAD_PARAM;
	*dataType = filterDesc->dtype;
	*format = filterDesc->format;
	*nbDims = filterDesc->nb_dims;
	for (int i = 0; i < nbDimsRequested && i < filterDesc->nb_dims; i++)
		filterDimA[i] = filterDesc->dims[i];
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetFilterSizeInBytes(const cudnnFilterDescriptor_t filterDesc,
	size_t *size)
{
	if (!filterDesc || filterDesc->magic != SIM_FILTER_MAGIC || !size)
		return CUDNN_STATUS_BAD_PARAM;
	*size = filterDesc->is_set ? (size_t)sim_filter_bytes(filterDesc) : 0;
	return CUDNN_STATUS_SUCCESS;
}

/*
 * The batch-norm parameter descriptor (cudnn_ops.h): 1xCx1x1(x1) for the
 * spatial modes, 1xCxHxW(xD) per activation; float for half and bfloat16
 * inputs, the input's type otherwise. Probed on the real libcudnn 9.19
 * (it answers without a GPU): same dims, strides, types and BAD_PARAM cases.
 */
cudnnStatus_t CUDNNWINAPI cudnnDeriveBNTensorDescriptor(cudnnTensorDescriptor_t derivedBnDesc,
	const cudnnTensorDescriptor_t xDesc, cudnnBatchNormMode_t mode)
{
	if (!derivedBnDesc || derivedBnDesc->magic != SIM_TENSOR_MAGIC || !xDesc ||
	    xDesc->magic != SIM_TENSOR_MAGIC || !xDesc->is_set)
		return CUDNN_STATUS_BAD_PARAM;
	if (xDesc->nb_dims < 4 || xDesc->nb_dims > 5 ||
	    (mode != CUDNN_BATCHNORM_PER_ACTIVATION && mode != CUDNN_BATCHNORM_SPATIAL &&
	     mode != CUDNN_BATCHNORM_SPATIAL_PERSISTENT))
		return CUDNN_STATUS_BAD_PARAM;
	int nb = xDesc->nb_dims, dims[5], strides[5];
	for (int i = 0; i < nb; i++)
		dims[i] = i == 1 || mode == CUDNN_BATCHNORM_PER_ACTIVATION ? xDesc->dims[i] : 1;
	dims[0] = 1;
	cudnnDataType_t dtype = xDesc->dtype == CUDNN_DATA_HALF || xDesc->dtype == CUDNN_DATA_BFLOAT16 ?
		CUDNN_DATA_FLOAT : xDesc->dtype;
	packed_strides(CUDNN_TENSOR_NCHW, nb, dims, strides);
	return set_tensor(derivedBnDesc, dtype, nb, dims, strides);
}
