/*
 * The C declaration of cublasHgemm, which cublas_api.h declares for C++
 * only (its __half comes from cuda_fp16.h's C++ half): simgpu defines it
 * and its tests call it from C. Checked against the real C++ declaration
 * by compiling both together as C++ (module.mk). Declarations only; never
 * anything cublas_api.h lacks.
 */
#ifndef SIMGPU_CUBLAS_HALF_H
#define SIMGPU_CUBLAS_HALF_H

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
