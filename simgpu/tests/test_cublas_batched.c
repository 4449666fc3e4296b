/*
 * The simulated libcublas's complex GEMMs, pointer-array and strided
 * batches and gemv: each call one kernel on the handle's stream, named by
 * family and transposes, lasting 2000 ns + ceil(2*m*n*k*batch / rate)
 * (README.md; gemv: k = 1), none for an empty problem; and the reference
 * BLAS's argument errors.
 */
#include "simgpu/tests/cublas_test.h"

static void *dev(size_t bytes)
{
	void *p = NULL;
	CHECK_CUDA(cudaMalloc(&p, bytes));
	return p;
}

int main(void)
{
	cublasHandle_t h;
	kernels_start();
	CHECK_STATUS(cublasCreate_v2(&h), CUBLAS_STATUS_SUCCESS);
	float *A = dev(1 << 20), *B = dev(1 << 20), *C = dev(1 << 20);
	const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
	const float one = 1, zero = 0;
	const double d_one = 1, d_zero = 0;
	const cuComplex c_one = { 1, 0 }, c_zero = { 0, 0 };
	const cuDoubleComplex z_one = { 1, 0 }, z_zero = { 0, 0 };
	const void *host_arrays[3 * 4] = { A, A, A, A, B, B, B, B, C, C, C, C };
	void **arrays = dev(sizeof(host_arrays));
	CHECK_CUDA(cudaMemcpy(arrays, host_arrays, sizeof(host_arrays), cudaMemcpyHostToDevice));
	const float *const *As = (const float *const *)arrays;
	const float *const *Bs = (const float *const *)(arrays + 4);
	float *const *Cs = (float *const *)(arrays + 8);

	kernels_forget();
	CHECK_STATUS(cublasSgemmBatched(h, N, N, 64, 32, 16, &one, As, 64, Bs, 16, &zero, Cs, 64, 4),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasDgemmBatched(h, T, N, 64, 32, 16, &d_one, (const double *const *)As, 16,
					(const double *const *)Bs, 16, &d_zero,
					(double *const *)Cs, 64, 4),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasCgemm_v2(h, N, T, 32, 32, 32, &c_one, (const cuComplex *)A, 32,
				    (const cuComplex *)B, 32, &c_zero, (cuComplex *)C, 32),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasZgemmStridedBatched(h, N, N, 16, 16, 16, &z_one,
					       (const cuDoubleComplex *)A, 16, 256,
					       (const cuDoubleComplex *)B, 16, 256, &z_zero,
					       (cuDoubleComplex *)C, 16, 256, 2),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasDgemmStridedBatched(h, T, T, 8, 8, 8, &d_one, (const double *)A, 8, 64,
					       (const double *)B, 8, 64, &d_zero, (double *)C, 8,
					       64, 5),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasSgemv_v2(h, N, 1000, 500, &one, A, 1000, B, 1, &zero, C, 1),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasDgemv_v2(h, T, 100, 50, &d_one, (const double *)A, 100,
				    (const double *)B, 2, &d_zero, (double *)C, 1),
		     CUBLAS_STATUS_SUCCESS);
	/* Empty problems launch nothing. */
	CHECK_STATUS(cublasSgemmBatched(h, N, N, 64, 32, 16, &one, As, 64, Bs, 16, &zero, Cs, 64, 0),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasSgemv_v2(h, N, 0, 5, &one, A, 1, B, 1, &zero, C, 1),
		     CUBLAS_STATUS_SUCCESS);
	kernels_flush();
	CHECK(n_seen == 7);
	CHECK_KERNEL(0, "ampere_sgemm_128x64_nn", expected_ns(64, 32, 16, 4, 19500));
	CHECK_KERNEL(1, "ampere_dgemm_64x64_tn", expected_ns(64, 32, 16, 4, 9700));
	CHECK_KERNEL(2, "ampere_cgemm_64x64_nt", expected_ns(32, 32, 32, 1, 19500 / 4));
	CHECK_KERNEL(3, "ampere_zgemm_32x32_nn", expected_ns(16, 16, 16, 2, 9700 / 4));
	CHECK_KERNEL(4, "ampere_dgemm_64x64_tt", expected_ns(8, 8, 8, 5, 9700));
	CHECK_KERNEL(5, "gemv2n_kernel_sgemv_n", expected_ns(1000, 500, 1, 1, 19500));
	CHECK_KERNEL(6, "gemv2t_kernel_dgemv_n", expected_ns(100, 50, 1, 1, 9700));

	/* Argument errors, in the reference BLAS order. */
	CHECK_STATUS(cublasSgemmBatched(NULL, N, N, 1, 1, 1, &one, As, 1, Bs, 1, &zero, Cs, 1, 1),
		     CUBLAS_STATUS_NOT_INITIALIZED);
	CHECK_STATUS(cublasSgemmBatched(h, N, N, 1, 1, 1, &one, As, 1, Bs, 1, &zero, Cs, 1, -1),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemmBatched(h, N, N, 8, 1, 1, &one, As, 4, Bs, 1, &zero, Cs, 8, 1),
		     CUBLAS_STATUS_INVALID_VALUE); /* lda < m */
	CHECK_STATUS(cublasZgemm_v2(h, (cublasOperation_t)7, N, 1, 1, 1, &z_one,
				    (const cuDoubleComplex *)A, 1, (const cuDoubleComplex *)B, 1,
				    &z_zero, (cuDoubleComplex *)C, 1),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasSgemv_v2(NULL, N, 1, 1, &one, A, 1, B, 1, &zero, C, 1),
		     CUBLAS_STATUS_NOT_INITIALIZED);
	CHECK_STATUS(cublasSgemv_v2(h, N, 10, 1, &one, A, 9, B, 1, &zero, C, 1),
		     CUBLAS_STATUS_INVALID_VALUE); /* lda < m */
	CHECK_STATUS(cublasSgemv_v2(h, N, 1, 1, &one, A, 1, B, 0, &zero, C, 1),
		     CUBLAS_STATUS_INVALID_VALUE); /* incx 0 */
	CHECK_STATUS(cublasSgemv_v2(h, N, 1, 1, &one, A, 1, B, 1, &zero, C, 0),
		     CUBLAS_STATUS_INVALID_VALUE); /* incy 0 */
	CHECK_STATUS(cublasSgemv_v2(h, N, -1, 1, &one, A, 1, B, 1, &zero, C, 1),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasCgemv_v2(h, N, 1, 1, NULL, (const cuComplex *)A, 1,
				    (const cuComplex *)B, 1, &c_zero, (cuComplex *)C, 1),
		     CUBLAS_STATUS_INVALID_VALUE);
	kernels_forget();
	kernels_flush();
	CHECK(n_seen == 0); /* refused calls launch nothing */

	CHECK_STATUS(cublasDestroy_v2(h), CUBLAS_STATUS_SUCCESS);
	CHECK_CUDA(cudaFree(arrays));
	CHECK_CUDA(cudaFree(A));
	CHECK_CUDA(cudaFree(B));
	CHECK_CUDA(cudaFree(C));
	printf("cublas batched, complex, gemv: kernels and errors\n");
	return 0;
}
