/*
 * The cuBLAS and cuBLASLt functions the tracer forwards to or queries, as an
 * X-macro list that real_functions.h folds into its one table:
 * X(name, required). Owned by the cuBLAS wrappers; must list only functions
 * of cublas*.h (cublasHgemm's C declaration: cublas_cxx_only.h).
 */
#ifndef DNNTRACE_REAL_CUBLAS_H
#define DNNTRACE_REAL_CUBLAS_H

#define DNNTRACE_REAL_CUBLAS_FUNCTIONS(X) \
	X(cublasSgemm_v2, 1) X(cublasDgemm_v2, 1) X(cublasHgemm, 1) X(cublasGemmEx, 1) \
	X(cublasSgemmStridedBatched, 1) X(cublasGemmStridedBatchedEx, 1) \
	X(cublasGemmBatchedEx, 1) X(cublasSetStream_v2, 1) \
	X(cublasGetStream_v2, 0) X(cublasGetPointerMode_v2, 0) \
	X(cublasLtMatmul, 1) X(cublasLtMatmulDescCreate, 1) \
	X(cublasLtMatmulDescInit_internal, 1) X(cublasLtMatmulDescDestroy, 1) \
	X(cublasLtMatmulDescSetAttribute, 1) X(cublasLtMatmulDescGetAttribute, 0) \
	X(cublasLtMatrixLayoutCreate, 1) X(cublasLtMatrixLayoutInit_internal, 1) \
	X(cublasLtMatrixLayoutDestroy, 1) X(cublasLtMatrixLayoutSetAttribute, 1) \
	X(cublasLtMatrixLayoutGetAttribute, 0)

#endif
