/*
 * The simulated cuBLAS handle (struct cublasContext, opaque to programs),
 * shared by the handle functions (cublas_handle.c) and the GEMMs
 * (cublas_gemm.c). Must never be seen outside libcublas.so.13.
 */
#ifndef SIMGPU_CUBLAS_HANDLE_H
#define SIMGPU_CUBLAS_HANDLE_H

#include <stddef.h>

#include <cublasLt.h>
#include <cublas_api.h>

struct cublasContext {
	cudaStream_t stream;
	cublasPointerMode_t pointer_mode;
	cublasMath_t math_mode;
	void *workspace; /* NULL: the default pool (the simulator needs none) */
	size_t workspace_size;
	cublasLtHandle_t lt; /* cublasGemmEx and cublasGemmStridedBatchedEx run through it */
};

/* What the GEMM files share (cublas_gemm.c): the argument checks every
   GEMM makes, in the reference BLAS order, and the launch of one GEMM
   kernel (family of gemm_kernels.h) on the handle's stream. */
enum gemm_family;
cublasStatus_t blas_check_gemm(cublasHandle_t handle, cublasOperation_t transa,
			       cublasOperation_t transb, int m, int n, int k, const void *alpha,
			       int lda, int ldb, const void *beta, int ldc, int batch);
cublasStatus_t blas_launch_on_handle(cublasHandle_t handle, enum gemm_family family,
				     cublasOperation_t transa, cublasOperation_t transb, int m,
				     int n, int k, int batch, const void *a, const void *b,
				     void *c);

#endif
