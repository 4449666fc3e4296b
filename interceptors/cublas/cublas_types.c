/*
 * Element types, scale types and beta for the cuBLAS/cuBLASLt wrappers (see
 * cublas_types.h). Reads host memory the caller passed as a host scalar,
 * nothing else. Must never call into CUDA.
 */
#include "interceptors/cublas/cublas_types.h"

#include <stdint.h>
#include <string.h>

enum dnntrace_dtype cublas_dtype(cudaDataType type)
{
	switch (type) {
	case CUDA_R_32F: return DNNTRACE_DTYPE_F32;
	case CUDA_R_64F: return DNNTRACE_DTYPE_F64;
	case CUDA_R_16F: return DNNTRACE_DTYPE_F16;
	case CUDA_R_16BF: return DNNTRACE_DTYPE_BF16;
	case CUDA_R_8I: return DNNTRACE_DTYPE_I8;
	case CUDA_R_8U: return DNNTRACE_DTYPE_U8;
	case CUDA_R_32I: return DNNTRACE_DTYPE_I32;
	case CUDA_R_64I: return DNNTRACE_DTYPE_I64;
	case CUDA_R_8F_E4M3: return DNNTRACE_DTYPE_F8E4M3;
	case CUDA_R_8F_E5M2: return DNNTRACE_DTYPE_F8E5M2;
	default: return DNNTRACE_DTYPE_UNKNOWN;
	}
}

static bool is_complex(cudaDataType type)
{
	switch (type) {
	case CUDA_C_16F: case CUDA_C_16BF: case CUDA_C_32F: case CUDA_C_64F:
	case CUDA_C_8I: case CUDA_C_8U: case CUDA_C_32I:
		return true;
	default:
		return false;
	}
}

cudaDataType cublas_scale_type(cublasComputeType_t compute, cudaDataType c_type)
{
	bool complex = is_complex(c_type);
	switch (compute) {
	case CUBLAS_COMPUTE_16F:
	case CUBLAS_COMPUTE_16F_PEDANTIC:
		return complex ? CUDA_C_16F : CUDA_R_16F;
	case CUBLAS_COMPUTE_64F:
	case CUBLAS_COMPUTE_64F_PEDANTIC:
	case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
		return complex ? CUDA_C_64F : CUDA_R_64F;
	case CUBLAS_COMPUTE_32I:
	case CUBLAS_COMPUTE_32I_PEDANTIC:
		return CUDA_R_32I;
	default: /* the 32F family */
		return complex ? CUDA_C_32F : CUDA_R_32F;
	}
}

/* Nonzero halves and bfloat16s: any bit but the sign. */
static bool half_bits_nonzero(const void *p)
{
	uint16_t bits;
	memcpy(&bits, p, sizeof(bits));
	return (bits & 0x7fffu) != 0;
}

static bool float_nonzero(const void *p)
{
	float v;
	memcpy(&v, p, sizeof(v));
	return v != 0.0f;
}

static bool double_nonzero(const void *p)
{
	double v;
	memcpy(&v, p, sizeof(v));
	return v != 0.0;
}

enum cublas_beta cublas_host_beta(const void *beta, cudaDataType scale_type)
{
	const char *p = beta;
	bool nonzero;

	if (!beta)
		return BETA_UNKNOWN;
	switch (scale_type) {
	case CUDA_R_16F: case CUDA_R_16BF:
		nonzero = half_bits_nonzero(p);
		break;
	case CUDA_C_16F: case CUDA_C_16BF:
		nonzero = half_bits_nonzero(p) || half_bits_nonzero(p + 2);
		break;
	case CUDA_R_32F:
		nonzero = float_nonzero(p);
		break;
	case CUDA_C_32F:
		nonzero = float_nonzero(p) || float_nonzero(p + 4);
		break;
	case CUDA_R_64F:
		nonzero = double_nonzero(p);
		break;
	case CUDA_C_64F:
		nonzero = double_nonzero(p) || double_nonzero(p + 8);
		break;
	case CUDA_R_32I: {
		int32_t v;
		memcpy(&v, p, sizeof(v));
		nonzero = v != 0;
		break;
	}
	default:
		return BETA_UNKNOWN;
	}
	return nonzero ? BETA_NONZERO : BETA_ZERO;
}

enum dnntrace_role cublas_c_role(enum cublas_beta beta)
{
	switch (beta) {
	case BETA_ZERO: return DNNTRACE_ROLE_WRITE;
	case BETA_NONZERO: return DNNTRACE_ROLE_READ_WRITE;
	default: return DNNTRACE_ROLE_UNKNOWN;
	}
}
