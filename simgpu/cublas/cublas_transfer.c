/*
 * The simulated libcublas's host <-> device helpers (cublasSetVector,
 * cublasGetVector, cublasSetMatrix, cublasGetMatrix), as the real ones are
 * used by programs such as NVIDIA's simpleCUBLAS: strided copies made with
 * the runtime's cudaMemcpy / cudaMemcpy2D, so a tracer sees ordinary copies.
 * Argument errors: CUBLAS_STATUS_INVALID_VALUE (cublas_api.h); a failed
 * copy: CUBLAS_STATUS_MAPPING_ERROR (as documented for these calls). Must
 * never touch device memory other than through the runtime.
 */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* n elements of size elem, x every incx elements -> y every incy. */
static cublasStatus_t copy_strided(int n, int elem, const void *x, int incx,
				   void *y, int incy, enum cudaMemcpyKind kind)
{
	if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (n == 0)
		return CUBLAS_STATUS_SUCCESS;
	cudaError_t err;
	if (incx == 1 && incy == 1)
		err = cudaMemcpy(y, x, (size_t)n * (size_t)elem, kind);
	else
		err = cudaMemcpy2D(y, (size_t)incy * (size_t)elem, x,
				   (size_t)incx * (size_t)elem, (size_t)elem,
				   (size_t)n, kind);
	return err == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx,
			       void *devicePtr, int incy)
{
	return copy_strided(n, elemSize, x, incx, devicePtr, incy,
			    cudaMemcpyHostToDevice);
}

cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx,
			       void *y, int incy)
{
	return copy_strided(n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost);
}

/* Column-major rows x cols: one row of the 2D copy per column. */
static cublasStatus_t copy_matrix(int rows, int cols, int elem, const void *a,
				  int lda, void *b, int ldb, enum cudaMemcpyKind kind)
{
	if (rows < 0 || cols < 0 || elem <= 0 || lda < (rows > 1 ? rows : 1) ||
	    ldb < (rows > 1 ? rows : 1))
		return CUBLAS_STATUS_INVALID_VALUE;
	if (rows == 0 || cols == 0)
		return CUBLAS_STATUS_SUCCESS;
	cudaError_t err = cudaMemcpy2D(b, (size_t)ldb * (size_t)elem, a,
				       (size_t)lda * (size_t)elem,
				       (size_t)rows * (size_t)elem, (size_t)cols, kind);
	return err == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A,
			       int lda, void *B, int ldb)
{
	return copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice);
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A,
			       int lda, void *B, int ldb)
{
	return copy_matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost);
}
