/*
 * Simulated libcublas.so.13: the GEMMs of every precision beyond the
 * single ones (complex cublasCgemm/Zgemm), their pointer-array batches
 * (cublas{S,D,C,Z}gemmBatched) and strided batches
 * (cublas{D,C,Z}gemmStridedBatched), and the matrix-vector products
 * cublas{S,D,C,Z}gemv_v2. Checks as the reference BLAS orders them, then
 * one kernel on the handle's stream (a batch is one kernel, as cuBLAS
 * launches it). The __half batches are C++-only declarations and stay
 * "not supported" (simgpu/exports).
 *
 * Must never read alpha/beta, the pointer arrays or any device memory:
 * the kernel gets the arrays' addresses, as a real kernel reads them on
 * the device.
 */
#include "simgpu/cublas/cublas_handle.h"
#include "simgpu/cublas/gemm_kernels.h"

/* Plain GEMM, pointer-array batch and strided batch of one type. */
#define GEMM_OF_TYPE(X, T, family)                                                           \
	cublasStatus_t cublas##X##gemm_v2(cublasHandle_t handle, cublasOperation_t transa,    \
					  cublasOperation_t transb, int m, int n, int k,      \
					  const T *alpha, const T *A, int lda, const T *B,    \
					  int ldb, const T *beta, T *C, int ldc)              \
	{                                                                                     \
		cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k,      \
							alpha, lda, ldb, beta, ldc, 1);       \
		if (status != CUBLAS_STATUS_SUCCESS)                                          \
			return status;                                                        \
		return blas_launch_on_handle(handle, family, transa, transb, m, n, k, 1, A,   \
					     B, C);                                           \
	}

#define BATCHED_OF_TYPE(X, T, family)                                                        \
	cublasStatus_t cublas##X##gemmBatched(cublasHandle_t handle, cublasOperation_t transa, \
					      cublasOperation_t transb, int m, int n, int k,  \
					      const T *alpha, const T *const Aarray[],        \
					      int lda, const T *const Barray[], int ldb,      \
					      const T *beta, T *const Carray[], int ldc,      \
					      int batchCount)                                 \
	{                                                                                     \
		cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k,      \
							alpha, lda, ldb, beta, ldc,           \
							batchCount);                          \
		if (status != CUBLAS_STATUS_SUCCESS)                                          \
			return status;                                                        \
		return blas_launch_on_handle(handle, family, transa, transb, m, n, k,         \
					     batchCount, Aarray, Barray, (void *)Carray);     \
	}

#define STRIDED_OF_TYPE(X, T, family)                                                        \
	cublasStatus_t cublas##X##gemmStridedBatched(                                         \
		cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,    \
		int m, int n, int k, const T *alpha, const T *A, int lda,                     \
		long long int strideA, const T *B, int ldb, long long int strideB,            \
		const T *beta, T *C, int ldc, long long int strideC, int batchCount)          \
	{                                                                                     \
		(void)strideA, (void)strideB, (void)strideC;                                  \
		cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k,      \
							alpha, lda, ldb, beta, ldc,           \
							batchCount);                          \
		if (status != CUBLAS_STATUS_SUCCESS)                                          \
			return status;                                                        \
		return blas_launch_on_handle(handle, family, transa, transb, m, n, k,         \
					     batchCount, A, B, C);                            \
	}

GEMM_OF_TYPE(C, cuComplex, GEMM_CGEMM)
GEMM_OF_TYPE(Z, cuDoubleComplex, GEMM_ZGEMM)
BATCHED_OF_TYPE(S, float, GEMM_SGEMM)
BATCHED_OF_TYPE(D, double, GEMM_DGEMM)
BATCHED_OF_TYPE(C, cuComplex, GEMM_CGEMM)
BATCHED_OF_TYPE(Z, cuDoubleComplex, GEMM_ZGEMM)
STRIDED_OF_TYPE(D, double, GEMM_DGEMM)
STRIDED_OF_TYPE(C, cuComplex, GEMM_CGEMM)
STRIDED_OF_TYPE(Z, cuDoubleComplex, GEMM_ZGEMM)

/*
 * y = alpha op(A) x + beta y, A m x n: NULL handle NOT_INITIALIZED; trans
 * not N/T/C, m or n < 0, lda < max(1, m), incx or incy 0, NULL alpha/beta
 * INVALID_VALUE (the reference BLAS's checks). One kernel of 2*m*n FLOPs
 * (launched as m x n x 1), none when m or n is 0.
 */
static cublasStatus_t gemv(cublasHandle_t handle, enum gemm_family family,
			   cublasOperation_t trans, int m, int n, const void *alpha,
			   const void *A, int lda, const void *x, int incx, const void *beta,
			   void *y, int incy)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!gemm_trans_valid(trans) || m < 0 || n < 0 || lda < (m > 1 ? m : 1) ||
	    incx == 0 || incy == 0 || !alpha || !beta)
		return CUBLAS_STATUS_INVALID_VALUE;
	return blas_launch_on_handle(handle, family, trans, CUBLAS_OP_N, m, n, 1, 1, A, x, y);
}

#define GEMV_OF_TYPE(X, T, family)                                                           \
	cublasStatus_t cublas##X##gemv_v2(cublasHandle_t handle, cublasOperation_t trans,     \
					  int m, int n, const T *alpha, const T *A, int lda,  \
					  const T *x, int incx, const T *beta, T *y,          \
					  int incy)                                           \
	{                                                                                     \
		return gemv(handle, family, trans, m, n, alpha, A, lda, x, incx, beta, y,     \
			    incy);                                                            \
	}

GEMV_OF_TYPE(S, float, GEMV_S)
GEMV_OF_TYPE(D, double, GEMV_D)
GEMV_OF_TYPE(C, cuComplex, GEMV_C)
GEMV_OF_TYPE(Z, cuDoubleComplex, GEMV_Z)
