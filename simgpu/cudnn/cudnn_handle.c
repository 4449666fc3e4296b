/*
 * The simulated cuDNN's handle, version, error strings and kernel launches:
 * every kernel the library runs goes through sim_launch, on the handle's
 * stream, via the public runtime API (so CUPTI, streams and timing work as
 * for any kernel). Must never compute anything or touch device memory.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "simgpu/cudnn/cudnn_internal.h"
#include "simgpu/simgpu.h"

static const struct {
	int value;
	const char *name;
} status_names[] = {
#include "cudnn_status_names.h"
};

const char *CUDNNWINAPI cudnnGetErrorString(cudnnStatus_t status)
{
	for (size_t i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
		if (status_names[i].value == (int)status)
			return status_names[i].name;
	return "CUDNN_UNKNOWN_STATUS"; /* what the real 9.19 answers */
}

void CUDNNWINAPI cudnnGetLastErrorString(char *message, size_t max_size)
{
	if (message && max_size)
		message[0] = '\0';
}

size_t CUDNNWINAPI cudnnGetVersion(void)
{
	return CUDNN_VERSION;
}

/* The newest SM the library knows: the real 9.19 libcudnn answers 1210
   (observed on this machine without a GPU). */
size_t CUDNNWINAPI cudnnGetMaxDeviceVersion(void)
{
	return 1210;
}

size_t CUDNNWINAPI cudnnGetCudartVersion(void)
{
	return CUDART_VERSION;
}

cudnnStatus_t CUDNNWINAPI cudnnGetProperty(libraryPropertyType type, int *value)
{
	if (!value)
		return CUDNN_STATUS_BAD_PARAM;
	switch (type) {
	case MAJOR_VERSION: *value = CUDNN_MAJOR; return CUDNN_STATUS_SUCCESS;
	case MINOR_VERSION: *value = CUDNN_MINOR; return CUDNN_STATUS_SUCCESS;
	case PATCH_LEVEL: *value = CUDNN_PATCHLEVEL; return CUDNN_STATUS_SUCCESS;
	default: return CUDNN_STATUS_BAD_PARAM;
	}
}

int sim_handle_ok(cudnnHandle_t handle)
{
	return handle && handle->magic == SIM_HANDLE_MAGIC;
}

cudnnStatus_t CUDNNWINAPI cudnnCreate(cudnnHandle_t *handle)
{
	if (!handle)
		return CUDNN_STATUS_BAD_PARAM;
	/* As the real library: no usable device -> NOT_INITIALIZED. */
	int count = 0;
	if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
		return CUDNN_STATUS_NOT_INITIALIZED;
	struct cudnnContext *h = calloc(1, sizeof *h);
	if (!h)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	h->magic = SIM_HANDLE_MAGIC;
	h->stream = NULL;
	*handle = h;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnDestroy(cudnnHandle_t handle)
{
	/* The real library answers SUCCESS for NULL. */
	if (!handle)
		return CUDNN_STATUS_SUCCESS;
	if (handle->magic != SIM_HANDLE_MAGIC)
		return CUDNN_STATUS_BAD_PARAM;
	handle->magic = 0;
	free(handle);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnSetStream(cudnnHandle_t handle, cudaStream_t streamId)
{
	if (!sim_handle_ok(handle))
		return CUDNN_STATUS_BAD_PARAM;
	handle->stream = streamId;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetStream(cudnnHandle_t handle, cudaStream_t *streamId)
{
	if (!sim_handle_ok(handle) || !streamId)
		return CUDNN_STATUS_BAD_PARAM;
	*streamId = handle->stream;
	return CUDNN_STATUS_SUCCESS;
}

/* ---- kernels ---- */

static const struct {
	const char *name;
	int nptrs;
} kernel_table[SIM_K_COUNT] = {
	[SIM_K_CONV_FWD] = { "implicit_convolve_sgemm", 4 },
	[SIM_K_CONV_BIAS_ACT_FWD] = { "implicit_convolve_sgemm_bias_activation", 6 },
	[SIM_K_CONV_BWD_DATA] = { "dgrad_engine", 4 },
	[SIM_K_CONV_BWD_FILTER] = { "wgrad_alg0_engine", 4 },
	[SIM_K_CONV_BWD_BIAS] = { "conv_bwd_bias_kernel", 2 },
	[SIM_K_BN_FWD_TRAIN] = { "bn_fw_tr_1C11_kernel_NCHW", 12 },
	[SIM_K_BN_FWD_INFER] = { "bn_fw_inf_1C11_kernel_NCHW", 6 },
	[SIM_K_BN_BWD] = { "bn_bw_1C11_kernel_new", 14 },
	[SIM_K_ACT_FWD] = { "activation_fw_4d_kernel", 2 },
	[SIM_K_ACT_BWD] = { "activation_bw_4d_kernel", 4 },
	[SIM_K_POOL_FWD] = { "pooling_fw_4d_kernel", 2 },
	[SIM_K_POOL_BWD] = { "pooling_bw_4d_kernel", 4 },
	[SIM_K_SOFTMAX_FWD] = { "softmax_fw_kernel", 2 },
	[SIM_K_SOFTMAX_BWD] = { "softmax_bw_kernel", 3 },
	[SIM_K_ADD_TENSOR] = { "add_tensor_kernel_v3", 2 },
	[SIM_K_OP_TENSOR] = { "op_generic_tensor_kernel", 3 },
	[SIM_K_DROPOUT_INIT] = { "dropout_init_states_kernel", 1 },
	[SIM_K_DROPOUT_FWD] = { "dropout_fp_kernel", 3 },
	[SIM_K_DROPOUT_BWD] = { "dropout_bp_kernel", 3 },
	[SIM_K_BACKEND_CONV_FWD] = { "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_CONV_BWD_DATA] = { "sm80_xmma_dgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_CONV_BWD_FILTER] = { "sm80_xmma_wgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_MATMUL] = { "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_POINTWISE] = { "cudnn_generated_pointwise_kernel", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_OTHER] = { "cudnn_generated_generic_kernel", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_FUSED_CONV_FWD] = { "cudnn_runtime_fusion_fprop_kernel", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_FUSED_CONV_BWD_DATA] = { "cudnn_runtime_fusion_dgrad_kernel", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_FUSED_CONV_BWD_FILTER] = { "cudnn_runtime_fusion_wgrad_kernel", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_FUSED_MATMUL] = { "cudnn_runtime_fusion_matmul_kernel", SIM_KERNEL_MAX_PTRS },
	[SIM_K_BACKEND_FUSED_POINTWISE] = { "cudnn_runtime_fusion_pointwise_kernel", SIM_KERNEL_MAX_PTRS },
};

/* The host-side handles the kernels are declared under: their addresses. */
static char kernel_handles[SIM_K_COUNT];
static pthread_once_t kernels_once = PTHREAD_ONCE_INIT;

static void define_kernels(void)
{
	size_t sizes[SIM_KERNEL_MAX_PTRS];
	for (int i = 0; i < SIM_KERNEL_MAX_PTRS; i++)
		sizes[i] = sizeof(void *);
	for (int k = 0; k < SIM_K_COUNT; k++)
		simgpu_define_kernel(&kernel_handles[k], kernel_table[k].name,
				     (size_t)kernel_table[k].nptrs, sizes);
}

/* Cost model (README.md): 10 TFLOP/s, 1 TB/s, 2 us fixed per kernel. */
#define SIM_FIXED_NS 2000ULL
#define SIM_FLOP_PER_NS 10000ULL
#define SIM_BYTES_PER_NS 1000ULL

cudnnStatus_t sim_launch(cudnnHandle_t handle, enum sim_kernel kernel,
			 uint64_t flops, uint64_t bytes, uint64_t elements,
			 int nptrs, const void *const *ptrs)
{
	pthread_once(&kernels_once, define_kernels);
	if (nptrs != kernel_table[kernel].nptrs)
		return CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE;
	const void *params[SIM_KERNEL_MAX_PTRS];
	void *args[SIM_KERNEL_MAX_PTRS];
	for (int i = 0; i < nptrs; i++) {
		params[i] = ptrs[i];
		args[i] = &params[i];
	}
	uint64_t blocks = (elements + 255) / 256;
	if (blocks == 0)
		blocks = 1;
	if (blocks > 65535ULL * 1024)
		blocks = 65535ULL * 1024;
	simgpu_default_next_kernel_ns(SIM_FIXED_NS + flops / SIM_FLOP_PER_NS +
				      bytes / SIM_BYTES_PER_NS);
	dim3 grid = { (unsigned)blocks, 1, 1 }, block = { 256, 1, 1 };
	cudaError_t err = cudaLaunchKernel(&kernel_handles[kernel], grid, block,
					   args, 0, handle->stream);
	return err == cudaSuccess ? CUDNN_STATUS_SUCCESS
				  : CUDNN_STATUS_EXECUTION_FAILED_CUDART;
}
