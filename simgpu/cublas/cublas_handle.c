/*
 * Simulated libcublas.so.13: handles, streams, modes, workspace and status
 * strings. Argument checks follow cublas_api.h and the cuBLAS manual; the
 * status texts are this simulator's own. Must never allocate device memory
 * (the real cublasCreate may; the simulator needs no workspace).
 */
#include <stdint.h>
#include <stdlib.h>

#include "simgpu/cublas/cublas_handle.h"

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
	if (!handle)
		return CUBLAS_STATUS_INVALID_VALUE;
	struct cublasContext *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return CUBLAS_STATUS_ALLOC_FAILED;
	cublasStatus_t status = cublasLtCreate(&ctx->lt);
	if (status != CUBLAS_STATUS_SUCCESS) {
		free(ctx);
		return status;
	}
	ctx->pointer_mode = CUBLAS_POINTER_MODE_HOST;
	ctx->math_mode = CUBLAS_DEFAULT_MATH;
	*handle = ctx;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	cublasLtDestroy(handle->lt);
	free(handle);
	return CUBLAS_STATUS_SUCCESS;
}

/* As documented, a new stream also brings back the default workspace. */
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	handle->stream = streamId;
	handle->workspace = NULL;
	handle->workspace_size = 0;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!streamId)
		return CUBLAS_STATUS_INVALID_VALUE;
	*streamId = handle->stream;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->pointer_mode = mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!mode)
		return CUBLAS_STATUS_INVALID_VALUE;
	*mode = handle->pointer_mode;
	return CUBLAS_STATUS_SUCCESS;
}

/* A base mode (0..3), optionally with the reduced-precision-reduction flag. */
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	unsigned base = (unsigned)mode & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
	if (base > CUBLAS_TF32_TENSOR_OP_MATH)
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->math_mode = mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!mode)
		return CUBLAS_STATUS_INVALID_VALUE;
	*mode = handle->math_mode;
	return CUBLAS_STATUS_SUCCESS;
}

/* The manual: the workspace must be aligned to at least 256 bytes. */
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace,
				     size_t workspaceSizeInBytes)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if ((uintptr_t)workspace % 256 != 0 || (!workspace && workspaceSizeInBytes))
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->workspace = workspace;
	handle->workspace_size = workspace ? workspaceSizeInBytes : 0;
	return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status)
{
	return cublasLtGetStatusName(status);
}

const char *cublasGetStatusString(cublasStatus_t status)
{
	return cublasLtGetStatusString(status);
}

/* The runtime the library was built against: the real 13.0 libcublas
   answers 13000 (observed on this machine without a GPU). */
size_t cublasGetCudartVersion(void)
{
	return CUDART_VERSION;
}
