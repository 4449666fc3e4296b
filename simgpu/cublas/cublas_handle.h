/*
 * The simulated cuBLAS handle (struct cublasContext, opaque to programs),
 * shared by the handle functions (cublas_handle.c) and the GEMMs
 * (cublas_gemm.c). Must never be seen outside libcublas.so.13.
 */
#ifndef SIMGPU_CUBLAS_HANDLE_H
#define SIMGPU_CUBLAS_HANDLE_H

#include <stddef.h>

#include <cublasLt.h>
#include <cublas_api.h>

struct cublasContext {
	cudaStream_t stream;
	cublasPointerMode_t pointer_mode;
	cublasMath_t math_mode;
	void *workspace; /* NULL: the default pool (the simulator needs none) */
	size_t workspace_size;
	cublasLtHandle_t lt; /* cublasGemmEx and cublasGemmStridedBatchedEx run through it */
};

#endif
