/*
 * The cuDNN functions the tracer forwards to or queries, as an X-macro list
 * that real_functions.h folds into its one table: X(name, required).
 * Owned by the cuDNN wrappers; must list only functions of cudnn*.h.
 */
#ifndef DNNTRACE_REAL_CUDNN_H
#define DNNTRACE_REAL_CUDNN_H

#define DNNTRACE_REAL_CUDNN_FUNCTIONS(X)

#endif
