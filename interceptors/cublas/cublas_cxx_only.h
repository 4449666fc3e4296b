/*
 * The cuBLAS entry points that cublas_api.h declares for C++ only (inside
 * `#if defined(__cplusplus)`: their __half parameters are a C++ class), as
 * the same C declarations, for the C code that defines (simgpu/cublas)
 * or wraps (interceptors/cublas/gemm_calls.c) them. __half is passed by pointer,
 * so an incomplete `struct __half` is ABI-exact.
 *
 * simgpu/cublas/module.mk compiles this header as C++ after
 * cublas_v2.h, so a declaration that differs from the real one fails the
 * build. Must declare nothing else.
 */
#ifndef DNNTRACE_CUBLAS_CXX_ONLY_H
#define DNNTRACE_CUBLAS_CXX_ONLY_H

#include <cublas_api.h>

#ifdef __cplusplus
extern "C" {
#else
struct __half; /* cuda_fp16.h declares it for C++ only */
#endif

cublasStatus_t CUBLASWINAPI cublasHgemm(cublasHandle_t handle, cublasOperation_t transa,
					cublasOperation_t transb, int m, int n, int k,
					const struct __half *alpha, const struct __half *A, int lda,
					const struct __half *B, int ldb, const struct __half *beta,
					struct __half *C, int ldc);

#ifdef __cplusplus
}
#endif

#endif
