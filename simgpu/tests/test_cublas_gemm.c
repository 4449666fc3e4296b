/*
 * The simulated libcublas.so.13: status codes of every argument check, one
 * kernel per GEMM with the documented name and duration (CUPTI records),
 * no kernel for an empty or refused GEMM, simgpu_next_kernel_ns winning over
 * the cost model, handle state (stream, math and pointer modes, workspace)
 * and status strings.
 */
#include "simgpu/cublas/cublas_half.h"
#include "simgpu/tests/cublas_test.h"

enum { SGEMM_RATE = 19500, DGEMM_RATE = 9700, TENSOR_RATE = 312000 };

static void *dev(size_t bytes)
{
	void *p;
	CHECK_CUDA(cudaMalloc(&p, bytes));
	return p;
}

static void check_argument_errors(cublasHandle_t h, float *A, float *B, float *C)
{
	const float one = 1, zero = 0;
	const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;

	CHECK_STATUS(cublasCreate_v2(NULL), CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(NULL, N, N, 4, 4, 4, &one, A, 4, B, 4, &zero, C, 4),
		     CUBLAS_STATUS_NOT_INITIALIZED);
	CHECK_STATUS(cublasSgemm_v2(h, (cublasOperation_t)7, N, 4, 4, 4, &one, A, 4, B, 4, &zero, C, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, CUBLAS_OP_CONJG, N, 4, 4, 4, &one, A, 4, B, 4, &zero, C, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, N, N, -1, 4, 4, &one, A, 4, B, 4, &zero, C, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 4, 4, -1, &one, A, 4, B, 4, &zero, C, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	/* lda >= rows of A as stored: m for N, k for T. */
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 8, 4, 2, &one, A, 7, B, 2, &zero, C, 8),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, T, N, 8, 4, 2, &one, A, 1, B, 2, &zero, C, 8),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, N, T, 8, 4, 2, &one, A, 8, B, 3, &zero, C, 8),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 8, 4, 2, &one, A, 8, B, 2, &zero, C, 7),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 0, 4, 2, &one, A, 0, B, 2, &zero, C, 1),
		     CUBLAS_STATUS_INVALID_VALUE); /* ld >= max(1, rows) */
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 4, 4, 4, NULL, A, 4, B, 4, &zero, C, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 4, 4, 4, &one, A, 4, B, 4, NULL, C, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemmStridedBatched(h, N, N, 4, 4, 4, &one, A, 4, 16, B, 4, 16, &zero, C,
					       4, 16, -1),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 4, B, CUDA_R_16F, 4, &zero,
				  C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_NOT_SUPPORTED);
	CHECK_STATUS(cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_64F, 4, B, CUDA_R_64F, 4, &zero,
				  C, CUDA_R_64F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_NOT_SUPPORTED);
	CHECK_STATUS(cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 4, B, CUDA_R_32F, 4, &zero,
				  C, CUDA_R_32F, 4, (cublasComputeType_t)12345, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 4, B, CUDA_R_32F, 4, &zero,
				  C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, (cublasGemmAlgo_t)50),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 3, B, CUDA_R_32F, 4, &zero,
				  C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_INVALID_VALUE);
	/* Quick returns: success, no kernel. */
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 0, 4, 4, &one, A, 1, B, 4, &zero, C, 1),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasSgemmStridedBatched(h, N, N, 4, 4, 4, &one, A, 4, 16, B, 4, 16, &zero, C,
					       4, 16, 0),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasGemmEx(h, N, N, 4, 0, 4, &one, A, CUDA_R_32F, 4, B, CUDA_R_32F, 4, &zero,
				  C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_SUCCESS);
	kernels_flush();
	CHECK_EQ_U64(n_seen, 0);
}

static void check_kernels(cublasHandle_t h, float *A, float *B, float *C)
{
	const float one = 1, zero = 0;
	const double d_one = 1, d_zero = 0;
	const uint16_t h_one = 0x3c00, h_zero = 0;
	const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
	const void *arrays[3] = { A, B, C };
	void **dev_arrays = dev(3 * sizeof(void *));
	CHECK_CUDA(cudaMemcpy(dev_arrays, arrays, sizeof(arrays), cudaMemcpyHostToDevice));

	kernels_forget();
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 256, 128, 64, &one, A, 256, B, 64, &zero, C, 256),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasDgemm_v2(h, T, N, 64, 32, 16, &d_one, (double *)A, 16, (double *)B, 16,
				    &d_zero, (double *)C, 64),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasHgemm(h, N, T, 64, 64, 64, (const struct __half *)&h_one,
				 (const struct __half *)A, 64, (const struct __half *)B, 64,
				 (const struct __half *)&h_zero, (struct __half *)C, 64),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasSgemmStridedBatched(h, T, T, 32, 16, 8, &one, A, 8, 256, B, 16, 128,
					       &zero, C, 32, 512, 3),
		     CUBLAS_STATUS_SUCCESS);
	/* GemmEx and GemmStridedBatchedEx run through cublasLtMatmul: Lt kernels. */
	CHECK_STATUS(cublasGemmEx(h, N, N, 128, 128, 128, &one, A, CUDA_R_16F, 128, B, CUDA_R_16F,
				  128, &zero, C, CUDA_R_16F, 128, CUBLAS_COMPUTE_32F,
				  CUBLAS_GEMM_DEFAULT_TENSOR_OP),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasGemmStridedBatchedEx(h, N, T, 16, 16, 16, &one, A, CUDA_R_32F, 16, 256,
						B, CUDA_R_32F, 16, 256, &zero, C, CUDA_R_32F, 16,
						256, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasGemmBatchedEx(h, N, N, 64, 64, 32, &one, (const void *const *)&dev_arrays[0],
					 CUDA_R_16BF, 64, (const void *const *)&dev_arrays[1],
					 CUDA_R_16BF, 32, &zero, &dev_arrays[2], CUDA_R_16BF, 64, 2,
					 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
		     CUBLAS_STATUS_SUCCESS);
	simgpu_next_kernel_ns(12345);
	CHECK_STATUS(cublasSgemm_v2(h, N, N, 8, 8, 8, &one, A, 8, B, 8, &one, C, 8),
		     CUBLAS_STATUS_SUCCESS);
	kernels_flush();
	CHECK_EQ_U64(n_seen, 8);
	CHECK_KERNEL(0, "ampere_sgemm_128x64_nn", expected_ns(256, 128, 64, 1, SGEMM_RATE));
	CHECK_KERNEL(1, "ampere_dgemm_64x64_tn", expected_ns(64, 32, 16, 1, DGEMM_RATE));
	CHECK_KERNEL(2, "ampere_h16816gemm_128x128_ldg8_stages_32x5_nt",
		     expected_ns(64, 64, 64, 1, TENSOR_RATE));
	CHECK_KERNEL(3, "ampere_sgemm_128x64_tt", expected_ns(32, 16, 8, 3, SGEMM_RATE));
	CHECK_KERNEL(4, "sm80_xmma_gemm_f16_nn_tilesize128x128x32_stage4_kernel",
		     expected_ns(128, 128, 128, 1, TENSOR_RATE));
	CHECK_KERNEL(5, "sm80_xmma_gemm_f32_nt_tilesize128x128x32_stage4_kernel",
		     expected_ns(16, 16, 16, 4, SGEMM_RATE));
	CHECK_KERNEL(6, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_nn",
		     expected_ns(64, 64, 32, 2, TENSOR_RATE));
	CHECK_KERNEL(7, "ampere_sgemm_128x64_nn", 12345);
	CHECK_CUDA(cudaFree(dev_arrays));
}

static void check_handle_state(cublasHandle_t h)
{
	cudaStream_t s, got;
	cublasMath_t math;
	cublasPointerMode_t mode;
	CHECK_CUDA(cudaStreamCreate(&s));
	CHECK_STATUS(cublasGetStream_v2(h, &got), CUBLAS_STATUS_SUCCESS);
	CHECK(got == NULL);
	CHECK_STATUS(cublasSetStream_v2(h, s), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasGetStream_v2(h, &got), CUBLAS_STATUS_SUCCESS);
	CHECK(got == s);
	CHECK_STATUS(cublasSetStream_v2(NULL, s), CUBLAS_STATUS_NOT_INITIALIZED);
	CHECK_STATUS(cublasGetStream_v2(h, NULL), CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSetStream_v2(h, NULL), CUBLAS_STATUS_SUCCESS);
	CHECK_CUDA(cudaStreamDestroy(s));

	CHECK_STATUS(cublasGetMathMode(h, &math), CUBLAS_STATUS_SUCCESS);
	CHECK(math == CUBLAS_DEFAULT_MATH);
	CHECK_STATUS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH |
					      CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasGetMathMode(h, &math), CUBLAS_STATUS_SUCCESS);
	CHECK(math == (CUBLAS_TF32_TENSOR_OP_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
	CHECK_STATUS(cublasSetMathMode(h, (cublasMath_t)9), CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSetMathMode(NULL, CUBLAS_DEFAULT_MATH), CUBLAS_STATUS_NOT_INITIALIZED);

	CHECK_STATUS(cublasGetPointerMode_v2(h, &mode), CUBLAS_STATUS_SUCCESS);
	CHECK(mode == CUBLAS_POINTER_MODE_HOST);
	CHECK_STATUS(cublasSetPointerMode_v2(h, (cublasPointerMode_t)2), CUBLAS_STATUS_INVALID_VALUE);

	void *ws = dev(1 << 20);
	CHECK_STATUS(cublasSetWorkspace_v2(h, (char *)ws + 16, 1024), CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSetWorkspace_v2(h, ws, 1 << 20), CUBLAS_STATUS_SUCCESS);
	CHECK_CUDA(cudaFree(ws));

	CHECK_STR(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE");
	CHECK_STR(cublasGetStatusName((cublasStatus_t)99), "CUBLAS_STATUS_UNKNOWN");
	CHECK_STR(cublasGetStatusString(CUBLAS_STATUS_SUCCESS), "the operation completed successfully");
}

int main(void)
{
	cublasHandle_t h;
	kernels_start();
	CHECK_STATUS(cublasCreate_v2(&h), CUBLAS_STATUS_SUCCESS);
	float *A = dev(1 << 20), *B = dev(1 << 20), *C = dev(1 << 20);
	check_argument_errors(h, A, B, C);
	check_kernels(h, A, B, C);
	check_handle_state(h);
	CHECK_STATUS(cublasDestroy_v2(h), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasDestroy_v2(NULL), CUBLAS_STATUS_NOT_INITIALIZED);
	CHECK_CUDA(cudaFree(A));
	CHECK_CUDA(cudaFree(B));
	CHECK_CUDA(cudaFree(C));
	return 0;
}
