/*
 * The cuBLAS and cuBLASLt functions the tracer forwards to or queries, as an
 * X-macro list that real_functions.h folds into its one table:
 * X(name, required). Owned by the cuBLAS wrappers; must list only functions
 * of cublas*.h.
 */
#ifndef DNNTRACE_REAL_CUBLAS_H
#define DNNTRACE_REAL_CUBLAS_H

#define DNNTRACE_REAL_CUBLAS_FUNCTIONS(X)

#endif
