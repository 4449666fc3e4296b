/*
 * The simulated cuDNN's legacy API: status codes for bad arguments (those
 * marked "real" were observed on the real libcudnn.so.9 without a GPU),
 * descriptor round trips, and for every call one kernel of the documented
 * name (README.md) on the handle's stream, with the cost-model duration
 * unless the program set one with simgpu_next_kernel_ns.
 */
#include "simgpu/tests/cudnn_test.h"
#include "simgpu/simgpu.h"

static cudnnHandle_t handle;
static const float one = 1.0f, zero = 0.0f;

static cudnnTensorDescriptor_t tensor4(int n, int c, int h, int w)
{
	cudnnTensorDescriptor_t d;
	CHECK_DNN(cudnnCreateTensorDescriptor(&d));
	CHECK_DNN(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
	return d;
}

static void *dev(size_t bytes)
{
	void *p = NULL;
	CHECK_CUDA(cudaMalloc(&p, bytes));
	return p;
}

/* Kernels so far must be exactly one more, named `name`; returns it. */
static const struct test_kernel *expect_one_kernel(int *seen, const char *name)
{
	int n = test_flush();
	if (n != *seen + 1 || strcmp(test_kernels[*seen].name, name) != 0) {
		fprintf(stderr, "expected 1 kernel %s, got %d (first: %s)\n", name, n - *seen,
			n > *seen ? test_kernels[*seen].name : "-");
		exit(1);
	}
	return &test_kernels[(*seen)++];
}

static void check_handle_and_errors(void)
{
	cudaStream_t s = (cudaStream_t)1;
	CHECK_DNN_IS(cudnnCreate(NULL), CUDNN_STATUS_BAD_PARAM);            /* real */
	CHECK_DNN_IS(cudnnDestroy(NULL), CUDNN_STATUS_SUCCESS);            /* real */
	CHECK_DNN_IS(cudnnSetStream(NULL, 0), CUDNN_STATUS_BAD_PARAM);     /* real */
	CHECK_DNN_IS(cudnnGetStream(NULL, &s), CUDNN_STATUS_BAD_PARAM);    /* real */
	CHECK(strcmp(cudnnGetErrorString(CUDNN_STATUS_BAD_PARAM), "CUDNN_STATUS_BAD_PARAM") == 0);
	CHECK(strcmp(cudnnGetErrorString(CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH),
		     "CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH") == 0);
	CHECK(strcmp(cudnnGetErrorString((cudnnStatus_t)12345), "CUDNN_UNKNOWN_STATUS") == 0);
	CHECK(cudnnGetVersion() == CUDNN_VERSION);
	CHECK_DNN(cudnnCreate(&handle));
	CHECK_DNN(cudnnGetStream(handle, &s));
	CHECK(s == NULL);
}

static void check_descriptors(void)
{
	cudnnTensorDescriptor_t t;
	cudnnDataType_t dt;
	int n, c, h, w, ns, cs, hs, ws;
	CHECK_DNN_IS(cudnnCreateTensorDescriptor(NULL), CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnCreateTensorDescriptor(&t));
	/* Unset: zeros (real). */
	CHECK_DNN(cudnnGetTensor4dDescriptor(t, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
	CHECK(n == 0 && c == 0 && h == 0 && w == 0);
	CHECK_DNN_IS(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 0, 3, 4, 4),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnSetTensor4dDescriptor(t, (cudnnTensorFormat_t)99, CUDNN_DATA_FLOAT, 1, 3, 4, 4),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, (cudnnDataType_t)99, 1, 3, 4, 4),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	/* NHWC strides (real: 60 1 15 3 for 2x3x4x5). */
	CHECK_DNN(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 2, 3, 4, 5));
	CHECK_DNN(cudnnGetTensor4dDescriptor(t, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
	CHECK(dt == CUDNN_DATA_FLOAT && n == 2 && c == 3 && h == 4 && w == 5);
	CHECK(ns == 60 && cs == 1 && hs == 15 && ws == 3);
	int dims[9] = { 2, 3, 4, 1, 1, 1, 1, 1, 1 }, strides[9] = { 12, 4, 1, 1, 1, 1, 1, 1, 1 };
	CHECK_DNN_IS(cudnnSetTensorNdDescriptor(t, CUDNN_DATA_FLOAT, 9, dims, strides),
		     CUDNN_STATUS_NOT_SUPPORTED); /* real */
	CHECK_DNN_IS(cudnnSetTensorNdDescriptor(t, CUDNN_DATA_FLOAT, 1, dims, strides),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	strides[2] = 0;
	CHECK_DNN_IS(cudnnSetTensorNdDescriptor(t, CUDNN_DATA_FLOAT, 3, dims, strides),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	strides[2] = 1;
	CHECK_DNN(cudnnSetTensorNdDescriptor(t, CUDNN_DATA_HALF, 3, dims, strides));
	int nd, d2[8], s2[8];
	CHECK_DNN(cudnnGetTensorNdDescriptor(t, 8, &dt, &nd, d2, s2));
	CHECK(nd == 3 && dt == CUDNN_DATA_HALF && d2[0] == 2 && d2[2] == 4 && s2[0] == 12);
	size_t bytes, reserve;
	CHECK_DNN(cudnnGetTensorSizeInBytes(t, &bytes));
	CHECK(bytes == 24 * 2);
	/* Dropout reserve: real sizes for 100 and 600 floats. */
	CHECK_DNN(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 100));
	CHECK_DNN(cudnnDropoutGetReserveSpaceSize(t, &reserve));
	CHECK(reserve == 16);
	CHECK_DNN(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 10, 10));
	CHECK_DNN(cudnnDropoutGetReserveSpaceSize(t, &reserve));
	CHECK(reserve == 76);
	CHECK_DNN(cudnnDestroyTensorDescriptor(t));
	CHECK_DNN_IS(cudnnDestroyTensorDescriptor(NULL), CUDNN_STATUS_SUCCESS); /* real */

	cudnnFilterDescriptor_t f;
	cudnnConvolutionDescriptor_t conv;
	cudnnTensorDescriptor_t x = tensor4(2, 3, 10, 10);
	CHECK_DNN(cudnnCreateFilterDescriptor(&f));
	CHECK_DNN_IS(cudnnSetFilter4dDescriptor(f, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 0, 3, 3, 3),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnSetFilterNdDescriptor(f, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 2, dims),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnSetFilter4dDescriptor(f, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, 3, 3, 3));
	CHECK_DNN(cudnnCreateConvolutionDescriptor(&conv));
	int groups = 0;
	cudnnMathType_t math = CUDNN_FMA_MATH;
	CHECK_DNN(cudnnGetConvolutionGroupCount(conv, &groups));
	CHECK_DNN(cudnnGetConvolutionMathType(conv, &math));
	CHECK(groups == 1 && math == CUDNN_DEFAULT_MATH); /* real defaults */
	CHECK_DNN_IS(cudnnSetConvolution2dDescriptor(conv, -1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
						     CUDNN_DATA_FLOAT), CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnSetConvolution2dDescriptor(conv, 1, 1, 0, 1, 1, 1, CUDNN_CROSS_CORRELATION,
						     CUDNN_DATA_FLOAT), CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnSetConvolutionGroupCount(conv, 0), CUDNN_STATUS_BAD_PARAM);  /* real */
	CHECK_DNN_IS(cudnnSetConvolutionMathType(conv, (cudnnMathType_t)99), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
						  CUDNN_DATA_FLOAT));
	CHECK_DNN(cudnnGetConvolution2dForwardOutputDim(conv, x, f, &n, &c, &h, &w));
	CHECK(n == 2 && c == 8 && h == 10 && w == 10); /* real */
	int pad_h, pad_w, u, v, dh, dw;
	cudnnConvolutionMode_t mode;
	CHECK_DNN(cudnnGetConvolution2dDescriptor(conv, &pad_h, &pad_w, &u, &v, &dh, &dw, &mode, &dt));
	CHECK(pad_h == 1 && u == 1 && dh == 1 && mode == CUDNN_CROSS_CORRELATION);
	/* Input channels must be groups x filter channels (real). */
	CHECK_DNN(cudnnSetFilter4dDescriptor(f, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, 4, 3, 3));
	CHECK_DNN_IS(cudnnGetConvolution2dForwardOutputDim(conv, x, f, &n, &c, &h, &w),
		     CUDNN_STATUS_BAD_PARAM);
	cudnnDestroyFilterDescriptor(f);
	cudnnDestroyConvolutionDescriptor(conv);
	cudnnDestroyTensorDescriptor(x);

	cudnnActivationDescriptor_t act;
	cudnnPoolingDescriptor_t pool;
	CHECK_DNN(cudnnCreateActivationDescriptor(&act));
	CHECK_DNN_IS(cudnnSetActivationDescriptor(act, (cudnnActivationMode_t)99, CUDNN_PROPAGATE_NAN, 0),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, (cudnnNanPropagation_t)5, 0),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnCreatePoolingDescriptor(&pool));
	CHECK_DNN_IS(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 2, 2, 0, 0, 0, 2),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 3, 3, 0, 0, 2, 2));
	x = tensor4(1, 3, 7, 7);
	CHECK_DNN(cudnnGetPooling2dForwardOutputDim(pool, x, &n, &c, &h, &w));
	CHECK(h == 3 && w == 3); /* real */
	cudnnDestroyTensorDescriptor(x);
	cudnnDestroyActivationDescriptor(act);
	cudnnDestroyPoolingDescriptor(pool);
	size_t states;
	CHECK_DNN_IS(cudnnDropoutGetStatesSize(NULL, &states), CUDNN_STATUS_BAD_PARAM); /* real */
}

/* Forward, bias-activation, both backwards, backward bias: names, checks, time. */
static void check_convolution(int *seen)
{
	enum { N = 8, C = 16, H = 32, W = 32, K = 32 };
	cudnnTensorDescriptor_t x = tensor4(N, C, H, W), y = tensor4(N, K, H, W);
	cudnnTensorDescriptor_t bias = tensor4(1, K, 1, 1), small = tensor4(N, K, H - 1, W);
	cudnnFilterDescriptor_t f;
	cudnnConvolutionDescriptor_t conv;
	cudnnActivationDescriptor_t relu;
	CHECK_DNN(cudnnCreateFilterDescriptor(&f));
	CHECK_DNN(cudnnSetFilter4dDescriptor(f, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, 3, 3));
	CHECK_DNN(cudnnCreateConvolutionDescriptor(&conv));
	CHECK_DNN(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
						  CUDNN_DATA_FLOAT));
	CHECK_DNN(cudnnCreateActivationDescriptor(&relu));
	CHECK_DNN(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0));
	void *px = dev(N * C * H * W * 4), *pw = dev(K * C * 9 * 4), *py = dev(N * K * H * W * 4);
	void *pb = dev(K * 4), *ws = dev(1 << 22);

	/* Workspace by algorithm (README.md) and the algorithm query. */
	size_t need = 1;
	CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(handle, x, f, conv, y,
		CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, &need));
	CHECK(need == 0);
	CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(handle, x, f, conv, y,
		CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &need));
	CHECK(need == sizeof(int) * C * 9);
	CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(handle, x, f, conv, y,
		CUDNN_CONVOLUTION_FWD_ALGO_GEMM, &need));
	CHECK(need == 4ull * C * 9 * H * W);
	CHECK_DNN_IS(cudnnGetConvolutionForwardWorkspaceSize(handle, x, f, conv, y,
		CUDNN_CONVOLUTION_FWD_ALGO_DIRECT, &need), CUDNN_STATUS_NOT_SUPPORTED);
	CHECK_DNN_IS(cudnnGetConvolutionForwardWorkspaceSize(NULL, x, f, conv, y,
		CUDNN_CONVOLUTION_FWD_ALGO_GEMM, &need), CUDNN_STATUS_BAD_PARAM); /* real */
	cudnnConvolutionFwdAlgoPerf_t perf[8];
	int returned = 0, max = 0;
	CHECK_DNN(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &max));
	CHECK(max == CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
	CHECK_DNN(cudnnGetConvolutionForwardAlgorithm_v7(handle, x, f, conv, y, 8, &returned, perf));
	CHECK(returned == 7 && perf[0].algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM &&
	      perf[0].memory == 0 && perf[1].memory == sizeof(int) * C * 9);

	/* Bad arguments launch nothing. */
	CHECK_DNN_IS(cudnnConvolutionForward(NULL, &one, x, px, f, pw, conv, 0, NULL, 0, &zero, y, py),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnConvolutionForward(handle, &one, x, NULL, f, pw, conv, 0, NULL, 0, &zero, y, py),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnConvolutionForward(handle, &one, x, px, f, pw, conv, 0, NULL, 0, &zero, small, py),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnConvolutionForward(handle, &one, x, px, f, pw, conv,
		CUDNN_CONVOLUTION_FWD_ALGO_GEMM, ws, need - 1, &zero, y, py), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnConvolutionForward(handle, &one, x, px, f, pw, conv, (cudnnConvolutionFwdAlgo_t)8,
		NULL, 0, &zero, y, py), CUDNN_STATUS_BAD_PARAM);
	CHECK(test_flush() == *seen);

	/* Cost model: 2000 + 2NKCRSPQ/10^4 + bytes/10^3 ns. */
	CHECK_DNN(cudnnConvolutionForward(handle, &one, x, px, f, pw, conv,
		CUDNN_CONVOLUTION_FWD_ALGO_GEMM, ws, need, &zero, y, py));
	const struct test_kernel *k = expect_one_kernel(seen, "implicit_convolve_sgemm");
	unsigned long long flops = 2ull * N * K * C * 9 * H * W;
	unsigned long long bytes = 4ull * (N * C * H * W + K * C * 9 + N * K * H * W);
	CHECK_EQ_U64(k->end - k->start, 2000 + flops / 10000 + bytes / 1000);
	/* The program's own duration wins. */
	simgpu_next_kernel_ns(777);
	CHECK_DNN(cudnnConvolutionForward(handle, &one, x, px, f, pw, conv, 0, NULL, 0, &zero, y, py));
	k = expect_one_kernel(seen, "implicit_convolve_sgemm");
	CHECK_EQ_U64(k->end - k->start, 777);

	CHECK_DNN_IS(cudnnConvolutionBiasActivationForward(handle, &one, x, px, f, pw, conv, 0, NULL, 0,
		&zero, y, py, bias, pb, relu, y, py), CUDNN_STATUS_SUCCESS);
	expect_one_kernel(seen, "implicit_convolve_sgemm_bias_activation");
	CHECK_DNN_IS(cudnnConvolutionBiasActivationForward(handle, &one, x, px, f, pw, conv, 0, NULL, 0,
		&zero, y, py, y, pb, relu, y, py), CUDNN_STATUS_BAD_PARAM);

	CHECK_DNN(cudnnConvolutionBackwardData(handle, &one, f, pw, y, py, conv, 0, NULL, 0, &zero, x, px));
	k = expect_one_kernel(seen, "dgrad_engine");
	CHECK_EQ_U64(k->end - k->start, 2000 + flops / 10000 + bytes / 1000);
	CHECK_DNN_IS(cudnnConvolutionBackwardData(handle, &one, f, pw, small, py, conv, 0, NULL, 0, &zero,
		x, px), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN(cudnnConvolutionBackwardFilter(handle, &one, x, px, y, py, conv, 0, NULL, 0, &zero, f, pw));
	expect_one_kernel(seen, "wgrad_alg0_engine");
	CHECK_DNN_IS(cudnnConvolutionBackwardFilter(handle, &one, x, px, y, py, conv,
		CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, NULL, 0, &zero, f, pw), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN(cudnnConvolutionBackwardBias(handle, &one, y, py, &zero, bias, pb));
	expect_one_kernel(seen, "conv_bwd_bias_kernel");
	CHECK_DNN_IS(cudnnConvolutionBackwardBias(handle, &one, y, py, &zero, x, pb), CUDNN_STATUS_BAD_PARAM);
	CHECK(test_flush() == *seen);
	cudnnDestroyTensorDescriptor(x);
	cudnnDestroyTensorDescriptor(y);
	cudnnDestroyTensorDescriptor(bias);
	cudnnDestroyTensorDescriptor(small);
	cudnnDestroyFilterDescriptor(f);
	cudnnDestroyConvolutionDescriptor(conv);
	cudnnDestroyActivationDescriptor(relu);
}

static void check_other_calls(int *seen)
{
	enum { N = 4, C = 8, H = 16, W = 16 };
	cudnnTensorDescriptor_t x = tensor4(N, C, H, W), y = tensor4(N, C, H, W);
	cudnnTensorDescriptor_t p = tensor4(1, C, 1, 1), pooled = tensor4(N, C, H / 2, W / 2);
	void *px = dev(N * C * H * W * 4), *py = dev(N * C * H * W * 4), *pdx = dev(N * C * H * W * 4);
	void *scale = dev(C * 4), *bias = dev(C * 4), *rm = dev(C * 4), *rv = dev(C * 4);
	void *sm = dev(C * 4), *sv = dev(C * 4), *ds = dev(C * 4), *db = dev(C * 4);

	/* A stream set on the handle carries the kernels. */
	cudaStream_t stream;
	CHECK_CUDA(cudaStreamCreate(&stream));
	CHECK_DNN(cudnnSetStream(handle, stream));
	const int first_on_stream = *seen;

	CHECK_DNN(cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero,
		x, px, y, py, p, scale, bias, 0.1, rm, rv, 1e-5, sm, sv));
	const struct test_kernel *k = expect_one_kernel(seen, "bn_fw_tr_1C11_kernel_NCHW");
	unsigned long long tensor = 4ull * N * C * H * W, param = 4ull * C;
	CHECK_EQ_U64(k->end - k->start, 2000 + (2 * tensor + 6 * param) / 1000);
	cudaStream_t got;
	CHECK_DNN(cudnnGetStream(handle, &got));
	CHECK(got == stream);
	CHECK_DNN_IS(cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero,
		x, px, y, py, x, scale, bias, 0.1, rm, rv, 1e-5, sm, sv), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero,
		x, px, y, py, p, scale, bias, 0.1, rm, NULL, 1e-5, sm, sv), CUDNN_STATUS_BAD_PARAM);

	/* Ex: workspace and reserve sizes from the queries, too small refused. */
	cudnnActivationDescriptor_t relu;
	CHECK_DNN(cudnnCreateActivationDescriptor(&relu));
	CHECK_DNN(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0));
	size_t ws_bytes, reserve_bytes, bws_bytes;
	const cudnnBatchNormOps_t ops = CUDNN_BATCHNORM_OPS_BN_ACTIVATION;
	CHECK_DNN(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(handle,
		CUDNN_BATCHNORM_SPATIAL_PERSISTENT, ops, x, NULL, y, p, relu, &ws_bytes));
	CHECK_DNN(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(handle,
		CUDNN_BATCHNORM_SPATIAL_PERSISTENT, ops, relu, x, &reserve_bytes));
	CHECK_DNN(cudnnGetBatchNormalizationBackwardExWorkspaceSize(handle,
		CUDNN_BATCHNORM_SPATIAL_PERSISTENT, ops, x, y, y, NULL, x, p, relu, &bws_bytes));
	CHECK(ws_bytes == 2 * param && bws_bytes == 2 * param);
	CHECK(reserve_bytes == param + (N * C * H * W + 31) / 32 * 4);
	void *ws = dev(ws_bytes), *reserve = dev(reserve_bytes);
	CHECK_DNN_IS(cudnnBatchNormalizationForwardTrainingEx(handle, CUDNN_BATCHNORM_SPATIAL_PERSISTENT,
		ops, &one, &zero, x, px, NULL, NULL, y, py, p, scale, bias, 0.1, rm, rv, 1e-5, sm, sv,
		relu, ws, ws_bytes, reserve, reserve_bytes - 1), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN(cudnnBatchNormalizationForwardTrainingEx(handle, CUDNN_BATCHNORM_SPATIAL_PERSISTENT,
		ops, &one, &zero, x, px, NULL, NULL, y, py, p, scale, bias, 0.1, rm, rv, 1e-5, sm, sv,
		relu, ws, ws_bytes, reserve, reserve_bytes));
	expect_one_kernel(seen, "bn_fw_tr_1C11_kernel_NCHW");
	CHECK_DNN(cudnnBatchNormalizationForwardInference(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero,
		x, px, y, py, p, scale, bias, rm, rv, 1e-5));
	expect_one_kernel(seen, "bn_fw_inf_1C11_kernel_NCHW");
	CHECK_DNN(cudnnBatchNormalizationBackward(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, &one,
		&zero, x, px, y, py, x, pdx, p, scale, ds, db, 1e-5, sm, sv));
	expect_one_kernel(seen, "bn_bw_1C11_kernel_new");
	CHECK_DNN(cudnnBatchNormalizationBackwardEx(handle, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, ops,
		&one, &zero, &one, &zero, x, px, y, py, y, py, NULL, NULL, x, pdx, p, scale, bias, ds,
		db, 1e-5, sm, sv, relu, ws, bws_bytes, reserve, reserve_bytes));
	expect_one_kernel(seen, "bn_bw_1C11_kernel_new");
	CHECK_DNN_IS(cudnnBatchNormalizationBackwardEx(handle, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, ops,
		&one, &zero, &one, &zero, x, px, y, NULL, y, py, NULL, NULL, x, pdx, p, scale, bias, ds,
		db, 1e-5, sm, sv, relu, ws, bws_bytes, reserve, reserve_bytes), CUDNN_STATUS_BAD_PARAM);

	CHECK_DNN(cudnnActivationForward(handle, relu, &one, x, px, &zero, y, py));
	expect_one_kernel(seen, "activation_fw_4d_kernel");
	CHECK_DNN(cudnnActivationBackward(handle, relu, &one, y, py, y, py, x, px, &zero, x, pdx));
	expect_one_kernel(seen, "activation_bw_4d_kernel");
	CHECK_DNN_IS(cudnnActivationForward(handle, relu, &one, x, px, &zero, pooled, py),
		     CUDNN_STATUS_BAD_PARAM);

	cudnnPoolingDescriptor_t pool;
	CHECK_DNN(cudnnCreatePoolingDescriptor(&pool));
	CHECK_DNN(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
	CHECK_DNN(cudnnPoolingForward(handle, pool, &one, x, px, &zero, pooled, py));
	expect_one_kernel(seen, "pooling_fw_4d_kernel");
	CHECK_DNN_IS(cudnnPoolingForward(handle, pool, &one, x, px, &zero, y, py), CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN(cudnnPoolingBackward(handle, pool, &one, pooled, py, pooled, py, x, px, &zero, x, pdx));
	expect_one_kernel(seen, "pooling_bw_4d_kernel");

	CHECK_DNN(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one,
		x, px, &zero, y, py));
	expect_one_kernel(seen, "softmax_fw_kernel");
	CHECK_DNN(cudnnSoftmaxBackward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one,
		y, py, y, py, &zero, x, pdx));
	expect_one_kernel(seen, "softmax_bw_kernel");
	CHECK_DNN_IS(cudnnSoftmaxForward(handle, (cudnnSoftmaxAlgorithm_t)7, CUDNN_SOFTMAX_MODE_CHANNEL,
		&one, x, px, &zero, y, py), CUDNN_STATUS_BAD_PARAM);

	CHECK_DNN(cudnnAddTensor(handle, &one, p, bias, &one, y, py));
	expect_one_kernel(seen, "add_tensor_kernel_v3");
	CHECK_DNN_IS(cudnnAddTensor(handle, &one, pooled, bias, &one, y, py), CUDNN_STATUS_BAD_PARAM);
	cudnnOpTensorDescriptor_t op;
	CHECK_DNN(cudnnCreateOpTensorDescriptor(&op));
	CHECK_DNN_IS(cudnnSetOpTensorDescriptor(op, (cudnnOpTensorOp_t)99, CUDNN_DATA_FLOAT,
		CUDNN_PROPAGATE_NAN), CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnSetOpTensorDescriptor(op, CUDNN_OP_TENSOR_MUL, CUDNN_DATA_FLOAT, CUDNN_PROPAGATE_NAN));
	CHECK_DNN(cudnnOpTensor(handle, op, &one, x, px, &one, p, scale, &zero, y, py));
	expect_one_kernel(seen, "op_generic_tensor_kernel");

	/* Dropout: the state initialisation is a kernel too. */
	cudnnDropoutDescriptor_t drop;
	size_t states_bytes, drop_reserve;
	CHECK_DNN(cudnnCreateDropoutDescriptor(&drop));
	CHECK_DNN(cudnnDropoutGetStatesSize(handle, &states_bytes));
	void *states = dev(states_bytes);
	CHECK_DNN_IS(cudnnSetDropoutDescriptor(drop, NULL, 0.5f, states, states_bytes, 1),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnSetDropoutDescriptor(drop, handle, 0.5f, states, states_bytes, 1));
	expect_one_kernel(seen, "dropout_init_states_kernel");
	CHECK_DNN(cudnnDropoutGetReserveSpaceSize(x, &drop_reserve));
	void *drop_space = dev(drop_reserve);
	CHECK_DNN(cudnnDropoutForward(handle, drop, x, px, y, py, drop_space, drop_reserve));
	expect_one_kernel(seen, "dropout_fp_kernel");
	CHECK_DNN(cudnnDropoutBackward(handle, drop, y, py, x, pdx, drop_space, drop_reserve));
	k = expect_one_kernel(seen, "dropout_bp_kernel");
	CHECK_DNN_IS(cudnnDropoutForward(handle, drop, x, px, y, py, drop_space, drop_reserve - 1),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK(test_flush() == *seen);
	/* Every kernel since SetStream ran on that stream. */
	for (int i = first_on_stream; i < *seen; i++)
		CHECK(test_kernels[i].stream == k->stream);
	CHECK(test_kernels[0].stream != k->stream);
	cudnnTensorDescriptor_t tensors[4] = { x, y, p, pooled };
	for (int i = 0; i < 4; i++)
		CHECK_DNN(cudnnDestroyTensorDescriptor(tensors[i]));
	CHECK_DNN(cudnnDestroyActivationDescriptor(relu));
	CHECK_DNN(cudnnDestroyPoolingDescriptor(pool));
	CHECK_DNN(cudnnDestroyOpTensorDescriptor(op));
	CHECK_DNN(cudnnDestroyDropoutDescriptor(drop));
	CHECK_DNN(cudnnDestroy(handle));
}

/* Probed on the real libcudnn 9.19 (no GPU needed): same answers. */
static void check_derive_bn(void)
{
	cudnnTensorDescriptor_t x, bn, unset;
	cudnnDataType_t dt;
	int n, c, h, w, ns, cs, hs, ws;
	CHECK_DNN(cudnnCreateTensorDescriptor(&x));
	CHECK_DNN(cudnnCreateTensorDescriptor(&bn));
	CHECK_DNN(cudnnCreateTensorDescriptor(&unset));
	CHECK_DNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, 2, 3, 4, 5));
	CHECK_DNN(cudnnDeriveBNTensorDescriptor(bn, x, CUDNN_BATCHNORM_SPATIAL));
	CHECK_DNN(cudnnGetTensor4dDescriptor(bn, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
	CHECK(dt == CUDNN_DATA_FLOAT && n == 1 && c == 3 && h == 1 && w == 1); /* real */
	CHECK(ns == 3 && cs == 1 && hs == 1 && ws == 1);
	CHECK_DNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 2, 3, 4, 5));
	CHECK_DNN(cudnnDeriveBNTensorDescriptor(bn, x, CUDNN_BATCHNORM_PER_ACTIVATION));
	CHECK_DNN(cudnnGetTensor4dDescriptor(bn, &dt, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
	CHECK(dt == CUDNN_DATA_DOUBLE && n == 1 && c == 3 && h == 4 && w == 5); /* real */
	CHECK(ns == 60 && cs == 20 && hs == 5 && ws == 1);
	CHECK_DNN_IS(cudnnDeriveBNTensorDescriptor(bn, x, (cudnnBatchNormMode_t)7),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnDeriveBNTensorDescriptor(bn, unset, CUDNN_BATCHNORM_SPATIAL),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN_IS(cudnnDeriveBNTensorDescriptor(NULL, x, CUDNN_BATCHNORM_SPATIAL),
		     CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnDestroyTensorDescriptor(unset));
	CHECK_DNN(cudnnDestroyTensorDescriptor(bn));
	CHECK_DNN(cudnnDestroyTensorDescriptor(x));
}

int main(void)
{
	simgpu_test_setup();
	test_start_cupti();
	check_handle_and_errors();
	check_descriptors();
	check_derive_bn();
	int seen = 0;
	check_convolution(&seen);
	check_other_calls(&seen);
	CHECK(seen == 22);
	return 0;
}
