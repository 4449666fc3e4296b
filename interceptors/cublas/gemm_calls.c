/*
 * Wrappers of the cuBLAS GEMMs (cublasSgemm_v2, cublasDgemm_v2, cublasHgemm,
 * cublasGemmEx, cublasSgemmStridedBatched, cublasGemmStridedBatchedEx,
 * cublasGemmBatchedEx) and of cublasSetStream_v2. Each forwards with the
 * same arguments and returns the real status; when recording, a GEMM emits
 * one dnntrace_lib:call (A and B read; C READ_WRITE when beta != 0, WRITE
 * when beta == 0, UNKNOWN when beta is a device pointer) and its call id is
 * CUPTI's external correlation id while the real GEMM runs, so its kernels
 * (and a cublasLtMatmul it makes inside) link to it. The bracket is
 * core/wrapper.h's; each GEMM below is its prototype, its argument list
 * and its description (shapes, types, params).
 *
 * The un-suffixed cublasSgemm/cublasDgemm exported by the real library are
 * the legacy cublas.h API (no handle), not aliases: not wrapped.
 * Must never dereference a device pointer, nor a beta in device pointer mode.
 */
#include <cublasLt.h>
#include <cublas_api.h>

#include "interceptors/cublas/cublas_cxx_only.h"
#include "interceptors/core/event_count.h"
#include "interceptors/cublas/cublas_types.h"
#include "interceptors/core/lib_call.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_lib.h"

/* One GEMM as the trace shows it. batch 0: not a batched call (rank 2 shapes). */
struct gemm_args {
	cublasOperation_t transa, transb;
	int m, n, k;
	long long batch;
	const void *a, *b, *c;
	cudaDataType a_type, b_type, c_type;
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

static struct handle_state handle_state_of(cublasHandle_t handle, const void *beta,
					   cudaDataType scale_type)
{
	struct handle_state s = { .stream = NULL, .beta = BETA_UNKNOWN };
	__typeof__(&cublasGetStream_v2) get_stream = REAL(cublasGetStream_v2);
	__typeof__(&cublasGetPointerMode_v2) get_mode = REAL(cublasGetPointerMode_v2);
	cublasPointerMode_t mode;

	if (get_stream && get_stream(handle, &s.stream) != CUBLAS_STATUS_SUCCESS)
		s.stream = NULL;
	/* Only a host beta may be read: a device one lives in GPU memory. */
	if (get_mode && get_mode(handle, &mode) == CUBLAS_STATUS_SUCCESS &&
	    mode == CUBLAS_POINTER_MODE_HOST)
		s.beta = cublas_host_beta(beta, scale_type);
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

static void record_gemm(const struct traced_call *call, enum dnntrace_lib_api_id api,
			const struct handle_state *s,
			const struct gemm_args *g, const long long *params, unsigned n_params,
			cublasStatus_t result)
{
	struct lib_call c;
	long long dims[3];
	unsigned rank;

	lib_call_begin(&c, api, s->stream);
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

#define ITEMS(...) __VA_ARGS__

/*
 * One GEMM on the skeleton: its prototype and argument list (which name
 * the handle `handle` and the scaling factor `beta`), the type beta is read
 * as, the struct gemm_args fields in parentheses, then the event's params
 * (named, like the arguments, by the catalogue: tracepoints/entry_points.h).
 * The handle's stream and pointer mode are asked before forwarding.
 */
#define GEMM(name, params, args, scale_type, gemm, ...)                                       \
	DNNTRACE_LIB_TRACED_CALL(cublasStatus_t, name, params, args,                         \
				 CUBLAS_STATUS_NOT_INITIALIZED, lib_call_enabled(),          \
				 const struct handle_state state =                           \
					 handle_state_of(handle, beta, scale_type),           \
				 const long long values[] = { __VA_ARGS__ };                 \
				 const struct gemm_args gemm_ = { ITEMS gemm };              \
				 record_gemm(&call, api, &state, &gemm_, values,              \
					     sizeof(values) / sizeof(values[0]), result))

/* The typed GEMMs: everything of type T, cuda_type the matching cudaDataType. */
#define TYPED_GEMM(name, T, cuda_type)                                                       \
	GEMM(name,                                                                           \
	     (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, \
	      int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,        \
	      const T *beta, T *C, int ldc),                                                 \
	     (handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),         \
	     cuda_type,                                                                      \
	     (transa, transb, m, n, k, 0, A, B, C, cuda_type, cuda_type, cuda_type, false),    \
	     m, n, k, transa, transb, lda, ldb, ldc)

TYPED_GEMM(cublasSgemm_v2, float, CUDA_R_32F)
TYPED_GEMM(cublasDgemm_v2, double, CUDA_R_64F)
TYPED_GEMM(cublasHgemm, struct __half, CUDA_R_16F)

GEMM(cublasSgemmStridedBatched,
     (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
      int k, const float *alpha, const float *A, int lda, long long int strideA,
      const float *B, int ldb, long long int strideB, const float *beta, float *C, int ldc,
      long long int strideC, int batchCount),
     (handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
      strideC, batchCount),
     CUDA_R_32F,
     (transa, transb, m, n, k, batchCount, A, B, C, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, false),
     m, n, k, transa, transb, lda, ldb, ldc, strideA, strideB, strideC, batchCount)

GEMM(cublasGemmEx,
     (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
      int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
      cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
      cublasComputeType_t computeType, cublasGemmAlgo_t algo),
     (handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype,
      ldc, computeType, algo),
     cublas_scale_type(computeType, Ctype),
     (transa, transb, m, n, k, 0, A, B, C, Atype, Btype, Ctype, false),
     m, n, k, transa, transb, lda, ldb, ldc, Atype, Btype, Ctype, computeType, algo)

GEMM(cublasGemmStridedBatchedEx,
     (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
      int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
      long long int strideA, const void *B, cudaDataType Btype, int ldb,
      long long int strideB, const void *beta, void *C, cudaDataType Ctype, int ldc,
      long long int strideC, int batchCount, cublasComputeType_t computeType,
      cublasGemmAlgo_t algo),
     (handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB,
      beta, C, Ctype, ldc, strideC, batchCount, computeType, algo),
     cublas_scale_type(computeType, Ctype),
     (transa, transb, m, n, k, batchCount, A, B, C, Atype, Btype, Ctype, false),
     m, n, k, transa, transb, lda, ldb, ldc, strideA, strideB, strideC, batchCount, Atype,
     Btype, Ctype, computeType, algo)

GEMM(cublasGemmBatchedEx,
     (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
      int k, const void *alpha, const void *const Aarray[], cudaDataType Atype, int lda,
      const void *const Barray[], cudaDataType Btype, int ldb, const void *beta,
      void *const Carray[], cudaDataType Ctype, int ldc, int batchCount,
      cublasComputeType_t computeType, cublasGemmAlgo_t algo),
     (handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray, Btype, ldb, beta,
      Carray, Ctype, ldc, batchCount, computeType, algo),
     cublas_scale_type(computeType, Ctype),
     (transa, transb, m, n, k, batchCount, Aarray, Barray, Carray, Atype, Btype, Ctype, true),
     m, n, k, transa, transb, lda, ldb, ldc, batchCount, Atype, Btype, Ctype, computeType,
     algo)

/* No GPU work: no call id; later calls on handle run on streamId. */
DNNTRACE_LIB_RECORDED_CALL(cublasStatus_t, cublasSetStream_v2,
			   (cublasHandle_t handle, cudaStream_t streamId), (handle, streamId),
			   CUBLAS_STATUS_NOT_INITIALIZED,
			   lttng_ust_tracepoint_enabled(dnntrace_lib, set_stream),
			   DNNTRACE_EMIT(dnntrace_lib, set_stream, api, handle, streamId,
						(int)result))
