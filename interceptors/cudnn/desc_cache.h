/*
 * What the cuDNN wrappers know about the program's legacy descriptors and
 * handles without asking cuDNN on every call: the element type and
 * dimensions of each tensor and filter descriptor (remembered when the
 * program sets it), and the stream of each handle (remembered at
 * cudnnSetStream). A descriptor or handle set before the tracer saw it is
 * asked of the real library once (cudnnGet*NdDescriptor, cudnnGetStream)
 * and remembered from then on.
 *
 * Must never call a cuDNN function other than those queries, and never
 * emit trace events.
 */
#ifndef DNNTRACE_CUDNN_DESC_CACHE_H
#define DNNTRACE_CUDNN_DESC_CACHE_H

#include <stdbool.h>

#include <cudnn.h>

#include "tracepoints/dnntrace_enums.h"

enum { CUDNN_SHAPE_MAX_RANK = CUDNN_DIM_MAX };

struct cudnn_shape {
	enum dnntrace_dtype dtype;
	unsigned rank; /* 0: unknown */
	long long dims[CUDNN_SHAPE_MAX_RANK];
	bool is_double; /* cuDNN scaling factors of this tensor are doubles */
};

enum dnntrace_dtype cudnn_dtype(cudnnDataType_t type);

/* Setters' bookkeeping: what the program just set successfully, or forget. */
void cudnn_desc_remember(const void *desc, cudnnDataType_t type, int rank, const int *dims);
void cudnn_desc_forget(const void *desc);

/* Shapes for a call; rank 0 (unknown) for a NULL or unreadable descriptor. */
void cudnn_tensor_shape(cudnnTensorDescriptor_t desc, struct cudnn_shape *shape);
void cudnn_filter_shape(cudnnFilterDescriptor_t desc, struct cudnn_shape *shape);

/* Handles: the stream cudnnSetStream gave, else cudnnGetStream's answer. */
void cudnn_handle_remember_stream(cudnnHandle_t handle, cudaStream_t stream);
void cudnn_handle_forget(cudnnHandle_t handle);
cudaStream_t cudnn_handle_stream(cudnnHandle_t handle);

#endif
