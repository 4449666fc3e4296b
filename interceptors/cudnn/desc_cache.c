/*
 * The legacy descriptor and handle caches of the cuDNN wrappers (see
 * cudnn_desc_cache.h), on two pointer-keyed caches. A descriptor's words:
 * [0] the cudnnDataType_t, [1] the rank, [2..] the dimensions.
 *
 * Must never call cuDNN except the Get queries of a missed key.
 */
#include "interceptors/cudnn/desc_cache.h"

#include <string.h>

#include "interceptors/cudnn/ptr_cache.h"
#include "interceptors/core/real_functions.h"

static struct cudnn_ptr_cache descriptors = CUDNN_PTR_CACHE_INITIALIZER;
static struct cudnn_ptr_cache handle_streams = CUDNN_PTR_CACHE_INITIALIZER;

enum { WORD_TYPE = 0, WORD_RANK = 1, WORD_DIMS = 2 };
_Static_assert(WORD_DIMS + CUDNN_SHAPE_MAX_RANK <= CUDNN_PTR_CACHE_WORDS,
	       "a descriptor's dims fit the cache words");

enum dnntrace_dtype cudnn_dtype(cudnnDataType_t type)
{
	switch (type) {
	case CUDNN_DATA_FLOAT: return DNNTRACE_DTYPE_F32;
	case CUDNN_DATA_DOUBLE: return DNNTRACE_DTYPE_F64;
	case CUDNN_DATA_HALF: return DNNTRACE_DTYPE_F16;
	case CUDNN_DATA_BFLOAT16: return DNNTRACE_DTYPE_BF16;
	case CUDNN_DATA_INT8: return DNNTRACE_DTYPE_I8;
	case CUDNN_DATA_UINT8: return DNNTRACE_DTYPE_U8;
	case CUDNN_DATA_INT32: return DNNTRACE_DTYPE_I32;
	case CUDNN_DATA_INT64: return DNNTRACE_DTYPE_I64;
	case CUDNN_DATA_BOOLEAN: return DNNTRACE_DTYPE_BOOL;
	case CUDNN_DATA_FP8_E4M3: return DNNTRACE_DTYPE_F8E4M3;
	case CUDNN_DATA_FP8_E5M2: return DNNTRACE_DTYPE_F8E5M2;
	default: return DNNTRACE_DTYPE_UNKNOWN;
	}
}

void cudnn_desc_remember(const void *desc, cudnnDataType_t type, int rank, const int *dims)
{
	int64_t words[CUDNN_PTR_CACHE_WORDS] = { 0 };

	if (rank < 0 || rank > CUDNN_SHAPE_MAX_RANK || (rank && !dims)) {
		cudnn_ptr_cache_remove(&descriptors, desc);
		return;
	}
	words[WORD_TYPE] = type;
	words[WORD_RANK] = rank;
	for (int i = 0; i < rank; i++)
		words[WORD_DIMS + i] = dims[i];
	cudnn_ptr_cache_store(&descriptors, desc, words);
}

void cudnn_desc_forget(const void *desc)
{
	cudnn_ptr_cache_remove(&descriptors, desc);
}

static void shape_from_words(const int64_t *words, struct cudnn_shape *shape)
{
	cudnnDataType_t type = (cudnnDataType_t)words[WORD_TYPE];
	shape->dtype = cudnn_dtype(type);
	shape->is_double = type == CUDNN_DATA_DOUBLE;
	shape->rank = (unsigned)words[WORD_RANK];
	for (unsigned i = 0; i < shape->rank; i++)
		shape->dims[i] = words[WORD_DIMS + i];
}

/* What a Get*NdDescriptor query answered (the cache may be full: not read back). */
static void shape_from_query(cudnnDataType_t type, int rank, const int *dims,
			     struct cudnn_shape *shape)
{
	if (rank < 0 || rank > CUDNN_SHAPE_MAX_RANK)
		return;
	shape->dtype = cudnn_dtype(type);
	shape->is_double = type == CUDNN_DATA_DOUBLE;
	shape->rank = (unsigned)rank;
	for (int i = 0; i < rank; i++)
		shape->dims[i] = dims[i];
}

static void unknown_shape(struct cudnn_shape *shape)
{
	shape->dtype = DNNTRACE_DTYPE_UNKNOWN;
	shape->is_double = false;
	shape->rank = 0;
}

void cudnn_tensor_shape(cudnnTensorDescriptor_t desc, struct cudnn_shape *shape)
{
	int64_t words[CUDNN_PTR_CACHE_WORDS];
	int dims[CUDNN_SHAPE_MAX_RANK], strides[CUDNN_SHAPE_MAX_RANK], rank = 0;
	cudnnDataType_t type;
	__typeof__(&cudnnGetTensorNdDescriptor) get = NULL;

	unknown_shape(shape);
	if (!desc)
		return;
	if (cudnn_ptr_cache_lookup(&descriptors, desc, words)) {
		shape_from_words(words, shape);
		return;
	}
	get = REAL(cudnnGetTensorNdDescriptor);
	if (!get || get(desc, CUDNN_SHAPE_MAX_RANK, &type, &rank, dims, strides) !=
			    CUDNN_STATUS_SUCCESS)
		return;
	cudnn_desc_remember(desc, type, rank, dims);
	shape_from_query(type, rank, dims, shape);
}

void cudnn_filter_shape(cudnnFilterDescriptor_t desc, struct cudnn_shape *shape)
{
	int64_t words[CUDNN_PTR_CACHE_WORDS];
	int dims[CUDNN_SHAPE_MAX_RANK], rank = 0;
	cudnnDataType_t type;
	cudnnTensorFormat_t format;
	__typeof__(&cudnnGetFilterNdDescriptor) get = NULL;

	unknown_shape(shape);
	if (!desc)
		return;
	if (cudnn_ptr_cache_lookup(&descriptors, desc, words)) {
		shape_from_words(words, shape);
		return;
	}
	get = REAL(cudnnGetFilterNdDescriptor);
	if (!get || get(desc, CUDNN_SHAPE_MAX_RANK, &type, &format, &rank, dims) !=
			    CUDNN_STATUS_SUCCESS)
		return;
	cudnn_desc_remember(desc, type, rank, dims);
	shape_from_query(type, rank, dims, shape);
}

void cudnn_handle_remember_stream(cudnnHandle_t handle, cudaStream_t stream)
{
	int64_t words[CUDNN_PTR_CACHE_WORDS] = { (int64_t)(uintptr_t)stream };
	cudnn_ptr_cache_store(&handle_streams, handle, words);
}

void cudnn_handle_forget(cudnnHandle_t handle)
{
	cudnn_ptr_cache_remove(&handle_streams, handle);
}

cudaStream_t cudnn_handle_stream(cudnnHandle_t handle)
{
	int64_t words[CUDNN_PTR_CACHE_WORDS];
	cudaStream_t stream = NULL;
	__typeof__(&cudnnGetStream) get = NULL;

	if (!handle)
		return NULL;
	if (cudnn_ptr_cache_lookup(&handle_streams, handle, words))
		return (cudaStream_t)(uintptr_t)words[0];
	get = REAL(cudnnGetStream);
	if (get && get(handle, &stream) == CUDNN_STATUS_SUCCESS) {
		cudnn_handle_remember_stream(handle, stream);
		return stream;
	}
	return NULL;
}
