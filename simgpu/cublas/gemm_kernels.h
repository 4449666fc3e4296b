/*
 * What the simulated libcublas.so.13 and libcublasLt.so.13 share (compiled
 * into each, hidden by their version scripts): which GEMM data and compute
 * types go together, which kernel a GEMM launches, how long it runs, and
 * launching it through the public runtime API (simgpu_define_kernel +
 * cudaLaunchKernel) so CUPTI, streams and tracing see an ordinary kernel.
 *
 * Must never validate an API's own arguments (each API does, in its order)
 * and never touch device memory: kernels compute nothing.
 */
#ifndef SIMGPU_CUBLAS_GEMM_KERNELS_H
#define SIMGPU_CUBLAS_GEMM_KERNELS_H

#include <stdbool.h>

#include <cublas_api.h>
#include <cuda_runtime_api.h>

/* One kernel name pattern and throughput per family (README.md, "Kernels"). */
enum gemm_family {
	GEMM_SGEMM,
	GEMM_DGEMM,
	GEMM_HGEMM,
	GEMM_FP16_S, /* f16 data, f32 accumulation */
	GEMM_BF16_S,
	GEMM_IGEMM,
	GEMM_LT_F32,
	GEMM_LT_F64,
	GEMM_LT_F16,
	GEMM_LT_BF16,
	GEMM_LT_I8,
	GEMM_LT_E4M3,
	GEMM_LT_E5M2,
	GEMM_CGEMM,
	GEMM_ZGEMM,
	/* matrix-vector: m x n times a vector, launched with k = 1 and
	   n = the matrix's columns (2*m*n FLOPs) */
	GEMV_S,
	GEMV_D,
	GEMV_C,
	GEMV_Z,
	GEMM_FAMILY_COUNT
};

/* One GEMM (or batch of them) as a single kernel. */
struct gemm_work {
	enum gemm_family family;
	cublasOperation_t transa, transb;
	long long m, n, k, batch;
	const void *a, *b, *c; /* kernel parameters, as the kernel record shows them */
	void *d;
	cudaStream_t stream;
};

/*
 * Launches the kernel of w on w->stream after setting its default duration;
 * nothing when m, n or batch is 0. CUBLAS_STATUS_EXECUTION_FAILED when the
 * runtime refuses the launch (bad stream, sticky device fault).
 */
cublasStatus_t gemm_launch(const struct gemm_work *w);

/* The simulated duration: 2000 ns + ceil(2*m*n*k*batch / FLOPs per ns). */
unsigned long long gemm_kernel_ns(enum gemm_family family, long long m, long long n,
				  long long k, long long batch);

/* The scale (alpha/beta) type of a compute type; false for an unknown one. */
bool gemm_scale_type(cublasComputeType_t compute, cudaDataType *scale);

/*
 * CUBLAS_STATUS_SUCCESS when (compute, A, B, C) is a supported combination,
 * CUBLAS_STATUS_INVALID_VALUE for an unknown compute type, else
 * CUBLAS_STATUS_NOT_SUPPORTED. A == B is required except for fp8.
 */
cublasStatus_t gemm_check_types(cublasComputeType_t compute, cudaDataType a, cudaDataType b,
				cudaDataType c);

/* The family cublasGemmEx-style calls launch for these types (cuBLAS names). */
enum gemm_family gemm_blas_family(cublasComputeType_t compute, cudaDataType a);

/* The family cublasLtMatmul launches for A's type (cuBLASLt names). */
enum gemm_family gemm_lt_family(cudaDataType a);

/* True for CUBLAS_OP_N, _T and _C (the transposes a GEMM accepts). */
bool gemm_trans_valid(cublasOperation_t op);

#endif
