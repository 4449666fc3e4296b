/*
 * Wrappers of the cuBLAS GEMMs (cublasSgemm_v2, cublasDgemm_v2, cublasHgemm,
 * cublasGemmEx, cublasSgemmStridedBatched, cublasGemmStridedBatchedEx,
 * cublasGemmBatchedEx) and of cublasSetStream_v2. Each forwards with the
 * same arguments and returns the real status; when recording, a GEMM emits
 * one dnntrace_lib:call (A and B read; C READ_WRITE when beta != 0, WRITE
 * when beta == 0, UNKNOWN when beta is a device pointer) and its call id is
 * CUPTI's external correlation id while the real GEMM runs, so its kernels
 * (and a cublasLtMatmul it makes inside) link to it.
 *
 * The un-suffixed cublasSgemm/cublasDgemm exported by the real library are
 * the legacy cublas.h API (no handle), not aliases: not wrapped.
 * Must never dereference a device pointer, nor a beta in device pointer mode.
 */
#include <cublasLt.h>
#include <cublas_api.h>

#include "interceptors/cublas/cublas_cxx_only.h"
#include "interceptors/cublas/cublas_types.h"
#include "interceptors/core/lib_call.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/traced_call.h"
#include "tracepoints/dnntrace_lib.h"

/* One GEMM as the trace shows it. batch 0: not a batched call (rank 2 shapes). */
struct gemm_args {
	enum dnntrace_lib_api_id api;
	const char *arg_names, *param_names;
	cublasHandle_t handle;
	cublasOperation_t transa, transb;
	int m, n, k;
	long long batch;
	const void *a, *b, *c;
	cudaDataType a_type, b_type, c_type, scale_type;
	const void *beta;
	bool pointer_arrays; /* a, b, c are device arrays of matrix pointers */
};

/* What the handle says, asked before forwarding (cheap getters of the real library). */
struct handle_state {
	cudaStream_t stream;
	enum cublas_beta beta;
};

static bool lib_call_enabled(void)
{
	return lttng_ust_tracepoint_enabled(dnntrace_lib, call);
}

static struct handle_state handle_state_of(const struct gemm_args *g)
{
	struct handle_state s = { .stream = NULL, .beta = BETA_UNKNOWN };
	__typeof__(&cublasGetStream_v2) get_stream = REAL(cublasGetStream_v2);
	__typeof__(&cublasGetPointerMode_v2) get_mode = REAL(cublasGetPointerMode_v2);
	cublasPointerMode_t mode;

	if (get_stream && get_stream(g->handle, &s.stream) != CUBLAS_STATUS_SUCCESS)
		s.stream = NULL;
	/* Only a host beta may be read: a device one lives in GPU memory. */
	if (get_mode && get_mode(g->handle, &mode) == CUBLAS_STATUS_SUCCESS &&
	    mode == CUBLAS_POINTER_MODE_HOST)
		s.beta = cublas_host_beta(g->beta, g->scale_type);
	return s;
}

/* [batch,] rows, cols of a matrix stored column-major, op(X) being rows_op x cols_op. */
static unsigned stored_shape(const struct gemm_args *g, cublasOperation_t op, long long rows_op,
			     long long cols_op, long long *dims)
{
	unsigned rank = 0;
	if (g->batch)
		dims[rank++] = g->batch;
	dims[rank++] = op == CUBLAS_OP_N ? rows_op : cols_op;
	dims[rank++] = op == CUBLAS_OP_N ? cols_op : rows_op;
	return rank;
}

static void record_gemm(const struct traced_call *call, const struct gemm_args *g,
			const struct handle_state *s, const long long *params,
			unsigned n_params, cublasStatus_t result)
{
	struct lib_call c;
	long long dims[3];
	unsigned rank;

	lib_call_begin(&c, g->api, g->handle, s->stream, g->arg_names, g->param_names);
	if (g->pointer_arrays) {
		/* The arrays are read by the kernel; the matrices they point to
		 * are in device memory we never read, so they are not listed. */
		dims[0] = g->batch;
		lib_call_arg(&c, g->a, DNNTRACE_ROLE_READ, DNNTRACE_DTYPE_I64, 1, dims);
		lib_call_arg(&c, g->b, DNNTRACE_ROLE_READ, DNNTRACE_DTYPE_I64, 1, dims);
		lib_call_arg(&c, g->c, DNNTRACE_ROLE_READ, DNNTRACE_DTYPE_I64, 1, dims);
	} else {
		rank = stored_shape(g, g->transa, g->m, g->k, dims);
		lib_call_arg(&c, g->a, DNNTRACE_ROLE_READ, cublas_dtype(g->a_type), rank, dims);
		rank = stored_shape(g, g->transb, g->k, g->n, dims);
		lib_call_arg(&c, g->b, DNNTRACE_ROLE_READ, cublas_dtype(g->b_type), rank, dims);
		rank = stored_shape(g, CUBLAS_OP_N, g->m, g->n, dims);
		lib_call_arg(&c, g->c, cublas_c_role(s->beta), cublas_dtype(g->c_type), rank, dims);
	}
	for (unsigned i = 0; i < n_params; i++)
		lib_call_param(&c, params[i]);
	lib_call_emit(&c, call->call_id, call->start_ns, result);
}

#define GEMM_PARAMS "m,n,k,transa,transb,lda,ldb,ldc"

/*
 * The body every GEMM wrapper shares: forward untraced unless recording;
 * else ask the handle, forward inside the call bracket, emit.
 * FORWARD is the real call expression; PARAMS the event's params.
 */
#define TRACE_GEMM(real, gemm, FORWARD, ...)                                          \
	do {                                                                          \
		if (!(real))                                                          \
			return CUBLAS_STATUS_NOT_INITIALIZED;                         \
		if (!tracer_enter(lib_call_enabled()))                               \
			return FORWARD;                                               \
		const long long params_[] = { __VA_ARGS__ };                          \
		struct handle_state state_ = handle_state_of(gemm);                   \
		struct traced_call call_;                                             \
		traced_call_begin(&call_);                                            \
		cublasStatus_t result_ = FORWARD;                                     \
		traced_call_end(&call_);                                              \
		record_gemm(&call_, (gemm), &state_, params_,                         \
			    sizeof(params_) / sizeof(params_[0]), result_);           \
		traced_call_leave(&call_);                                            \
		return result_;                                                       \
	} while (0)

DNNTRACE_EXPORT cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
					      cublasOperation_t transb, int m, int n, int k,
					      const float *alpha, const float *A, int lda,
					      const float *B, int ldb, const float *beta, float *C,
					      int ldc)
{
	__typeof__(&cublasSgemm_v2) real = REAL(cublasSgemm_v2);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasSgemm_v2, "A,B,C", GEMM_PARAMS, handle, transa, transb,
		m, n, k, 0, A, B, C, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, beta, false,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),
		   m, n, k, transa, transb, lda, ldb, ldc);
}

DNNTRACE_EXPORT cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
					      cublasOperation_t transb, int m, int n, int k,
					      const double *alpha, const double *A, int lda,
					      const double *B, int ldb, const double *beta,
					      double *C, int ldc)
{
	__typeof__(&cublasDgemm_v2) real = REAL(cublasDgemm_v2);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasDgemm_v2, "A,B,C", GEMM_PARAMS, handle, transa, transb,
		m, n, k, 0, A, B, C, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, beta, false,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),
		   m, n, k, transa, transb, lda, ldb, ldc);
}

DNNTRACE_EXPORT cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa,
					   cublasOperation_t transb, int m, int n, int k,
					   const struct __half *alpha, const struct __half *A,
					   int lda, const struct __half *B, int ldb,
					   const struct __half *beta, struct __half *C, int ldc)
{
	__typeof__(&cublasHgemm) real = REAL(cublasHgemm);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasHgemm, "A,B,C", GEMM_PARAMS, handle, transa, transb,
		m, n, k, 0, A, B, C, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, beta, false,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),
		   m, n, k, transa, transb, lda, ldb, ldc);
}

DNNTRACE_EXPORT cublasStatus_t cublasSgemmStridedBatched(
	cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
	int k, const float *alpha, const float *A, int lda, long long int strideA, const float *B,
	int ldb, long long int strideB, const float *beta, float *C, int ldc,
	long long int strideC, int batchCount)
{
	__typeof__(&cublasSgemmStridedBatched) real = REAL(cublasSgemmStridedBatched);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasSgemmStridedBatched, "A,B,C",
		GEMM_PARAMS ",stride_a,stride_b,stride_c,batch_count", handle, transa, transb,
		m, n, k, batchCount, A, B, C, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
		beta, false,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB,
			beta, C, ldc, strideC, batchCount),
		   m, n, k, transa, transb, lda, ldb, ldc, strideA, strideB, strideC, batchCount);
}

#define EX_PARAMS "a_type,b_type,c_type,compute_type,algo"

DNNTRACE_EXPORT cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
					    cublasOperation_t transb, int m, int n, int k,
					    const void *alpha, const void *A, cudaDataType Atype,
					    int lda, const void *B, cudaDataType Btype, int ldb,
					    const void *beta, void *C, cudaDataType Ctype, int ldc,
					    cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
	__typeof__(&cublasGemmEx) real = REAL(cublasGemmEx);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasGemmEx, "A,B,C", GEMM_PARAMS "," EX_PARAMS, handle, transa,
		transb, m, n, k, 0, A, B, C, Atype, Btype, Ctype,
		cublas_scale_type(computeType, Ctype), beta, false,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb,
			beta, C, Ctype, ldc, computeType, algo),
		   m, n, k, transa, transb, lda, ldb, ldc, Atype, Btype, Ctype, computeType, algo);
}

DNNTRACE_EXPORT cublasStatus_t cublasGemmStridedBatchedEx(
	cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
	int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
	long long int strideA, const void *B, cudaDataType Btype, int ldb, long long int strideB,
	const void *beta, void *C, cudaDataType Ctype, int ldc, long long int strideC,
	int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
	__typeof__(&cublasGemmStridedBatchedEx) real = REAL(cublasGemmStridedBatchedEx);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasGemmStridedBatchedEx, "A,B,C",
		GEMM_PARAMS ",stride_a,stride_b,stride_c,batch_count," EX_PARAMS, handle, transa,
		transb, m, n, k, batchCount, A, B, C, Atype, Btype, Ctype,
		cublas_scale_type(computeType, Ctype), beta, false,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype,
			ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType, algo),
		   m, n, k, transa, transb, lda, ldb, ldc, strideA, strideB, strideC, batchCount,
		   Atype, Btype, Ctype, computeType, algo);
}

DNNTRACE_EXPORT cublasStatus_t cublasGemmBatchedEx(
	cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
	int k, const void *alpha, const void *const Aarray[], cudaDataType Atype, int lda,
	const void *const Barray[], cudaDataType Btype, int ldb, const void *beta,
	void *const Carray[], cudaDataType Ctype, int ldc, int batchCount,
	cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
	__typeof__(&cublasGemmBatchedEx) real = REAL(cublasGemmBatchedEx);
	const struct gemm_args g = {
		DNNTRACE_LIB_cublasGemmBatchedEx, "Aarray,Barray,Carray",
		GEMM_PARAMS ",batch_count," EX_PARAMS, handle, transa, transb, m, n, k,
		batchCount, Aarray, Barray, Carray, Atype, Btype, Ctype,
		cublas_scale_type(computeType, Ctype), beta, true,
	};
	TRACE_GEMM(real, &g,
		   real(handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray, Btype,
			ldb, beta, Carray, Ctype, ldc, batchCount, computeType, algo),
		   m, n, k, transa, transb, lda, ldb, ldc, batchCount, Atype, Btype, Ctype,
		   computeType, algo);
}

/* No GPU work: no call id; later calls on handle run on streamId. */
DNNTRACE_EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
	__typeof__(&cublasSetStream_v2) real = REAL(cublasSetStream_v2);

	if (!real)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!tracer_enter(lttng_ust_tracepoint_enabled(dnntrace_lib, set_stream)))
		return real(handle, streamId);
	cublasStatus_t result = real(handle, streamId);
	int saved_errno = errno;
	lttng_ust_tracepoint(dnntrace_lib, set_stream, DNNTRACE_LIB_cublasSetStream_v2, handle,
			     streamId, (int)result);
	tracer_leave();
	errno = saved_errno;
	return result;
}
