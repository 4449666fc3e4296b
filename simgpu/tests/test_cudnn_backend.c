/*
 * The simulated cuDNN's backend API, driven as cudnn-frontend drives it:
 * tensor descriptors -> operation -> operation graph -> engine heuristics
 * -> engine config -> execution plan -> variant pack -> execute. Checks the
 * kernels launched (names, counts, durations: README.md), runtime fusion of
 * conv+bias+ReLU, the variant-pack checks, GetAttribute round trips and
 * the status codes observed on the real libcudnn.so.9.
 */
#include <stdbool.h>

#include "simgpu/tests/cudnn_test.h"

static cudnnHandle_t handle;

static cudnnBackendDescriptor_t create(cudnnBackendDescriptorType_t type)
{
	cudnnBackendDescriptor_t d;
	CHECK_DNN(cudnnBackendCreateDescriptor(type, &d));
	return d;
}

static void set(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
		cudnnBackendAttributeType_t type, int64_t n, const void *v)
{
	CHECK_DNN(cudnnBackendSetAttribute(d, name, type, n, v));
}

static void set_desc(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
		     cudnnBackendDescriptor_t v)
{
	set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v);
}

/* A packed float tensor, finalized. */
static cudnnBackendDescriptor_t tensor(int64_t uid, int rank, const int64_t *dims, bool virt)
{
	cudnnBackendDescriptor_t t = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
	int64_t strides[8], s = 1, align = 16;
	for (int i = rank - 1; i >= 0; i--) {
		strides[i] = s;
		s *= dims[i];
	}
	cudnnDataType_t dt = CUDNN_DATA_FLOAT;
	set(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid);
	set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &dt);
	set(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, rank, dims);
	set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, rank, strides);
	set(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align);
	set(t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &virt);
	CHECK_DNN(cudnnBackendFinalize(t));
	return t;
}

/* 3x3, padding 1, stride 1: same spatial size. */
static cudnnBackendDescriptor_t conv_desc(void)
{
	cudnnBackendDescriptor_t c = create(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
	cudnnDataType_t comp = CUDNN_DATA_FLOAT;
	cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
	int64_t spatial = 2, ones[2] = { 1, 1 };
	set(c, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &comp);
	set(c, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
	set(c, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial);
	set(c, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, ones);
	set(c, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, ones);
	set(c, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, ones);
	set(c, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, ones);
	CHECK_DNN(cudnnBackendFinalize(c));
	return c;
}

static cudnnBackendDescriptor_t pointwise(cudnnPointwiseMode_t mode, cudnnBackendDescriptor_t x,
					  cudnnBackendDescriptor_t b, cudnnBackendDescriptor_t y)
{
	cudnnBackendDescriptor_t pw = create(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
	cudnnDataType_t prec = CUDNN_DATA_FLOAT;
	set(pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode);
	set(pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &prec);
	CHECK_DNN(cudnnBackendFinalize(pw));
	cudnnBackendDescriptor_t op = create(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
	set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw);
	set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x);
	if (b)
		set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b);
	set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y);
	CHECK_DNN(cudnnBackendFinalize(op));
	cudnnBackendDestroyDescriptor(pw); /* the operation keeps what it needs */
	return op;
}

/* Graph -> heuristics -> first engine config -> plan, as cudnn-frontend. */
static cudnnBackendDescriptor_t plan_for(int nops, const cudnnBackendDescriptor_t *ops,
					 int64_t *workspace)
{
	cudnnBackendDescriptor_t graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
	set(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, nops, ops);
	set(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
	CHECK_DNN(cudnnBackendFinalize(graph));

	cudnnBackendDescriptor_t heur = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
	cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
	set_desc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph);
	set(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
	CHECK_DNN(cudnnBackendFinalize(heur));
	int64_t count = 0;
	CHECK_DNN(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
	CHECK(count == 2);
	cudnnBackendDescriptor_t cfgs[2] = { create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR),
					     create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR) };
	CHECK_DNN(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 2, &count, cfgs));

	cudnnBackendDescriptor_t plan = create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
	set(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
	set_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, cfgs[0]);
	CHECK_DNN(cudnnBackendFinalize(plan));
	CHECK_DNN(cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
		CUDNN_TYPE_INT64, 1, &count, workspace));
	/* The program may drop everything but the plan. */
	cudnnBackendDestroyDescriptor(cfgs[0]);
	cudnnBackendDestroyDescriptor(cfgs[1]);
	cudnnBackendDestroyDescriptor(heur);
	cudnnBackendDestroyDescriptor(graph);
	return plan;
}

static cudnnBackendDescriptor_t variant_pack(int n, const int64_t *uids, void **ptrs, void *ws)
{
	cudnnBackendDescriptor_t vp = create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
	set(vp, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, uids);
	set(vp, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, ptrs);
	set(vp, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &ws);
	CHECK_DNN(cudnnBackendFinalize(vp));
	return vp;
}

static void *dev(size_t bytes)
{
	void *p = NULL;
	CHECK_CUDA(cudaMalloc(&p, bytes));
	return p;
}

enum { N = 4, C = 8, H = 16, W = 16, K = 16 };
static const int64_t x_dims[4] = { N, C, H, W }, w_dims[4] = { K, C, 3, 3 };
static const int64_t y_dims[4] = { N, K, H, W }, b_dims[4] = { 1, K, 1, 1 };

static void check_conv_forward(int *seen)
{
	cudnnBackendDescriptor_t x = tensor(1, 4, x_dims, false), w = tensor(2, 4, w_dims, false);
	cudnnBackendDescriptor_t y = tensor(3, 4, y_dims, false), conv = conv_desc();
	cudnnBackendDescriptor_t op = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
	float alpha = 1, beta = 0;
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, y);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv);
	set(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha);
	set(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta);
	CHECK_DNN(cudnnBackendFinalize(op));
	int64_t ws_bytes = -1;
	cudnnBackendDescriptor_t plan = plan_for(1, &op, &ws_bytes);
	CHECK(ws_bytes == (int64_t)sizeof(int) * C * 9); /* engine 0 (README.md) */

	void *ptrs[3] = { dev(4 * N * C * H * W), dev(4 * K * C * 9), dev(4 * N * K * H * W) };
	void *ws = dev((size_t)ws_bytes);
	int64_t uids[3] = { 1, 2, 3 };
	cudnnBackendDescriptor_t pack = variant_pack(3, uids, ptrs, ws);
	CHECK_DNN_IS(cudnnBackendExecute(NULL, plan, pack), CUDNN_STATUS_BAD_PARAM); /* real */
	CHECK_DNN(cudnnBackendExecute(handle, plan, pack));
	CHECK(test_flush() == *seen + 1);
	const struct test_kernel *k = &test_kernels[(*seen)++];
	CHECK(strcmp(k->name, "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw") == 0);
	unsigned long long flops = 2ull * N * K * C * 9 * H * W;
	unsigned long long bytes = 4ull * (N * C * H * W + K * C * 9 + N * K * H * W);
	CHECK_EQ_U64(k->end - k->start, 2000 + flops / 10000 + bytes / 1000);

	/* GetAttribute answers what was set. */
	int64_t n = 0, got_uids[4] = { 0 }, got_ws_count = 0;
	void *got_ptrs[4] = { 0 }, *got_ws = NULL;
	CHECK_DNN(cudnnBackendGetAttribute(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64,
		4, &n, got_uids));
	CHECK(n == 3 && got_uids[0] == 1 && got_uids[2] == 3);
	CHECK_DNN(cudnnBackendGetAttribute(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS,
		CUDNN_TYPE_VOID_PTR, 4, &n, got_ptrs));
	CHECK(n == 3 && got_ptrs[0] == ptrs[0] && got_ptrs[2] == ptrs[2]);
	CHECK_DNN(cudnnBackendGetAttribute(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE,
		CUDNN_TYPE_VOID_PTR, 1, &got_ws_count, &got_ws));
	CHECK(got_ws_count == 1 && got_ws == ws);
	/* Plan -> config -> engine -> graph -> ops -> tensors, copied out. */
	cudnnBackendDescriptor_t cfg = create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
	cudnnBackendDescriptor_t engine = create(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
	cudnnBackendDescriptor_t graph = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
	cudnnBackendDescriptor_t op_copy = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
	cudnnBackendDescriptor_t y_copy = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
	CHECK_DNN(cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
	CHECK_DNN(cudnnBackendGetAttribute(cfg, CUDNN_ATTR_ENGINECFG_ENGINE,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &engine));
	int64_t index = -1;
	CHECK_DNN(cudnnBackendGetAttribute(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64,
		1, &n, &index));
	CHECK(index == 0);
	CHECK_DNN(cudnnBackendGetAttribute(engine, CUDNN_ATTR_ENGINE_OPERATION_GRAPH,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &graph));
	CHECK_DNN(cudnnBackendGetAttribute(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &op_copy));
	CHECK(n == 1);
	CHECK_DNN(cudnnBackendGetAttribute(op_copy, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &y_copy));
	int64_t dims[8] = { 0 }, uid = 0;
	CHECK_DNN(cudnnBackendGetAttribute(y_copy, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 8,
		&n, dims));
	CHECK(n == 4 && dims[0] == N && dims[1] == K && dims[3] == W);
	CHECK_DNN(cudnnBackendGetAttribute(y_copy, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1,
		&n, &uid));
	CHECK(uid == 3);
	float got_beta = 5;
	CHECK_DNN(cudnnBackendGetAttribute(op_copy, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA,
		CUDNN_TYPE_FLOAT, 1, &n, &got_beta));
	CHECK(got_beta == 0.0f);
	cudnnBackendDescriptor_t copies[5] = { cfg, engine, graph, op_copy, y_copy };
	for (int i = 0; i < 5; i++)
		CHECK_DNN(cudnnBackendDestroyDescriptor(copies[i]));

	/* A missing data pointer or workspace launches nothing. */
	cudnnBackendDescriptor_t short_pack = variant_pack(2, uids, ptrs, ws);
	CHECK_DNN_IS(cudnnBackendExecute(handle, plan, short_pack), CUDNN_STATUS_BAD_PARAM);
	cudnnBackendDescriptor_t no_ws = variant_pack(3, uids, ptrs, NULL);
	CHECK_DNN_IS(cudnnBackendExecute(handle, plan, no_ws), CUDNN_STATUS_BAD_PARAM);
	CHECK(test_flush() == *seen);

	/* A y of the wrong shape is refused at finalize. */
	cudnnBackendDescriptor_t bad = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
	set_desc(bad, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
	set_desc(bad, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
	set_desc(bad, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, x);
	set_desc(bad, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv);
	CHECK_DNN_IS(cudnnBackendFinalize(bad), CUDNN_STATUS_BAD_PARAM);

	cudnnBackendDescriptor_t all[] = { x, w, y, conv, op, plan, pack, short_pack, no_ws, bad };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		CHECK_DNN(cudnnBackendDestroyDescriptor(all[i]));
}

/* conv -> +bias -> ReLU with virtual intermediates: one fused kernel. */
static void check_fused_conv_bias_relu(int *seen)
{
	cudnnBackendDescriptor_t x = tensor(1, 4, x_dims, false), w = tensor(2, 4, w_dims, false);
	cudnnBackendDescriptor_t conv_out = tensor(3, 4, y_dims, true), b = tensor(4, 4, b_dims, false);
	cudnnBackendDescriptor_t biased = tensor(5, 4, y_dims, true), y = tensor(6, 4, y_dims, false);
	cudnnBackendDescriptor_t conv = conv_desc();
	cudnnBackendDescriptor_t ops[3];
	ops[0] = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
	set_desc(ops[0], CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
	set_desc(ops[0], CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
	set_desc(ops[0], CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, conv_out);
	set_desc(ops[0], CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv);
	CHECK_DNN(cudnnBackendFinalize(ops[0]));
	ops[1] = pointwise(CUDNN_POINTWISE_ADD, conv_out, b, biased);
	ops[2] = pointwise(CUDNN_POINTWISE_RELU_FWD, biased, NULL, y);
	int64_t ws_bytes;
	cudnnBackendDescriptor_t plan = plan_for(3, ops, &ws_bytes);
	void *ptrs[4] = { dev(4 * N * C * H * W), dev(4 * K * C * 9), dev(4 * K), dev(4 * N * K * H * W) };
	int64_t uids[4] = { 1, 2, 4, 6 };
	cudnnBackendDescriptor_t pack = variant_pack(4, uids, ptrs, dev((size_t)ws_bytes));
	CHECK_DNN(cudnnBackendExecute(handle, plan, pack));
	CHECK(test_flush() == *seen + 1);
	const struct test_kernel *k = &test_kernels[(*seen)++];
	CHECK(strcmp(k->name, "cudnn_runtime_fusion_fprop_kernel") == 0);
	unsigned long long flops = 2ull * N * K * C * 9 * H * W;
	unsigned long long bytes = 4ull * (N * C * H * W + K * C * 9 + K + N * K * H * W);
	CHECK_EQ_U64(k->end - k->start, 2000 + flops / 10000 + bytes / 1000);

	/* The same ops with a real (non-virtual) intermediate: no fusion. */
	cudnnBackendDescriptor_t mid = tensor(7, 4, y_dims, false);
	cudnnBackendDescriptor_t add = pointwise(CUDNN_POINTWISE_ADD, y, b, mid);
	cudnnBackendDescriptor_t relu = pointwise(CUDNN_POINTWISE_RELU_FWD, mid, NULL, y);
	cudnnBackendDescriptor_t two[2] = { add, relu };
	cudnnBackendDescriptor_t plan2 = plan_for(2, two, &ws_bytes);
	CHECK(ws_bytes == 0);
	int64_t uids2[3] = { 6, 4, 7 };
	void *ptrs2[3] = { ptrs[3], ptrs[2], dev(4 * N * K * H * W) };
	cudnnBackendDescriptor_t pack2 = variant_pack(3, uids2, ptrs2, NULL);
	CHECK_DNN(cudnnBackendExecute(handle, plan2, pack2));
	CHECK(test_flush() == *seen + 2);
	CHECK(strcmp(test_kernels[*seen].name, "cudnn_generated_pointwise_kernel") == 0);
	CHECK(strcmp(test_kernels[*seen + 1].name, "cudnn_generated_pointwise_kernel") == 0);
	*seen += 2;
	cudnnBackendDescriptor_t all[] = { x, w, conv_out, b, biased, y, conv, ops[0], ops[1], ops[2],
					   plan, pack, mid, add, relu, plan2, pack2 };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		CHECK_DNN(cudnnBackendDestroyDescriptor(all[i]));
}

/* Backward data and a batched matmul: one kernel each, documented names. */
static void check_dgrad_and_matmul(int *seen)
{
	cudnnBackendDescriptor_t dx = tensor(1, 4, x_dims, false), w = tensor(2, 4, w_dims, false);
	cudnnBackendDescriptor_t dy = tensor(3, 4, y_dims, false), conv = conv_desc();
	cudnnBackendDescriptor_t op = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, dx);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, w);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, dy);
	set_desc(op, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC, conv);
	CHECK_DNN(cudnnBackendFinalize(op));
	int64_t ws_bytes;
	cudnnBackendDescriptor_t plan = plan_for(1, &op, &ws_bytes);
	int64_t uids[3] = { 1, 2, 3 };
	void *ptrs[3] = { dev(4 * N * C * H * W), dev(4 * K * C * 9), dev(4 * N * K * H * W) };
	cudnnBackendDescriptor_t pack = variant_pack(3, uids, ptrs, dev((size_t)ws_bytes));
	CHECK_DNN(cudnnBackendExecute(handle, plan, pack));

	enum { B = 2, M = 64, KK = 32, NN = 48 };
	int64_t a_dims[3] = { B, M, KK }, b_dims3[3] = { B, KK, NN }, c_dims[3] = { B, M, NN };
	cudnnBackendDescriptor_t a = tensor(10, 3, a_dims, false), bt = tensor(11, 3, b_dims3, false);
	cudnnBackendDescriptor_t c = tensor(12, 3, c_dims, false);
	cudnnBackendDescriptor_t mm = create(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
	cudnnDataType_t comp = CUDNN_DATA_FLOAT;
	set(mm, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &comp);
	CHECK_DNN(cudnnBackendFinalize(mm));
	cudnnBackendDescriptor_t mop = create(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
	set_desc(mop, CUDNN_ATTR_OPERATION_MATMUL_ADESC, a);
	set_desc(mop, CUDNN_ATTR_OPERATION_MATMUL_BDESC, bt);
	set_desc(mop, CUDNN_ATTR_OPERATION_MATMUL_CDESC, c);
	set_desc(mop, CUDNN_ATTR_OPERATION_MATMUL_DESC, mm);
	CHECK_DNN(cudnnBackendFinalize(mop));
	cudnnBackendDescriptor_t mplan = plan_for(1, &mop, &ws_bytes);
	CHECK(ws_bytes == 0);
	int64_t muids[3] = { 10, 11, 12 };
	void *mptrs[3] = { dev(4 * B * M * KK), dev(4 * B * KK * NN), dev(4 * B * M * NN) };
	cudnnBackendDescriptor_t mpack = variant_pack(3, muids, mptrs, NULL);
	CHECK_DNN(cudnnBackendExecute(handle, mplan, mpack));
	CHECK(test_flush() == *seen + 2);
	CHECK(strcmp(test_kernels[*seen].name,
		     "sm80_xmma_dgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw") == 0);
	const struct test_kernel *k = &test_kernels[*seen + 1];
	CHECK(strcmp(k->name, "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n") == 0);
	unsigned long long flops = 2ull * B * M * NN * KK;
	unsigned long long bytes = 4ull * (B * M * KK + B * KK * NN + B * M * NN);
	CHECK_EQ_U64(k->end - k->start, 2000 + flops / 10000 + bytes / 1000);
	*seen += 2;
	cudnnBackendDescriptor_t all[] = { dx, w, dy, conv, op, plan, pack, a, bt, c, mm, mop, mplan, mpack };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		CHECK_DNN(cudnnBackendDestroyDescriptor(all[i]));
}

/* Codes observed on the real libcudnn.so.9 (simgpu/cudnn/README.md). */
static void check_status_codes(void)
{
	cudnnBackendDescriptor_t t = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
	int64_t uid = 7, n = 0, v = 0;
	int32_t small = 7;
	CHECK_DNN_IS(cudnnBackendCreateDescriptor(CUDNN_BACKEND_TENSOR_DESCRIPTOR, NULL),
		     CUDNN_STATUS_BAD_PARAM_NULL_POINTER);
	CHECK_DNN_IS(cudnnBackendGetAttribute(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &n, &v),
		     CUDNN_STATUS_NOT_INITIALIZED);
	CHECK_DNN_IS(cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT32, 1, &small),
		     CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE);
	CHECK_DNN_IS(cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 2, &uid),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, NULL),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnBackendSetAttribute(t, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_INT64, 1, &uid),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN(cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid));
	CHECK_DNN_IS(cudnnBackendFinalize(t), CUDNN_STATUS_BAD_PARAM); /* incomplete */
	cudnnBackendDescriptor_t full = tensor(8, 4, x_dims, false);
	CHECK_DNN_IS(cudnnBackendFinalize(full), CUDNN_STATUS_BAD_PARAM); /* twice */
	CHECK_DNN_IS(cudnnBackendSetAttribute(full, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid),
		     CUDNN_STATUS_BAD_PARAM);
	CHECK_DNN_IS(cudnnBackendGetAttribute(full, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT32, 1, &n, &v),
		     CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE);
	CHECK_DNN_IS(cudnnBackendDestroyDescriptor(NULL), CUDNN_STATUS_BAD_PARAM_NULL_POINTER);
	CHECK_DNN_IS(cudnnBackendFinalize(NULL), CUDNN_STATUS_BAD_PARAM_NULL_POINTER);
	/* An operation refuses tensors that are not finalized. */
	cudnnBackendDescriptor_t op = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
	CHECK_DNN_IS(cudnnBackendSetAttribute(op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
		CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t), CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED);
	cudnnBackendDescriptor_t all[] = { t, full, op };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		CHECK_DNN(cudnnBackendDestroyDescriptor(all[i]));
}

int main(void)
{
	simgpu_test_setup();
	test_start_cupti();
	CHECK_DNN(cudnnCreate(&handle));
	int seen = 0;
	check_conv_forward(&seen);
	check_fused_conv_bias_relu(&seen);
	check_dgrad_and_matmul(&seen);
	check_status_codes();
	CHECK(test_flush() == 6);
	CHECK_DNN(cudnnDestroy(handle));
	return 0;
}
