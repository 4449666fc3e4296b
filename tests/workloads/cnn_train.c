/*
 * cnn_train: three training steps of a small CNN, calling CUDA the way
 * PyTorch 2 does with PYTORCH_NO_CUDA_MEMORY_CACHING=1:
 *
 *   conv1 3->8 (3x3, pad 1) -> batch norm -> relu -> conv2 8->8 -> relu ->
 *   max pool 2x2 -> flatten -> linear 128->10 (+bias) -> log_softmax + nll
 *
 * Convolutions go through cuDNN's graph (backend) API as cudnn-frontend
 * builds them: tensor descriptors with uids, one operation, an operation
 * graph, engine heuristics, the first engine config, an execution plan
 * (built once per shape and reused, like PyTorch's plan cache), and a fresh
 * variant pack per cudnnBackendExecute. Batch norm is
 * cudnnBatchNormalizationForwardTrainingEx / BackwardEx as aten's
 * cudnn_batch_norm calls them; the linear layer and its gradients go through
 * cublasLtMatmul (forward with the BIAS epilogue); everything else is one of
 * PyTorch's own kernels (cudaLaunchKernel, tensor pointers inside one struct
 * parameter, like TensorIterator's). Every tensor is its own cudaMalloc,
 * freed once its last user has been issued; workspaces too. Parameters,
 * batch-norm buffers and the cuBLASLt workspace are allocated up front. The
 * batch (labels then images, one pinned buffer) is copied in with one
 * cudaMemcpyAsync on a side stream joined with an event: images and labels
 * are views into that one allocation, so the convolution reads a pointer
 * into the middle of it. SGD with momentum: the first step clones each
 * gradient into its momentum buffer (a device-to-device copy), later steps
 * run mul_ and add_ on it, then the parameter update.
 *
 *   cnn_train TRUTH_DIR     writes the ground truth (truth.h) into TRUTH_DIR
 *
 * Each library call launches one kernel (simgpu/cudnn/README.md,
 * simgpu/cublas/README.md) whose duration the program sets. Its stdout
 * must not depend on whether it is traced; it never prints device data.
 */
#include <cublasLt.h>
#include <cudnn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/lib_workload.h"
#include "tests/workloads/workload.h"

enum {
	BATCH = 8, IN_C = 3, SIDE = 8, C1 = 8, C2 = 8, POOLED = SIDE / 2,
	FEATURES = C2 * POOLED * POOLED, CLASSES = 10, ITERATIONS = 3,
	LT_WORKSPACE_BYTES = 1 << 16,
};

/* Kernel names of the simulated libraries' contract (their READMEs). */
#define K_FPROP "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw"
#define K_DGRAD "sm80_xmma_dgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw"
#define K_WGRAD "sm80_xmma_wgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw"
#define K_BN_FWD "bn_fw_tr_1C11_kernel_NCHW"
#define K_BN_BWD "bn_bw_1C11_kernel_new"
#define K_LT_GEMM_FMT "sm80_xmma_gemm_f32_%c%c_tilesize128x128x32_stage4_kernel"

/* ---- PyTorch's own kernels ------------------------------------------------------ */

/* TensorIterator-like operand block: the tensors sit inside the struct. */
struct operands {
	void *data[4];
	int64_t numel;
	int32_t n_operands;
};

enum torch_kernel {
	ADD_SCALAR, RELU, MAX_POOL_FWD, LOG_SOFTMAX_FWD, NLL_LOSS_FWD, FILL_ONES,
	NLL_LOSS_BWD, LOG_SOFTMAX_BWD, SUM_ROWS, MAX_POOL_BWD, THRESHOLD_BWD,
	MUL_SCALAR, ADD_TENSORS, SGD_STEP, N_TORCH_KERNELS
};

static const char *const torch_kernel_names[N_TORCH_KERNELS] = {
	"vectorized_elementwise_kernel_add_scalar", "vectorized_elementwise_kernel_relu",
	"max_pool_forward_nchw", "cunn_SoftMaxForward_log",
	"nll_loss_forward_reduce_cuda_kernel_2d", "vectorized_elementwise_kernel_fill",
	"nll_loss_backward_reduce_cuda_kernel_2d", "cunn_SoftMaxBackward_log",
	"reduce_kernel_sum", "max_pool_backward_nchw",
	"vectorized_elementwise_kernel_threshold_backward",
	"vectorized_elementwise_kernel_mul_scalar", "vectorized_elementwise_kernel_add",
	"vectorized_elementwise_kernel_add_alpha",
};

static const char torch_kernel_handles[N_TORCH_KERNELS];

static struct truth *truth;
static cudaStream_t main_stream, copy_stream;
static unsigned torch_launches;

static void define_torch_kernels(void)
{
	size_t sizes[1] = {sizeof(struct operands)};
	for (int k = 0; k < N_TORCH_KERNELS; k++)
		simgpu_define_kernel(&torch_kernel_handles[k], torch_kernel_names[k], 1, sizes);
}

static void torch_launch(enum torch_kernel kernel, void *a, void *b, void *c, void *d)
{
	struct operands ops;
	memset(&ops, 0, sizeof(ops));
	void *given[4] = {a, b, c, d};
	for (int i = 0; i < 4 && given[i]; i++)
		ops.data[ops.n_operands++] = given[i];
	ops.numel = BATCH * C1 * SIDE * SIDE;
	void *args[1] = {&ops};
	uint64_t duration_ns = 100000 + 1000 * (uint64_t)((torch_launches++ * 7) % 19);
	wl_launch(truth, &torch_kernel_handles[kernel], torch_kernel_names[kernel], args,
		  main_stream, duration_ns, (const void *const *)ops.data, (size_t)ops.n_operands);
}

static void *empty(size_t bytes, const char *name, int iteration)
{
	char label[96];
	snprintf(label, sizeof(label), "%s.%d", name, iteration);
	return wl_alloc(truth, bytes, label, 0);
}

static void *empty_f32(size_t elements, const char *name, int iteration)
{
	return empty(elements * sizeof(float), name, iteration);
}

/* ---- cuDNN graph API, the way cudnn-frontend drives it ------------------------------ */

static cudnnHandle_t cudnn;

/* aten's getCudnnHandle: the handle, set to the current stream. */
static cudnnHandle_t cudnn_handle(void)
{
	WL_CUDNN(cudnnSetStream(cudnn, main_stream));
	return cudnn;
}

static void set_attr(cudnnBackendDescriptor_t desc, cudnnBackendAttributeName_t name,
		     cudnnBackendAttributeType_t type, int64_t count, const void *values)
{
	WL_CUDNN(cudnnBackendSetAttribute(desc, name, type, count, values));
}

static cudnnBackendDescriptor_t backend_desc(cudnnBackendDescriptorType_t type)
{
	cudnnBackendDescriptor_t desc;
	WL_CUDNN(cudnnBackendCreateDescriptor(type, &desc));
	return desc;
}

/* A 4-d float NCHW (or KCRS) tensor, packed. */
static cudnnBackendDescriptor_t graph_tensor(int64_t uid, const int64_t dims[4])
{
	cudnnBackendDescriptor_t tensor = backend_desc(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
	cudnnDataType_t dtype = CUDNN_DATA_FLOAT;
	int64_t strides[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
	int64_t alignment = 16;
	set_attr(tensor, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &dtype);
	set_attr(tensor, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dims);
	set_attr(tensor, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, strides);
	set_attr(tensor, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid);
	set_attr(tensor, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment);
	WL_CUDNN(cudnnBackendFinalize(tensor));
	return tensor;
}

static cudnnBackendDescriptor_t conv_3x3_pad1(void)
{
	cudnnBackendDescriptor_t conv = backend_desc(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
	cudnnDataType_t compute = CUDNN_DATA_FLOAT;
	cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
	int64_t spatial = 2, ones[2] = {1, 1};
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute);
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial);
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, ones);
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, ones);
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, ones);
	set_attr(conv, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, ones);
	WL_CUDNN(cudnnBackendFinalize(conv));
	return conv;
}

enum conv_kind { FPROP, DGRAD, WGRAD };

/* A cached execution plan of one convolution graph and its tensors' uids. */
struct conv_plan {
	enum conv_kind kind;
	cudnnBackendDescriptor_t plan;
	int64_t workspace_bytes;
	int64_t uids[3]; /* in operation order: fprop X W Y, dgrad W DY DX, wgrad X DY DW */
	struct wl_dims dims[3];
	struct wl_dims workspace_dims;
};

static struct conv_plan build_conv_plan(enum conv_kind kind, const int64_t x_dims[4],
					const int64_t w_dims[4], const int64_t y_dims[4])
{
	static int64_t next_uid = 1;
	static const cudnnBackendDescriptorType_t op_types[3] = {
		CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
		CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
		CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
	};
	/* The operation's three tensor attributes, in the order of uids[]. */
	static const cudnnBackendAttributeName_t tensor_attrs[3][3] = {
		{CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
		 CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y},
		{CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
		 CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX},
		{CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
		 CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
		 CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW},
	};
	static const cudnnBackendAttributeName_t conv_attrs[3] = {
		CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
		CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
		CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
	};
	static const cudnnBackendAttributeName_t scale_attrs[3][2] = {
		{CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA},
		{CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA},
		{CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
		 CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA},
	};
	const int64_t *shapes[3][3] = {
		{x_dims, w_dims, y_dims}, {w_dims, y_dims, x_dims}, {x_dims, y_dims, w_dims},
	};
	struct conv_plan result = {.kind = kind};
	cudnnBackendDescriptor_t tensors[3];
	for (int t = 0; t < 3; t++) {
		result.uids[t] = next_uid++;
		tensors[t] = graph_tensor(result.uids[t], shapes[kind][t]);
		result.dims[t] = wl_shape("f32", 4, shapes[kind][t]);
	}
	cudnnBackendDescriptor_t conv = conv_3x3_pad1();
	cudnnBackendDescriptor_t op = backend_desc(op_types[kind]);
	for (int t = 0; t < 3; t++)
		set_attr(op, tensor_attrs[kind][t], CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &tensors[t]);
	set_attr(op, conv_attrs[kind], CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &conv);
	float alpha = 1.0f, beta = 0.0f;
	set_attr(op, scale_attrs[kind][0], CUDNN_TYPE_FLOAT, 1, &alpha);
	set_attr(op, scale_attrs[kind][1], CUDNN_TYPE_FLOAT, 1, &beta);
	WL_CUDNN(cudnnBackendFinalize(op));

	cudnnBackendDescriptor_t graph = backend_desc(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
	set_attr(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op);
	set_attr(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &cudnn);
	WL_CUDNN(cudnnBackendFinalize(graph));

	cudnnBackendDescriptor_t heuristics = backend_desc(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
	cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_INSTANT;
	set_attr(heuristics, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR,
		 1, &graph);
	set_attr(heuristics, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
	WL_CUDNN(cudnnBackendFinalize(heuristics));
	cudnnBackendDescriptor_t config = backend_desc(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
	int64_t n_configs = 0;
	WL_CUDNN(cudnnBackendGetAttribute(heuristics, CUDNN_ATTR_ENGINEHEUR_RESULTS,
					  CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n_configs, &config));
	if (n_configs < 1) {
		fprintf(stderr, "cnn_train: no engine config for a convolution graph\n");
		exit(1);
	}

	result.plan = backend_desc(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
	set_attr(result.plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &cudnn);
	set_attr(result.plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
		 CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &config);
	WL_CUDNN(cudnnBackendFinalize(result.plan));
	int64_t n_values = 0;
	WL_CUDNN(cudnnBackendGetAttribute(result.plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
					  CUDNN_TYPE_INT64, 1, &n_values, &result.workspace_bytes));
	result.workspace_dims = wl_shape("u8", 1, &result.workspace_bytes);

	/* The plan keeps what it needs; cudnn-frontend frees the rest. */
	WL_CUDNN(cudnnBackendDestroyDescriptor(config));
	WL_CUDNN(cudnnBackendDestroyDescriptor(heuristics));
	WL_CUDNN(cudnnBackendDestroyDescriptor(graph));
	WL_CUDNN(cudnnBackendDestroyDescriptor(op));
	WL_CUDNN(cudnnBackendDestroyDescriptor(conv));
	for (int t = 0; t < 3; t++)
		WL_CUDNN(cudnnBackendDestroyDescriptor(tensors[t]));
	return result;
}

/* Runs a plan on ptrs (in uids order) with a workspace allocated for this call. */
static void run_conv_plan(const struct conv_plan *plan, void *const ptrs[3], int iteration)
{
	static const char *const kernels[3] = {K_FPROP, K_DGRAD, K_WGRAD};
	static const enum truth_role roles[3] = {TRUTH_READ, TRUTH_READ, TRUTH_WRITE};
	void *workspace = plan->workspace_bytes > 0
		? empty((size_t)plan->workspace_bytes, "cudnn_workspace", iteration) : NULL;

	cudnnBackendDescriptor_t pack = backend_desc(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
	set_attr(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 3, ptrs);
	set_attr(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 3, plan->uids);
	set_attr(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
	WL_CUDNN(cudnnBackendFinalize(pack));
	uint64_t ns = wl_next_library_kernel();
	WL_CUDNN(cudnnBackendExecute(cudnn_handle(), plan->plan, pack));
	WL_CUDNN(cudnnBackendDestroyDescriptor(pack));

	struct truth_arg args[4];
	for (int t = 0; t < 3; t++)
		args[t] = (struct truth_arg){ptrs[t], roles[t], plan->dims[t].text};
	args[3] = (struct truth_arg){workspace, TRUTH_WORKSPACE, plan->workspace_dims.text};
	wl_library_kernel(truth, "cudnnBackendExecute", kernels[plan->kind], ns, args, 4);
	if (workspace)
		wl_free(truth, workspace);
}

/* ---- cuBLASLt --------------------------------------------------------------------- */

static cublasLtHandle_t lt;
static void *lt_workspace;

/*
 * D (m x n, col-major, ld m) = op(A) op(B) [+ bias], beta 0 and C = D as
 * aten's gemm_and_bias passes them; every leading dimension = rows.
 */
static void lt_matmul(cublasOperation_t transa, cublasOperation_t transb, int64_t m,
		      int64_t n, int64_t k, const void *a, const void *b, void *d,
		      const void *bias)
{
	cublasLtMatmulDesc_t desc;
	WL_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	WL_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
						 sizeof(transa)));
	WL_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb,
						 sizeof(transb)));
	if (bias) {
		cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
		WL_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
							 &epilogue, sizeof(epilogue)));
		WL_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
							 &bias, sizeof(bias)));
	}
	int64_t a_rows = transa == CUBLAS_OP_N ? m : k, a_cols = transa == CUBLAS_OP_N ? k : m;
	int64_t b_rows = transb == CUBLAS_OP_N ? k : n, b_cols = transb == CUBLAS_OP_N ? n : k;
	cublasLtMatrixLayout_t a_layout, b_layout, d_layout;
	WL_CUBLAS(cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_32F, (uint64_t)a_rows,
					     (uint64_t)a_cols, a_rows));
	WL_CUBLAS(cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_32F, (uint64_t)b_rows,
					     (uint64_t)b_cols, b_rows));
	WL_CUBLAS(cublasLtMatrixLayoutCreate(&d_layout, CUDA_R_32F, (uint64_t)m, (uint64_t)n, m));
	cublasLtMatmulPreference_t preference;
	WL_CUBLAS(cublasLtMatmulPreferenceCreate(&preference));
	uint64_t workspace_limit = LT_WORKSPACE_BYTES;
	WL_CUBLAS(cublasLtMatmulPreferenceSetAttribute(preference,
						       CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
						       &workspace_limit, sizeof(workspace_limit)));
	cublasLtMatmulHeuristicResult_t heuristic;
	int n_results = 0;
	WL_CUBLAS(cublasLtMatmulAlgoGetHeuristic(lt, desc, a_layout, b_layout, d_layout, d_layout,
						 preference, 1, &heuristic, &n_results));
	if (n_results < 1) {
		fprintf(stderr, "cnn_train: no cuBLASLt algorithm\n");
		exit(1);
	}

	const float alpha = 1.0f, beta = 0.0f;
	uint64_t ns = wl_next_library_kernel();
	WL_CUBLAS(cublasLtMatmul(lt, desc, &alpha, a, a_layout, b, b_layout, &beta, d, d_layout,
				 d, d_layout, &heuristic.algo, lt_workspace, LT_WORKSPACE_BYTES,
				 main_stream));
	char kernel[128];
	snprintf(kernel, sizeof(kernel), K_LT_GEMM_FMT, transa == CUBLAS_OP_N ? 'n' : 't',
		 transb == CUBLAS_OP_N ? 'n' : 't');
	int64_t workspace_bytes = LT_WORKSPACE_BYTES;
	struct wl_dims a_dims = wl_shape2("f32", a_rows, a_cols);
	struct wl_dims b_dims = wl_shape2("f32", b_rows, b_cols);
	struct wl_dims d_dims = wl_shape2("f32", m, n);
	struct wl_dims bias_dims = wl_shape("f32", 1, &m);
	struct wl_dims workspace_dims = wl_shape("u8", 1, &workspace_bytes);
	struct truth_arg args[] = {
		{a, TRUTH_READ, a_dims.text}, {b, TRUTH_READ, b_dims.text},
		{d, TRUTH_WRITE, d_dims.text}, {bias, TRUTH_READ, bias_dims.text},
		{lt_workspace, TRUTH_WORKSPACE, workspace_dims.text},
	};
	wl_library_kernel(truth, "cublasLtMatmul", kernel, ns, args, 5);

	WL_CUBLAS(cublasLtMatmulPreferenceDestroy(preference));
	WL_CUBLAS(cublasLtMatrixLayoutDestroy(a_layout));
	WL_CUBLAS(cublasLtMatrixLayoutDestroy(b_layout));
	WL_CUBLAS(cublasLtMatrixLayoutDestroy(d_layout));
	WL_CUBLAS(cublasLtMatmulDescDestroy(desc));
}

/* ---- the model ---------------------------------------------------------------------- */

struct parameter {
	const char *name;
	size_t elements;
	void *data, *grad, *momentum;
};

enum { CONV1_W, BN_W, BN_B, CONV2_W, FC_W, FC_B, N_PARAMS };

static struct parameter params[N_PARAMS] = {
	[CONV1_W] = {"conv1.weight", C1 * IN_C * 9, NULL, NULL, NULL},
	[BN_W] = {"bn1.weight", C1, NULL, NULL, NULL},
	[BN_B] = {"bn1.bias", C1, NULL, NULL, NULL},
	[CONV2_W] = {"conv2.weight", C2 * C1 * 9, NULL, NULL, NULL},
	[FC_W] = {"fc.weight", CLASSES * FEATURES, NULL, NULL, NULL},
	[FC_B] = {"fc.bias", CLASSES, NULL, NULL, NULL},
};

/* model.to("cuda"): a cudaMalloc and a copy from the host per tensor. */
static void *to_device(size_t bytes, const char *name, const void *host)
{
	void *ptr = wl_alloc(truth, bytes, name, 1);
	WL_CHECK(cudaMemcpy(ptr, host, bytes, cudaMemcpyHostToDevice));
	truth_host_write(truth, ptr);
	return ptr;
}

static void new_grad(int p, int iteration)
{
	char name[64];
	snprintf(name, sizeof(name), "%s.grad", params[p].name);
	params[p].grad = empty_f32(params[p].elements, name, iteration);
}

/* optimizer.step() of SGD(momentum=0.9), for-loop implementation. */
static void sgd_step(int iteration)
{
	for (int p = 0; p < N_PARAMS; p++) {
		struct parameter *param = &params[p];
		size_t bytes = param->elements * sizeof(float);
		if (!param->momentum) {
			/* buf = torch.clone(grad): a device-to-device copy. */
			char name[64];
			snprintf(name, sizeof(name), "%s.momentum_buffer", param->name);
			param->momentum = wl_alloc(truth, bytes, name, 0);
			WL_CHECK(cudaMemcpyAsync(param->momentum, param->grad, bytes,
						 cudaMemcpyDeviceToDevice, main_stream));
			truth_host_write(truth, param->momentum);
		} else {
			torch_launch(MUL_SCALAR, param->momentum, NULL, NULL, NULL);
			torch_launch(ADD_TENSORS, param->momentum, param->grad, NULL, NULL);
		}
		torch_launch(SGD_STEP, param->data, param->momentum, NULL, NULL);
	}
	/* optimizer.zero_grad(set_to_none=True) */
	for (int p = 0; p < N_PARAMS; p++) {
		wl_free(truth, params[p].grad);
		params[p].grad = NULL;
	}
	(void)iteration;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: cnn_train TRUTH_DIR\n");
		return 2;
	}
	truth = truth_new();
	truth_exact_roles(truth);
	define_torch_kernels();
	WL_CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
	WL_CHECK(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking));
	cudaEvent_t batch_copied;
	WL_CHECK(cudaEventCreateWithFlags(&batch_copied, cudaEventDisableTiming));
	WL_CUDNN(cudnnCreate(&cudnn));
	WL_CUBLAS(cublasLtCreate(&lt));

	size_t largest = FEATURES * CLASSES;
	float *host_zeros = calloc(largest, sizeof(float));
	unsigned char *host_batch = calloc(1, BATCH * sizeof(int64_t) +
					      BATCH * IN_C * SIDE * SIDE * sizeof(float));
	float host_loss = 0;
	if (!host_zeros || !host_batch) {
		fprintf(stderr, "cnn_train: out of memory\n");
		return 1;
	}
	for (int p = 0; p < N_PARAMS; p++)
		params[p].data = to_device(params[p].elements * sizeof(float), params[p].name,
					   host_zeros);
	void *running_mean = to_device(C1 * sizeof(float), "bn1.running_mean", host_zeros);
	void *running_var = to_device(C1 * sizeof(float), "bn1.running_var", host_zeros);
	void *batches_tracked = to_device(sizeof(int64_t), "bn1.num_batches_tracked", host_zeros);
	lt_workspace = wl_alloc(truth, LT_WORKSPACE_BYTES, "cublaslt_workspace", 1);

	/* Shapes and descriptors of the batch norm (aten's cudnn_batch_norm). */
	cudnnTensorDescriptor_t act_desc, bn_param_desc;
	WL_CUDNN(cudnnCreateTensorDescriptor(&act_desc));
	WL_CUDNN(cudnnSetTensor4dDescriptor(act_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
					    BATCH, C1, SIDE, SIDE));
	WL_CUDNN(cudnnCreateTensorDescriptor(&bn_param_desc));
	WL_CUDNN(cudnnSetTensor4dDescriptor(bn_param_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
					    1, C1, 1, 1));
	struct wl_dims act_dims = wl_shape4("f32", BATCH, C1, SIDE, SIDE);
	struct wl_dims bn_param_dims = wl_shape4("f32", 1, C1, 1, 1);
	const cudnnBatchNormMode_t bn_mode = CUDNN_BATCHNORM_SPATIAL_PERSISTENT;
	const cudnnBatchNormOps_t bn_ops = CUDNN_BATCHNORM_OPS_BN;
	const double epsilon = 1e-5, momentum = 0.1;
	const float one = 1.0f, zero = 0.0f;
	size_t bn_fwd_ws = 0, bn_bwd_ws = 0, bn_reserve = 0;
	WL_CUDNN(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
		cudnn, bn_mode, bn_ops, act_desc, NULL, act_desc, bn_param_desc, NULL, &bn_fwd_ws));
	WL_CUDNN(cudnnGetBatchNormalizationBackwardExWorkspaceSize(
		cudnn, bn_mode, bn_ops, act_desc, NULL, act_desc, NULL, act_desc, bn_param_desc,
		NULL, &bn_bwd_ws));
	WL_CUDNN(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(
		cudnn, bn_mode, bn_ops, NULL, act_desc, &bn_reserve));
	int64_t bn_sizes[3] = {(int64_t)bn_fwd_ws, (int64_t)bn_bwd_ws, (int64_t)bn_reserve};
	struct wl_dims bn_fwd_ws_dims = wl_shape("u8", 1, &bn_sizes[0]);
	struct wl_dims bn_bwd_ws_dims = wl_shape("u8", 1, &bn_sizes[1]);
	struct wl_dims bn_reserve_dims = wl_shape("u8", 1, &bn_sizes[2]);

	const int64_t image_dims[4] = {BATCH, IN_C, SIDE, SIDE};
	const int64_t act1_dims[4] = {BATCH, C1, SIDE, SIDE};
	const int64_t act2_dims[4] = {BATCH, C2, SIDE, SIDE};
	const int64_t w1_dims[4] = {C1, IN_C, 3, 3};
	const int64_t w2_dims[4] = {C2, C1, 3, 3};
	struct conv_plan conv1_fprop = {0}, conv2_fprop = {0}, conv2_dgrad = {0},
			 conv2_wgrad = {0}, conv1_wgrad = {0};
	const size_t labels_bytes = BATCH * sizeof(int64_t);
	const size_t batch_bytes = labels_bytes + BATCH * IN_C * SIDE * SIDE * sizeof(float);

	for (int it = 0; it < ITERATIONS; it++) {
		/* The batch lands on the copy stream; compute waits for it. */
		unsigned char *batch = empty(batch_bytes, "batch", it);
		void *labels = batch, *images = batch + labels_bytes;
		WL_CHECK(cudaMemcpyAsync(batch, host_batch, batch_bytes, cudaMemcpyHostToDevice,
					 copy_stream));
		truth_host_write(truth, batch);
		WL_CHECK(cudaEventRecord(batch_copied, copy_stream));
		WL_CHECK(cudaStreamWaitEvent(main_stream, batch_copied, 0));

		/* conv1 */
		if (!conv1_fprop.plan)
			conv1_fprop = build_conv_plan(FPROP, image_dims, w1_dims, act1_dims);
		void *conv1_out = empty_f32(BATCH * C1 * SIDE * SIDE, "conv1.out", it);
		run_conv_plan(&conv1_fprop, (void *[3]){images, params[CONV1_W].data, conv1_out}, it);

		/* bn1 (training): num_batches_tracked += 1, then cuDNN. */
		torch_launch(ADD_SCALAR, batches_tracked, NULL, NULL, NULL);
		void *bn_out = empty_f32(BATCH * C1 * SIDE * SIDE, "bn1.out", it);
		void *save_mean = empty_f32(C1, "bn1.save_mean", it);
		void *save_invstd = empty_f32(C1, "bn1.save_invstd", it);
		void *bn_workspace = bn_fwd_ws ? empty(bn_fwd_ws, "bn1.workspace", it) : NULL;
		void *bn_reserved = bn_reserve ? empty(bn_reserve, "bn1.reserve", it) : NULL;
		uint64_t ns = wl_next_library_kernel();
		WL_CUDNN(cudnnBatchNormalizationForwardTrainingEx(
			cudnn_handle(), bn_mode, bn_ops, &one, &zero, act_desc, conv1_out, NULL, NULL,
			act_desc, bn_out, bn_param_desc, params[BN_W].data, params[BN_B].data,
			momentum, running_mean, running_var, epsilon, save_mean, save_invstd, NULL,
			bn_workspace, bn_fwd_ws, bn_reserved, bn_reserve));
		struct truth_arg bn_fwd_args[] = {
			{conv1_out, TRUTH_READ, act_dims.text}, {bn_out, TRUTH_WRITE, act_dims.text},
			{params[BN_W].data, TRUTH_READ, bn_param_dims.text},
			{params[BN_B].data, TRUTH_READ, bn_param_dims.text},
			{running_mean, TRUTH_READ_WRITE, bn_param_dims.text},
			{running_var, TRUTH_READ_WRITE, bn_param_dims.text},
			{save_mean, TRUTH_WRITE, bn_param_dims.text},
			{save_invstd, TRUTH_WRITE, bn_param_dims.text},
			{bn_workspace, TRUTH_WORKSPACE, bn_fwd_ws_dims.text},
			{bn_reserved, TRUTH_WRITE, bn_reserve_dims.text},
		};
		wl_library_kernel(truth, "cudnnBatchNormalizationForwardTrainingEx", K_BN_FWD, ns,
				  bn_fwd_args, 10);
		if (bn_workspace)
			wl_free(truth, bn_workspace);

		void *relu1_out = empty_f32(BATCH * C1 * SIDE * SIDE, "relu1.out", it);
		torch_launch(RELU, bn_out, relu1_out, NULL, NULL);
		wl_free(truth, bn_out);

		/* conv2, relu, pool */
		if (!conv2_fprop.plan)
			conv2_fprop = build_conv_plan(FPROP, act1_dims, w2_dims, act2_dims);
		void *conv2_out = empty_f32(BATCH * C2 * SIDE * SIDE, "conv2.out", it);
		run_conv_plan(&conv2_fprop, (void *[3]){relu1_out, params[CONV2_W].data, conv2_out}, it);
		void *relu2_out = empty_f32(BATCH * C2 * SIDE * SIDE, "relu2.out", it);
		torch_launch(RELU, conv2_out, relu2_out, NULL, NULL);
		wl_free(truth, conv2_out);
		void *pool_out = empty_f32(BATCH * FEATURES, "pool.out", it);
		void *pool_indices = empty(BATCH * FEATURES * sizeof(int64_t), "pool.indices", it);
		torch_launch(MAX_POOL_FWD, relu2_out, pool_out, pool_indices, NULL);

		/* fc: logits^T (10 x 8) = W^T (W stored 128 x 10 col-major) * pool^T (128 x 8). */
		void *logits = empty_f32(BATCH * CLASSES, "fc.out", it);
		lt_matmul(CUBLAS_OP_T, CUBLAS_OP_N, CLASSES, BATCH, FEATURES, params[FC_W].data,
			  pool_out, logits, params[FC_B].data);

		/* cross_entropy = nll_loss(log_softmax(logits), labels) */
		void *log_probs = empty_f32(BATCH * CLASSES, "log_softmax.out", it);
		torch_launch(LOG_SOFTMAX_FWD, logits, log_probs, NULL, NULL);
		wl_free(truth, logits);
		void *loss = empty_f32(1, "loss", it);
		void *total_weight = empty_f32(1, "nll_loss.total_weight", it);
		torch_launch(NLL_LOSS_FWD, log_probs, labels, loss, total_weight);

		/* loss.backward() */
		void *loss_grad = empty_f32(1, "loss.grad", it);
		torch_launch(FILL_ONES, loss_grad, NULL, NULL, NULL);
		void *log_probs_grad = empty_f32(BATCH * CLASSES, "log_softmax.out.grad", it);
		torch_launch(NLL_LOSS_BWD, loss_grad, labels, total_weight, log_probs_grad);
		wl_free(truth, loss_grad);
		wl_free(truth, total_weight);
		void *logits_grad = empty_f32(BATCH * CLASSES, "fc.out.grad", it);
		torch_launch(LOG_SOFTMAX_BWD, log_probs_grad, log_probs, logits_grad, NULL);
		wl_free(truth, log_probs_grad);
		wl_free(truth, log_probs);

		/* dW (128 x 10) = pool (128 x 8) grad^T; dbias = sum rows; dpool = W grad. */
		new_grad(FC_W, it);
		lt_matmul(CUBLAS_OP_N, CUBLAS_OP_T, FEATURES, CLASSES, BATCH, pool_out, logits_grad,
			  params[FC_W].grad, NULL);
		new_grad(FC_B, it);
		torch_launch(SUM_ROWS, logits_grad, params[FC_B].grad, NULL, NULL);
		void *pool_grad = empty_f32(BATCH * FEATURES, "pool.out.grad", it);
		lt_matmul(CUBLAS_OP_N, CUBLAS_OP_N, FEATURES, BATCH, CLASSES, params[FC_W].data,
			  logits_grad, pool_grad, NULL);
		wl_free(truth, logits_grad);
		wl_free(truth, pool_out);

		void *relu2_grad = empty_f32(BATCH * C2 * SIDE * SIDE, "relu2.out.grad", it);
		torch_launch(MAX_POOL_BWD, pool_grad, pool_indices, relu2_grad, NULL);
		wl_free(truth, pool_grad);
		wl_free(truth, pool_indices);
		void *conv2_grad = empty_f32(BATCH * C2 * SIDE * SIDE, "conv2.out.grad", it);
		torch_launch(THRESHOLD_BWD, relu2_grad, relu2_out, conv2_grad, NULL);
		wl_free(truth, relu2_grad);
		wl_free(truth, relu2_out);

		if (!conv2_dgrad.plan)
			conv2_dgrad = build_conv_plan(DGRAD, act1_dims, w2_dims, act2_dims);
		void *relu1_grad = empty_f32(BATCH * C1 * SIDE * SIDE, "relu1.out.grad", it);
		run_conv_plan(&conv2_dgrad, (void *[3]){params[CONV2_W].data, conv2_grad, relu1_grad}, it);
		if (!conv2_wgrad.plan)
			conv2_wgrad = build_conv_plan(WGRAD, act1_dims, w2_dims, act2_dims);
		new_grad(CONV2_W, it);
		run_conv_plan(&conv2_wgrad, (void *[3]){relu1_out, conv2_grad, params[CONV2_W].grad}, it);
		wl_free(truth, conv2_grad);

		void *bn_out_grad = empty_f32(BATCH * C1 * SIDE * SIDE, "bn1.out.grad", it);
		torch_launch(THRESHOLD_BWD, relu1_grad, relu1_out, bn_out_grad, NULL);
		wl_free(truth, relu1_grad);
		wl_free(truth, relu1_out);

		void *conv1_grad = empty_f32(BATCH * C1 * SIDE * SIDE, "conv1.out.grad", it);
		new_grad(BN_W, it);
		new_grad(BN_B, it);
		bn_workspace = bn_bwd_ws ? empty(bn_bwd_ws, "bn1.workspace", it) : NULL;
		ns = wl_next_library_kernel();
		WL_CUDNN(cudnnBatchNormalizationBackwardEx(
			cudnn_handle(), bn_mode, bn_ops, &one, &zero, &one, &zero, act_desc, conv1_out,
			NULL, NULL, act_desc, bn_out_grad, NULL, NULL, act_desc, conv1_grad,
			bn_param_desc, params[BN_W].data, NULL, params[BN_W].grad, params[BN_B].grad,
			epsilon, save_mean, save_invstd, NULL, bn_workspace, bn_bwd_ws, bn_reserved,
			bn_reserve));
		struct truth_arg bn_bwd_args[] = {
			{conv1_out, TRUTH_READ, act_dims.text}, {bn_out_grad, TRUTH_READ, act_dims.text},
			{conv1_grad, TRUTH_WRITE, act_dims.text},
			{params[BN_W].data, TRUTH_READ, bn_param_dims.text},
			{params[BN_W].grad, TRUTH_WRITE, bn_param_dims.text},
			{params[BN_B].grad, TRUTH_WRITE, bn_param_dims.text},
			{save_mean, TRUTH_READ, bn_param_dims.text},
			{save_invstd, TRUTH_READ, bn_param_dims.text},
			{bn_workspace, TRUTH_WORKSPACE, bn_bwd_ws_dims.text},
			{bn_reserved, TRUTH_READ, bn_reserve_dims.text},
		};
		wl_library_kernel(truth, "cudnnBatchNormalizationBackwardEx", K_BN_BWD, ns,
				  bn_bwd_args, 10);
		if (bn_workspace)
			wl_free(truth, bn_workspace);
		if (bn_reserved)
			wl_free(truth, bn_reserved);
		wl_free(truth, bn_out_grad);
		wl_free(truth, save_mean);
		wl_free(truth, save_invstd);
		wl_free(truth, conv1_out);

		if (!conv1_wgrad.plan)
			conv1_wgrad = build_conv_plan(WGRAD, image_dims, w1_dims, act1_dims);
		new_grad(CONV1_W, it);
		run_conv_plan(&conv1_wgrad, (void *[3]){images, conv1_grad, params[CONV1_W].grad}, it);
		wl_free(truth, conv1_grad);
		wl_free(truth, batch);

		sgd_step(it);

		/* loss.item() */
		WL_CHECK(cudaMemcpyAsync(&host_loss, loss, sizeof(float), cudaMemcpyDeviceToHost,
					 main_stream));
		WL_CHECK(cudaStreamSynchronize(main_stream));
		wl_free(truth, loss);
		printf("cnn_train: iteration %d done\n", it);
	}
	WL_CHECK(cudaDeviceSynchronize());
	printf("cnn_train: %d iterations\n", ITERATIONS);

	wl_write_truth(truth, argv[1]);
	struct conv_plan *plans[5] = {&conv1_fprop, &conv2_fprop, &conv2_dgrad, &conv2_wgrad,
				      &conv1_wgrad};
	for (int p = 0; p < 5; p++)
		WL_CUDNN(cudnnBackendDestroyDescriptor(plans[p]->plan));
	WL_CUDNN(cudnnDestroyTensorDescriptor(act_desc));
	WL_CUDNN(cudnnDestroyTensorDescriptor(bn_param_desc));
	WL_CUBLAS(cublasLtDestroy(lt));
	WL_CUDNN(cudnnDestroy(cudnn));
	WL_CHECK(cudaEventDestroy(batch_copied));
	WL_CHECK(cudaStreamDestroy(main_stream));
	WL_CHECK(cudaStreamDestroy(copy_stream));
	free(host_zeros);
	free(host_batch);
	truth_delete(truth);
	return 0;
}
