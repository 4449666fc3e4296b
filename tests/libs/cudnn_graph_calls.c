/*
 * cudnn_graph_calls MODE: the cuDNN backend (graph API) calls the tracer's
 * tests record.
 *   null     cudnnBackendExecute with a NULL handle: `name status`
 *   backend  graphs built the way cudnn-frontend builds them
 * (tensor descriptors -> operations -> graph -> heuristics or engine ->
 * config -> plan -> variant pack -> cudnnBackendExecute), each execute
 * followed by the EXPECT line its dnntrace_lib event must match:
 *   1. conv fwd + bias add + relu (virtual intermediates), plan from heuristics
 *   2. matmul + relu with the matmul output kept (read and written: READ_WRITE),
 *      plan from an engine built by hand
 *   3. conv backward data with beta = 1 (dx READ_WRITE)
 * Must never depend on the tracer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "tests/libs/cudnn_expect.h"

#define CHECK CHECK_CUDNN

typedef cudnnBackendDescriptor_t desc_t;

/* Every descriptor made, so the program can destroy what it still holds. */
static desc_t made[256];
static unsigned made_count;

static desc_t create(cudnnBackendDescriptorType_t type)
{
	desc_t d;
	CHECK(cudnnBackendCreateDescriptor(type, &d));
	if (made_count == sizeof(made) / sizeof(made[0]))
		die("too many descriptors", made_count);
	made[made_count++] = d;
	return d;
}

static void destroy(desc_t d)
{
	for (unsigned i = 0; i < made_count; i++)
		if (made[i] == d)
			made[i] = made[--made_count];
	CHECK(cudnnBackendDestroyDescriptor(d));
}

static void destroy_all(void)
{
	while (made_count)
		CHECK(cudnnBackendDestroyDescriptor(made[--made_count]));
}

static void set(desc_t d, cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
		int64_t count, const void *values)
{
	CHECK(cudnnBackendSetAttribute(d, name, type, count, values));
}

static void set_desc(desc_t d, cudnnBackendAttributeName_t name, desc_t value)
{
	set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value);
}

/* A packed float tensor of rank 3 or 4. */
static desc_t tensor(int64_t uid, int rank, const int64_t *dims, bool is_virtual)
{
	desc_t t = create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
	cudnnDataType_t type = CUDNN_DATA_FLOAT;
	int64_t strides[4], alignment = 16;
	strides[rank - 1] = 1;
	for (int i = rank - 2; i >= 0; i--)
		strides[i] = strides[i + 1] * dims[i + 1];
	set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
	set(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, rank, dims);
	set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, rank, strides);
	set(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid);
	set(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment);
	set(t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual);
	CHECK(cudnnBackendFinalize(t));
	return t;
}

static desc_t convolution(void)
{
	desc_t c = create(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
	cudnnDataType_t type = CUDNN_DATA_FLOAT;
	cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
	int64_t spatial = 2, ones[2] = { 1, 1 };
	set(c, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
	set(c, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode);
	set(c, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial);
	set(c, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, ones);
	set(c, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, ones);
	set(c, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, ones);
	set(c, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, ones);
	CHECK(cudnnBackendFinalize(c));
	return c;
}

static desc_t pointwise(cudnnPointwiseMode_t mode, desc_t x, desc_t b, desc_t y)
{
	desc_t pw = create(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
	cudnnDataType_t type = CUDNN_DATA_FLOAT;
	set(pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode);
	set(pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &type);
	CHECK(cudnnBackendFinalize(pw));
	desc_t op = create(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
	set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw);
	set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x);
	if (b)
		set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b);
	set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y);
	CHECK(cudnnBackendFinalize(op));
	return op;
}

static desc_t graph(cudnnHandle_t handle, int count, desc_t *ops)
{
	desc_t g = create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
	set(g, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, ops);
	set(g, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
	CHECK(cudnnBackendFinalize(g));
	return g;
}

static desc_t plan_for(cudnnHandle_t handle, desc_t config, int64_t *workspace_bytes)
{
	desc_t plan = create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
	int64_t count = 0;
	set(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
	set_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, config);
	CHECK(cudnnBackendFinalize(plan));
	CHECK(cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
				       CUDNN_TYPE_INT64, 1, &count, workspace_bytes));
	return plan;
}

/* The config the heuristics rank first, as cudnn-frontend gets it. */
static desc_t config_from_heuristics(desc_t g)
{
	desc_t heur = create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
	cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_INSTANT;
	int64_t available = 0, returned = 0;
	set_desc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, g);
	set(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode);
	CHECK(cudnnBackendFinalize(heur));
	CHECK(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS,
				       CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &available, NULL));
	if (available < 1)
		die("heuristics returned no config", available);
	desc_t configs[8];
	int64_t n = available < 8 ? available : 8;
	for (int64_t i = 0; i < n; i++)
		configs[i] = create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
	CHECK(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS,
				       CUDNN_TYPE_BACKEND_DESCRIPTOR, n, &returned, configs));
	for (int64_t i = 1; i < n; i++)
		destroy(configs[i]);
	destroy(heur);
	return configs[0];
}

static desc_t config_from_engine(desc_t g)
{
	desc_t engine = create(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
	int64_t index = 0;
	set_desc(engine, CUDNN_ATTR_ENGINE_OPERATION_GRAPH, g);
	set(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &index);
	CHECK(cudnnBackendFinalize(engine));
	desc_t config = create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
	set_desc(config, CUDNN_ATTR_ENGINECFG_ENGINE, engine);
	CHECK(cudnnBackendFinalize(config));
	destroy(engine);
	return config;
}

static cudnnStatus_t execute(cudnnHandle_t handle, desc_t plan, int n, int64_t *uids,
			     void **ptrs, void *workspace)
{
	desc_t pack = create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
	set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, uids);
	set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, ptrs);
	set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace);
	CHECK(cudnnBackendFinalize(pack));
	cudnnStatus_t status = cudnnBackendExecute(handle, plan, pack);
	destroy(pack);
	return status;
}

/* kernels: what the simulated library launches (simgpu/cudnn: one per
 * operation, a pointwise operation reading another's virtual output fused in). */
static void expect_workspace_and_end(void *workspace, int64_t bytes, int ops, int kernels)
{
	expect_kernels(kernels);
	arg("workspace", workspace, "WS", "u8", D(bytes));
	param("ops", ops);
	param("workspace_bytes", bytes);
	expect_end();
}

static int run_backend(void)
{
	cudnnHandle_t h;
	cudaStream_t stream;
	if (cudnnCreate(&h) != CUDNN_STATUS_SUCCESS || cudaStreamCreate(&stream) != cudaSuccess)
		die("cudnnCreate/cudaStreamCreate", 0);
	CHECK(cudnnSetStream(h, stream));
	printf("SETSTREAM %llu %llu 0\n", (unsigned long long)(uintptr_t)h,
	       (unsigned long long)(uintptr_t)stream);
	void *workspace = device(1 << 20);

	/* 1. y = relu(conv(x, w) + b): only x, w, b and y have pointers. */
	const int64_t xdim[4] = { 2, 3, 8, 8 }, wdim[4] = { 4, 3, 3, 3 },
		      ydim[4] = { 2, 4, 8, 8 }, bdim[4] = { 1, 4, 1, 1 };
	desc_t x = tensor(1, 4, xdim, false), w = tensor(2, 4, wdim, false);
	desc_t b = tensor(3, 4, bdim, false), conv_out = tensor(4, 4, ydim, true);
	desc_t biased = tensor(5, 4, ydim, true), y = tensor(6, 4, ydim, false);
	desc_t conv = convolution();
	desc_t conv_op = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
	float alpha = 1.0f, beta = 0.0f;
	set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
	set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
	set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, conv_out);
	set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv);
	set(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha);
	set(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta);
	CHECK(cudnnBackendFinalize(conv_op));
	desc_t ops1[3] = { conv_op, pointwise(CUDNN_POINTWISE_ADD, conv_out, b, biased),
			   pointwise(CUDNN_POINTWISE_RELU_FWD, biased, NULL, y) };
	/* The program may drop its tensors once the graph holds them. */
	destroy(x);
	desc_t g1 = graph(h, 3, ops1);
	int64_t ws1 = 0;
	desc_t plan1 = plan_for(h, config_from_heuristics(g1), &ws1);
	void *xp = device(2 * 3 * 8 * 8 * 4), *wp = device(4 * 3 * 9 * 4);
	void *bp = device(4 * 4), *yp = device(2 * 4 * 8 * 8 * 4);
	int64_t uids1[4] = { 1, 2, 3, 6 };
	void *ptrs1[4] = { xp, wp, bp, yp };
	cudnnStatus_t st = execute(h, plan1, 4, uids1, ptrs1, workspace);
	expect("cudnnBackendExecute", st, h, stream);
	pack_arg(1, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, xp, "R", "f32", D(2, 3, 8, 8));
	pack_arg(2, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, wp, "R", "f32", D(4, 3, 3, 3));
	pack_arg(3, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, bp, "R", "f32", D(1, 4, 1, 1));
	pack_arg(6, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, yp, "W", "f32", D(2, 4, 8, 8));
	expect_workspace_and_end(workspace, ws1, 3, 1);

	/* 2. c = a @ b kept, d = relu(c): c is written then read (READ_WRITE). */
	const int64_t adim[3] = { 1, 8, 16 }, bmdim[3] = { 1, 16, 4 }, cdim[3] = { 1, 8, 4 };
	desc_t a = tensor(11, 3, adim, false), bm = tensor(12, 3, bmdim, false);
	desc_t c = tensor(13, 3, cdim, false), d = tensor(14, 3, cdim, false);
	desc_t matmul = create(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
	cudnnDataType_t comp = CUDNN_DATA_FLOAT;
	set(matmul, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &comp);
	CHECK(cudnnBackendFinalize(matmul));
	desc_t mm_op = create(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
	set_desc(mm_op, CUDNN_ATTR_OPERATION_MATMUL_ADESC, a);
	set_desc(mm_op, CUDNN_ATTR_OPERATION_MATMUL_BDESC, bm);
	set_desc(mm_op, CUDNN_ATTR_OPERATION_MATMUL_CDESC, c);
	set_desc(mm_op, CUDNN_ATTR_OPERATION_MATMUL_DESC, matmul);
	CHECK(cudnnBackendFinalize(mm_op));
	desc_t ops2[2] = { mm_op, pointwise(CUDNN_POINTWISE_RELU_FWD, c, NULL, d) };
	desc_t g2 = graph(h, 2, ops2);
	int64_t ws2 = 0;
	desc_t plan2 = plan_for(h, config_from_engine(g2), &ws2);
	void *ap = device(8 * 16 * 4), *bmp = device(16 * 4 * 4);
	void *cp = device(8 * 4 * 4), *dp = device(8 * 4 * 4);
	int64_t uids2[4] = { 14, 11, 12, 13 };
	void *ptrs2[4] = { dp, ap, bmp, cp };
	st = execute(h, plan2, 4, uids2, ptrs2, workspace);
	expect("cudnnBackendExecute", st, h, stream);
	pack_arg(14, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, dp, "W", "f32", D(1, 8, 4));
	pack_arg(11, CUDNN_ATTR_OPERATION_MATMUL_ADESC, ap, "R", "f32", D(1, 8, 16));
	pack_arg(12, CUDNN_ATTR_OPERATION_MATMUL_BDESC, bmp, "R", "f32", D(1, 16, 4));
	/* written by the matmul, read by the pointwise: named by its producer */
	pack_arg(13, CUDNN_ATTR_OPERATION_MATMUL_CDESC, cp, "RW", "f32", D(1, 8, 4));
	expect_workspace_and_end(workspace, ws2, 2, 2);

	/* 3. dx = conv_bwd_data(w, dy) + 1.0 * dx (a double beta). */
	desc_t w3 = tensor(21, 4, wdim, false), dy3 = tensor(22, 4, ydim, false);
	desc_t dx3 = tensor(23, 4, xdim, false);
	desc_t bwd = create(CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR);
	double alpha_d = 1.0, beta_d = 1.0;
	set_desc(bwd, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, w3);
	set_desc(bwd, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, dy3);
	set_desc(bwd, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, dx3);
	set_desc(bwd, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC, conv);
	set(bwd, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA, CUDNN_TYPE_DOUBLE, 1, &alpha_d);
	set(bwd, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA, CUDNN_TYPE_DOUBLE, 1, &beta_d);
	CHECK(cudnnBackendFinalize(bwd));
	desc_t g3 = graph(h, 1, &bwd);
	int64_t ws3 = 0;
	desc_t plan3 = plan_for(h, config_from_heuristics(g3), &ws3);
	int64_t uids3[3] = { 21, 22, 23 };
	void *ptrs3[3] = { wp, yp, xp };
	st = execute(h, plan3, 3, uids3, ptrs3, workspace);
	expect("cudnnBackendExecute", st, h, stream);
	pack_arg(21, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, wp, "R", "f32", D(4, 3, 3, 3));
	pack_arg(22, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, yp, "R", "f32", D(2, 4, 8, 8));
	pack_arg(23, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, xp, "RW", "f32", D(2, 3, 8, 8));
	expect_workspace_and_end(workspace, ws3, 1, 1);

	/* 4. An operation the tracer does not model (a reduction): its tensors keep
	 * their shapes but their roles are unknown; a uid no graph tensor has is
	 * listed too, without shape. */
	const int64_t rdim[3] = { 1, 1, 4 };
	desc_t rx = tensor(31, 3, cdim, false), ry = tensor(32, 3, rdim, false);
	desc_t reduction = create(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
	cudnnReduceTensorOp_t reduce_op = CUDNN_REDUCE_TENSOR_ADD;
	set(reduction, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1,
	    &reduce_op);
	set(reduction, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &comp);
	CHECK(cudnnBackendFinalize(reduction));
	desc_t reduce = create(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
	set_desc(reduce, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, rx);
	set_desc(reduce, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, ry);
	set_desc(reduce, CUDNN_ATTR_OPERATION_REDUCTION_DESC, reduction);
	CHECK(cudnnBackendFinalize(reduce));
	desc_t g4 = graph(h, 1, &reduce);
	int64_t ws4 = 0;
	desc_t plan4 = plan_for(h, config_from_engine(g4), &ws4);
	int64_t uids4[3] = { 31, 32, 99 };
	void *ptrs4[3] = { cp, dp, ap };
	st = execute(h, plan4, 3, uids4, ptrs4, workspace);
	expect("cudnnBackendExecute", st, h, stream);
	pack_arg(31, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, cp, "U", "f32", D(1, 8, 4));
	pack_arg(32, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, dp, "U", "f32", D(1, 1, 4));
	pack_arg(99, -1, ap, "U", "?", -1LL);
	expect_workspace_and_end(workspace, ws4, 1, 1);

	/* A NULL handle fails, and is traced with the same roles. */
	st = execute(NULL, plan3, 3, uids3, ptrs3, workspace);
	expect("cudnnBackendExecute", st, NULL, NULL);
	pack_arg(21, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, wp, "R", "f32", D(4, 3, 3, 3));
	pack_arg(22, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, yp, "R", "f32", D(2, 4, 8, 8));
	pack_arg(23, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, xp, "RW", "f32", D(2, 3, 8, 8));
	expect_workspace_and_end(workspace, ws3, 1, 1);

	if (cudaStreamSynchronize(stream) != cudaSuccess)
		die("cudaStreamSynchronize", 0);
	destroy_all();
	free_devices();
	CHECK_CUDA(cudaStreamDestroy(stream));
	CHECK(cudnnDestroy(h));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && strcmp(argv[1], "backend") == 0)
		return run_backend();
	if (argc == 2 && strcmp(argv[1], "null") == 0) {
		printf("cudnnBackendExecute %d\n", (int)cudnnBackendExecute(NULL, NULL, NULL));
		return 0;
	}
	fprintf(stderr, "usage: cudnn_graph_calls backend|null\n");
	return 2;
}
