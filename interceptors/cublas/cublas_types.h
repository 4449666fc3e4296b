/*
 * What the cuBLAS and cuBLASLt wrappers share: element types of
 * cudaDataType, the scale (alpha/beta) type of a compute type, and the role
 * of C from beta (read only when beta is a HOST pointer; a device beta is
 * never dereferenced: the role is then DNNTRACE_ROLE_UNKNOWN).
 *
 * Must never call into CUDA or any library.
 */
#ifndef DNNTRACE_CUBLAS_TYPES_H
#define DNNTRACE_CUBLAS_TYPES_H

#include <stdbool.h>

#include <cublas_api.h>

#include "tracepoints/dnntrace_enums.h"

/* The dnntrace element type of a (real) cudaDataType; UNKNOWN for complex ones. */
enum dnntrace_dtype cublas_dtype(cudaDataType type);

/* The type of alpha/beta for a compute type and C's type (complex C: complex scale). */
cudaDataType cublas_scale_type(cublasComputeType_t compute, cudaDataType c_type);

/* What beta says about C. */
enum cublas_beta { BETA_ZERO, BETA_NONZERO, BETA_UNKNOWN };

/* Reads *beta (a host pointer of scale_type); UNKNOWN when NULL or of an unknown type. */
enum cublas_beta cublas_host_beta(const void *beta, cudaDataType scale_type);

/* C's role when the call also writes C: beta != 0 READ_WRITE, 0 WRITE, else UNKNOWN. */
enum dnntrace_role cublas_c_role(enum cublas_beta beta);

#endif
