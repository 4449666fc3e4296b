/*
 * The simulated cuDNN backend API's graphs: the shape checks operations and
 * graphs get at finalize, the engines' workspace, and cudnnBackendExecute,
 * which checks the variant pack against the graph and launches one kernel
 * per group of operations (a pointwise operation reading a virtual tensor
 * that another operation writes runs in that operation's kernel: cuDNN's
 * runtime fusion; README.md). Computes nothing.
 */
#include <stdbool.h>
#include <string.h>

#include "simgpu/cudnn/cudnn_backend.h"

/* What the executor knows of each operation type. */
enum op_kind { OP_CONV_FWD, OP_CONV_BWD_DATA, OP_CONV_BWD_FILTER, OP_MATMUL, OP_POINTWISE, OP_OTHER };

static enum op_kind kind_of(const struct sim_backend *op)
{
	switch (op->type) {
	case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR: return OP_CONV_FWD;
	case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR: return OP_CONV_BWD_DATA;
	case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: return OP_CONV_BWD_FILTER;
	case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: return OP_MATMUL;
	case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: return OP_POINTWISE;
	default: return OP_OTHER;
	}
}

/* ---- tensors ---- */

static int64_t uid_of(const struct sim_backend *t)
{
	return sim_backend_attr_int(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, -1);
}

static int is_virtual(const struct sim_backend *t)
{
	return sim_backend_attr_int(t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, 0) != 0;
}

static int rank_of(const struct sim_backend *t)
{
	const struct sim_attr *a = sim_backend_attr(t, CUDNN_ATTR_TENSOR_DIMENSIONS);
	return a ? (int)a->count : 0;
}

static int64_t dim_of(const struct sim_backend *t, int i)
{
	return ((int64_t *)sim_backend_attr(t, CUDNN_ATTR_TENSOR_DIMENSIONS)->data)[i];
}

static uint64_t elements_of(const struct sim_backend *t)
{
	uint64_t n = 1;
	for (int i = 0; i < rank_of(t); i++)
		n *= (uint64_t)dim_of(t, i);
	return n;
}

static uint64_t bytes_of(const struct sim_backend *t)
{
	cudnnDataType_t dt = (cudnnDataType_t)sim_backend_attr_int(t, CUDNN_ATTR_TENSOR_DATA_TYPE, 0);
	return elements_of(t) * sim_dtype_bytes(dt);
}

/* ---- the tensors of each operation, inputs first ---- */

struct op_tensor {
	struct sim_backend *tensor;
	int is_output;
};

#define MAX_OP_TENSORS 16

static const cudnnBackendAttributeName_t conv_fwd_attrs[] = {
	CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
	CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y };
static const cudnnBackendAttributeName_t conv_bwd_data_attrs[] = {
	CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
	CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX };
static const cudnnBackendAttributeName_t conv_bwd_filter_attrs[] = {
	CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
	CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW };
static const cudnnBackendAttributeName_t matmul_attrs[] = {
	CUDNN_ATTR_OPERATION_MATMUL_ADESC, CUDNN_ATTR_OPERATION_MATMUL_BDESC,
	CUDNN_ATTR_OPERATION_MATMUL_CDESC };

static int pointwise_is_backward(const struct sim_backend *op)
{
	struct sim_backend *pw = sim_backend_attr_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR);
	int64_t mode = pw ? sim_backend_attr_int(pw, CUDNN_ATTR_POINTWISE_MODE, 0) : 0;
	return mode >= CUDNN_POINTWISE_RELU_BWD && mode < CUDNN_POINTWISE_CMP_EQ;
}

/*
 * Fills `out` with the operation's tensors; returns how many. The last one
 * listed for a modelled operation is its output (pointwise: Y, or DX for a
 * backward mode). For other operations every tensor attribute is listed,
 * in the order set, and none is known to be an output.
 */
static int op_tensors(const struct sim_backend *op, struct op_tensor *out)
{
	const cudnnBackendAttributeName_t *names = NULL;
	cudnnBackendAttributeName_t pw[4];
	int n = 0, count = 3;
	switch (kind_of(op)) {
	case OP_CONV_FWD: names = conv_fwd_attrs; break;
	case OP_CONV_BWD_DATA: names = conv_bwd_data_attrs; break;
	case OP_CONV_BWD_FILTER: names = conv_bwd_filter_attrs; break;
	case OP_MATMUL: names = matmul_attrs; break;
	case OP_POINTWISE:
		count = 0;
		pw[count++] = CUDNN_ATTR_OPERATION_POINTWISE_XDESC;
		if (pointwise_is_backward(op)) {
			pw[count++] = CUDNN_ATTR_OPERATION_POINTWISE_DYDESC;
			pw[count++] = CUDNN_ATTR_OPERATION_POINTWISE_DXDESC;
		} else {
			pw[count++] = CUDNN_ATTR_OPERATION_POINTWISE_BDESC;
			pw[count++] = CUDNN_ATTR_OPERATION_POINTWISE_YDESC;
		}
		names = pw;
		break;
	case OP_OTHER:
		for (int i = 0; i < op->nattrs && n < MAX_OP_TENSORS; i++) {
			const struct sim_attr *a = &op->attrs[i];
			if (a->type != CUDNN_TYPE_BACKEND_DESCRIPTOR)
				continue;
			for (int64_t j = 0; j < a->count && n < MAX_OP_TENSORS; j++) {
				struct sim_backend *t = sim_backend_of(((cudnnBackendDescriptor_t *)a->data)[j]);
				if (t && t->type == CUDNN_BACKEND_TENSOR_DESCRIPTOR)
					out[n++] = (struct op_tensor){ t, 0 };
			}
		}
		return n;
	}
	for (int i = 0; i < count; i++) {
		struct sim_backend *t = sim_backend_attr_desc(op, names[i]);
		if (t)
			out[n++] = (struct op_tensor){ t, i == count - 1 };
	}
	return n;
}

/* ---- finalize checks ---- */

/* y has the shape convolving x with w through conv gives (N, K, spatial). */
static int conv_shapes_ok(const struct sim_backend *x, const struct sim_backend *w,
			  const struct sim_backend *y, const struct sim_backend *conv)
{
	int rank = rank_of(x);
	int64_t spatial = sim_backend_attr_int(conv, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, 0);
	if (rank < 3 || rank_of(w) != rank || rank_of(y) != rank || spatial != rank - 2)
		return 0;
	const int64_t *dil = sim_backend_attr(conv, CUDNN_ATTR_CONVOLUTION_DILATIONS)->data;
	const int64_t *stride = sim_backend_attr(conv, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES)->data;
	const int64_t *pre = sim_backend_attr(conv, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS)->data;
	const int64_t *post = sim_backend_attr(conv, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS)->data;
	/* Grouped: x's channels are a multiple of the filter's. */
	if (dim_of(y, 0) != dim_of(x, 0) || dim_of(y, 1) != dim_of(w, 0) ||
	    dim_of(x, 1) % dim_of(w, 1) != 0)
		return 0;
	for (int i = 0; i < spatial; i++) {
		int64_t padded = dim_of(x, i + 2) + pre[i] + post[i];
		int64_t span = (dim_of(w, i + 2) - 1) * dil[i] + 1;
		if (span > padded || dim_of(y, i + 2) != 1 + (padded - span) / stride[i])
			return 0;
	}
	return 1;
}

static int matmul_shapes_ok(const struct sim_backend *a, const struct sim_backend *b,
			    const struct sim_backend *c)
{
	int r = rank_of(a);
	if (r < 2 || rank_of(b) != r || rank_of(c) != r)
		return 0;
	for (int i = 0; i < r - 2; i++) {
		int64_t n = dim_of(c, i);
		if ((dim_of(a, i) != n && dim_of(a, i) != 1) || (dim_of(b, i) != n && dim_of(b, i) != 1))
			return 0;
	}
	return dim_of(a, r - 2) == dim_of(c, r - 2) && dim_of(b, r - 1) == dim_of(c, r - 1) &&
	       dim_of(a, r - 1) == dim_of(b, r - 2);
}

/* `b` broadcasts onto `y`: same rank, each dim equal or 1. */
static int broadcasts_to(const struct sim_backend *b, const struct sim_backend *y)
{
	if (rank_of(b) != rank_of(y))
		return 0;
	for (int i = 0; i < rank_of(y); i++)
		if (dim_of(b, i) != dim_of(y, i) && dim_of(b, i) != 1)
			return 0;
	return 1;
}

cudnnStatus_t sim_backend_finalize_operation(struct sim_backend *op)
{
	struct op_tensor t[MAX_OP_TENSORS];
	int n = op_tensors(op, t);
	enum op_kind kind = kind_of(op);
	static const cudnnBackendAttributeName_t conv_desc_attr[] = {
		[OP_CONV_FWD] = CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
		[OP_CONV_BWD_DATA] = CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
		[OP_CONV_BWD_FILTER] = CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
	};
	switch (kind) {
	case OP_CONV_FWD: case OP_CONV_BWD_DATA: case OP_CONV_BWD_FILTER: {
		struct sim_backend *conv = sim_backend_attr_desc(op, conv_desc_attr[kind]);
		if (n != 3 || !conv || conv->type != CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR)
			return CUDNN_STATUS_BAD_PARAM;
		/* Listed as fwd (x, w, y), dgrad (dy, w, dx), wgrad (x, dy, dw). */
		struct sim_backend *x = kind == OP_CONV_BWD_DATA ? t[2].tensor : t[0].tensor;
		struct sim_backend *w = kind == OP_CONV_BWD_FILTER ? t[2].tensor : t[1].tensor;
		struct sim_backend *y = kind == OP_CONV_FWD ? t[2].tensor
				      : kind == OP_CONV_BWD_DATA ? t[0].tensor : t[1].tensor;
		return conv_shapes_ok(x, w, y, conv) ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
	}
	case OP_MATMUL: {
		struct sim_backend *desc = sim_backend_attr_desc(op, CUDNN_ATTR_OPERATION_MATMUL_DESC);
		if (n != 3 || !desc || desc->type != CUDNN_BACKEND_MATMUL_DESCRIPTOR)
			return CUDNN_STATUS_BAD_PARAM;
		return matmul_shapes_ok(t[0].tensor, t[1].tensor, t[2].tensor)
			       ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
	}
	case OP_POINTWISE: {
		struct sim_backend *pw = sim_backend_attr_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR);
		if (!pw || pw->type != CUDNN_BACKEND_POINTWISE_DESCRIPTOR || n < 2 || !t[n - 1].is_output)
			return CUDNN_STATUS_BAD_PARAM;
		/* Every input broadcasts onto the output (backward: needs X, DY, DX). */
		if (pointwise_is_backward(op) && n != 3)
			return CUDNN_STATUS_BAD_PARAM;
		for (int i = 0; i < n - 1; i++)
			if (!broadcasts_to(t[i].tensor, t[n - 1].tensor))
				return CUDNN_STATUS_BAD_PARAM;
		return CUDNN_STATUS_SUCCESS;
	}
	case OP_OTHER:
		break;
	}
	return CUDNN_STATUS_SUCCESS;
}

/* The graph's operations (OPS) as descriptors; count in *n. */
static struct sim_backend *const *graph_ops(const struct sim_backend *graph, int *n)
{
	const struct sim_attr *a = sim_backend_attr(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS);
	*n = a ? (int)a->count : 0;
	return a ? (struct sim_backend *const *)a->data : NULL;
}

cudnnStatus_t sim_backend_finalize_graph(struct sim_backend *graph)
{
	int nops;
	struct sim_backend *const *ops = graph_ops(graph, &nops);
	const struct sim_attr *h = sim_backend_attr(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE);
	if (nops < 1 || !h || !sim_handle_ok(*(cudnnHandle_t *)h->data))
		return CUDNN_STATUS_BAD_PARAM;
	/* A uid names one tensor: descriptors sharing it must agree on its shape. */
	for (int i = 0; i < nops; i++) {
		struct op_tensor ti[MAX_OP_TENSORS];
		int ni = op_tensors(ops[i], ti);
		for (int j = i; j < nops; j++) {
			struct op_tensor tj[MAX_OP_TENSORS];
			int nj = op_tensors(ops[j], tj);
			for (int a = 0; a < ni; a++)
				for (int b = 0; b < nj; b++)
					if (ti[a].tensor != tj[b].tensor &&
					    uid_of(ti[a].tensor) == uid_of(tj[b].tensor) &&
					    (rank_of(ti[a].tensor) != rank_of(tj[b].tensor) ||
					     elements_of(ti[a].tensor) != elements_of(tj[b].tensor)))
						return CUDNN_STATUS_BAD_PARAM;
		}
	}
	return CUDNN_STATUS_SUCCESS;
}

/* Engine 0: an int offset per filter tap of each convolution; engine 1: none. */
int64_t sim_backend_graph_workspace(const struct sim_backend *graph, int64_t index)
{
	if (!graph || index < 0 || index >= SIM_ENGINE_COUNT)
		return -1;
	if (index == 1)
		return 0;
	int nops;
	struct sim_backend *const *ops = graph_ops(graph, &nops);
	int64_t bytes = 0;
	for (int i = 0; i < nops; i++) {
		enum op_kind kind = kind_of(ops[i]);
		if (kind != OP_CONV_FWD && kind != OP_CONV_BWD_DATA && kind != OP_CONV_BWD_FILTER)
			continue;
		struct op_tensor t[MAX_OP_TENSORS];
		op_tensors(ops[i], t);
		const struct sim_backend *w = kind == OP_CONV_BWD_FILTER ? t[2].tensor : t[1].tensor;
		bytes += (int64_t)(sizeof(int) * elements_of(w) / (uint64_t)dim_of(w, 0));
	}
	return bytes;
}

/* ---- execution ---- */

/* The pointer the variant pack gives `uid`, or NULL. */
static void *pack_pointer(const struct sim_backend *pack, int64_t uid)
{
	const struct sim_attr *uids = sim_backend_attr(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS);
	const struct sim_attr *ptrs = sim_backend_attr(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS);
	if (!uids || !ptrs)
		return NULL;
	for (int64_t i = 0; i < uids->count && i < ptrs->count; i++)
		if (((int64_t *)uids->data)[i] == uid)
			return ((void **)ptrs->data)[i];
	return NULL;
}

/* The operation of the graph whose output is `t`'s uid, or -1. */
static int producer_of(struct sim_backend *const *ops, int nops, const struct sim_backend *t)
{
	for (int i = 0; i < nops; i++) {
		struct op_tensor ot[MAX_OP_TENSORS];
		int n = op_tensors(ops[i], ot);
		if (n && ot[n - 1].is_output && uid_of(ot[n - 1].tensor) == uid_of(t))
			return i;
	}
	return -1;
}

#define MAX_GRAPH_OPS 64

/*
 * Group of each operation: a pointwise operation one of whose inputs is a
 * virtual tensor produced by another operation joins that one's group;
 * every other operation leads its own (group = its own index).
 */
static void group_ops(struct sim_backend *const *ops, int nops, int *group)
{
	for (int i = 0; i < nops; i++)
		group[i] = i;
	/* Repeat until stable: a chain may list its links in any order. */
	for (int changed = 1, pass = 0; changed && pass < nops; pass++) {
		changed = 0;
		for (int i = 0; i < nops; i++) {
			if (kind_of(ops[i]) != OP_POINTWISE)
				continue;
			struct op_tensor t[MAX_OP_TENSORS];
			int n = op_tensors(ops[i], t);
			for (int k = 0; k < n - 1; k++) {
				int p = is_virtual(t[k].tensor) ? producer_of(ops, nops, t[k].tensor) : -1;
				if (p >= 0 && p != i && group[p] != group[i] && group[p] != i) {
					group[i] = group[p];
					changed = 1;
					break;
				}
			}
		}
	}
}

static uint64_t op_flops(const struct sim_backend *op)
{
	struct op_tensor t[MAX_OP_TENSORS];
	int n = op_tensors(op, t);
	enum op_kind kind = kind_of(op);
	if (kind == OP_MATMUL && n == 3) {
		const struct sim_backend *a = t[0].tensor, *c = t[2].tensor;
		int r = rank_of(c);
		return 2 * elements_of(c) * (uint64_t)dim_of(a, r - 1);
	}
	if ((kind == OP_CONV_FWD || kind == OP_CONV_BWD_DATA || kind == OP_CONV_BWD_FILTER) && n == 3) {
		const struct sim_backend *w = kind == OP_CONV_BWD_FILTER ? t[2].tensor : t[1].tensor;
		const struct sim_backend *y = kind == OP_CONV_FWD ? t[2].tensor
					    : kind == OP_CONV_BWD_DATA ? t[0].tensor : t[1].tensor;
		/* 2*N*K*C*R*S*P*Q = 2 * |y| * (C*R*S of one filter). */
		return 2 * elements_of(y) * (elements_of(w) / (uint64_t)dim_of(w, 0));
	}
	return 0;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendExecute(cudnnHandle_t handle,
	cudnnBackendDescriptor_t executionPlan, cudnnBackendDescriptor_t variantPack)
{
	struct sim_backend *plan = sim_backend_of(executionPlan);
	struct sim_backend *pack = sim_backend_of(variantPack);
	if (!sim_handle_ok(handle) || !plan || !pack ||
	    plan->type != CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR ||
	    pack->type != CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR)
		return CUDNN_STATUS_BAD_PARAM;
	if (!plan->finalized || !pack->finalized)
		return CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED;
	struct sim_backend *cfg = sim_backend_attr_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG);
	struct sim_backend *engine = sim_backend_attr_desc(cfg, CUDNN_ATTR_ENGINECFG_ENGINE);
	struct sim_backend *graph = sim_backend_attr_desc(engine, CUDNN_ATTR_ENGINE_OPERATION_GRAPH);
	int nops;
	struct sim_backend *const *ops = graph_ops(graph, &nops);
	if (nops > MAX_GRAPH_OPS)
		return CUDNN_STATUS_NOT_SUPPORTED;

	/* Every tensor that is not virtual needs its data pointer. */
	for (int i = 0; i < nops; i++) {
		struct op_tensor t[MAX_OP_TENSORS];
		int n = op_tensors(ops[i], t);
		for (int k = 0; k < n; k++)
			if (!is_virtual(t[k].tensor) && !pack_pointer(pack, uid_of(t[k].tensor)))
				return CUDNN_STATUS_BAD_PARAM;
	}
	const struct sim_attr *ws = sim_backend_attr(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE);
	void *workspace = ws && ws->count ? ((void **)ws->data)[0] : NULL;
	if (plan->workspace_bytes > 0 && !workspace)
		return CUDNN_STATUS_BAD_PARAM;

	int group[MAX_GRAPH_OPS];
	group_ops(ops, nops, group);
	for (int lead = 0; lead < nops; lead++) {
		if (group[lead] != lead)
			continue;
		const void *ptrs[SIM_KERNEL_MAX_PTRS] = { 0 };
		int64_t seen[SIM_KERNEL_MAX_PTRS];
		int nptrs = 0, members = 0;
		uint64_t flops = 0, bytes = 0, elements = 0;
		for (int i = lead; i < nops; i++) {
			if (group[i] != lead)
				continue;
			members++;
			flops += op_flops(ops[i]);
			struct op_tensor t[MAX_OP_TENSORS];
			int n = op_tensors(ops[i], t);
			for (int k = 0; k < n; k++) {
				if (elements_of(t[k].tensor) > elements)
					elements = elements_of(t[k].tensor);
				if (is_virtual(t[k].tensor))
					continue;
				int64_t uid = uid_of(t[k].tensor);
				int dup = 0;
				for (int s = 0; s < nptrs; s++)
					dup |= seen[s] == uid;
				if (dup || nptrs == SIM_KERNEL_MAX_PTRS - 1)
					continue;
				seen[nptrs] = uid;
				ptrs[nptrs++] = pack_pointer(pack, uid);
				bytes += bytes_of(t[k].tensor);
			}
		}
		ptrs[nptrs] = workspace; /* the last parameter: the workspace */
		enum sim_kernel kernel = (enum sim_kernel)(
			(members > 1 ? SIM_K_BACKEND_FUSED_CONV_FWD : SIM_K_BACKEND_CONV_FWD) +
			(int)kind_of(ops[lead]));
		cudnnStatus_t st = sim_launch(handle, kernel, flops, bytes, elements,
					      SIM_KERNEL_MAX_PTRS, ptrs);
		if (st)
			return st;
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendPopulateCudaGraph(cudnnHandle_t handle,
	cudnnBackendDescriptor_t executionPlan, cudnnBackendDescriptor_t variantPack,
	cudaGraph_t graph)
{
	(void)executionPlan, (void)variantPack, (void)graph;
	/* simgpu has no CUDA graphs. */
	return sim_handle_ok(handle) ? CUDNN_STATUS_NOT_SUPPORTED : CUDNN_STATUS_BAD_PARAM;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendUpdateCudaGraph(cudnnHandle_t handle,
	cudnnBackendDescriptor_t executionPlan, cudnnBackendDescriptor_t variantPack,
	cudaGraph_t graph)
{
	(void)executionPlan, (void)variantPack, (void)graph;
	return sim_handle_ok(handle) ? CUDNN_STATUS_NOT_SUPPORTED : CUDNN_STATUS_BAD_PARAM;
}
