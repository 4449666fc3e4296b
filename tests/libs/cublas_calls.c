/*
 * The program the cuBLAS wrapper tests record (tests/libs/test_cublas_calls.sh):
 * GEMMs of every wrapped kind and cublasLtMatmuls with several epilogues,
 * beta zero / nonzero / on the device, C == D and C != D, a view into an
 * allocation, a nested matmul (cublasGemmEx runs cublasLtMatmul inside) and
 * calls that fail. Prints `call NAME STATUS` for every call (compared
 * traced vs untraced) and, for every event the tracer must write, an
 * `expect` line with the ground truth known by construction:
 *
 *   expect API STATUS KERNELS ARG_NAMES TENSORS ROLES DTYPES DIMS PARAMS PARAM_NAMES
 *
 * (lists comma-separated, `-` when empty; DIMS: each argument's dims joined
 * by `x`, `?` for rank 0; every argument the catalogue names for the entry
 * point, an unused one with tensor -1 and role unused). Tensor ids are
 * allocation order: every cudaMalloc here is traced, in order, from id 0.
 * Never reads device memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include "interceptors/cublas/cublas_cxx_only.h"
#include "tracepoints/dnntrace_enums.h"

enum { R = DNNTRACE_ROLE_READ, W = DNNTRACE_ROLE_WRITE, RW = DNNTRACE_ROLE_READ_WRITE,
       WS = DNNTRACE_ROLE_WORKSPACE, UNK = DNNTRACE_ROLE_UNKNOWN, UNUSED = DNNTRACE_ROLE_UNUSED };
enum { F32 = DNNTRACE_DTYPE_F32, F64 = DNNTRACE_DTYPE_F64, F16 = DNNTRACE_DTYPE_F16,
       BF16 = DNNTRACE_DTYPE_BF16, I64 = DNNTRACE_DTYPE_I64, U8 = DNNTRACE_DTYPE_U8,
       NOTYPE = DNNTRACE_DTYPE_UNKNOWN };

static void *buffers[16];
static int n_buffers;

/* A device allocation: its tensor id is its index. */
static void *alloc(size_t bytes)
{
	void *p;
	if (cudaMalloc(&p, bytes) != cudaSuccess) {
		fprintf(stderr, "cudaMalloc failed\n");
		exit(1);
	}
	buffers[n_buffers++] = p;
	return p;
}

static void called(const char *name, int status)
{
	printf("call %s %d\n", name, status);
}

/* One expected argument: tensor id, role, dtype, dims ("64x32", "?"). */
struct arg {
	const char *name;
	int tensor, role, dtype;
	const char *dims;
};

static void expect(const char *api, int status, int kernels, const struct arg *args, int n_args,
		   const char *params, const char *param_names)
{
	printf("expect %s %d %d ", api, status, kernels);
	for (int f = 0; f < 5; f++) {
		for (int i = 0; i < n_args; i++) {
			if (i)
				putchar(',');
			if (f == 0)
				printf("%s", args[i].name);
			else if (f == 1)
				printf("%d", args[i].tensor);
			else if (f == 2)
				printf("%d", args[i].role);
			else if (f == 3)
				printf("%d", args[i].dtype);
			else
				printf("%s", args[i].dims);
		}
		printf(n_args ? " " : "- ");
	}
	printf("%s %s\n", params, param_names);
}

#define GEMM_NAMES "m,n,k,transa,transb,lda,ldb,ldc"
#define EX_NAMES "a_type,b_type,c_type,compute_type,algo"
#define LT_NAMES "m,n,k,transa,transb,lda,ldb,ldc,ldd,batch_count,a_type,b_type,c_type,d_type," \
		 "compute_type,scale_type,epilogue,pointer_mode,workspace_size"

static void blas_calls(void)
{
	cublasHandle_t h;
	cudaStream_t s;
	const float one = 1, zero = 0;
	const double d_one = 1, d_zero = 0;
	const uint16_t h_one = 0x3c00, h_zero = 0x8000; /* -0.0 is zero */
	float *A = alloc(1 << 16), *B = alloc(1 << 16), *C = alloc(1 << 16); /* tensors 0, 1, 2 */
	float *beta_dev = alloc(256);                                        /* 3 */
	const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
	int st;

	called("cublasCreate_v2", cublasCreate_v2(&h));
	called("cudaStreamCreate", cudaStreamCreate(&s));
	called("cublasSetStream_v2", st = cublasSetStream_v2(h, s));
	printf("expect_set_stream %d\n", st);

	/* C = A B, beta 0: C written only. A is m x k = 64 x 32. */
	st = cublasSgemm_v2(h, N, N, 64, 16, 32, &one, A, 64, B, 32, &zero, C, 64);
	called("cublasSgemm_v2", st);
	expect("cublasSgemm_v2", st, 1,
	       (struct arg[]){ { "A", 0, R, F32, "64x32" }, { "B", 1, R, F32, "32x16" },
			       { "C", 2, W, F32, "64x16" } }, 3,
	       "64,16,32,0,0,64,32,64", GEMM_NAMES);

	/* op(A) = A^T: A stored k x m; B is a view 1 KiB into its allocation; beta 1. */
	st = cublasSgemm_v2(h, T, N, 8, 4, 16, &one, A, 16, B + 256, 16, &one, C, 8);
	called("cublasSgemm_v2", st);
	expect("cublasSgemm_v2", st, 1,
	       (struct arg[]){ { "A", 0, R, F32, "16x8" }, { "B", 1, R, F32, "16x4" },
			       { "C", 2, RW, F32, "8x4" } }, 3,
	       "8,4,16,1,0,16,16,8", GEMM_NAMES);

	st = cublasDgemm_v2(h, N, T, 8, 8, 8, &d_one, (double *)A, 8, (double *)B, 8, &d_zero,
			    (double *)C, 8);
	called("cublasDgemm_v2", st);
	expect("cublasDgemm_v2", st, 1,
	       (struct arg[]){ { "A", 0, R, F64, "8x8" }, { "B", 1, R, F64, "8x8" },
			       { "C", 2, W, F64, "8x8" } }, 3,
	       "8,8,8,0,1,8,8,8", GEMM_NAMES);

	st = cublasHgemm(h, N, N, 16, 8, 4, (const struct __half *)&h_one, (const struct __half *)A,
			 16, (const struct __half *)B, 4, (const struct __half *)&h_zero,
			 (struct __half *)C, 16);
	called("cublasHgemm", st);
	expect("cublasHgemm", st, 1,
	       (struct arg[]){ { "A", 0, R, F16, "16x4" }, { "B", 1, R, F16, "4x8" },
			       { "C", 2, W, F16, "16x8" } }, 3,
	       "16,8,4,0,0,16,4,16", GEMM_NAMES);

	st = cublasSgemmStridedBatched(h, N, N, 4, 4, 4, &one, A, 4, 16, B, 4, 16, &one, C, 4, 16, 3);
	called("cublasSgemmStridedBatched", st);
	expect("cublasSgemmStridedBatched", st, 1,
	       (struct arg[]){ { "A", 0, R, F32, "3x4x4" }, { "B", 1, R, F32, "3x4x4" },
			       { "C", 2, RW, F32, "3x4x4" } }, 3,
	       "4,4,4,0,0,4,4,4,16,16,16,3", GEMM_NAMES ",stride_a,stride_b,stride_c,batch_count");

	/* cublasGemmEx runs cublasLtMatmul inside: one event, its kernel linked here. */
	st = cublasGemmEx(h, N, N, 32, 32, 32, &one, A, CUDA_R_16F, 32, B, CUDA_R_16F, 32, &zero, C,
			  CUDA_R_16F, 32, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
	called("cublasGemmEx", st);
	expect("cublasGemmEx", st, 1,
	       (struct arg[]){ { "A", 0, R, F16, "32x32" }, { "B", 1, R, F16, "32x32" },
			       { "C", 2, W, F16, "32x32" } }, 3,
	       "32,32,32,0,0,32,32,32,2,2,2,68,99", GEMM_NAMES "," EX_NAMES);

	st = cublasGemmStridedBatchedEx(h, T, N, 8, 8, 8, &one, A, CUDA_R_16BF, 8, 64, B,
					CUDA_R_16BF, 8, 64, &one, C, CUDA_R_32F, 8, 64, 2,
					CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	called("cublasGemmStridedBatchedEx", st);
	expect("cublasGemmStridedBatchedEx", st, 1,
	       (struct arg[]){ { "A", 0, R, BF16, "2x8x8" }, { "B", 1, R, BF16, "2x8x8" },
			       { "C", 2, RW, F32, "2x8x8" } }, 3,
	       "8,8,8,1,0,8,8,8,64,64,64,2,14,14,0,68,-1",
	       GEMM_NAMES ",stride_a,stride_b,stride_c,batch_count," EX_NAMES);

	/* Pointer arrays in device memory: the arrays are listed, read. */
	void **arrays = alloc(3 * 2 * sizeof(void *)); /* tensor 4 */
	st = cublasGemmBatchedEx(h, N, N, 4, 4, 4, &one, (const void *const *)arrays, CUDA_R_32F, 4,
				 (const void *const *)(arrays + 2), CUDA_R_32F, 4, &zero,
				 arrays + 4, CUDA_R_32F, 4, 2, CUBLAS_COMPUTE_32F,
				 CUBLAS_GEMM_DEFAULT);
	called("cublasGemmBatchedEx", st);
	expect("cublasGemmBatchedEx", st, 1,
	       (struct arg[]){ { "Aarray", 4, R, I64, "2" }, { "Barray", 4, R, I64, "2" },
			       { "Carray", 4, R, I64, "2" } }, 3,
	       "4,4,4,0,0,4,4,4,2,0,0,0,68,-1", GEMM_NAMES ",batch_count," EX_NAMES);

	/* beta on the device: C's role unknown. */
	called("cublasSetPointerMode_v2", cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
	st = cublasSgemm_v2(h, N, N, 4, 4, 4, beta_dev, A, 4, B, 4, beta_dev, C, 4);
	called("cublasSgemm_v2", st);
	expect("cublasSgemm_v2", st, 1,
	       (struct arg[]){ { "A", 0, R, F32, "4x4" }, { "B", 1, R, F32, "4x4" },
			       { "C", 2, UNK, F32, "4x4" } }, 3,
	       "4,4,4,0,0,4,4,4", GEMM_NAMES);
	called("cublasSetPointerMode_v2", cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));

	/* Refused calls: traced with the library's status, no kernel. */
	st = cublasSgemm_v2(h, N, N, -1, 4, 4, &one, A, 4, B, 4, &zero, C, 4);
	called("cublasSgemm_v2", st);
	expect("cublasSgemm_v2", st, 0,
	       (struct arg[]){ { "A", 0, R, F32, "-1x4" }, { "B", 1, R, F32, "4x4" },
			       { "C", 2, W, F32, "-1x4" } }, 3,
	       "-1,4,4,0,0,4,4,4", GEMM_NAMES);
	st = cublasSgemm_v2(NULL, N, N, 4, 4, 4, &one, A, 4, B, 4, &one, C, 4);
	called("cublasSgemm_v2", st);
	expect("cublasSgemm_v2", st, 0,
	       (struct arg[]){ { "A", 0, R, F32, "4x4" }, { "B", 1, R, F32, "4x4" },
			       { "C", 2, UNK, F32, "4x4" } }, 3,
	       "4,4,4,0,0,4,4,4", GEMM_NAMES);
	called("cudaDeviceSynchronize", cudaDeviceSynchronize());
	called("cublasDestroy_v2", cublasDestroy_v2(h));
	called("cudaStreamDestroy", cudaStreamDestroy(s));
}

static void lt_calls(void)
{
	cublasLtHandle_t h;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t a, b, c;
	cublasLtMatmulDescOpaque_t stack_desc;
	cublasLtMatrixLayoutOpaque_t d_layout;
	const float one = 1, zero = 0;
	float *A = alloc(1 << 16), *B = alloc(1 << 16), *C = alloc(1 << 16); /* 5, 6, 7 */
	float *D = alloc(1 << 16), *bias = alloc(4096), *aux = alloc(1 << 16); /* 8, 9, 10 */
	void *ws = alloc(1 << 16);                                             /* 11 */
	int32_t t = CUBLAS_OP_T;
	uint32_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
	int64_t aux_ld = 64;
	int st;

	called("cublasLtCreate", cublasLtCreate(&h));
	called("cublasLtMatmulDescCreate", cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, 4));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, 8));
	/* D (64 x 16) = A^T B, A stored 32 x 64. */
	called("cublasLtMatrixLayoutCreate", cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 32, 64, 32));
	called("cublasLtMatrixLayoutCreate", cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 32, 16, 32));
	called("cublasLtMatrixLayoutCreate", cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, 64, 16, 64));

	/* C == D, beta 0, bias read, a workspace. */
	st = cublasLtMatmul(h, desc, &one, A, a, B, b, &zero, D, c, D, c, NULL, ws, 4096, 0);
	called("cublasLtMatmul", st);
	expect("cublasLtMatmul", st, 1,
	       (struct arg[]){ { "A", 5, R, F32, "32x64" }, { "B", 6, R, F32, "32x16" },
			       { "C", -1, UNUSED, NOTYPE, "?" }, { "D", 8, W, F32, "64x16" },
			       { "bias", 9, R, F32, "64" }, { "aux", -1, UNUSED, NOTYPE, "?" },
			       { "workspace", 11, WS, U8, "4096" } }, 7,
	       "64,16,32,1,0,32,32,64,64,1,0,0,0,0,68,0,6,0,4096", LT_NAMES);

	/* C != D, beta 1: C read, D written; GELU_AUX_BIAS writes aux. */
	epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, 4));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &aux, 8));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, 8));
	st = cublasLtMatmul(h, desc, &one, A, a, B, b, &one, C, c, D, c, NULL, NULL, 0, 0);
	called("cublasLtMatmul", st);
	expect("cublasLtMatmul", st, 1,
	       (struct arg[]){ { "A", 5, R, F32, "32x64" }, { "B", 6, R, F32, "32x16" },
			       { "C", 7, R, F32, "64x16" }, { "D", 8, W, F32, "64x16" },
			       { "bias", 9, R, F32, "64" }, { "aux", 10, W, F32, "64x16" },
			       { "workspace", -1, UNUSED, NOTYPE, "?" } }, 7,
	       "64,16,32,1,0,32,32,64,64,1,0,0,0,0,68,0,164,0,0", LT_NAMES);

	/* Backward: DRELU_BGRAD reads the ReLU mask (aux) and writes the bias gradient. */
	epilogue = CUBLASLT_EPILOGUE_DRELU_BGRAD;
	aux_ld = 128;
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, 4));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, 8));
	st = cublasLtMatmul(h, desc, &one, A, a, B, b, &zero, C, c, D, c, NULL, NULL, 0, 0);
	called("cublasLtMatmul", st);
	expect("cublasLtMatmul", st, 1,
	       (struct arg[]){ { "A", 5, R, F32, "32x64" }, { "B", 6, R, F32, "32x16" },
			       { "C", -1, UNUSED, NOTYPE, "?" }, { "D", 8, W, F32, "64x16" },
			       { "bias", 9, W, F32, "64" }, { "aux", 10, R, NOTYPE, "64x16" },
			       { "workspace", -1, UNUSED, NOTYPE, "?" } }, 7,
	       "64,16,32,1,0,32,32,64,64,1,0,0,0,0,68,0,152,0,0", LT_NAMES);

	/* A descriptor in the program's memory (cublasLtMatmulDescInit), batched, device beta. */
	int32_t device_mode = CUBLASLT_POINTER_MODE_DEVICE, batch = 2;
	int64_t stride = 1024;
	called("cublasLtMatmulDescInit", cublasLtMatmulDescInit(&stack_desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	called("cublasLtMatmulDescSetAttribute",
	       cublasLtMatmulDescSetAttribute(&stack_desc, CUBLASLT_MATMUL_DESC_POINTER_MODE,
					      &device_mode, 4));
	called("cublasLtMatrixLayoutInit", cublasLtMatrixLayoutInit(&d_layout, CUDA_R_32F, 8, 8, 8));
	called("cublasLtMatrixLayoutSetAttribute",
	       cublasLtMatrixLayoutSetAttribute(&d_layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, 4));
	called("cublasLtMatrixLayoutSetAttribute",
	       cublasLtMatrixLayoutSetAttribute(&d_layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
						&stride, 8));
	st = cublasLtMatmul(h, &stack_desc, bias, A, &d_layout, B, &d_layout, bias, D, &d_layout, D,
			    &d_layout, NULL, NULL, 0, 0);
	called("cublasLtMatmul", st);
	expect("cublasLtMatmul", st, 1,
	       (struct arg[]){ { "A", 5, R, F32, "2x8x8" }, { "B", 6, R, F32, "2x8x8" },
			       { "C", -1, UNUSED, NOTYPE, "?" }, { "D", 8, UNK, F32, "2x8x8" },
			       { "bias", -1, UNUSED, NOTYPE, "?" }, { "aux", -1, UNUSED, NOTYPE, "?" },
			       { "workspace", -1, UNUSED, NOTYPE, "?" } }, 7,
	       "8,8,8,0,0,8,8,8,8,2,0,0,0,0,68,0,1,1,0", LT_NAMES);

	/* Refused: B's layout given for A makes op(A) 16 x 32, but D has 64 rows. */
	st = cublasLtMatmul(h, desc, &one, A, b, B, b, &zero, D, c, D, c, NULL, NULL, 0, 0);
	called("cublasLtMatmul", st);
	expect("cublasLtMatmul", st, 0,
	       (struct arg[]){ { "A", 5, R, F32, "32x16" }, { "B", 6, R, F32, "32x16" },
			       { "C", -1, UNUSED, NOTYPE, "?" }, { "D", 8, W, F32, "64x16" },
			       { "bias", 9, W, F32, "64" }, { "aux", 10, R, NOTYPE, "64x16" },
			       { "workspace", -1, UNUSED, NOTYPE, "?" } }, 7,
	       "64,16,32,1,0,32,32,64,64,1,0,0,0,0,68,0,152,0,0", LT_NAMES);
	st = cublasLtMatmul(NULL, desc, &one, A, a, B, b, &zero, D, c, D, c, NULL, NULL, 0, 0);
	called("cublasLtMatmul", st);
	expect("cublasLtMatmul", st, 0,
	       (struct arg[]){ { "A", 5, R, F32, "32x64" }, { "B", 6, R, F32, "32x16" },
			       { "C", -1, UNUSED, NOTYPE, "?" }, { "D", 8, W, F32, "64x16" },
			       { "bias", 9, W, F32, "64" }, { "aux", 10, R, NOTYPE, "64x16" },
			       { "workspace", -1, UNUSED, NOTYPE, "?" } }, 7,
	       "64,16,32,1,0,32,32,64,64,1,0,0,0,0,68,0,152,0,0", LT_NAMES);

	called("cudaDeviceSynchronize", cudaDeviceSynchronize());
	called("cublasLtMatrixLayoutDestroy", cublasLtMatrixLayoutDestroy(a));
	called("cublasLtMatrixLayoutDestroy", cublasLtMatrixLayoutDestroy(b));
	called("cublasLtMatrixLayoutDestroy", cublasLtMatrixLayoutDestroy(c));
	called("cublasLtMatmulDescDestroy", cublasLtMatmulDescDestroy(desc));
	called("cublasLtDestroy", cublasLtDestroy(h));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	blas_calls();
	lt_calls();
	for (int i = 0; i < n_buffers; i++)
		called("cudaFree", cudaFree(buffers[i]));
	return 0;
}
