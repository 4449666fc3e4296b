/*
 * GEMM kernels of the simulated cuBLAS/cuBLASLt (see gemm_kernels.h): type
 * rules, kernel names, durations and the launch. Every name is declared to
 * simgpu once per library (pthread_once); each (family, transa, transb)
 * has its own host-side handle, so the CUPTI record names the variant.
 *
 * Must never read or write device memory and never block.
 */
#include "simgpu/cublas/gemm_kernels.h"

#include <pthread.h>
#include <stdio.h>

#include "simgpu/simgpu.h"

struct family_info {
	const char *pattern; /* %c%c: the transposes of A and B, n or t */
	unsigned long long flops_per_ns;
};

/* Throughputs of an A100-class device (README.md, "Kernels"). */
static const struct family_info families[GEMM_FAMILY_COUNT] = {
	[GEMM_SGEMM] = { "ampere_sgemm_128x64_%c%c", 19500 },
	[GEMM_DGEMM] = { "ampere_dgemm_64x64_%c%c", 9700 },
	[GEMM_HGEMM] = { "ampere_h16816gemm_128x128_ldg8_stages_32x5_%c%c", 312000 },
	[GEMM_FP16_S] = { "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_%c%c", 312000 },
	[GEMM_BF16_S] = { "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_%c%c", 312000 },
	[GEMM_IGEMM] = { "ampere_i16832gemm_int8_128x128_ldg16_stages_64x3_%c%c", 624000 },
	[GEMM_LT_F32] = { "sm80_xmma_gemm_f32_%c%c_tilesize128x128x32_stage4_kernel", 19500 },
	[GEMM_LT_F64] = { "sm80_xmma_gemm_f64_%c%c_tilesize128x128x32_stage4_kernel", 9700 },
	[GEMM_LT_F16] = { "sm80_xmma_gemm_f16_%c%c_tilesize128x128x32_stage4_kernel", 312000 },
	[GEMM_LT_BF16] = { "sm80_xmma_gemm_bf16_%c%c_tilesize128x128x32_stage4_kernel", 312000 },
	[GEMM_LT_I8] = { "sm80_xmma_gemm_i8_%c%c_tilesize128x128x32_stage4_kernel", 624000 },
	[GEMM_LT_E4M3] = { "sm80_xmma_gemm_e4m3_%c%c_tilesize128x128x32_stage4_kernel", 624000 },
	[GEMM_LT_E5M2] = { "sm80_xmma_gemm_e5m2_%c%c_tilesize128x128x32_stage4_kernel", 624000 },
	/* Complex: 4 real products per complex one, so a quarter of the rate
	   in the 2*m*n*k count (assumed names and figures). */
	[GEMM_CGEMM] = { "ampere_cgemm_64x64_%c%c", 19500 / 4 },
	[GEMM_ZGEMM] = { "ampere_zgemm_32x32_%c%c", 9700 / 4 },
	/* gemv: memory-bound on a GPU; the same compute rates (assumed). The
	   second letter is always n (there is no B). */
	[GEMV_S] = { "gemv2%c_kernel_sgemv_%c", 19500 },
	[GEMV_D] = { "gemv2%c_kernel_dgemv_%c", 9700 },
	[GEMV_C] = { "gemv2%c_kernel_cgemv_%c", 19500 / 4 },
	[GEMV_Z] = { "gemv2%c_kernel_zgemv_%c", 9700 / 4 },
};

enum { GEMM_LAUNCH_NS = 2000, TILE_M = 128, TILE_N = 64, MAX_GRID_YZ = 65535 };

/* [family][transa is t][transb is t]: only their addresses matter. */
static char kernel_handles[GEMM_FAMILY_COUNT][2][2];
static pthread_once_t kernels_once = PTHREAD_ONCE_INIT;

static char trans_letter(int transposed)
{
	return transposed ? 't' : 'n';
}

static void define_kernels(void)
{
	/* Parameters: A, B, C, D pointers (cuBLAS passes C as D). */
	static const size_t param_sizes[4] = { 8, 8, 8, 8 };
	char name[128];

	for (int f = 0; f < GEMM_FAMILY_COUNT; f++)
		for (int ta = 0; ta < 2; ta++)
			for (int tb = 0; tb < 2; tb++) {
				snprintf(name, sizeof(name), families[f].pattern,
					 trans_letter(ta), trans_letter(tb));
				simgpu_define_kernel(&kernel_handles[f][ta][tb], name, 4,
						     param_sizes);
			}
}

unsigned long long gemm_kernel_ns(enum gemm_family family, long long m, long long n,
				  long long k, long long batch)
{
	unsigned __int128 flops = (unsigned __int128)2 * (unsigned long long)m *
				  (unsigned long long)n * (unsigned long long)k *
				  (unsigned long long)batch;
	unsigned long long rate = families[family].flops_per_ns;
	unsigned __int128 ns = GEMM_LAUNCH_NS + (flops + rate - 1) / rate;
	const unsigned long long cap = 1ULL << 62;
	return ns > cap ? cap : (unsigned long long)ns;
}

static unsigned clamp_dim(long long value, long long max)
{
	return (unsigned)(value < 1 ? 1 : value > max ? max : value);
}

cublasStatus_t gemm_launch(const struct gemm_work *w)
{
	if (w->m == 0 || w->n == 0 || w->batch == 0)
		return CUBLAS_STATUS_SUCCESS;
	pthread_once(&kernels_once, define_kernels);
	const void *handle = &kernel_handles[w->family][w->transa != CUBLAS_OP_N]
					    [w->transb != CUBLAS_OP_N];
	dim3 grid = { clamp_dim((w->m + TILE_M - 1) / TILE_M, 0x7fffffff),
		      clamp_dim((w->n + TILE_N - 1) / TILE_N, MAX_GRID_YZ),
		      clamp_dim(w->batch, MAX_GRID_YZ) };
	dim3 block = { 256, 1, 1 };
	const void *a = w->a, *b = w->b, *c = w->c;
	void *d = w->d;
	void *args[4] = { &a, &b, &c, &d };

	simgpu_default_next_kernel_ns(gemm_kernel_ns(w->family, w->m, w->n, w->k, w->batch));
	if (cudaLaunchKernel(handle, grid, block, args, 0, w->stream) != cudaSuccess)
		return CUBLAS_STATUS_EXECUTION_FAILED;
	return CUBLAS_STATUS_SUCCESS;
}

bool gemm_scale_type(cublasComputeType_t compute, cudaDataType *scale)
{
	switch (compute) {
	case CUBLAS_COMPUTE_16F:
	case CUBLAS_COMPUTE_16F_PEDANTIC:
		*scale = CUDA_R_16F;
		return true;
	case CUBLAS_COMPUTE_32F:
	case CUBLAS_COMPUTE_32F_PEDANTIC:
	case CUBLAS_COMPUTE_32F_FAST_16F:
	case CUBLAS_COMPUTE_32F_FAST_16BF:
	case CUBLAS_COMPUTE_32F_FAST_TF32:
	case CUBLAS_COMPUTE_32F_EMULATED_16BFX9:
		*scale = CUDA_R_32F;
		return true;
	case CUBLAS_COMPUTE_64F:
	case CUBLAS_COMPUTE_64F_PEDANTIC:
	case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
		*scale = CUDA_R_64F;
		return true;
	case CUBLAS_COMPUTE_32I:
	case CUBLAS_COMPUTE_32I_PEDANTIC:
		*scale = CUDA_R_32I;
		return true;
	}
	return false;
}

static bool is_fp8(cudaDataType t)
{
	return t == CUDA_R_8F_E4M3 || t == CUDA_R_8F_E5M2;
}

cublasStatus_t gemm_check_types(cublasComputeType_t compute, cudaDataType a, cudaDataType b,
				cudaDataType c)
{
	cudaDataType scale;

	if (!gemm_scale_type(compute, &scale))
		return CUBLAS_STATUS_INVALID_VALUE;
	bool ok = false;
	if (a == b) {
		switch (scale) {
		case CUDA_R_16F:
			ok = a == CUDA_R_16F && c == CUDA_R_16F;
			break;
		case CUDA_R_32F:
			if (compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC)
				ok = (a == CUDA_R_32F && c == CUDA_R_32F) ||
				     ((a == CUDA_R_16F || a == CUDA_R_16BF) && (c == a || c == CUDA_R_32F)) ||
				     (a == CUDA_R_8I && c == CUDA_R_32F);
			else
				ok = a == CUDA_R_32F && c == CUDA_R_32F;
			break;
		case CUDA_R_64F:
			ok = a == CUDA_R_64F && c == CUDA_R_64F;
			break;
		case CUDA_R_32I:
			ok = a == CUDA_R_8I && c == CUDA_R_32I;
			break;
		default:
			break;
		}
	}
	/* fp8 (cuBLASLt): A and B e4m3/e5m2, not both e5m2; f32 compute. */
	if (is_fp8(a) && is_fp8(b) && !(a == CUDA_R_8F_E5M2 && b == CUDA_R_8F_E5M2) &&
	    compute == CUBLAS_COMPUTE_32F)
		ok = c == CUDA_R_16F || c == CUDA_R_16BF || c == CUDA_R_32F;
	return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

enum gemm_family gemm_blas_family(cublasComputeType_t compute, cudaDataType a)
{
	switch (a) {
	case CUDA_R_64F:
		return GEMM_DGEMM;
	case CUDA_R_16F:
		return compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC
			       ? GEMM_HGEMM
			       : GEMM_FP16_S;
	case CUDA_R_16BF:
		return GEMM_BF16_S;
	case CUDA_R_8I:
		return GEMM_IGEMM;
	default:
		return GEMM_SGEMM;
	}
}

enum gemm_family gemm_lt_family(cudaDataType a)
{
	switch (a) {
	case CUDA_R_64F:
		return GEMM_LT_F64;
	case CUDA_R_16F:
		return GEMM_LT_F16;
	case CUDA_R_16BF:
		return GEMM_LT_BF16;
	case CUDA_R_8I:
		return GEMM_LT_I8;
	case CUDA_R_8F_E4M3:
		return GEMM_LT_E4M3;
	case CUDA_R_8F_E5M2:
		return GEMM_LT_E5M2;
	default:
		return GEMM_LT_F32;
	}
}

bool gemm_trans_valid(cublasOperation_t op)
{
	return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}
