/*
 * Internals shared by the simulated libcudnn.so.9 (simgpu/cudnn):
 * what each opaque cuDNN object holds, the argument checks every call
 * shares, and the one way a call launches its kernel. Never include it from
 * a program: programs see only the real cudnn*.h.
 */
#ifndef SIMGPU_CUDNN_INTERNAL_H
#define SIMGPU_CUDNN_INTERNAL_H

#include <cudnn.h>
#include <stdint.h>

/* Tags that tell a live object of each kind from anything else. */
enum sim_magic {
	SIM_HANDLE_MAGIC = 0x48444e4e,
	SIM_TENSOR_MAGIC = 0x54454e53,
	SIM_FILTER_MAGIC = 0x46494c54,
	SIM_CONV_MAGIC = 0x434f4e56,
	SIM_ACTIVATION_MAGIC = 0x41435456,
	SIM_POOLING_MAGIC = 0x504f4f4c,
	SIM_DROPOUT_MAGIC = 0x44524f50,
	SIM_OPTENSOR_MAGIC = 0x4f505445,
};

struct cudnnContext {
	uint32_t magic;
	cudaStream_t stream;
};

struct cudnnTensorStruct {
	uint32_t magic;
	int is_set;
	cudnnDataType_t dtype;
	int nb_dims;
	int dims[CUDNN_DIM_MAX];
	int strides[CUDNN_DIM_MAX];
};

struct cudnnFilterStruct {
	uint32_t magic;
	int is_set;
	cudnnDataType_t dtype;
	cudnnTensorFormat_t format;
	int nb_dims;
	int dims[CUDNN_DIM_MAX]; /* K, C per group, spatial... */
};

struct cudnnConvolutionStruct {
	uint32_t magic;
	int is_set;
	int nb_spatial;
	int pad[CUDNN_DIM_MAX];
	int stride[CUDNN_DIM_MAX];
	int dilation[CUDNN_DIM_MAX];
	cudnnConvolutionMode_t mode;
	cudnnDataType_t compute_type;
	cudnnMathType_t math_type;
	cudnnReorderType_t reorder_type;
	int group_count;
};

struct cudnnActivationStruct {
	uint32_t magic;
	int is_set;
	cudnnActivationMode_t mode;
	cudnnNanPropagation_t nan_opt;
	double coef;
	double swish_beta;
};

struct cudnnPoolingStruct {
	uint32_t magic;
	int is_set;
	cudnnPoolingMode_t mode;
	cudnnNanPropagation_t nan_opt;
	int nb_spatial;
	int window[CUDNN_DIM_MAX];
	int pad[CUDNN_DIM_MAX];
	int stride[CUDNN_DIM_MAX];
};

struct cudnnDropoutStruct {
	uint32_t magic;
	int is_set;
	float dropout;
	void *states;
	size_t state_bytes;
	unsigned long long seed;
};

struct cudnnOpTensorStruct {
	uint32_t magic;
	int is_set;
	cudnnOpTensorOp_t op;
	cudnnDataType_t compute_type;
	cudnnNanPropagation_t nan_opt;
};

/* Valid = non-NULL, of the right kind; set = also given a shape. */
int sim_handle_ok(cudnnHandle_t handle);
int sim_tensor_set(cudnnTensorDescriptor_t desc);
int sim_filter_set(cudnnFilterDescriptor_t desc);
int sim_conv_set(cudnnConvolutionDescriptor_t desc);

/* Bytes of one element of a data type; 0 for a type cuDNN never stores. */
size_t sim_dtype_bytes(cudnnDataType_t dtype);
/* Elements a tensor descriptor describes (the product of its dims). */
uint64_t sim_tensor_elements(cudnnTensorDescriptor_t desc);
uint64_t sim_tensor_bytes(cudnnTensorDescriptor_t desc);
uint64_t sim_filter_elements(cudnnFilterDescriptor_t desc);
uint64_t sim_filter_bytes(cudnnFilterDescriptor_t desc);
/* Same rank and dims (strides may differ). */
int sim_same_shape(cudnnTensorDescriptor_t a, cudnnTensorDescriptor_t b);

/*
 * Every kernel the library launches (README.md lists names and the calls
 * that launch them). Each takes the call's data pointers as parameters.
 */
enum sim_kernel {
	SIM_K_CONV_FWD,
	SIM_K_CONV_BIAS_ACT_FWD,
	SIM_K_CONV_BWD_DATA,
	SIM_K_CONV_BWD_FILTER,
	SIM_K_CONV_BWD_BIAS,
	SIM_K_BN_FWD_TRAIN,
	SIM_K_BN_FWD_INFER,
	SIM_K_BN_BWD,
	SIM_K_ACT_FWD,
	SIM_K_ACT_BWD,
	SIM_K_POOL_FWD,
	SIM_K_POOL_BWD,
	SIM_K_SOFTMAX_FWD,
	SIM_K_SOFTMAX_BWD,
	SIM_K_ADD_TENSOR,
	SIM_K_OP_TENSOR,
	SIM_K_DROPOUT_INIT,
	SIM_K_DROPOUT_FWD,
	SIM_K_DROPOUT_BWD,
	/* The backend API's kernels (cudnn_backend_exec.c), in enum op_kind order:
	 * first one operation each, then runtime-fused groups. */
	SIM_K_BACKEND_CONV_FWD,
	SIM_K_BACKEND_CONV_BWD_DATA,
	SIM_K_BACKEND_CONV_BWD_FILTER,
	SIM_K_BACKEND_MATMUL,
	SIM_K_BACKEND_POINTWISE,
	SIM_K_BACKEND_OTHER,
	SIM_K_BACKEND_FUSED_CONV_FWD,
	SIM_K_BACKEND_FUSED_CONV_BWD_DATA,
	SIM_K_BACKEND_FUSED_CONV_BWD_FILTER,
	SIM_K_BACKEND_FUSED_MATMUL,
	SIM_K_BACKEND_FUSED_POINTWISE,
	SIM_K_COUNT
};

/* The most data pointers one kernel takes. */
#define SIM_KERNEL_MAX_PTRS 16

/*
 * Launches `kernel` on the handle's stream with `nptrs` pointer parameters,
 * after giving it the duration the cost model (README.md) makes of `flops`
 * and `bytes` (simgpu_default_next_kernel_ns: a program's own
 * simgpu_next_kernel_ns still wins). `elements` sizes the grid.
 * CUDNN_STATUS_EXECUTION_FAILED_CUDART if the runtime refuses the launch.
 */
cudnnStatus_t sim_launch(cudnnHandle_t handle, enum sim_kernel kernel,
			 uint64_t flops, uint64_t bytes, uint64_t elements,
			 int nptrs, const void *const *ptrs);

/* Workspace the conv algorithms need (cudnn_conv.c), for the backend too. */
size_t sim_conv_im2col_bytes(cudnnDataType_t dtype, uint64_t c_rs, uint64_t pq);

#endif
