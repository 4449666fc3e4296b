/*
 * The simulated cuDNN's legacy convolution calls: workspace sizes, the
 * algorithm query (cudnnGet*Algorithm_v7, what MXNet uses without
 * autotuning), and forward / backward-data / backward-filter /
 * backward-bias / bias-activation, each validated like the real library
 * and launching exactly one kernel (README.md). Computes nothing.
 */
#include <string.h>

#include "simgpu/cudnn/cudnn_internal.h"

/* What a convolution's cost and workspace depend on. */
struct conv_geometry {
	uint64_t n, k, c_per_group, rs, pq, groups;
	cudnnDataType_t dtype;
};

/*
 * Checks that x (input), w (filter), conv and y (output) describe one
 * convolution: set, same type, same rank, y of the shape the output-dim
 * rule gives. Any mismatch is CUDNN_STATUS_BAD_PARAM.
 */
static cudnnStatus_t conv_geometry(cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
				   cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t y,
				   struct conv_geometry *g)
{
	int out[CUDNN_DIM_MAX];
	if (!sim_tensor_set(x) || !sim_filter_set(w) || !sim_conv_set(conv) || !sim_tensor_set(y))
		return CUDNN_STATUS_BAD_PARAM;
	if (x->dtype != y->dtype || x->dtype != w->dtype || y->nb_dims != x->nb_dims)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = cudnnGetConvolutionNdForwardOutputDim(conv, x, w, x->nb_dims, out);
	if (st != CUDNN_STATUS_SUCCESS)
		return st;
	if (memcmp(out, y->dims, (size_t)y->nb_dims * sizeof *out) != 0)
		return CUDNN_STATUS_BAD_PARAM;
	g->n = (uint64_t)x->dims[0];
	g->k = (uint64_t)w->dims[0];
	g->c_per_group = (uint64_t)w->dims[1];
	g->groups = (uint64_t)conv->group_count;
	g->rs = 1;
	g->pq = 1;
	for (int i = 2; i < w->nb_dims; i++) {
		g->rs *= (uint64_t)w->dims[i];
		g->pq *= (uint64_t)y->dims[i];
	}
	g->dtype = x->dtype;
	return CUDNN_STATUS_SUCCESS;
}

/* 2*N*K*C*R*S*P*Q, C being the input channels each filter sees. */
static uint64_t conv_flops(const struct conv_geometry *g)
{
	return 2 * g->n * g->k * g->c_per_group * g->rs * g->pq;
}

size_t sim_conv_im2col_bytes(cudnnDataType_t dtype, uint64_t c_rs, uint64_t pq)
{
	return (size_t)(sim_dtype_bytes(dtype) * c_rs * pq);
}

/* The three directions, for the shared algorithm and workspace logic. */
enum conv_direction { CONV_FWD, CONV_BWD_DATA, CONV_BWD_FILTER };

static const int algo_counts[3] = {
	CUDNN_CONVOLUTION_FWD_ALGO_COUNT, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
	CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT
};

/*
 * Workspace bytes of one algorithm (README.md): algorithm 0 needs none,
 * IMPLICIT_PRECOMP_GEMM an int offset per filter tap, every other one the
 * im2col matrix of one image. FWD_ALGO_DIRECT and BWD_FILTER_ALGO_WINOGRAD
 * are not implemented by the real library either: NOT_SUPPORTED.
 */
static cudnnStatus_t algo_workspace(enum conv_direction dir, int algo,
				    const struct conv_geometry *g, size_t *bytes)
{
	if (algo < 0 || algo >= algo_counts[dir])
		return CUDNN_STATUS_BAD_PARAM;
	if ((dir == CONV_FWD && algo == CUDNN_CONVOLUTION_FWD_ALGO_DIRECT) ||
	    (dir == CONV_BWD_FILTER && algo == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD))
		return CUDNN_STATUS_NOT_SUPPORTED;
	uint64_t c_rs = g->c_per_group * g->groups * g->rs;
	if (algo == 0)
		*bytes = 0;
	else if (dir == CONV_FWD && algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM)
		*bytes = (size_t)(sizeof(int) * c_rs);
	else
		*bytes = sim_conv_im2col_bytes(g->dtype, c_rs, g->pq);
	return CUDNN_STATUS_SUCCESS;
}

/* Workspace present and large enough: too small is BAD_PARAM (assumed). */
static cudnnStatus_t check_workspace(enum conv_direction dir, int algo,
				     const struct conv_geometry *g, const void *ws,
				     size_t ws_bytes)
{
	size_t need = 0;
	cudnnStatus_t st = algo_workspace(dir, algo, g, &need);
	if (st != CUDNN_STATUS_SUCCESS)
		return st;
	if (ws_bytes < need || (need > 0 && !ws))
		return CUDNN_STATUS_BAD_PARAM;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t handle,
	const cudnnTensorDescriptor_t xDesc, const cudnnFilterDescriptor_t wDesc,
	const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t yDesc,
	cudnnConvolutionFwdAlgo_t algo, size_t *sizeInBytes)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !sizeInBytes)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(xDesc, wDesc, convDesc, yDesc, &g);
	return st ? st : algo_workspace(CONV_FWD, algo, &g, sizeInBytes);
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardDataWorkspaceSize(cudnnHandle_t handle,
	const cudnnFilterDescriptor_t wDesc, const cudnnTensorDescriptor_t dyDesc,
	const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t dxDesc,
	cudnnConvolutionBwdDataAlgo_t algo, size_t *sizeInBytes)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !sizeInBytes)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(dxDesc, wDesc, convDesc, dyDesc, &g);
	return st ? st : algo_workspace(CONV_BWD_DATA, algo, &g, sizeInBytes);
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardFilterWorkspaceSize(cudnnHandle_t handle,
	const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t dyDesc,
	const cudnnConvolutionDescriptor_t convDesc, const cudnnFilterDescriptor_t gradDesc,
	cudnnConvolutionBwdFilterAlgo_t algo, size_t *sizeInBytes)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !sizeInBytes)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(xDesc, gradDesc, convDesc, dyDesc, &g);
	return st ? st : algo_workspace(CONV_BWD_FILTER, algo, &g, sizeInBytes);
}

/* ---- algorithm queries ---- */

static cudnnStatus_t algo_max_count(cudnnHandle_t handle, enum conv_direction dir, int *count)
{
	if (!sim_handle_ok(handle) || !count)
		return CUDNN_STATUS_BAD_PARAM;
	*count = algo_counts[dir];
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionForwardAlgorithmMaxCount(cudnnHandle_t handle, int *count)
{
	return algo_max_count(handle, CONV_FWD, count);
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardDataAlgorithmMaxCount(cudnnHandle_t handle, int *count)
{
	return algo_max_count(handle, CONV_BWD_DATA, count);
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(cudnnHandle_t handle, int *count)
{
	return algo_max_count(handle, CONV_BWD_FILTER, count);
}

/*
 * One result per supported algorithm, in algorithm order (0 first: the
 * heuristic always recommends the workspace-free one). The perf structs of
 * the three directions share one layout but are distinct types.
 */
#define FILL_PERF(results, requested, returned, dir, g, math)                   \
	do {                                                                    \
		int n_ = 0;                                                     \
		for (int a_ = 0; a_ < algo_counts[dir] && n_ < (requested); a_++) { \
			size_t ws_;                                             \
			if (algo_workspace(dir, a_, g, &ws_) != CUDNN_STATUS_SUCCESS) \
				continue;                                       \
			memset(&(results)[n_], 0, sizeof (results)[n_]);        \
			(results)[n_].algo = a_;                                \
			(results)[n_].status = CUDNN_STATUS_SUCCESS;            \
			(results)[n_].time = (float)(2e-3 + conv_flops(g) / 1e10); \
			(results)[n_].memory = ws_;                             \
			(results)[n_].determinism = a_ == 0 && (dir) != CONV_FWD \
				? CUDNN_NON_DETERMINISTIC : CUDNN_DETERMINISTIC; \
			(results)[n_].mathType = (math);                        \
			n_++;                                                   \
		}                                                               \
		*(returned) = n_;                                               \
	} while (0)

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionForwardAlgorithm_v7(cudnnHandle_t handle,
	const cudnnTensorDescriptor_t srcDesc, const cudnnFilterDescriptor_t filterDesc,
	const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t destDesc,
	const int requestedAlgoCount, int *returnedAlgoCount, cudnnConvolutionFwdAlgoPerf_t *perfResults)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !returnedAlgoCount || !perfResults || requestedAlgoCount < 1)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(srcDesc, filterDesc, convDesc, destDesc, &g);
	if (st != CUDNN_STATUS_SUCCESS)
		return st;
	FILL_PERF(perfResults, requestedAlgoCount, returnedAlgoCount, CONV_FWD, &g, convDesc->math_type);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardDataAlgorithm_v7(cudnnHandle_t handle,
	const cudnnFilterDescriptor_t filterDesc, const cudnnTensorDescriptor_t diffDesc,
	const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t gradDesc,
	const int requestedAlgoCount, int *returnedAlgoCount, cudnnConvolutionBwdDataAlgoPerf_t *perfResults)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !returnedAlgoCount || !perfResults || requestedAlgoCount < 1)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(gradDesc, filterDesc, convDesc, diffDesc, &g);
	if (st != CUDNN_STATUS_SUCCESS)
		return st;
	FILL_PERF(perfResults, requestedAlgoCount, returnedAlgoCount, CONV_BWD_DATA, &g, convDesc->math_type);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardFilterAlgorithm_v7(cudnnHandle_t handle,
	const cudnnTensorDescriptor_t srcDesc, const cudnnTensorDescriptor_t diffDesc,
	const cudnnConvolutionDescriptor_t convDesc, const cudnnFilterDescriptor_t gradDesc,
	const int requestedAlgoCount, int *returnedAlgoCount, cudnnConvolutionBwdFilterAlgoPerf_t *perfResults)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !returnedAlgoCount || !perfResults || requestedAlgoCount < 1)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(srcDesc, gradDesc, convDesc, diffDesc, &g);
	if (st != CUDNN_STATUS_SUCCESS)
		return st;
	FILL_PERF(perfResults, requestedAlgoCount, returnedAlgoCount, CONV_BWD_FILTER, &g, convDesc->math_type);
	return CUDNN_STATUS_SUCCESS;
}

/* ---- the calls ---- */

cudnnStatus_t CUDNNWINAPI cudnnConvolutionForward(cudnnHandle_t handle, const void *alpha,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnFilterDescriptor_t wDesc,
	const void *w, const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *beta,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !alpha || !beta || !x || !w || !y)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(xDesc, wDesc, convDesc, yDesc, &g);
	if (!st)
		st = check_workspace(CONV_FWD, algo, &g, workSpace, workSpaceSizeInBytes);
	if (st)
		return st;
	const void *ptrs[4] = { x, w, y, workSpace };
	return sim_launch(handle, SIM_K_CONV_FWD, conv_flops(&g),
			  sim_tensor_bytes(xDesc) + sim_filter_bytes(wDesc) + sim_tensor_bytes(yDesc),
			  sim_tensor_elements(yDesc), 4, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBiasActivationForward(cudnnHandle_t handle,
	const void *alpha1, const cudnnTensorDescriptor_t xDesc, const void *x,
	const cudnnFilterDescriptor_t wDesc, const void *w,
	const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *alpha2,
	const cudnnTensorDescriptor_t zDesc, const void *z, const cudnnTensorDescriptor_t biasDesc,
	const void *bias, const cudnnActivationDescriptor_t activationDesc,
	const cudnnTensorDescriptor_t yDesc, void *y)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !alpha1 || !alpha2 || !x || !w || !z || !bias || !y ||
	    !activationDesc || activationDesc->magic != SIM_ACTIVATION_MAGIC ||
	    !activationDesc->is_set || !sim_tensor_set(zDesc) || !sim_tensor_set(biasDesc))
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(xDesc, wDesc, convDesc, yDesc, &g);
	if (st)
		return st;
	/* z has y's shape; bias is 1xKx1x1 (one value per output channel). */
	if (!sim_same_shape(zDesc, yDesc) || biasDesc->nb_dims != yDesc->nb_dims ||
	    biasDesc->dims[1] != yDesc->dims[1] || sim_tensor_elements(biasDesc) != g.k)
		return CUDNN_STATUS_BAD_PARAM;
	/* The real library fuses only ReLU, and identity only with PRECOMP_GEMM. */
	if (activationDesc->mode != CUDNN_ACTIVATION_RELU &&
	    !(activationDesc->mode == CUDNN_ACTIVATION_IDENTITY &&
	      algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM))
		return CUDNN_STATUS_NOT_SUPPORTED;
	st = check_workspace(CONV_FWD, algo, &g, workSpace, workSpaceSizeInBytes);
	if (st)
		return st;
	const void *ptrs[6] = { x, w, z, bias, y, workSpace };
	return sim_launch(handle, SIM_K_CONV_BIAS_ACT_FWD, conv_flops(&g),
			  sim_tensor_bytes(xDesc) + sim_filter_bytes(wDesc) +
				  sim_tensor_bytes(zDesc) + sim_tensor_bytes(biasDesc) +
				  sim_tensor_bytes(yDesc),
			  sim_tensor_elements(yDesc), 6, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBackwardData(cudnnHandle_t handle, const void *alpha,
	const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionBwdDataAlgo_t algo,
	void *workSpace, size_t workSpaceSizeInBytes, const void *beta,
	const cudnnTensorDescriptor_t dxDesc, void *dx)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !alpha || !beta || !w || !dy || !dx)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(dxDesc, wDesc, convDesc, dyDesc, &g);
	if (!st)
		st = check_workspace(CONV_BWD_DATA, algo, &g, workSpace, workSpaceSizeInBytes);
	if (st)
		return st;
	const void *ptrs[4] = { w, dy, dx, workSpace };
	return sim_launch(handle, SIM_K_CONV_BWD_DATA, conv_flops(&g),
			  sim_filter_bytes(wDesc) + sim_tensor_bytes(dyDesc) + sim_tensor_bytes(dxDesc),
			  sim_tensor_elements(dxDesc), 4, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBackwardFilter(cudnnHandle_t handle, const void *alpha,
	const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t dyDesc,
	const void *dy, const cudnnConvolutionDescriptor_t convDesc,
	cudnnConvolutionBwdFilterAlgo_t algo, void *workSpace, size_t workSpaceSizeInBytes,
	const void *beta, const cudnnFilterDescriptor_t dwDesc, void *dw)
{
	struct conv_geometry g;
	if (!sim_handle_ok(handle) || !alpha || !beta || !x || !dy || !dw)
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = conv_geometry(xDesc, dwDesc, convDesc, dyDesc, &g);
	if (!st)
		st = check_workspace(CONV_BWD_FILTER, algo, &g, workSpace, workSpaceSizeInBytes);
	if (st)
		return st;
	const void *ptrs[4] = { x, dy, dw, workSpace };
	return sim_launch(handle, SIM_K_CONV_BWD_FILTER, conv_flops(&g),
			  sim_tensor_bytes(xDesc) + sim_tensor_bytes(dyDesc) + sim_filter_bytes(dwDesc),
			  sim_filter_elements(dwDesc), 4, ptrs);
}

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBackwardBias(cudnnHandle_t handle, const void *alpha,
	const cudnnTensorDescriptor_t dyDesc, const void *dy, const void *beta,
	const cudnnTensorDescriptor_t dbDesc, void *db)
{
	if (!sim_handle_ok(handle) || !alpha || !beta || !dy || !db ||
	    !sim_tensor_set(dyDesc) || !sim_tensor_set(dbDesc))
		return CUDNN_STATUS_BAD_PARAM;
	/* db is 1xKx1x1 for dy NxKx...: one sum per channel. */
	if (dbDesc->nb_dims != dyDesc->nb_dims || dbDesc->dims[1] != dyDesc->dims[1] ||
	    sim_tensor_elements(dbDesc) != (uint64_t)dyDesc->dims[1] ||
	    dbDesc->dtype != dyDesc->dtype)
		return CUDNN_STATUS_BAD_PARAM;
	const void *ptrs[2] = { dy, db };
	return sim_launch(handle, SIM_K_CONV_BWD_BIAS, 0,
			  sim_tensor_bytes(dyDesc) + sim_tensor_bytes(dbDesc),
			  sim_tensor_elements(dyDesc), 2, ptrs);
}
