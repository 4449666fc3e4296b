/*
 * Benchmark (e): the cost of one library call, printed as ns per call.
 *   bench_libs conv N   cudnnConvolutionForward (legacy API, 3 tensors with
 *                       descriptor shapes, a workspace, beta 0)
 *   bench_libs lt N     cublasLtMatmul with the BIAS epilogue and a workspace
 *                       (A, B, C = D, bias: 5 pointers with shapes)
 * Runs on simgpu (the simulated libcudnn.so.9 / libcublasLt.so.13 launch one
 * kernel per call); run_bench.sh compares the time per call traced and bare
 * with one bare enabled tracepoint (bench_launch tracepoint). Descriptors are
 * made once, before the timed loop, as frameworks cache them. Never part of
 * the test suite; never checks results (the simulated GPU computes nothing).
 */
#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_clock.h"

enum { N = 8, C = 16, K = 16, SIDE = 16, M = 64, LT_K = 64, LT_N = 32 };

static cudaStream_t stream;

static void check(int status, const char *what)
{
	if (status != 0) {
		fprintf(stderr, "bench_libs: %s failed with status %d\n", what, status);
		exit(1);
	}
}

static void *device_alloc(size_t bytes)
{
	void *ptr = NULL;
	check(cudaMalloc(&ptr, bytes), "cudaMalloc");
	return ptr;
}

/* ---- cudnnConvolutionForward ------------------------------------------------ */

static struct {
	cudnnHandle_t handle;
	cudnnTensorDescriptor_t x_desc, y_desc;
	cudnnFilterDescriptor_t w_desc;
	cudnnConvolutionDescriptor_t conv_desc;
	cudnnConvolutionFwdAlgo_t algo;
	void *x, *w, *y, *workspace;
	size_t workspace_bytes;
} conv;

static void conv_setup(void)
{
	check(cudnnCreate(&conv.handle), "cudnnCreate");
	check(cudnnSetStream(conv.handle, stream), "cudnnSetStream");
	check(cudnnCreateTensorDescriptor(&conv.x_desc), "cudnnCreateTensorDescriptor");
	check(cudnnSetTensor4dDescriptor(conv.x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C,
					 SIDE, SIDE), "cudnnSetTensor4dDescriptor");
	check(cudnnCreateTensorDescriptor(&conv.y_desc), "cudnnCreateTensorDescriptor");
	check(cudnnSetTensor4dDescriptor(conv.y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K,
					 SIDE, SIDE), "cudnnSetTensor4dDescriptor");
	check(cudnnCreateFilterDescriptor(&conv.w_desc), "cudnnCreateFilterDescriptor");
	check(cudnnSetFilter4dDescriptor(conv.w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, 3, 3),
	      "cudnnSetFilter4dDescriptor");
	check(cudnnCreateConvolutionDescriptor(&conv.conv_desc), "cudnnCreateConvolutionDescriptor");
	check(cudnnSetConvolution2dDescriptor(conv.conv_desc, 1, 1, 1, 1, 1, 1,
					      CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
	      "cudnnSetConvolution2dDescriptor");
	conv.algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
	check(cudnnGetConvolutionForwardWorkspaceSize(conv.handle, conv.x_desc, conv.w_desc,
						      conv.conv_desc, conv.y_desc, conv.algo,
						      &conv.workspace_bytes),
	      "cudnnGetConvolutionForwardWorkspaceSize");
	conv.x = device_alloc((size_t)N * C * SIDE * SIDE * sizeof(float));
	conv.w = device_alloc((size_t)K * C * 9 * sizeof(float));
	conv.y = device_alloc((size_t)N * K * SIDE * SIDE * sizeof(float));
	conv.workspace = device_alloc(conv.workspace_bytes ? conv.workspace_bytes : 1);
}

static void conv_calls(long n)
{
	const float one = 1.0f, zero = 0.0f;
	for (long i = 0; i < n; i++)
		check(cudnnConvolutionForward(conv.handle, &one, conv.x_desc, conv.x, conv.w_desc,
					      conv.w, conv.conv_desc, conv.algo, conv.workspace,
					      conv.workspace_bytes, &zero, conv.y_desc, conv.y),
		      "cudnnConvolutionForward");
	check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

/* ---- cublasLtMatmul ------------------------------------------------------------ */

enum { LT_WORKSPACE_BYTES = 1 << 16 };

static struct {
	cublasLtHandle_t handle;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t a_layout, b_layout, d_layout;
	cublasLtMatmulHeuristicResult_t heuristic;
	void *a, *b, *d, *bias, *workspace;
} lt;

static void lt_setup(void)
{
	check(cublasLtCreate(&lt.handle), "cublasLtCreate");
	check(cublasLtMatmulDescCreate(&lt.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
	      "cublasLtMatmulDescCreate");
	cublasOperation_t transa = CUBLAS_OP_T;
	cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
	lt.a = device_alloc((size_t)LT_K * M * sizeof(float));
	lt.b = device_alloc((size_t)LT_K * LT_N * sizeof(float));
	lt.d = device_alloc((size_t)M * LT_N * sizeof(float));
	lt.bias = device_alloc((size_t)M * sizeof(float));
	lt.workspace = device_alloc(LT_WORKSPACE_BYTES);
	check(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa,
					     sizeof(transa)), "cublasLtMatmulDescSetAttribute");
	check(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
					     sizeof(epilogue)), "cublasLtMatmulDescSetAttribute");
	check(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &lt.bias,
					     sizeof(lt.bias)), "cublasLtMatmulDescSetAttribute");
	check(cublasLtMatrixLayoutCreate(&lt.a_layout, CUDA_R_32F, LT_K, M, LT_K),
	      "cublasLtMatrixLayoutCreate");
	check(cublasLtMatrixLayoutCreate(&lt.b_layout, CUDA_R_32F, LT_K, LT_N, LT_K),
	      "cublasLtMatrixLayoutCreate");
	check(cublasLtMatrixLayoutCreate(&lt.d_layout, CUDA_R_32F, M, LT_N, M),
	      "cublasLtMatrixLayoutCreate");
	cublasLtMatmulPreference_t preference;
	uint64_t limit = LT_WORKSPACE_BYTES;
	int n_results = 0;
	check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
	check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
						   &limit, sizeof(limit)),
	      "cublasLtMatmulPreferenceSetAttribute");
	check(cublasLtMatmulAlgoGetHeuristic(lt.handle, lt.desc, lt.a_layout, lt.b_layout,
					     lt.d_layout, lt.d_layout, preference, 1,
					     &lt.heuristic, &n_results),
	      "cublasLtMatmulAlgoGetHeuristic");
	check(n_results < 1, "cublasLtMatmulAlgoGetHeuristic (no result)");
	check(cublasLtMatmulPreferenceDestroy(preference), "cublasLtMatmulPreferenceDestroy");
}

static void lt_calls(long n)
{
	const float one = 1.0f, zero = 0.0f;
	for (long i = 0; i < n; i++)
		check(cublasLtMatmul(lt.handle, lt.desc, &one, lt.a, lt.a_layout, lt.b, lt.b_layout,
				     &zero, lt.d, lt.d_layout, lt.d, lt.d_layout, &lt.heuristic.algo,
				     lt.workspace, LT_WORKSPACE_BYTES, stream),
		      "cublasLtMatmul");
	check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

int main(int argc, char **argv)
{
	void (*body)(long) = NULL;
	void (*setup)(void) = NULL;
	if (argc == 3 && strcmp(argv[1], "conv") == 0) {
		setup = conv_setup;
		body = conv_calls;
	} else if (argc == 3 && strcmp(argv[1], "lt") == 0) {
		setup = lt_setup;
		body = lt_calls;
	}
	long n = argc == 3 ? atol(argv[2]) : 0;
	if (!body || n <= 0) {
		fprintf(stderr, "usage: bench_libs conv|lt ITERATIONS\n");
		return 1;
	}
	check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
	setup();
	body(n / 10 + 1);
	printf("%.1f\n", bench_best_ns(body, n, 5));
	return 0;
}
