/*
 * cudnn_calls MODE: the cuDNN calls the tracer's cuDNN tests record, each
 * followed by what its dnntrace_lib event must say, known by construction
 * (the pointers, roles, types, shapes and parameters this program passed).
 *
 *   legacy   every wrapped legacy call on a simulated GPU, success and
 *            failure, with an `EXPECT {json}` line after each call
 *   null     every wrapped call with a NULL handle: one `name status` line
 *            each (compared with and without the tracer, on any libcudnn)
 *
 * Linked to libcudnn and libcudart by SONAME: the test picks the real or the
 * simulated ones with LD_LIBRARY_PATH. Must never depend on the tracer.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "tests/libs/cudnn_expect.h"

/* Optional: a library without it (an early simulated one) still runs the test. */
#pragma weak cudnnDeriveBNTensorDescriptor

/* --- legacy ------------------------------------------------------------------ */

enum { N = 2, C = 3, H = 8, WD = 8, K = 4, POOLED = 4, WS_BYTES = 65536 };

static cudnnTensorDescriptor_t tensor4d(cudnnDataType_t type, int n, int c, int h, int w)
{
	cudnnTensorDescriptor_t d;
	CHECK_CUDNN(cudnnCreateTensorDescriptor(&d));
	CHECK_CUDNN(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, type, n, c, h, w));
	return d;
}

static int run_legacy(void)
{
	cudnnHandle_t h;
	cudaStream_t stream;
	const float zero = 0.0f, one = 1.0f;
	const double one_d = 1.0;
	size_t fsize = sizeof(float);

	CHECK_CUDNN(cudnnCreate(&h));
	CHECK_CUDA(cudaStreamCreate(&stream));
	cudnnStatus_t st = cudnnSetStream(h, stream);
	printf("SETSTREAM %llu %llu %d\n", (unsigned long long)(uintptr_t)h,
	       (unsigned long long)(uintptr_t)stream, st);

	/* x, dx: N C H W; y, dy: N K H W (3x3, pad 1); w, dw: K C 3 3 */
	float *x = device(N * C * H * WD * fsize), *dx = device(N * C * H * WD * fsize);
	float *y = device(N * K * H * WD * fsize), *dy = device(N * K * H * WD * fsize);
	float *w = device(K * C * 9 * fsize), *dw = device(K * C * 9 * fsize);
	float *bias_k = device(K * fsize);
	/* One pool for the per-channel parameters: arguments point inside it (views). */
	float *pool = device(8 * C * fsize);
	float *scale = pool, *bn_bias = pool + C, *run_mean = pool + 2 * C,
	      *run_var = pool + 3 * C, *save_mean = pool + 4 * C, *save_var = pool + 5 * C,
	      *dscale = pool + 6 * C, *dbias = pool + 7 * C;
	char *workspace = device(WS_BYTES), *reserve = device(WS_BYTES);
	float *pooled = device(N * C * POOLED * POOLED * fsize);
	float *dpooled = device(N * C * POOLED * POOLED * fsize);
	double *acc = device(K * sizeof(double)), *acc_src = device(K * sizeof(double));

	cudnnTensorDescriptor_t xd = tensor4d(CUDNN_DATA_FLOAT, N, C, H, WD);
	cudnnTensorDescriptor_t yd = tensor4d(CUDNN_DATA_FLOAT, N, K, H, WD);
	cudnnTensorDescriptor_t bd = tensor4d(CUDNN_DATA_FLOAT, 1, K, 1, 1);
	cudnnTensorDescriptor_t pd = tensor4d(CUDNN_DATA_FLOAT, N, C, POOLED, POOLED);
	cudnnTensorDescriptor_t accd = tensor4d(CUDNN_DATA_DOUBLE, 1, K, 1, 1);
	cudnnTensorDescriptor_t bnd;
	CHECK_CUDNN(cudnnCreateTensorDescriptor(&bnd));
	/* Derived when the library has it (the tracer then asks cuDNN for its shape). */
	if (!&cudnnDeriveBNTensorDescriptor ||
	    cudnnDeriveBNTensorDescriptor(bnd, xd, CUDNN_BATCHNORM_SPATIAL) != CUDNN_STATUS_SUCCESS)
		CHECK_CUDNN(cudnnSetTensor4dDescriptor(bnd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1,
						       C, 1, 1));
	/* An Nd descriptor set like frameworks do (dims + strides) */
	cudnnTensorDescriptor_t xnd;
	const int xdims[4] = { N, C, H, WD }, xstrides[4] = { C * H * WD, H * WD, WD, 1 };
	CHECK_CUDNN(cudnnCreateTensorDescriptor(&xnd));
	CHECK_CUDNN(cudnnSetTensorNdDescriptor(xnd, CUDNN_DATA_FLOAT, 4, xdims, xstrides));
	cudnnFilterDescriptor_t wd;
	CHECK_CUDNN(cudnnCreateFilterDescriptor(&wd));
	CHECK_CUDNN(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, 3, 3));
	cudnnConvolutionDescriptor_t cd;
	CHECK_CUDNN(cudnnCreateConvolutionDescriptor(&cd));
	CHECK_CUDNN(cudnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
						    CUDNN_DATA_FLOAT));
	cudnnActivationDescriptor_t relu;
	CHECK_CUDNN(cudnnCreateActivationDescriptor(&relu));
	CHECK_CUDNN(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU,
						 CUDNN_PROPAGATE_NAN, 0.0));
	cudnnPoolingDescriptor_t pool2;
	CHECK_CUDNN(cudnnCreatePoolingDescriptor(&pool2));
	CHECK_CUDNN(cudnnSetPooling2dDescriptor(pool2, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 2,
						2, 0, 0, 2, 2));
	cudnnOpTensorDescriptor_t add_op;
	CHECK_CUDNN(cudnnCreateOpTensorDescriptor(&add_op));
	CHECK_CUDNN(cudnnSetOpTensorDescriptor(add_op, CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT,
					       CUDNN_PROPAGATE_NAN));

	const cudnnConvolutionFwdAlgo_t fwd_algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
	const cudnnConvolutionBwdDataAlgo_t bwd_data_algo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
	const cudnnConvolutionBwdFilterAlgo_t bwd_filter_algo = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;

	/* Convolution forward, beta 0 then 1 (y blended: READ_WRITE). */
	for (int blend = 0; blend < 2; blend++) {
		st = cudnnConvolutionForward(h, &one, xd, x, wd, w, cd, fwd_algo, workspace,
					     WS_BYTES, blend ? &one : &zero, yd, y);
		expect("cudnnConvolutionForward", st, h, stream);
		arg("x", x, "R", "f32", D(N, C, H, WD));
		arg("w", w, "R", "f32", D(K, C, 3, 3));
		arg("y", y, blend ? "RW" : "W", "f32", D(N, K, H, WD));
		arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
		param("algo", fwd_algo);
		param("workspace_bytes", WS_BYTES);
		expect_end();
	}
	st = cudnnConvolutionBackwardData(h, &one, wd, w, yd, dy, cd, bwd_data_algo, workspace,
					  WS_BYTES, &zero, xd, dx);
	expect("cudnnConvolutionBackwardData", st, h, stream);
	arg("w", w, "R", "f32", D(K, C, 3, 3));
	arg("dy", dy, "R", "f32", D(N, K, H, WD));
	arg("dx", dx, "W", "f32", D(N, C, H, WD));
	arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
	param("algo", bwd_data_algo);
	param("workspace_bytes", WS_BYTES);
	expect_end();

	st = cudnnConvolutionBackwardFilter(h, &one, xnd, x, yd, dy, cd, bwd_filter_algo,
					    workspace, WS_BYTES, &one, wd, dw);
	expect("cudnnConvolutionBackwardFilter", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("dy", dy, "R", "f32", D(N, K, H, WD));
	arg("dw", dw, "RW", "f32", D(K, C, 3, 3));
	arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
	param("algo", bwd_filter_algo);
	param("workspace_bytes", WS_BYTES);
	expect_end();

	st = cudnnConvolutionBackwardBias(h, &one, yd, dy, &zero, bd, bias_k);
	expect("cudnnConvolutionBackwardBias", st, h, stream);
	arg("dy", dy, "R", "f32", D(N, K, H, WD));
	arg("db", bias_k, "W", "f32", D(1, K, 1, 1));
	expect_end();

	/* Bias + activation: z unused when alpha2 == 0 (here z is y itself). */
	for (int with_z = 0; with_z < 2; with_z++) {
		st = cudnnConvolutionBiasActivationForward(h, &one, xd, x, wd, w, cd, fwd_algo,
							   workspace, WS_BYTES,
							   with_z ? &one : &zero, yd, y, bd,
							   bias_k, relu, yd, y);
		expect("cudnnConvolutionBiasActivationForward", st, h, stream);
		arg("x", x, "R", "f32", D(N, C, H, WD));
		arg("w", w, "R", "f32", D(K, C, 3, 3));
		if (with_z)
			arg("z", y, "R", "f32", D(N, K, H, WD));
		else
			unused("z", y);
		arg("bias", bias_k, "R", "f32", D(1, K, 1, 1));
		arg("y", y, "W", "f32", D(N, K, H, WD));
		arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
		param("algo", fwd_algo);
		param("workspace_bytes", WS_BYTES);
		expect_end();
	}

	/* Batch norm: the parameter descriptor comes from cudnnDeriveBNTensorDescriptor. */
	st = cudnnBatchNormalizationForwardTraining(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xd, x,
						    xd, dx, bnd, scale, bn_bias, 0.1, run_mean,
						    run_var, 1e-5, save_mean, save_var);
	expect("cudnnBatchNormalizationForwardTraining", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", dx, "W", "f32", D(N, C, H, WD));
	arg("scale", scale, "R", "f32", D(1, C, 1, 1));
	arg("bias", bn_bias, "R", "f32", D(1, C, 1, 1));
	arg("running_mean", run_mean, "RW", "f32", D(1, C, 1, 1));
	arg("running_var", run_var, "RW", "f32", D(1, C, 1, 1));
	arg("save_mean", save_mean, "W", "f32", D(1, C, 1, 1));
	arg("save_inv_var", save_var, "W", "f32", D(1, C, 1, 1));
	param("mode", CUDNN_BATCHNORM_SPATIAL);
	param("epsilon_e9", 10000);
	param("exp_avg_factor_e9", 100000000);
	expect_end();

	st = cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xd,
						     x, xd, dx, bnd, scale, bn_bias, run_mean,
						     run_var, 1e-5);
	expect("cudnnBatchNormalizationForwardInference", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", dx, "W", "f32", D(N, C, H, WD));
	arg("scale", scale, "R", "f32", D(1, C, 1, 1));
	arg("bias", bn_bias, "R", "f32", D(1, C, 1, 1));
	arg("mean", run_mean, "R", "f32", D(1, C, 1, 1));
	arg("var", run_var, "R", "f32", D(1, C, 1, 1));
	param("mode", CUDNN_BATCHNORM_SPATIAL);
	param("epsilon_e9", 10000);
	expect_end();

	st = cudnnBatchNormalizationBackward(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, &one, &one,
					     xd, x, xd, dx, xd, dx, bnd, scale, dscale, dbias,
					     1e-5, save_mean, save_var);
	expect("cudnnBatchNormalizationBackward", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("dy", dx, "R", "f32", D(N, C, H, WD));
	arg("dx", dx, "W", "f32", D(N, C, H, WD));
	arg("scale", scale, "R", "f32", D(1, C, 1, 1));
	arg("dscale", dscale, "RW", "f32", D(1, C, 1, 1));
	arg("dbias", dbias, "RW", "f32", D(1, C, 1, 1));
	arg("saved_mean", save_mean, "R", "f32", D(1, C, 1, 1));
	arg("saved_inv_var", save_var, "R", "f32", D(1, C, 1, 1));
	param("mode", CUDNN_BATCHNORM_SPATIAL);
	param("epsilon_e9", 10000);
	expect_end();

	/* Ex variants: BN+activation forward (no z), BN+add+activation backward (y, dz, bias). */
	size_t fw_ws = 0, bw_ws = 0, rs = 0;
	CHECK_CUDNN(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
		h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN_ACTIVATION, xd, NULL,
		xd, bnd, relu, &fw_ws));
	CHECK_CUDNN(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(
		h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN_ACTIVATION, relu, xd,
		&rs));
	if (fw_ws > WS_BYTES || rs > WS_BYTES)
		die("BN Ex sizes above the test's buffers", (long long)(fw_ws + rs));
	st = cudnnBatchNormalizationForwardTrainingEx(
		h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN_ACTIVATION, &one,
		&zero, xd, x, NULL, NULL, xd, dx, bnd, scale, bn_bias, 1.0, run_mean, run_var,
		1e-3, save_mean, save_var, relu, workspace, WS_BYTES, reserve, WS_BYTES);
	expect("cudnnBatchNormalizationForwardTrainingEx", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	unused("z", NULL);
	arg("y", dx, "W", "f32", D(N, C, H, WD));
	arg("scale", scale, "R", "f32", D(1, C, 1, 1));
	arg("bias", bn_bias, "R", "f32", D(1, C, 1, 1));
	arg("running_mean", run_mean, "RW", "f32", D(1, C, 1, 1));
	arg("running_var", run_var, "RW", "f32", D(1, C, 1, 1));
	arg("save_mean", save_mean, "W", "f32", D(1, C, 1, 1));
	arg("save_inv_var", save_var, "W", "f32", D(1, C, 1, 1));
	arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
	arg("reserve", reserve, "W", "u8", D(WS_BYTES));
	param("mode", CUDNN_BATCHNORM_SPATIAL_PERSISTENT);
	param("bn_ops", CUDNN_BATCHNORM_OPS_BN_ACTIVATION);
	param("epsilon_e9", 1000000);
	param("exp_avg_factor_e9", 1000000000);
	param("workspace_bytes", WS_BYTES);
	param("reserve_bytes", WS_BYTES);
	expect_end();

	CHECK_CUDNN(cudnnGetBatchNormalizationBackwardExWorkspaceSize(
		h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION, xd,
		xd, xd, xd, xd, bnd, relu, &bw_ws));
	if (bw_ws > WS_BYTES)
		die("BN backward Ex workspace above the test's buffer", (long long)bw_ws);
	st = cudnnBatchNormalizationBackwardEx(
		h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION, &one,
		&zero, &one, &zero, xd, x, xd, dx, xd, dy, xd, y, xd, dx, bnd, scale, bn_bias,
		dscale, dbias, 1e-3, save_mean, save_var, relu, workspace, WS_BYTES, reserve,
		WS_BYTES);
	expect("cudnnBatchNormalizationBackwardEx", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", dx, "R", "f32", D(N, C, H, WD));
	arg("dy", dy, "R", "f32", D(N, C, H, WD));
	arg("dz", y, "W", "f32", D(N, C, H, WD));
	arg("dx", dx, "W", "f32", D(N, C, H, WD));
	arg("scale", scale, "R", "f32", D(1, C, 1, 1));
	arg("bias", bn_bias, "R", "f32", D(1, C, 1, 1));
	arg("dscale", dscale, "W", "f32", D(1, C, 1, 1));
	arg("dbias", dbias, "W", "f32", D(1, C, 1, 1));
	arg("saved_mean", save_mean, "R", "f32", D(1, C, 1, 1));
	arg("saved_inv_var", save_var, "R", "f32", D(1, C, 1, 1));
	arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
	arg("reserve", reserve, "R", "u8", D(WS_BYTES));
	param("mode", CUDNN_BATCHNORM_SPATIAL_PERSISTENT);
	param("bn_ops", CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION);
	param("epsilon_e9", 1000000);
	param("workspace_bytes", WS_BYTES);
	param("reserve_bytes", WS_BYTES);
	expect_end();

	st = cudnnActivationForward(h, relu, &one, xd, x, &zero, xd, dx);
	expect("cudnnActivationForward", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", dx, "W", "f32", D(N, C, H, WD));
	expect_end();

	st = cudnnActivationBackward(h, relu, &one, xd, dx, xd, dx, xd, x, &one, xd, dx);
	expect("cudnnActivationBackward", st, h, stream);
	arg("y", dx, "R", "f32", D(N, C, H, WD));
	arg("dy", dx, "R", "f32", D(N, C, H, WD));
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("dx", dx, "RW", "f32", D(N, C, H, WD));
	expect_end();

	st = cudnnPoolingForward(h, pool2, &one, xd, x, &zero, pd, pooled);
	expect("cudnnPoolingForward", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", pooled, "W", "f32", D(N, C, POOLED, POOLED));
	expect_end();

	st = cudnnPoolingBackward(h, pool2, &one, pd, pooled, pd, dpooled, xd, x, &zero, xd, dx);
	expect("cudnnPoolingBackward", st, h, stream);
	arg("y", pooled, "R", "f32", D(N, C, POOLED, POOLED));
	arg("dy", dpooled, "R", "f32", D(N, C, POOLED, POOLED));
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("dx", dx, "W", "f32", D(N, C, H, WD));
	expect_end();

	st = cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, xd, x,
				 &zero, xd, dx);
	expect("cudnnSoftmaxForward", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", dx, "W", "f32", D(N, C, H, WD));
	param("algo", CUDNN_SOFTMAX_ACCURATE);
	param("mode", CUDNN_SOFTMAX_MODE_CHANNEL);
	expect_end();

	st = cudnnSoftmaxBackward(h, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &one, xd, dx,
				  xd, x, &zero, xd, dx);
	expect("cudnnSoftmaxBackward", st, h, stream);
	arg("y", dx, "R", "f32", D(N, C, H, WD));
	arg("dy", x, "R", "f32", D(N, C, H, WD));
	arg("dx", dx, "W", "f32", D(N, C, H, WD));
	param("algo", CUDNN_SOFTMAX_LOG);
	param("mode", CUDNN_SOFTMAX_MODE_INSTANCE);
	expect_end();

	/* AddTensor: bias broadcast into y (beta 1: READ_WRITE); doubles take double factors. */
	st = cudnnAddTensor(h, &one, bd, bias_k, &one, yd, y);
	expect("cudnnAddTensor", st, h, stream);
	arg("A", bias_k, "R", "f32", D(1, K, 1, 1));
	arg("C", y, "RW", "f32", D(N, K, H, WD));
	expect_end();

	st = cudnnAddTensor(h, &one_d, accd, acc_src, &one_d, accd, acc);
	expect("cudnnAddTensor", st, h, stream);
	arg("A", acc_src, "R", "f64", D(1, K, 1, 1));
	arg("C", acc, "RW", "f64", D(1, K, 1, 1));
	expect_end();

	st = cudnnOpTensor(h, add_op, &one, xd, x, &one, xd, dx, &zero, xd, dx);
	expect("cudnnOpTensor", st, h, stream);
	arg("A", x, "R", "f32", D(N, C, H, WD));
	arg("B", dx, "R", "f32", D(N, C, H, WD));
	arg("C", dx, "W", "f32", D(N, C, H, WD));
	expect_end();

	/* Dropout: the states are the descriptor's; reserve written forward, read backward. */
	cudnnDropoutDescriptor_t drop;
	size_t states_bytes = 0, reserve_bytes = 0;
	CHECK_CUDNN(cudnnCreateDropoutDescriptor(&drop));
	CHECK_CUDNN(cudnnDropoutGetStatesSize(h, &states_bytes));
	void *states = device(states_bytes ? states_bytes : 1);
	CHECK_CUDNN(cudnnSetDropoutDescriptor(drop, h, 0.5f, states, states_bytes, 1234));
	printf("UNTRACED cudnnSetDropoutDescriptor\n"); /* may launch: traced as a plain launch */
	CHECK_CUDNN(cudnnDropoutGetReserveSpaceSize(xd, &reserve_bytes));
	if (reserve_bytes > WS_BYTES)
		die("dropout reserve above the test's buffer", (long long)reserve_bytes);
	st = cudnnDropoutForward(h, drop, xd, x, xd, dx, reserve, reserve_bytes);
	expect("cudnnDropoutForward", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", dx, "W", "f32", D(N, C, H, WD));
	arg("reserve", reserve, "W", "u8", D((long long)reserve_bytes));
	param("reserve_bytes", (long long)reserve_bytes);
	expect_end();

	st = cudnnDropoutBackward(h, drop, xd, dx, xd, x, reserve, reserve_bytes);
	expect("cudnnDropoutBackward", st, h, stream);
	arg("dy", dx, "R", "f32", D(N, C, H, WD));
	arg("dx", x, "W", "f32", D(N, C, H, WD));
	arg("reserve", reserve, "R", "u8", D((long long)reserve_bytes));
	param("reserve_bytes", (long long)reserve_bytes);
	expect_end();

	/* Failures are traced too, with the library's status: a NULL handle, mismatched shapes. */
	st = cudnnConvolutionForward(NULL, &one, xd, x, wd, w, cd, fwd_algo, workspace, WS_BYTES,
				     &zero, yd, y);
	expect("cudnnConvolutionForward", st, NULL, NULL);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("w", w, "R", "f32", D(K, C, 3, 3));
	arg("y", y, "W", "f32", D(N, K, H, WD));
	arg("workspace", workspace, "WS", "u8", D(WS_BYTES));
	param("algo", fwd_algo);
	param("workspace_bytes", WS_BYTES);
	expect_end();

	st = cudnnActivationForward(h, relu, &one, xd, x, &zero, pd, pooled);
	expect("cudnnActivationForward", st, h, stream);
	arg("x", x, "R", "f32", D(N, C, H, WD));
	arg("y", pooled, "W", "f32", D(N, C, POOLED, POOLED));
	expect_end();

	/* A descriptor set again, and one destroyed and re-created: shapes follow. */
	CHECK_CUDNN(cudnnSetTensor4dDescriptor(pd, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, N, C,
					       POOLED, POOLED));
	CHECK_CUDNN(cudnnDestroyTensorDescriptor(xnd));
	CHECK_CUDNN(cudnnCreateTensorDescriptor(&xnd));
	CHECK_CUDNN(cudnnSetTensor4dDescriptorEx(xnd, CUDNN_DATA_HALF, N, C, H, WD, C * H * WD,
						 H * WD, WD, 1));
	st = cudnnActivationForward(h, relu, &one, xnd, x, &zero, xnd, dx);
	expect("cudnnActivationForward", st, h, stream);
	arg("x", x, "R", "f16", D(N, C, H, WD));
	arg("y", dx, "W", "f16", D(N, C, H, WD));
	expect_end();
	st = cudnnPoolingForward(h, pool2, &one, xnd, x, &zero, pd, pooled);
	expect("cudnnPoolingForward", st, h, stream);
	arg("x", x, "R", "f16", D(N, C, H, WD));
	arg("y", pooled, "W", "f16", D(N, C, POOLED, POOLED));
	expect_end();

	CHECK_CUDA(cudaStreamSynchronize(stream));
	CHECK_CUDNN(cudnnDestroyDropoutDescriptor(drop));
	CHECK_CUDNN(cudnnDestroyOpTensorDescriptor(add_op));
	CHECK_CUDNN(cudnnDestroyPoolingDescriptor(pool2));
	CHECK_CUDNN(cudnnDestroyActivationDescriptor(relu));
	CHECK_CUDNN(cudnnDestroyConvolutionDescriptor(cd));
	CHECK_CUDNN(cudnnDestroyFilterDescriptor(wd));
	cudnnTensorDescriptor_t tensors[] = { xd, yd, bd, pd, accd, bnd, xnd };
	for (size_t i = 0; i < sizeof(tensors) / sizeof(tensors[0]); i++)
		CHECK_CUDNN(cudnnDestroyTensorDescriptor(tensors[i]));
	free_devices();
	CHECK_CUDA(cudaStreamDestroy(stream));
	CHECK_CUDNN(cudnnDestroy(h));
	return 0;
}

/* --- NULL handle: every wrapped call's status ------------------------------ */

static int run_null(void)
{
	const float one = 1.0f, zero = 0.0f;
	cudnnTensorDescriptor_t t;
	cudnnFilterDescriptor_t f;
	cudnnConvolutionDescriptor_t cd;
	char dummy[64];
	void *p = dummy;

#define SHOW(name, call) printf("%s %d\n", name, (int)(call))
	SHOW("cudnnCreateTensorDescriptor", cudnnCreateTensorDescriptor(&t));
	SHOW("cudnnSetTensor4dDescriptor", cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW,
								      CUDNN_DATA_FLOAT, 2, 3, 4, 5));
	SHOW("cudnnSetTensor4dDescriptor(bad)",
	     cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, -2, 3, 4, 5));
	SHOW("cudnnCreateFilterDescriptor", cudnnCreateFilterDescriptor(&f));
	SHOW("cudnnSetFilter4dDescriptor", cudnnSetFilter4dDescriptor(f, CUDNN_DATA_FLOAT,
								      CUDNN_TENSOR_NCHW, 4, 3, 3, 3));
	SHOW("cudnnCreateConvolutionDescriptor", cudnnCreateConvolutionDescriptor(&cd));
	SHOW("cudnnSetStream", cudnnSetStream(NULL, NULL));
	SHOW("cudnnConvolutionForward",
	     cudnnConvolutionForward(NULL, &one, t, p, f, p, cd,
				     CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, t, p));
	SHOW("cudnnConvolutionBackwardData",
	     cudnnConvolutionBackwardData(NULL, &one, f, p, t, p, cd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_0,
					  NULL, 0, &zero, t, p));
	SHOW("cudnnConvolutionBackwardFilter",
	     cudnnConvolutionBackwardFilter(NULL, &one, t, p, t, p, cd,
					    CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, NULL, 0, &zero, f, p));
	SHOW("cudnnConvolutionBackwardBias", cudnnConvolutionBackwardBias(NULL, &one, t, p, &zero, t, p));
	SHOW("cudnnAddTensor", cudnnAddTensor(NULL, &one, t, p, &zero, t, p));
	SHOW("cudnnActivationForward", cudnnActivationForward(NULL, NULL, &one, t, p, &zero, t, p));
	SHOW("cudnnSoftmaxForward", cudnnSoftmaxForward(NULL, CUDNN_SOFTMAX_FAST,
							CUDNN_SOFTMAX_MODE_CHANNEL, &one, t, p,
							&zero, t, p));
	SHOW("cudnnBatchNormalizationForwardInference",
	     cudnnBatchNormalizationForwardInference(NULL, CUDNN_BATCHNORM_SPATIAL, &one, &zero, t,
						     p, t, p, t, p, p, p, p, 1e-5));
	SHOW("cudnnConvolutionBiasActivationForward",
	     cudnnConvolutionBiasActivationForward(NULL, &one, t, p, f, p, cd,
						   CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
						   NULL, 0, &zero, t, p, t, p, NULL, t, p));
	SHOW("cudnnBatchNormalizationForwardTraining",
	     cudnnBatchNormalizationForwardTraining(NULL, CUDNN_BATCHNORM_SPATIAL, &one, &zero, t,
						    p, t, p, t, p, p, 1.0, p, p, 1e-5, p, p));
	SHOW("cudnnBatchNormalizationForwardTrainingEx",
	     cudnnBatchNormalizationForwardTrainingEx(
		     NULL, CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_OPS_BN, &one, &zero, t, p, NULL,
		     NULL, t, p, t, p, p, 1.0, p, p, 1e-5, p, p, NULL, NULL, 0, NULL, 0));
	SHOW("cudnnBatchNormalizationBackward",
	     cudnnBatchNormalizationBackward(NULL, CUDNN_BATCHNORM_SPATIAL, &one, &zero, &one,
					     &zero, t, p, t, p, t, p, t, p, p, p, 1e-5, p, p));
	SHOW("cudnnBatchNormalizationBackwardEx",
	     cudnnBatchNormalizationBackwardEx(NULL, CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_OPS_BN,
					       &one, &zero, &one, &zero, t, p, NULL, NULL, t, p,
					       NULL, NULL, t, p, t, p, NULL, p, p, 1e-5, p, p, NULL,
					       NULL, 0, NULL, 0));
	SHOW("cudnnActivationBackward",
	     cudnnActivationBackward(NULL, NULL, &one, t, p, t, p, t, p, &zero, t, p));
	SHOW("cudnnPoolingForward", cudnnPoolingForward(NULL, NULL, &one, t, p, &zero, t, p));
	SHOW("cudnnPoolingBackward",
	     cudnnPoolingBackward(NULL, NULL, &one, t, p, t, p, t, p, &zero, t, p));
	SHOW("cudnnSoftmaxBackward",
	     cudnnSoftmaxBackward(NULL, CUDNN_SOFTMAX_FAST, CUDNN_SOFTMAX_MODE_CHANNEL, &one, t, p,
				  t, p, &zero, t, p));
	SHOW("cudnnOpTensor", cudnnOpTensor(NULL, NULL, &one, t, p, &one, t, p, &zero, t, p));
	SHOW("cudnnDropoutForward", cudnnDropoutForward(NULL, NULL, t, p, t, p, p, 16));
	SHOW("cudnnDropoutBackward", cudnnDropoutBackward(NULL, NULL, t, p, t, p, p, 16));
	SHOW("cudnnDestroyFilterDescriptor", cudnnDestroyFilterDescriptor(f));
	SHOW("cudnnDestroyTensorDescriptor", cudnnDestroyTensorDescriptor(t));
	SHOW("cudnnDestroyConvolutionDescriptor", cudnnDestroyConvolutionDescriptor(cd));
	cudnnHandle_t handle = NULL;
	SHOW("cudnnCreate", cudnnCreate(&handle) == CUDNN_STATUS_SUCCESS ? 0 : 1);
	if (handle)
		cudnnDestroy(handle);
#undef SHOW
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && strcmp(argv[1], "legacy") == 0)
		return run_legacy();
	if (argc == 2 && strcmp(argv[1], "null") == 0)
		return run_null();
	fprintf(stderr, "usage: cudnn_calls legacy|null\n");
	return 2;
}
