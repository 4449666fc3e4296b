/*
 * dnntrace_lib: the LTTng-UST provider of library calls (cuDNN, cuBLAS,
 * cuBLASLt). One event per call the program made, at the outermost level,
 * carrying every data pointer with its role (read, write, ...), element type
 * and shape. The kernels a call launches link back to it through CUPTI
 * external correlation (call_id), exactly as launches do.
 *
 * Part of the public trace format (tracepoints/README.md): add only.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dnntrace_lib

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tracepoints/dnntrace_lib.h"

#if !defined(DNNTRACE_LIB_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DNNTRACE_LIB_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

#include "tracepoints/dnntrace_enums.h"

LTTNG_UST_TRACEPOINT_ENUM(dnntrace_lib, api,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("cudnnConvolutionForward", DNNTRACE_LIB_cudnnConvolutionForward)
		lttng_ust_field_enum_value("cudnnConvolutionBackwardData", DNNTRACE_LIB_cudnnConvolutionBackwardData)
		lttng_ust_field_enum_value("cudnnConvolutionBackwardFilter", DNNTRACE_LIB_cudnnConvolutionBackwardFilter)
		lttng_ust_field_enum_value("cudnnConvolutionBackwardBias", DNNTRACE_LIB_cudnnConvolutionBackwardBias)
		lttng_ust_field_enum_value("cudnnConvolutionBiasActivationForward", DNNTRACE_LIB_cudnnConvolutionBiasActivationForward)
		lttng_ust_field_enum_value("cudnnBatchNormalizationForwardTraining", DNNTRACE_LIB_cudnnBatchNormalizationForwardTraining)
		lttng_ust_field_enum_value("cudnnBatchNormalizationForwardTrainingEx", DNNTRACE_LIB_cudnnBatchNormalizationForwardTrainingEx)
		lttng_ust_field_enum_value("cudnnBatchNormalizationForwardInference", DNNTRACE_LIB_cudnnBatchNormalizationForwardInference)
		lttng_ust_field_enum_value("cudnnBatchNormalizationBackward", DNNTRACE_LIB_cudnnBatchNormalizationBackward)
		lttng_ust_field_enum_value("cudnnBatchNormalizationBackwardEx", DNNTRACE_LIB_cudnnBatchNormalizationBackwardEx)
		lttng_ust_field_enum_value("cudnnActivationForward", DNNTRACE_LIB_cudnnActivationForward)
		lttng_ust_field_enum_value("cudnnActivationBackward", DNNTRACE_LIB_cudnnActivationBackward)
		lttng_ust_field_enum_value("cudnnPoolingForward", DNNTRACE_LIB_cudnnPoolingForward)
		lttng_ust_field_enum_value("cudnnPoolingBackward", DNNTRACE_LIB_cudnnPoolingBackward)
		lttng_ust_field_enum_value("cudnnSoftmaxForward", DNNTRACE_LIB_cudnnSoftmaxForward)
		lttng_ust_field_enum_value("cudnnSoftmaxBackward", DNNTRACE_LIB_cudnnSoftmaxBackward)
		lttng_ust_field_enum_value("cudnnAddTensor", DNNTRACE_LIB_cudnnAddTensor)
		lttng_ust_field_enum_value("cudnnOpTensor", DNNTRACE_LIB_cudnnOpTensor)
		lttng_ust_field_enum_value("cudnnDropoutForward", DNNTRACE_LIB_cudnnDropoutForward)
		lttng_ust_field_enum_value("cudnnDropoutBackward", DNNTRACE_LIB_cudnnDropoutBackward)
		lttng_ust_field_enum_value("cudnnBackendExecute", DNNTRACE_LIB_cudnnBackendExecute)
		lttng_ust_field_enum_value("cudnnSetStream", DNNTRACE_LIB_cudnnSetStream)
		lttng_ust_field_enum_value("cublasSgemm_v2", DNNTRACE_LIB_cublasSgemm_v2)
		lttng_ust_field_enum_value("cublasDgemm_v2", DNNTRACE_LIB_cublasDgemm_v2)
		lttng_ust_field_enum_value("cublasHgemm", DNNTRACE_LIB_cublasHgemm)
		lttng_ust_field_enum_value("cublasGemmEx", DNNTRACE_LIB_cublasGemmEx)
		lttng_ust_field_enum_value("cublasSgemmStridedBatched", DNNTRACE_LIB_cublasSgemmStridedBatched)
		lttng_ust_field_enum_value("cublasGemmStridedBatchedEx", DNNTRACE_LIB_cublasGemmStridedBatchedEx)
		lttng_ust_field_enum_value("cublasGemmBatchedEx", DNNTRACE_LIB_cublasGemmBatchedEx)
		lttng_ust_field_enum_value("cublasSetStream_v2", DNNTRACE_LIB_cublasSetStream_v2)
		lttng_ust_field_enum_value("cublasLtMatmul", DNNTRACE_LIB_cublasLtMatmul)
	)
)

/*
 * A library call that does GPU work (see struct dnntrace_lib_call in
 * dnntrace_enums.h for each field). call_id is pushed as CUPTI external
 * correlation id around the forwarded call: every kernel the library
 * launches inside it links here.
 */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_lib, call,
	LTTNG_UST_TP_ARGS(const struct dnntrace_lib_call *, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, call_id, c->call_id)
		lttng_ust_field_enum(dnntrace_lib, api, int, api, c->api)
		lttng_ust_field_integer_hex(uint64_t, handle, (uintptr_t)c->handle)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)c->stream)
		lttng_ust_field_sequence(int64_t, tensors, c->tensors, uint32_t, c->n_args)
		lttng_ust_field_sequence_hex(uint64_t, ptrs, c->ptrs, uint32_t, c->n_args)
		lttng_ust_field_sequence(uint8_t, roles, c->roles, uint32_t, c->n_args)
		lttng_ust_field_sequence(uint8_t, dtypes, c->dtypes, uint32_t, c->n_args)
		lttng_ust_field_sequence(uint8_t, ranks, c->ranks, uint32_t, c->n_args)
		lttng_ust_field_string(arg_names, c->arg_names)
		lttng_ust_field_sequence(int64_t, dims, c->dims, uint32_t, c->n_dims)
		lttng_ust_field_sequence(int64_t, params, c->params, uint32_t, c->n_params)
		lttng_ust_field_string(param_names, c->param_names)
		lttng_ust_field_integer(int32_t, result, c->result)
		lttng_ust_field_integer(uint64_t, start_ns, c->start_ns)
	)
)

/* cudnnSetStream / cublasSetStream_v2: later calls on handle run on stream. */
LTTNG_UST_TRACEPOINT_EVENT(dnntrace_lib, set_stream,
	LTTNG_UST_TP_ARGS(int, api, const void *, handle, const void *, stream, int, result),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(dnntrace_lib, api, int, api, api)
		lttng_ust_field_integer_hex(uint64_t, handle, (uintptr_t)handle)
		lttng_ust_field_integer_hex(uint64_t, stream, (uintptr_t)stream)
		lttng_ust_field_integer(int32_t, result, result)
	)
)

#endif /* DNNTRACE_LIB_TP_H */

#include <lttng/tracepoint-event.h>
