/*
 * Simulated libcublasLt.so.13: cublasLtMatmul and
 * cublasLtMatmulAlgoGetHeuristic. Both check the problem the descriptors
 * describe (README.md, "Argument checks"); the matmul launches one kernel
 * on its stream argument, whatever the epilogue.
 *
 * Must never read alpha, beta or any device pointer (bias, aux, workspace):
 * kernels compute nothing.
 */
#include <limits.h>
#include <string.h>

#include "simgpu/cublas/gemm_kernels.h"
#include "simgpu/cublas/lt_descriptors.h"

struct lt_problem {
	long long m, n, k, batch;
	cublasOperation_t transa, transb;
	enum gemm_family family;
};

static bool epilogue_valid(uint32_t epilogue)
{
	switch (epilogue) {
	case CUBLASLT_EPILOGUE_DEFAULT:
	case CUBLASLT_EPILOGUE_RELU:
	case CUBLASLT_EPILOGUE_RELU_AUX:
	case CUBLASLT_EPILOGUE_BIAS:
	case CUBLASLT_EPILOGUE_RELU_BIAS:
	case CUBLASLT_EPILOGUE_RELU_AUX_BIAS:
	case CUBLASLT_EPILOGUE_DRELU:
	case CUBLASLT_EPILOGUE_DRELU_BGRAD:
	case CUBLASLT_EPILOGUE_GELU:
	case CUBLASLT_EPILOGUE_GELU_AUX:
	case CUBLASLT_EPILOGUE_GELU_BIAS:
	case CUBLASLT_EPILOGUE_GELU_AUX_BIAS:
	case CUBLASLT_EPILOGUE_DGELU:
	case CUBLASLT_EPILOGUE_DGELU_BGRAD:
	case CUBLASLT_EPILOGUE_BGRADA:
	case CUBLASLT_EPILOGUE_BGRADB:
		return true;
	}
	return false;
}

/* Epilogues that read a bias or write a bias gradient through BIAS_POINTER. */
static bool epilogue_uses_bias(uint32_t epilogue)
{
	return (epilogue & (CUBLASLT_EPILOGUE_BIAS | 16u | CUBLASLT_EPILOGUE_BGRADA |
			    CUBLASLT_EPILOGUE_BGRADB)) != 0;
}

/* Epilogues with an auxiliary matrix (written forward, read backward). */
static bool epilogue_uses_aux(uint32_t epilogue)
{
	return (epilogue & 128u) != 0;
}

static bool layout_supported(const struct lt_layout *l)
{
	return l->order == CUBLASLT_ORDER_COL && l->plane_offset == 0 &&
	       l->batch_mode == CUBLASLT_BATCH_MODE_STRIDED && l->rows <= INT_MAX &&
	       l->cols <= INT_MAX;
}

static bool ld_valid(const struct lt_layout *l)
{
	return l->ld >= (long long)(l->rows > 1 ? l->rows : 1);
}

static cublasStatus_t check_problem(cublasLtMatmulDesc_t computeDesc, cublasLtMatrixLayout_t Adesc,
				    cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc,
				    cublasLtMatrixLayout_t Ddesc, struct lt_problem *p)
{
	const struct lt_matmul_desc *desc = lt_desc(computeDesc);
	const struct lt_layout *a = lt_layout(Adesc), *b = lt_layout(Bdesc);
	const struct lt_layout *c = lt_layout(Cdesc), *d = lt_layout(Ddesc);
	if (!desc || !a || !b || !c || !d)
		return CUBLAS_STATUS_INVALID_VALUE;

	p->transa = (cublasOperation_t)(int32_t)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_TRANSA);
	p->transb = (cublasOperation_t)(int32_t)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_TRANSB);
	if (!gemm_trans_valid(p->transa) || !gemm_trans_valid(p->transb))
		return CUBLAS_STATUS_INVALID_VALUE;
	if ((int32_t)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_TRANSC) != CUBLAS_OP_N)
		return CUBLAS_STATUS_NOT_SUPPORTED;
	if (!layout_supported(a) || !layout_supported(b) || !layout_supported(c) ||
	    !layout_supported(d))
		return CUBLAS_STATUS_NOT_SUPPORTED;

	/* D is m x n; op(A) m x k; op(B) k x n; C like D. */
	p->m = (long long)d->rows;
	p->n = (long long)d->cols;
	bool a_n = p->transa == CUBLAS_OP_N, b_n = p->transb == CUBLAS_OP_N;
	long long a_rows = (long long)(a_n ? a->rows : a->cols);
	p->k = (long long)(a_n ? a->cols : a->rows);
	long long b_rows = (long long)(b_n ? b->rows : b->cols);
	long long b_cols = (long long)(b_n ? b->cols : b->rows);
	if (a_rows != p->m || b_rows != p->k || b_cols != p->n || c->rows != d->rows ||
	    c->cols != d->cols)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (!ld_valid(a) || !ld_valid(b) || !ld_valid(c) || !ld_valid(d))
		return CUBLAS_STATUS_INVALID_VALUE;
	p->batch = d->batch_count;
	if (p->batch < 1 || a->batch_count != p->batch || b->batch_count != p->batch ||
	    c->batch_count != p->batch)
		return CUBLAS_STATUS_INVALID_VALUE;

	cublasComputeType_t compute =
		(cublasComputeType_t)(int32_t)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE);
	cudaDataType scale;
	if (!gemm_scale_type(compute, &scale))
		return CUBLAS_STATUS_INVALID_VALUE;
	if ((int32_t)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE) != (int32_t)scale ||
	    d->type != c->type)
		return CUBLAS_STATUS_NOT_SUPPORTED;
	cublasStatus_t status = gemm_check_types(compute, (cudaDataType)a->type,
						 (cudaDataType)b->type, (cudaDataType)c->type);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;

	uint32_t epilogue = (uint32_t)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_EPILOGUE);
	if (!epilogue_valid(epilogue))
		return CUBLAS_STATUS_INVALID_VALUE;
	if (epilogue_uses_bias(epilogue) && !lt_desc_get(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER))
		return CUBLAS_STATUS_INVALID_VALUE;
	if (epilogue_uses_aux(epilogue) &&
	    (!lt_desc_get(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER) ||
	     (long long)lt_desc_get(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD) < p->m))
		return CUBLAS_STATUS_INVALID_VALUE;
	p->family = gemm_lt_family((cudaDataType)a->type);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
			      const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
			      const void *B, cublasLtMatrixLayout_t Bdesc, const void *beta,
			      const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
			      cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo,
			      void *workspace, size_t workspaceSizeInBytes, cudaStream_t stream)
{
	struct lt_problem p;

	(void)algo; /* NULL means an implicit heuristic query; any algo runs the one kernel */
	if (!lightHandle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	cublasStatus_t status = check_problem(computeDesc, Adesc, Bdesc, Cdesc, Ddesc, &p);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	if (!alpha || !beta || (workspaceSizeInBytes && !workspace))
		return CUBLAS_STATUS_INVALID_VALUE;
	struct gemm_work work = {
		.family = p.family, .transa = p.transa, .transb = p.transb,
		.m = p.m, .n = p.n, .k = p.k, .batch = p.batch,
		.a = A, .b = B, .c = C, .d = D, .stream = stream,
	};
	return gemm_launch(&work);
}

/* One algorithm that needs no workspace, whatever the preference allows. */
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle,
					      cublasLtMatmulDesc_t operationDesc,
					      cublasLtMatrixLayout_t Adesc,
					      cublasLtMatrixLayout_t Bdesc,
					      cublasLtMatrixLayout_t Cdesc,
					      cublasLtMatrixLayout_t Ddesc,
					      cublasLtMatmulPreference_t preference,
					      int requestedAlgoCount,
					      cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
					      int *returnAlgoCount)
{
	struct lt_problem p;

	if (!lightHandle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (requestedAlgoCount <= 0 || !heuristicResultsArray || !returnAlgoCount ||
	    !lt_preference(preference))
		return CUBLAS_STATUS_INVALID_VALUE;
	cublasStatus_t status = check_problem(operationDesc, Adesc, Bdesc, Cdesc, Ddesc, &p);
	if (status != CUBLAS_STATUS_SUCCESS)
		return status;
	memset(&heuristicResultsArray[0], 0, sizeof(heuristicResultsArray[0]));
	heuristicResultsArray[0].algo.data[0] = (uint64_t)p.family + 1;
	heuristicResultsArray[0].workspaceSize = 0;
	heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
	heuristicResultsArray[0].wavesCount = 1.0f;
	*returnAlgoCount = 1;
	return CUBLAS_STATUS_SUCCESS;
}
