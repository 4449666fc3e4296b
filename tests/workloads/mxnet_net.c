/*
 * mxnet_net: a small CNN trained for 3 iterations the way MXNet drives the
 * GPU with MXNET_ENGINE_TYPE=NaiveEngine and MXNET_GPU_MEM_POOL_TYPE=Naive:
 * one stream, every op in program order; one cudaMalloc per NDArray, freed
 * when the last op using it has been issued; parameters, their gradients
 * (grad_req=write), optimizer states and the temporary-space resource are
 * allocated at bind time and live to the end. Convolution, activation,
 * pooling and softmax go through cuDNN's legacy API (bias added with
 * cudnnAddTensor as MXNet's CuDNNConvolutionOp does), FullyConnected through
 * cublasSgemm_v2 (column-major, as mshadow's dot), and MXNet's own kernels
 * (bias add, loss gradient, bias gradient, sgd_mom_update) through
 * cudaLaunchKernel with their pointers inside one struct parameter.
 *
 *   conv1 3->8 (3x3, pad 1) +bias -> relu -> conv2 8->8 +bias -> relu ->
 *   maxpool 2x2 -> fc 128->10 +bias -> softmax -> cross-entropy gradient
 *
 *   mxnet_net TRUTH_DIR     writes the ground truth (truth.h) into TRUTH_DIR
 *
 * Each library call launches one kernel (simgpu/cudnn/README.md,
 * simgpu/cublas/README.md) whose duration the program sets. Its stdout
 * must not depend on whether it is traced; it never prints device data (the
 * simulated GPU computes nothing).
 */
#include <cublas_v2.h>
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
};

/* Kernel names of the simulated libraries' contract (their READMEs). */
#define K_CONV_FWD "implicit_convolve_sgemm"
#define K_ADD_TENSOR "add_tensor_kernel_v3"
#define K_ACT_FWD "activation_fw_4d_kernel"
#define K_ACT_BWD "activation_bw_4d_kernel"
#define K_POOL_FWD "pooling_fw_4d_kernel"
#define K_POOL_BWD "pooling_bw_4d_kernel"
#define K_SOFTMAX_FWD "softmax_fw_kernel"
#define K_SOFTMAX_BWD "softmax_bw_kernel"
#define K_CONV_BWD_BIAS "conv_bwd_bias_kernel"
#define K_CONV_BWD_FILTER "wgrad_alg0_engine"
#define K_CONV_BWD_DATA "dgrad_engine"
#define K_SGEMM_NN "ampere_sgemm_128x64_nn"
#define K_SGEMM_NT "ampere_sgemm_128x64_nt"
#define K_SGEMM_TN "ampere_sgemm_128x64_tn"

/* MXNet's own kernels: an mshadow-style plan struct holds the tensors. */
struct plan {
	void *data[4];
	int64_t size;
	int32_t n_data;
};

enum mx_kernel { FC_BIAS_ADD, SOFTMAX_CE_GRAD, FC_BIAS_GRAD, SGD_MOM_UPDATE, N_MX_KERNELS };

static const char *const mx_kernel_names[N_MX_KERNELS] = {
	"mshadow_MapPlanKernel_fc_bias_add", "mxnet_softmax_ce_grad_kernel",
	"mshadow_reduce_rows_fc_bias_grad", "mxnet_sgd_mom_update_kernel",
};

static const char mx_kernel_handles[N_MX_KERNELS];

static struct truth *truth;
static cudaStream_t stream;
static cudnnHandle_t cudnn;
static cublasHandle_t cublas;
static unsigned mx_launches;

static void define_mx_kernels(void)
{
	size_t sizes[1] = {sizeof(struct plan)};
	for (int k = 0; k < N_MX_KERNELS; k++)
		simgpu_define_kernel(&mx_kernel_handles[k], mx_kernel_names[k], 1, sizes);
}

static void mx_launch(enum mx_kernel kernel, void *a, void *b, void *c, void *d)
{
	struct plan plan;
	memset(&plan, 0, sizeof(plan));
	void *given[4] = {a, b, c, d};
	for (int i = 0; i < 4 && given[i]; i++)
		plan.data[plan.n_data++] = given[i];
	plan.size = BATCH * CLASSES;
	void *args[1] = {&plan};
	uint64_t duration_ns = 100000 + 1000 * (uint64_t)((mx_launches++ * 5) % 17);
	wl_launch(truth, &mx_kernel_handles[kernel], mx_kernel_names[kernel], args,
		  stream, duration_ns, (const void *const *)plan.data, (size_t)plan.n_data);
}

static void *ndarray(size_t elements, const char *name, int iteration)
{
	char label[64];
	snprintf(label, sizeof(label), "%s.%d", name, iteration);
	return wl_alloc(truth, elements * sizeof(float), label, 0);
}

/* ---- cuDNN descriptors ------------------------------------------------------ */

static cudnnTensorDescriptor_t tensor_desc(int n, int c, int h, int w)
{
	cudnnTensorDescriptor_t desc;
	WL_CUDNN(cudnnCreateTensorDescriptor(&desc));
	WL_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
	return desc;
}

static cudnnFilterDescriptor_t filter_desc(int k, int c, int r, int s)
{
	cudnnFilterDescriptor_t desc;
	WL_CUDNN(cudnnCreateFilterDescriptor(&desc));
	WL_CUDNN(cudnnSetFilter4dDescriptor(desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, r, s));
	return desc;
}

/* One convolution layer: descriptors, algorithms, workspace sizes, shapes. */
struct conv_layer {
	const char *name;
	int in_c, out_c;
	cudnnTensorDescriptor_t x_desc, y_desc, bias_desc;
	cudnnFilterDescriptor_t w_desc;
	cudnnConvolutionDescriptor_t conv_desc;
	cudnnConvolutionFwdAlgo_t fwd_algo;
	cudnnConvolutionBwdFilterAlgo_t bwd_filter_algo;
	cudnnConvolutionBwdDataAlgo_t bwd_data_algo;
	size_t fwd_ws, bwd_filter_ws, bwd_data_ws;
	struct wl_dims x_dims, y_dims, w_dims, bias_dims;
	struct wl_dims fwd_ws_dims, bwd_filter_ws_dims, bwd_data_ws_dims; /* u8[bytes] */
	void *w, *b, *w_grad, *b_grad, *w_mom, *b_mom; /* bound at bind time */
};

static void setup_conv(struct conv_layer *layer, const char *name, int in_c, int out_c)
{
	layer->name = name;
	layer->in_c = in_c;
	layer->out_c = out_c;
	layer->x_desc = tensor_desc(BATCH, in_c, SIDE, SIDE);
	layer->y_desc = tensor_desc(BATCH, out_c, SIDE, SIDE);
	layer->bias_desc = tensor_desc(1, out_c, 1, 1);
	layer->w_desc = filter_desc(out_c, in_c, 3, 3);
	WL_CUDNN(cudnnCreateConvolutionDescriptor(&layer->conv_desc));
	WL_CUDNN(cudnnSetConvolution2dDescriptor(layer->conv_desc, 1, 1, 1, 1, 1, 1,
						 CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
	int n_out, c_out, h_out, w_out;
	WL_CUDNN(cudnnGetConvolution2dForwardOutputDim(layer->conv_desc, layer->x_desc,
						       layer->w_desc, &n_out, &c_out,
						       &h_out, &w_out));
	if (n_out != BATCH || c_out != out_c || h_out != SIDE || w_out != SIDE) {
		fprintf(stderr, "mxnet_net: %s output %dx%dx%dx%d\n", name, n_out, c_out, h_out, w_out);
		exit(1);
	}

	/*
	 * The algorithms MXNet's autotuner (cudnn_tune=limited_workspace) settles
	 * on for small 3x3 convolutions; each must be among those the _v7
	 * heuristics list as supported.
	 */
	layer->fwd_algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
	layer->bwd_filter_algo = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
	layer->bwd_data_algo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
	cudnnConvolutionFwdAlgoPerf_t fwd[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
	cudnnConvolutionBwdFilterAlgoPerf_t bwd_filter[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
	cudnnConvolutionBwdDataAlgoPerf_t bwd_data[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
	int n_fwd, n_filter, n_data, found = 0;
	WL_CUDNN(cudnnGetConvolutionForwardAlgorithm_v7(cudnn, layer->x_desc, layer->w_desc,
							layer->conv_desc, layer->y_desc,
							CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n_fwd, fwd));
	WL_CUDNN(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
		cudnn, layer->x_desc, layer->y_desc, layer->conv_desc, layer->w_desc,
		CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n_filter, bwd_filter));
	WL_CUDNN(cudnnGetConvolutionBackwardDataAlgorithm_v7(
		cudnn, layer->w_desc, layer->y_desc, layer->conv_desc, layer->x_desc,
		CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n_data, bwd_data));
	for (int i = 0; i < n_fwd; i++)
		found += fwd[i].algo == layer->fwd_algo;
	for (int i = 0; i < n_filter; i++)
		found += bwd_filter[i].algo == layer->bwd_filter_algo;
	for (int i = 0; i < n_data; i++)
		found += bwd_data[i].algo == layer->bwd_data_algo;
	if (found != 3) {
		fprintf(stderr, "mxnet_net: %s: an algorithm is not supported\n", name);
		exit(1);
	}
	WL_CUDNN(cudnnGetConvolutionForwardWorkspaceSize(cudnn, layer->x_desc, layer->w_desc,
							 layer->conv_desc, layer->y_desc,
							 layer->fwd_algo, &layer->fwd_ws));
	WL_CUDNN(cudnnGetConvolutionBackwardFilterWorkspaceSize(cudnn, layer->x_desc, layer->y_desc,
								layer->conv_desc, layer->w_desc,
								layer->bwd_filter_algo,
								&layer->bwd_filter_ws));
	WL_CUDNN(cudnnGetConvolutionBackwardDataWorkspaceSize(cudnn, layer->w_desc, layer->y_desc,
							      layer->conv_desc, layer->x_desc,
							      layer->bwd_data_algo, &layer->bwd_data_ws));
	layer->x_dims = wl_shape4("f32", BATCH, in_c, SIDE, SIDE);
	layer->y_dims = wl_shape4("f32", BATCH, out_c, SIDE, SIDE);
	layer->w_dims = wl_shape4("f32", out_c, in_c, 3, 3);
	layer->bias_dims = wl_shape4("f32", 1, out_c, 1, 1);
	int64_t fwd_ws = (int64_t)layer->fwd_ws, bwd_filter_ws = (int64_t)layer->bwd_filter_ws,
		bwd_data_ws = (int64_t)layer->bwd_data_ws;
	layer->fwd_ws_dims = wl_shape("u8", 1, &fwd_ws);
	layer->bwd_filter_ws_dims = wl_shape("u8", 1, &bwd_filter_ws);
	layer->bwd_data_ws_dims = wl_shape("u8", 1, &bwd_data_ws);
}

/* ---- the temporary-space resource (MXNet's kTempSpace) --------------------- */

static void *temp_space;

/* The workspace pointer a call gets: NULL when it needs none. */
static void *workspace(size_t bytes)
{
	return bytes ? temp_space : NULL;
}

static const float one = 1.0f, zero = 0.0f;

/* ---- layers ------------------------------------------------------------------- */

/* y = conv(x, w) + b: cudnnConvolutionForward then cudnnAddTensor. */
static void conv_forward(struct conv_layer *layer, void *x, void *y)
{
	uint64_t ns = wl_next_library_kernel();
	WL_CUDNN(cudnnConvolutionForward(cudnn, &one, layer->x_desc, x, layer->w_desc, layer->w,
					 layer->conv_desc, layer->fwd_algo,
					 workspace(layer->fwd_ws), layer->fwd_ws, &zero,
					 layer->y_desc, y));
	struct truth_arg conv_args[] = {
		{x, TRUTH_READ, layer->x_dims.text},
		{layer->w, TRUTH_READ, layer->w_dims.text},
		{y, TRUTH_WRITE, layer->y_dims.text},
		{workspace(layer->fwd_ws), TRUTH_WORKSPACE, layer->fwd_ws_dims.text},
	};
	wl_library_kernel(truth, "cudnnConvolutionForward", K_CONV_FWD, ns, conv_args, 4);

	ns = wl_next_library_kernel();
	WL_CUDNN(cudnnAddTensor(cudnn, &one, layer->bias_desc, layer->b, &one, layer->y_desc, y));
	struct truth_arg add_args[] = {
		{layer->b, TRUTH_READ, layer->bias_dims.text},
		{y, TRUTH_READ_WRITE, layer->y_dims.text},
	};
	wl_library_kernel(truth, "cudnnAddTensor", K_ADD_TENSOR, ns, add_args, 2);
}

static void conv_backward(struct conv_layer *layer, void *x, void *dy, void *dx)
{
	uint64_t ns = wl_next_library_kernel();
	WL_CUDNN(cudnnConvolutionBackwardBias(cudnn, &one, layer->y_desc, dy, &zero,
					      layer->bias_desc, layer->b_grad));
	struct truth_arg bias_args[] = {
		{dy, TRUTH_READ, layer->y_dims.text},
		{layer->b_grad, TRUTH_WRITE, layer->bias_dims.text},
	};
	wl_library_kernel(truth, "cudnnConvolutionBackwardBias", K_CONV_BWD_BIAS, ns, bias_args, 2);

	ns = wl_next_library_kernel();
	WL_CUDNN(cudnnConvolutionBackwardFilter(cudnn, &one, layer->x_desc, x, layer->y_desc, dy,
						layer->conv_desc, layer->bwd_filter_algo,
						workspace(layer->bwd_filter_ws),
						layer->bwd_filter_ws, &zero, layer->w_desc,
						layer->w_grad));
	struct truth_arg filter_args[] = {
		{x, TRUTH_READ, layer->x_dims.text},
		{dy, TRUTH_READ, layer->y_dims.text},
		{layer->w_grad, TRUTH_WRITE, layer->w_dims.text},
		{workspace(layer->bwd_filter_ws), TRUTH_WORKSPACE, layer->bwd_filter_ws_dims.text},
	};
	wl_library_kernel(truth, "cudnnConvolutionBackwardFilter", K_CONV_BWD_FILTER, ns,
			  filter_args, 4);
	if (!dx)
		return; /* the data's gradient is not needed (grad_req null) */

	ns = wl_next_library_kernel();
	WL_CUDNN(cudnnConvolutionBackwardData(cudnn, &one, layer->w_desc, layer->w, layer->y_desc,
					      dy, layer->conv_desc, layer->bwd_data_algo,
					      workspace(layer->bwd_data_ws), layer->bwd_data_ws,
					      &zero, layer->x_desc, dx));
	struct truth_arg data_args[] = {
		{layer->w, TRUTH_READ, layer->w_dims.text},
		{dy, TRUTH_READ, layer->y_dims.text},
		{dx, TRUTH_WRITE, layer->x_dims.text},
		{workspace(layer->bwd_data_ws), TRUTH_WORKSPACE, layer->bwd_data_ws_dims.text},
	};
	wl_library_kernel(truth, "cudnnConvolutionBackwardData", K_CONV_BWD_DATA, ns, data_args, 4);
}

static cudnnActivationDescriptor_t relu_desc;
static cudnnPoolingDescriptor_t pool_desc;

static void relu_forward(cudnnTensorDescriptor_t desc, const struct wl_dims *dims,
			 void *x, void *y)
{
	uint64_t ns = wl_next_library_kernel();
	WL_CUDNN(cudnnActivationForward(cudnn, relu_desc, &one, desc, x, &zero, desc, y));
	struct truth_arg args[] = {{x, TRUTH_READ, dims->text}, {y, TRUTH_WRITE, dims->text}};
	wl_library_kernel(truth, "cudnnActivationForward", K_ACT_FWD, ns, args, 2);
}

static void relu_backward(cudnnTensorDescriptor_t desc, const struct wl_dims *dims,
			  void *y, void *dy, void *x, void *dx)
{
	uint64_t ns = wl_next_library_kernel();
	WL_CUDNN(cudnnActivationBackward(cudnn, relu_desc, &one, desc, y, desc, dy, desc, x,
					 &zero, desc, dx));
	struct truth_arg args[] = {
		{y, TRUTH_READ, dims->text}, {dy, TRUTH_READ, dims->text},
		{x, TRUTH_READ, dims->text}, {dx, TRUTH_WRITE, dims->text},
	};
	wl_library_kernel(truth, "cudnnActivationBackward", K_ACT_BWD, ns, args, 4);
}

/* C (col-major m x n, ldc = m) = op(A) op(B), every leading dimension = rows. */
static void sgemm(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
		  const void *a, const void *b, void *c, const char *kernel)
{
	int a_rows = transa == CUBLAS_OP_N ? m : k, a_cols = transa == CUBLAS_OP_N ? k : m;
	int b_rows = transb == CUBLAS_OP_N ? k : n, b_cols = transb == CUBLAS_OP_N ? n : k;
	uint64_t ns = wl_next_library_kernel();
	WL_CUBLAS(cublasSgemm_v2(cublas, transa, transb, m, n, k, &one, a, a_rows, b, b_rows,
				 &zero, c, m));
	struct wl_dims a_dims = wl_shape2("f32", a_rows, a_cols);
	struct wl_dims b_dims = wl_shape2("f32", b_rows, b_cols);
	struct wl_dims c_dims = wl_shape2("f32", m, n);
	struct truth_arg args[] = {
		{a, TRUTH_READ, a_dims.text}, {b, TRUTH_READ, b_dims.text},
		{c, TRUTH_WRITE, c_dims.text},
	};
	wl_library_kernel(truth, "cublasSgemm_v2", kernel, ns, args, 3);
}

/* ---- the network --------------------------------------------------------------- */

struct fc_layer {
	void *w, *b, *w_grad, *b_grad, *w_mom, *b_mom;
};

static void *parameter(size_t elements, const char *name, const float *host_init)
{
	void *ptr = wl_alloc(truth, elements * sizeof(float), name, 1);
	if (host_init) {
		WL_CHECK(cudaMemcpy(ptr, host_init, elements * sizeof(float), cudaMemcpyHostToDevice));
		truth_host_write(truth, ptr);
	}
	return ptr;
}

/* An optimizer state: zeros, as MXNet's sgd creates its momentum. */
static void *state(size_t elements, const char *name)
{
	void *ptr = wl_alloc(truth, elements * sizeof(float), name, 1);
	wl_fill_device(truth, ptr, NULL, elements * sizeof(float), stream);
	return ptr;
}

static void bind_conv(struct conv_layer *layer, const float *host_init)
{
	char name[64];
	size_t w_elems = (size_t)layer->out_c * (size_t)layer->in_c * 9;
	snprintf(name, sizeof(name), "%s_weight", layer->name);
	layer->w = parameter(w_elems, name, host_init);
	snprintf(name, sizeof(name), "%s_bias", layer->name);
	layer->b = parameter((size_t)layer->out_c, name, host_init);
	snprintf(name, sizeof(name), "%s_weight_grad", layer->name);
	layer->w_grad = parameter(w_elems, name, NULL);
	snprintf(name, sizeof(name), "%s_bias_grad", layer->name);
	layer->b_grad = parameter((size_t)layer->out_c, name, NULL);
}

static void bind_conv_states(struct conv_layer *layer)
{
	char name[64];
	snprintf(name, sizeof(name), "%s_weight_mom", layer->name);
	layer->w_mom = state((size_t)layer->out_c * (size_t)layer->in_c * 9, name);
	snprintf(name, sizeof(name), "%s_bias_mom", layer->name);
	layer->b_mom = state((size_t)layer->out_c, name);
}

static void destroy_conv(struct conv_layer *layer)
{
	WL_CUDNN(cudnnDestroyTensorDescriptor(layer->x_desc));
	WL_CUDNN(cudnnDestroyTensorDescriptor(layer->y_desc));
	WL_CUDNN(cudnnDestroyTensorDescriptor(layer->bias_desc));
	WL_CUDNN(cudnnDestroyFilterDescriptor(layer->w_desc));
	WL_CUDNN(cudnnDestroyConvolutionDescriptor(layer->conv_desc));
}

static size_t larger(size_t a, size_t b)
{
	return a > b ? a : b;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mxnet_net TRUTH_DIR\n");
		return 2;
	}
	truth = truth_new();
	truth_exact_roles(truth);
	define_mx_kernels();
	WL_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	WL_CUDNN(cudnnCreate(&cudnn));
	WL_CUDNN(cudnnSetStream(cudnn, stream));
	WL_CUBLAS(cublasCreate_v2(&cublas));
	WL_CUBLAS(cublasSetStream_v2(cublas, stream));

	struct conv_layer conv1, conv2;
	setup_conv(&conv1, "conv1", IN_C, C1);
	setup_conv(&conv2, "conv2", C1, C2);
	WL_CUDNN(cudnnCreateActivationDescriptor(&relu_desc));
	WL_CUDNN(cudnnSetActivationDescriptor(relu_desc, CUDNN_ACTIVATION_RELU,
					      CUDNN_PROPAGATE_NAN, 0.0));
	WL_CUDNN(cudnnCreatePoolingDescriptor(&pool_desc));
	WL_CUDNN(cudnnSetPooling2dDescriptor(pool_desc, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN,
					     2, 2, 0, 0, 2, 2));
	cudnnTensorDescriptor_t pooled_desc = tensor_desc(BATCH, C2, POOLED, POOLED);
	cudnnTensorDescriptor_t logits_desc = tensor_desc(BATCH, CLASSES, 1, 1);
	struct wl_dims pooled_dims = wl_shape4("f32", BATCH, C2, POOLED, POOLED);
	struct wl_dims logits_dims = wl_shape4("f32", BATCH, CLASSES, 1, 1);

	/* Bind: parameters, gradients, optimizer states, temporary space. */
	float *host_init = calloc(FEATURES * CLASSES, sizeof(float));
	float *host_data = calloc(BATCH * IN_C * SIDE * SIDE, sizeof(float));
	float *host_label = calloc(BATCH, sizeof(float));
	float *host_prob = calloc(BATCH * CLASSES, sizeof(float));
	if (!host_init || !host_data || !host_label || !host_prob) {
		fprintf(stderr, "mxnet_net: out of memory\n");
		return 1;
	}
	bind_conv(&conv1, host_init);
	bind_conv(&conv2, host_init);
	struct fc_layer fc;
	fc.w = parameter(FEATURES * CLASSES, "fc_weight", host_init);
	fc.b = parameter(CLASSES, "fc_bias", host_init);
	fc.w_grad = parameter(FEATURES * CLASSES, "fc_weight_grad", NULL);
	fc.b_grad = parameter(CLASSES, "fc_bias_grad", NULL);
	bind_conv_states(&conv1);
	bind_conv_states(&conv2);
	fc.w_mom = state(FEATURES * CLASSES, "fc_weight_mom");
	fc.b_mom = state(CLASSES, "fc_bias_mom");
	size_t temp_bytes = 0;
	const struct conv_layer *layers[2] = {&conv1, &conv2};
	for (int l = 0; l < 2; l++)
		temp_bytes = larger(temp_bytes, larger(layers[l]->fwd_ws,
					larger(layers[l]->bwd_filter_ws, layers[l]->bwd_data_ws)));
	if (temp_bytes)
		temp_space = wl_alloc(truth, temp_bytes, "temp_space", 1);
	WL_CHECK(cudaStreamSynchronize(stream));

	for (int it = 0; it < ITERATIONS; it++) {
		/* The batch: NDArrays copied in on the engine's stream. */
		void *data = ndarray(BATCH * IN_C * SIDE * SIDE, "data", it);
		void *label = ndarray(BATCH, "softmax_label", it);
		wl_fill_device(truth, data, host_data, BATCH * IN_C * SIDE * SIDE * sizeof(float), stream);
		wl_fill_device(truth, label, host_label, BATCH * sizeof(float), stream);

		/* Forward. */
		void *conv1_out = ndarray(BATCH * C1 * SIDE * SIDE, "conv1_output", it);
		conv_forward(&conv1, data, conv1_out);
		void *relu1_out = ndarray(BATCH * C1 * SIDE * SIDE, "relu1_output", it);
		relu_forward(conv1.y_desc, &conv1.y_dims, conv1_out, relu1_out);
		void *conv2_out = ndarray(BATCH * C2 * SIDE * SIDE, "conv2_output", it);
		conv_forward(&conv2, relu1_out, conv2_out);
		void *relu2_out = ndarray(BATCH * C2 * SIDE * SIDE, "relu2_output", it);
		relu_forward(conv2.y_desc, &conv2.y_dims, conv2_out, relu2_out);

		void *pool_out = ndarray(FEATURES * BATCH, "pool_output", it);
		uint64_t ns = wl_next_library_kernel();
		WL_CUDNN(cudnnPoolingForward(cudnn, pool_desc, &one, conv2.y_desc, relu2_out, &zero,
					     pooled_desc, pool_out));
		struct truth_arg pool_args[] = {
			{relu2_out, TRUTH_READ, conv2.y_dims.text},
			{pool_out, TRUTH_WRITE, pooled_dims.text},
		};
		wl_library_kernel(truth, "cudnnPoolingForward", K_POOL_FWD, ns, pool_args, 2);

		/* FullyConnected: out^T (10 x 8) = W^T (10 x 128) * pool^T (128 x 8). */
		void *fc_out = ndarray(BATCH * CLASSES, "fc_output", it);
		sgemm(CUBLAS_OP_T, CUBLAS_OP_N, CLASSES, BATCH, FEATURES, fc.w, pool_out, fc_out,
		      K_SGEMM_TN);
		mx_launch(FC_BIAS_ADD, fc_out, fc.b, NULL, NULL);

		void *prob = ndarray(BATCH * CLASSES, "softmax_output", it);
		ns = wl_next_library_kernel();
		WL_CUDNN(cudnnSoftmaxForward(cudnn, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE,
					     &one, logits_desc, fc_out, &zero, logits_desc, prob));
		struct truth_arg softmax_args[] = {
			{fc_out, TRUTH_READ, logits_dims.text}, {prob, TRUTH_WRITE, logits_dims.text},
		};
		wl_library_kernel(truth, "cudnnSoftmaxForward", K_SOFTMAX_FWD, ns, softmax_args, 2);
		wl_free(truth, fc_out);

		/* Backward: the loss gradient, then back through every layer. */
		void *prob_grad = ndarray(BATCH * CLASSES, "softmax_output_grad", it);
		mx_launch(SOFTMAX_CE_GRAD, prob, label, prob_grad, NULL);
		wl_free(truth, label);
		void *fc_out_grad = ndarray(BATCH * CLASSES, "fc_output_grad", it);
		ns = wl_next_library_kernel();
		WL_CUDNN(cudnnSoftmaxBackward(cudnn, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE,
					      &one, logits_desc, prob, logits_desc, prob_grad, &zero,
					      logits_desc, fc_out_grad));
		struct truth_arg softmax_bwd_args[] = {
			{prob, TRUTH_READ, logits_dims.text}, {prob_grad, TRUTH_READ, logits_dims.text},
			{fc_out_grad, TRUTH_WRITE, logits_dims.text},
		};
		wl_library_kernel(truth, "cudnnSoftmaxBackward", K_SOFTMAX_BWD, ns, softmax_bwd_args, 3);
		wl_free(truth, prob_grad);

		/* dW (128 x 10) = pool (128 x 8) * grad^T; dpool (128 x 8) = W (128 x 10) * grad. */
		sgemm(CUBLAS_OP_N, CUBLAS_OP_T, FEATURES, CLASSES, BATCH, pool_out, fc_out_grad,
		      fc.w_grad, K_SGEMM_NT);
		mx_launch(FC_BIAS_GRAD, fc_out_grad, fc.b_grad, NULL, NULL);
		void *pool_grad = ndarray(FEATURES * BATCH, "pool_output_grad", it);
		sgemm(CUBLAS_OP_N, CUBLAS_OP_N, FEATURES, BATCH, CLASSES, fc.w, fc_out_grad,
		      pool_grad, K_SGEMM_NN);
		wl_free(truth, fc_out_grad);

		void *relu2_grad = ndarray(BATCH * C2 * SIDE * SIDE, "relu2_output_grad", it);
		ns = wl_next_library_kernel();
		WL_CUDNN(cudnnPoolingBackward(cudnn, pool_desc, &one, pooled_desc, pool_out, pooled_desc,
					      pool_grad, conv2.y_desc, relu2_out, &zero, conv2.y_desc,
					      relu2_grad));
		struct truth_arg pool_bwd_args[] = {
			{pool_out, TRUTH_READ, pooled_dims.text}, {pool_grad, TRUTH_READ, pooled_dims.text},
			{relu2_out, TRUTH_READ, conv2.y_dims.text},
			{relu2_grad, TRUTH_WRITE, conv2.y_dims.text},
		};
		wl_library_kernel(truth, "cudnnPoolingBackward", K_POOL_BWD, ns, pool_bwd_args, 4);
		wl_free(truth, pool_grad);
		wl_free(truth, pool_out);

		void *conv2_grad = ndarray(BATCH * C2 * SIDE * SIDE, "conv2_output_grad", it);
		relu_backward(conv2.y_desc, &conv2.y_dims, relu2_out, relu2_grad, conv2_out, conv2_grad);
		wl_free(truth, relu2_grad);
		wl_free(truth, relu2_out);
		wl_free(truth, conv2_out);

		void *relu1_grad = ndarray(BATCH * C1 * SIDE * SIDE, "relu1_output_grad", it);
		conv_backward(&conv2, relu1_out, conv2_grad, relu1_grad);
		wl_free(truth, conv2_grad);

		void *conv1_grad = ndarray(BATCH * C1 * SIDE * SIDE, "conv1_output_grad", it);
		relu_backward(conv1.y_desc, &conv1.y_dims, relu1_out, relu1_grad, conv1_out, conv1_grad);
		wl_free(truth, relu1_grad);
		wl_free(truth, relu1_out);
		wl_free(truth, conv1_out);
		conv_backward(&conv1, data, conv1_grad, NULL);
		wl_free(truth, conv1_grad);
		wl_free(truth, data);

		/* sgd_mom_update, one kernel per parameter. */
		for (int l = 0; l < 2; l++) {
			mx_launch(SGD_MOM_UPDATE, layers[l]->w, layers[l]->w_grad, layers[l]->w_mom, NULL);
			mx_launch(SGD_MOM_UPDATE, layers[l]->b, layers[l]->b_grad, layers[l]->b_mom, NULL);
		}
		mx_launch(SGD_MOM_UPDATE, fc.w, fc.w_grad, fc.w_mom, NULL);
		mx_launch(SGD_MOM_UPDATE, fc.b, fc.b_grad, fc.b_mom, NULL);

		/* The metric reads the output back: the engine waits for it. */
		WL_CHECK(cudaMemcpyAsync(host_prob, prob, BATCH * CLASSES * sizeof(float),
					 cudaMemcpyDeviceToHost, stream));
		WL_CHECK(cudaStreamSynchronize(stream));
		wl_free(truth, prob);
		printf("mxnet_net: iteration %d done\n", it);
	}
	WL_CHECK(cudaDeviceSynchronize());
	printf("mxnet_net: %d iterations\n", ITERATIONS);

	wl_write_truth(truth, argv[1]);
	destroy_conv(&conv1);
	destroy_conv(&conv2);
	WL_CUDNN(cudnnDestroyTensorDescriptor(pooled_desc));
	WL_CUDNN(cudnnDestroyTensorDescriptor(logits_desc));
	WL_CUDNN(cudnnDestroyActivationDescriptor(relu_desc));
	WL_CUDNN(cudnnDestroyPoolingDescriptor(pool_desc));
	WL_CUBLAS(cublasDestroy_v2(cublas));
	WL_CUDNN(cudnnDestroy(cudnn));
	WL_CHECK(cudaStreamDestroy(stream));
	free(host_init);
	free(host_data);
	free(host_label);
	free(host_prob);
	truth_delete(truth);
	return 0;
}
