/*
 * The simulated libcublasLt.so.13: descriptor attributes (header defaults,
 * sizes, get-size queries, init in caller memory), status codes of
 * cublasLtMatmul and the heuristic, and one kernel per matmul with the
 * documented name and duration on the stream argument.
 */
#include "simgpu/tests/cublas_test.h"

enum { SGEMM_RATE = 19500, TENSOR_RATE = 312000 };

static void check_descriptors(void)
{
	cublasLtMatmulDesc_t d;
	cublasLtMatrixLayout_t l;
	int32_t v32 = 0;
	int64_t v64 = 0;
	uint32_t u32 = 0;
	size_t written = 0;

	CHECK_STATUS(cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_EPILOGUE, &u32, 4, &written),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(u32 == CUBLASLT_EPILOGUE_DEFAULT && written == 4);
	CHECK_STATUS(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &v32, 4, NULL),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(v32 == -1);
	CHECK_STATUS(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_BIAS_POINTER, NULL, 0, &written),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(written == 8);
	CHECK_STATUS(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_BIAS_POINTER, NULL, 0, NULL),
		     CUBLAS_STATUS_INVALID_VALUE);
	v32 = CUBLAS_OP_T;
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &v32, 8),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(d, (cublasLtMatmulDescAttributes_t)9, &v32, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &v32, 4),
		     CUBLAS_STATUS_SUCCESS);
	v32 = 0;
	CHECK_STATUS(cublasLtMatmulDescGetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &v32, 4, NULL),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(v32 == CUBLAS_OP_T);
	CHECK_STATUS(cublasLtMatmulDescDestroy(d), CUBLAS_STATUS_SUCCESS);

	CHECK_STATUS(cublasLtMatrixLayoutCreate(&l, CUDA_R_16F, 10, 20, 16), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_LD, &v64, 8, NULL),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(v64 == 16);
	CHECK_STATUS(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &v32, 4, NULL),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(v32 == 1);
	CHECK_STATUS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ROWS, &v32, 4),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatrixLayoutDestroy(l), CUBLAS_STATUS_SUCCESS);

	cublasLtMatmulDescOpaque_t small;
	CHECK_STATUS(cublasLtMatmulDescInit_internal(&small, 16, CUBLAS_COMPUTE_32F, CUDA_R_32F),
		     CUBLAS_STATUS_ALLOC_FAILED);
	CHECK_STATUS(cublasLtMatmulDescInit(&small, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
	CHECK_STR(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED");
}

struct problem {
	cublasLtMatmulDescOpaque_t desc;
	cublasLtMatrixLayoutOpaque_t a, b, c;
};

/* D(m x n) = op(A) op(B), A stored k x m (transposed), B k x n. */
static void make_problem(struct problem *p, cudaDataType type, cublasComputeType_t compute,
			 cudaDataType scale, int m, int n, int k)
{
	int32_t t = CUBLAS_OP_T;
	CHECK_STATUS(cublasLtMatmulDescInit(&p->desc, compute, scale), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(&p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, 4),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatrixLayoutInit(&p->a, type, k, m, k), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatrixLayoutInit(&p->b, type, k, n, k), CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatrixLayoutInit(&p->c, type, m, n, m), CUBLAS_STATUS_SUCCESS);
}

static void check_matmul(void *A, void *B, void *C, void *bias, void *ws)
{
	cublasLtHandle_t h;
	cudaStream_t s;
	struct problem p;
	const float one = 1, zero = 0;
	cublasLtMatmulPreference_t pref;
	cublasLtMatmulHeuristicResult_t result[4];
	int returned = 0;
	uint32_t epilogue = CUBLASLT_EPILOGUE_BIAS;

	CHECK_STATUS(cublasLtCreate(&h), CUBLAS_STATUS_SUCCESS);
	CHECK_CUDA(cudaStreamCreate(&s));
	CHECK_STATUS(cublasLtMatmulPreferenceCreate(&pref), CUBLAS_STATUS_SUCCESS);
	make_problem(&p, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 64, 32, 16);

	CHECK_STATUS(cublasLtMatmul(NULL, &p.desc, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_NOT_INITIALIZED);
	CHECK_STATUS(cublasLtMatmul(h, NULL, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c, NULL,
				    NULL, 0, s),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.b, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_INVALID_VALUE); /* op(A) is 32 x 16, D wants 64 rows */
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, NULL, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 64, s),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(&p.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, 4),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_INVALID_VALUE); /* bias epilogue without a bias */
	int32_t row_order = CUBLASLT_ORDER_ROW;
	CHECK_STATUS(cublasLtMatrixLayoutSetAttribute(&p.c, CUBLASLT_MATRIX_LAYOUT_ORDER, &row_order, 4),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(&p.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, 8),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_NOT_SUPPORTED);
	CHECK_STATUS(cublasLtMatmulAlgoGetHeuristic(h, &p.desc, &p.a, &p.b, &p.c, &p.c, pref, 4,
						    result, &returned),
		     CUBLAS_STATUS_NOT_SUPPORTED);
	kernels_flush();
	CHECK_EQ_U64(n_seen, 0);

	kernels_forget();
	make_problem(&p, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 64, 32, 16);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(&p.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, 4),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmulDescSetAttribute(&p.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, 8),
		     CUBLAS_STATUS_SUCCESS);
	CHECK_STATUS(cublasLtMatmulAlgoGetHeuristic(h, &p.desc, &p.a, &p.b, &p.c, &p.c, pref, 0,
						    result, &returned),
		     CUBLAS_STATUS_INVALID_VALUE);
	CHECK_STATUS(cublasLtMatmulAlgoGetHeuristic(h, &p.desc, &p.a, &p.b, &p.c, &p.c, pref, 4,
						    result, &returned),
		     CUBLAS_STATUS_SUCCESS);
	CHECK(returned == 1 && result[0].state == CUBLAS_STATUS_SUCCESS && result[0].workspaceSize == 0);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.a, B, &p.b, &one, C, &p.c, C, &p.c,
				    &result[0].algo, ws, 4096, s),
		     CUBLAS_STATUS_SUCCESS);
	make_problem(&p, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 256, 256, 512);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_SUCCESS);
	make_problem(&p, CUDA_R_16F, CUBLAS_COMPUTE_16F, CUDA_R_32F, 8, 8, 8);
	CHECK_STATUS(cublasLtMatmul(h, &p.desc, &one, A, &p.a, B, &p.b, &zero, C, &p.c, C, &p.c,
				    NULL, NULL, 0, s),
		     CUBLAS_STATUS_NOT_SUPPORTED); /* 16F compute takes a 16F scale */
	kernels_flush();
	CHECK_EQ_U64(n_seen, 2);
	CHECK_KERNEL(0, "sm80_xmma_gemm_f32_tn_tilesize128x128x32_stage4_kernel",
		     expected_ns(64, 32, 16, 1, SGEMM_RATE));
	CHECK_KERNEL(1, "sm80_xmma_gemm_bf16_tn_tilesize128x128x32_stage4_kernel",
		     expected_ns(256, 256, 512, 1, TENSOR_RATE));

	CHECK_STATUS(cublasLtMatmulPreferenceDestroy(pref), CUBLAS_STATUS_SUCCESS);
	CHECK_CUDA(cudaStreamDestroy(s));
	CHECK_STATUS(cublasLtDestroy(h), CUBLAS_STATUS_SUCCESS);
}

int main(void)
{
	void *A, *B, *C, *bias, *ws;
	kernels_start();
	CHECK_CUDA(cudaMalloc(&A, 1 << 20));
	CHECK_CUDA(cudaMalloc(&B, 1 << 20));
	CHECK_CUDA(cudaMalloc(&C, 1 << 20));
	CHECK_CUDA(cudaMalloc(&bias, 4096));
	CHECK_CUDA(cudaMalloc(&ws, 4096));
	check_descriptors();
	check_matmul(A, B, C, bias, ws);
	return 0;
}
