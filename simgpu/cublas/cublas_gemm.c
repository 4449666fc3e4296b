/*
 * Simulated libcublas.so.13: the GEMM entry points. Each validates its
 * arguments like the real one (README.md, "Argument checks"), then launches
 * one kernel on the handle's stream. cublasGemmEx and
 * cublasGemmStridedBatchedEx run through the PUBLIC cublasLtMatmul, as the
 * real libcublas, which imports cublasLtMatmul, is assumed to do: a tracer
 * must see that matmul as nested inside the cuBLAS call.
 *
 * Must never read alpha/beta in device pointer mode, nor any device memory
 * (pointer arrays of cublasGemmBatchedEx included: the kernel gets their
 * addresses, as a real kernel reads them on the device).
 */
#include "simgpu/cublas/cublas_half.h"
#include "simgpu/cublas/cublas_handle.h"
#include "simgpu/cublas/gemm_kernels.h"

static long long max1(long long v)
{
	return v > 1 ? v : 1;
}

/* The checks every GEMM shares, in the reference BLAS order. */
cublasStatus_t blas_check_gemm(cublasHandle_t handle, cublasOperation_t transa,
				cublasOperation_t transb, int m, int n, int k, const void *alpha,
				int lda, int ldb, const void *beta, int ldc, int batch)
{
	if (!handle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!gemm_trans_valid(transa) || !gemm_trans_valid(transb))
		return CUBLAS_STATUS_INVALID_VALUE;
	if (m < 0 || n < 0 || k < 0 || batch < 0)
		return CUBLAS_STATUS_INVALID_VALUE;
	long long rows_a = transa == CUBLAS_OP_N ? m : k;
	long long rows_b = transb == CUBLAS_OP_N ? k : n;
	if (lda < max1(rows_a) || ldb < max1(rows_b) || ldc < max1(m))
		return CUBLAS_STATUS_INVALID_VALUE;
	if (!alpha || !beta)
		return CUBLAS_STATUS_INVALID_VALUE;
	return CUBLAS_STATUS_SUCCESS;
}

static bool algo_valid(cublasGemmAlgo_t algo)
{
	return (algo >= CUBLAS_GEMM_DEFAULT && algo <= CUBLAS_GEMM_ALGO23) ||
	       (algo >= CUBLAS_GEMM_DEFAULT_TENSOR_OP && algo <= CUBLAS_GEMM_ALGO15_TENSOR_OP) ||
	       algo == CUBLAS_GEMM_AUTOTUNE;
}

cublasStatus_t blas_launch_on_handle(cublasHandle_t handle, enum gemm_family family,
				       cublasOperation_t transa, cublasOperation_t transb, int m,
				       int n, int k, int batch, const void *a, const void *b,
				       void *c)
{
	struct gemm_work work = {
		.family = family, .transa = transa, .transb = transb,
		.m = m, .n = n, .k = k, .batch = batch,
		.a = a, .b = b, .c = c, .d = c,
		.stream = handle->stream,
	};
	return gemm_launch(&work);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
			      cublasOperation_t transb, int m, int n, int k, const float *alpha,
			      const float *A, int lda, const float *B, int ldb, const float *beta,
			      float *C, int ldc)
{
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, 1);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return blas_launch_on_handle(handle, GEMM_SGEMM, transa, transb, m, n, k, 1, A, B, C);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
			      cublasOperation_t transb, int m, int n, int k, const double *alpha,
			      const double *A, int lda, const double *B, int ldb,
			      const double *beta, double *C, int ldc)
{
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, 1);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return blas_launch_on_handle(handle, GEMM_DGEMM, transa, transb, m, n, k, 1, A, B, C);
}

cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa,
			   cublasOperation_t transb, int m, int n, int k,
			   const struct __half *alpha, const struct __half *A, int lda,
			   const struct __half *B, int ldb, const struct __half *beta,
			   struct __half *C, int ldc)
{
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, 1);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return blas_launch_on_handle(handle, GEMM_HGEMM, transa, transb, m, n, k, 1, A, B, C);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
					 cublasOperation_t transb, int m, int n, int k,
					 const float *alpha, const float *A, int lda,
					 long long int strideA, const float *B, int ldb,
					 long long int strideB, const float *beta, float *C,
					 int ldc, long long int strideC, int batchCount)
{
	(void)strideA, (void)strideB, (void)strideC;
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, batchCount);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return blas_launch_on_handle(handle, GEMM_SGEMM, transa, transb, m, n, k, batchCount, A, B, C);
}

/* Type and algorithm checks of the *Ex calls, after the shared ones. */
static cublasStatus_t check_ex(cudaDataType Atype, cudaDataType Btype, cudaDataType Ctype,
			       cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
	cublasStatus_t status = gemm_check_types(computeType, Atype, Btype, Ctype);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return algo_valid(algo) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

static cublasStatus_t set_layout(cublasLtMatrixLayout_t layout, cudaDataType type,
				 uint64_t rows, uint64_t cols, int64_t ld, int32_t batch,
				 int64_t stride)
{
	cublasStatus_t status = cublasLtMatrixLayoutInit(layout, type, rows, cols, ld);
	if (status == CUBLAS_STATUS_SUCCESS && batch != 1)
		status = cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
							  &batch, sizeof(batch));
	if (status == CUBLAS_STATUS_SUCCESS && batch != 1)
		status = cublasLtMatrixLayoutSetAttribute(
			layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride));
	return status;
}

/* One (strided batched) GEMM as a cublasLtMatmul on the handle's Lt context. */
static cublasStatus_t matmul_through_lt(cublasHandle_t handle, cublasOperation_t transa,
					cublasOperation_t transb, int m, int n, int k,
					const void *alpha, const void *A, cudaDataType Atype,
					int lda, long long strideA, const void *B,
					cudaDataType Btype, int ldb, long long strideB,
					const void *beta, void *C, cudaDataType Ctype, int ldc,
					long long strideC, int batch,
					cublasComputeType_t computeType)
{
	cublasLtMatmulDescOpaque_t desc;
	cublasLtMatrixLayoutOpaque_t a_layout, b_layout, c_layout;
	cudaDataType scale = CUDA_R_32F;
	int32_t ta = transa, tb = transb, pointer_mode = handle->pointer_mode;

	if (m == 0 || n == 0 || batch == 0)
		return CUBLAS_STATUS_SUCCESS;
	gemm_scale_type(computeType, &scale);
	cublasStatus_t status = cublasLtMatmulDescInit(&desc, computeType, scale);
	if (status == CUBLAS_STATUS_SUCCESS)
		status = cublasLtMatmulDescSetAttribute(&desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta,
							sizeof(ta));
	if (status == CUBLAS_STATUS_SUCCESS)
		status = cublasLtMatmulDescSetAttribute(&desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb,
							sizeof(tb));
	if (status == CUBLAS_STATUS_SUCCESS)
		status = cublasLtMatmulDescSetAttribute(&desc, CUBLASLT_MATMUL_DESC_POINTER_MODE,
							&pointer_mode, sizeof(pointer_mode));
	if (status == CUBLAS_STATUS_SUCCESS)
		status = set_layout(&a_layout, Atype, transa == CUBLAS_OP_N ? m : k,
				    transa == CUBLAS_OP_N ? k : m, lda, batch, strideA);
	if (status == CUBLAS_STATUS_SUCCESS)
		status = set_layout(&b_layout, Btype, transb == CUBLAS_OP_N ? k : n,
				    transb == CUBLAS_OP_N ? n : k, ldb, batch, strideB);
	if (status == CUBLAS_STATUS_SUCCESS)
		status = set_layout(&c_layout, Ctype, m, n, ldc, batch, strideC);
	if (status != CUBLAS_STATUS_SUCCESS)
		return CUBLAS_STATUS_INTERNAL_ERROR;
	return cublasLtMatmul(handle->lt, &desc, alpha, A, &a_layout, B, &b_layout, beta, C,
			      &c_layout, C, &c_layout, NULL, handle->workspace,
			      handle->workspace_size, handle->stream);
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
			    cublasOperation_t transb, int m, int n, int k, const void *alpha,
			    const void *A, cudaDataType Atype, int lda, const void *B,
			    cudaDataType Btype, int ldb, const void *beta, void *C,
			    cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
			    cublasGemmAlgo_t algo)
{
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, 1);
	if (status == CUBLAS_STATUS_SUCCESS)
		status = check_ex(Atype, Btype, Ctype, computeType, algo);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return matmul_through_lt(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B,
				 Btype, ldb, 0, beta, C, Ctype, ldc, 0, 1, computeType);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
					  cublasOperation_t transb, int m, int n, int k,
					  const void *alpha, const void *A, cudaDataType Atype,
					  int lda, long long int strideA, const void *B,
					  cudaDataType Btype, int ldb, long long int strideB,
					  const void *beta, void *C, cudaDataType Ctype, int ldc,
					  long long int strideC, int batchCount,
					  cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, batchCount);
	if (status == CUBLAS_STATUS_SUCCESS)
		status = check_ex(Atype, Btype, Ctype, computeType, algo);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return matmul_through_lt(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA,
				 B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC,
				 batchCount, computeType);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
				   cublasOperation_t transb, int m, int n, int k,
				   const void *alpha, const void *const Aarray[],
				   cudaDataType Atype, int lda, const void *const Barray[],
				   cudaDataType Btype, int ldb, const void *beta,
				   void *const Carray[], cudaDataType Ctype, int ldc,
				   int batchCount, cublasComputeType_t computeType,
				   cublasGemmAlgo_t algo)
{
	cublasStatus_t status = blas_check_gemm(handle, transa, transb, m, n, k, alpha, lda, ldb, beta,
					   ldc, batchCount);
	if (status == CUBLAS_STATUS_SUCCESS)
		status = check_ex(Atype, Btype, Ctype, computeType, algo);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	return blas_launch_on_handle(handle, gemm_blas_family(computeType, Atype), transa, transb, m,
				n, k, batchCount, Aarray, Barray, (void *)Carray);
}
