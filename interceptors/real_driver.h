/*
 * The CUDA driver API functions the tracer forwards to or queries, as an
 * X-macro list that real_functions.h folds into its one table:
 * X(name, required). Owned by the driver API wrappers; must list only
 * functions of cuda.h.
 */
#ifndef DNNTRACE_REAL_DRIVER_H
#define DNNTRACE_REAL_DRIVER_H

#define DNNTRACE_REAL_DRIVER_FUNCTIONS(X)

#endif
