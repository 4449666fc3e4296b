/*
 * Wrappers of cuBLASLt: cublasLtMatmul, traced like the cuBLAS GEMMs, and
 * the descriptor functions whose effects the trace needs (matmul descriptor
 * and matrix layout create/init/set/destroy), which only feed the cache of
 * cublas_lt_cache.h and forward.
 *
 * A matmul's arguments, A, B, C, D, bias, aux, workspace as the catalogue
 * names them: A and B read; C == D: C unused and D READ_WRITE when beta !=
 * 0, WRITE when beta == 0; C != D: C READ (unused when beta == 0: not
 * read) and D WRITE; beta a device pointer (pointer mode DEVICE or
 * DEVICE_VECTOR): C's role UNKNOWN. Then the epilogue's bias (read;
 * written for the BGRAD epilogues), aux (written forward, read by
 * DRELU/DGELU), each unused when the epilogue has none, and the workspace
 * (unused when there is none). The brackets are core/wrapper.h's: the
 * bookkeeping one for the descriptor functions, the traced one for the
 * matmul. Must never dereference a device pointer.
 */
#include <cublasLt.h>

#include "interceptors/cublas/lt_cache.h"
#include "interceptors/cublas/cublas_types.h"
#include "interceptors/core/lib_call.h"
#include "interceptors/core/wrapper.h"
#include "tracepoints/dnntrace_lib.h"

/* --- descriptor bookkeeping (always, recording or not) --------------------- */

#define NOT_FOUND CUBLAS_STATUS_NOT_INITIALIZED

/*
 * A matmul descriptor or matrix layout made or initialized with its
 * defaults: `object` is it, known only when `made` (a create's out-pointer
 * is not NULL); `defaults` its info_type value, put in the cache by `put`.
 */
#define CACHED_INIT(name, params, args, made, object, info_type, defaults, put)              \
	DNNTRACE_BOOKKEEPING_CALL(cublasStatus_t, name, params, args, NOT_FOUND, (void)0,     \
				  if (result == CUBLAS_STATUS_SUCCESS && (made)) {            \
					  info_type info = defaults;                          \
					  put(object, &info);                                 \
				  })
#define DESC_INIT(name, params, args, made, desc)                                            \
	CACHED_INIT(name, params, args, made, desc, struct lt_desc_info,                      \
		    lt_desc_defaults(computeType, scaleType), lt_cache_put_desc)
#define LAYOUT_INIT(name, params, args, made, layout)                                        \
	CACHED_INIT(name, params, args, made, layout, struct lt_layout_info,                  \
		    lt_layout_defaults(type, rows, cols, ld), lt_cache_put_layout)

/* An attribute set on a descriptor or layout: `remember` keeps it once it succeeded. */
#define SET_ATTRIBUTE(name, object_type, attribute_type, remember)                           \
	DNNTRACE_BOOKKEEPING_CALL(cublasStatus_t, name,                                       \
				  (object_type object, attribute_type attr, const void *buf,  \
				   size_t sizeInBytes),                                       \
				  (object, attr, buf, sizeInBytes), NOT_FOUND, (void)0,       \
				  if (result == CUBLAS_STATUS_SUCCESS)                        \
					  remember(object, attr, buf, sizeInBytes))

/* Forgotten first: once freed, the address may come back from another thread's create. */
#define DESTROY(name, object_type, forget)                                                   \
	DNNTRACE_BOOKKEEPING_CALL(cublasStatus_t, name, (object_type object), (object),       \
				  NOT_FOUND, forget(object), (void)0)

DESC_INIT(cublasLtMatmulDescCreate,
	  (cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
	   cudaDataType_t scaleType),
	  (matmulDesc, computeType, scaleType), matmulDesc, *matmulDesc)
/* Behind the header's inline cublasLtMatmulDescInit (caller-owned memory). */
DESC_INIT(cublasLtMatmulDescInit_internal,
	  (cublasLtMatmulDesc_t matmulDesc, size_t size, cublasComputeType_t computeType,
	   cudaDataType_t scaleType),
	  (matmulDesc, size, computeType, scaleType), true, matmulDesc)
DESTROY(cublasLtMatmulDescDestroy, cublasLtMatmulDesc_t, lt_cache_forget_desc)

SET_ATTRIBUTE(cublasLtMatmulDescSetAttribute, cublasLtMatmulDesc_t,
	      cublasLtMatmulDescAttributes_t, lt_cache_set_desc_attr)

LAYOUT_INIT(cublasLtMatrixLayoutCreate,
	    (cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows, uint64_t cols,
	     int64_t ld),
	    (matLayout, type, rows, cols, ld), matLayout, *matLayout)
LAYOUT_INIT(cublasLtMatrixLayoutInit_internal,
	    (cublasLtMatrixLayout_t matLayout, size_t size, cudaDataType type, uint64_t rows,
	     uint64_t cols, int64_t ld),
	    (matLayout, size, type, rows, cols, ld), true, matLayout)
DESTROY(cublasLtMatrixLayoutDestroy, cublasLtMatrixLayout_t, lt_cache_forget_layout)

SET_ATTRIBUTE(cublasLtMatrixLayoutSetAttribute, cublasLtMatrixLayout_t,
	      cublasLtMatrixLayoutAttribute_t, lt_cache_set_layout_attr)

/* --- cache misses: ask the real library (descriptors made before we could see them) --- */

static bool get_desc_attr(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
			  void *buf, size_t size)
{
	__typeof__(&cublasLtMatmulDescGetAttribute) get = REAL(cublasLtMatmulDescGetAttribute);
	size_t written = 0;
	return get && get(desc, attr, buf, size, &written) == CUBLAS_STATUS_SUCCESS &&
	       written == size;
}

static bool get_layout_attr(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
			    void *buf, size_t size)
{
	__typeof__(&cublasLtMatrixLayoutGetAttribute) get = REAL(cublasLtMatrixLayoutGetAttribute);
	size_t written = 0;
	return get && get(layout, attr, buf, size, &written) == CUBLAS_STATUS_SUCCESS &&
	       written == size;
}

static bool query_desc(cublasLtMatmulDesc_t desc, struct lt_desc_info *d)
{
	bool ok = desc &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &d->compute_type, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &d->scale_type, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &d->pointer_mode, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_TRANSA, &d->transa, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_TRANSB, &d->transb, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &d->epilogue, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &d->bias, 8) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &d->aux, 8) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &d->aux_ld, 8) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &d->bias_type, 4) &&
		  get_desc_attr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, &d->aux_type, 4);
	if (ok)
		lt_cache_put_desc(desc, d);
	return ok;
}

static bool query_layout(cublasLtMatrixLayout_t layout, struct lt_layout_info *l)
{
	bool ok = layout && get_layout_attr(layout, CUBLASLT_MATRIX_LAYOUT_TYPE, &l->type, 4) &&
		  get_layout_attr(layout, CUBLASLT_MATRIX_LAYOUT_ORDER, &l->order, 4) &&
		  get_layout_attr(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &l->rows, 8) &&
		  get_layout_attr(layout, CUBLASLT_MATRIX_LAYOUT_COLS, &l->cols, 8) &&
		  get_layout_attr(layout, CUBLASLT_MATRIX_LAYOUT_LD, &l->ld, 8) &&
		  get_layout_attr(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &l->batch_count, 4);
	if (ok)
		lt_cache_put_layout(layout, l);
	return ok;
}

/* --- cublasLtMatmul ---------------------------------------------------------- */

enum { LT_A, LT_B, LT_C, LT_D, LT_LAYOUTS };

struct matmul_info {
	bool desc_known, layout_known[LT_LAYOUTS];
	struct lt_desc_info desc;
	struct lt_layout_info layout[LT_LAYOUTS];
};

static void matmul_info_of(cublasLtMatmulDesc_t desc, const void *const layouts[LT_LAYOUTS],
			   struct matmul_info *info)
{
	bool found[1 + LT_LAYOUTS];

	lt_cache_lookup(desc, &info->desc, layouts, info->layout, LT_LAYOUTS, found);
	info->desc_known = found[0] || query_desc((cublasLtMatmulDesc_t)desc, &info->desc);
	for (unsigned i = 0; i < LT_LAYOUTS; i++)
		info->layout_known[i] =
			found[1 + i] ||
			query_layout((cublasLtMatrixLayout_t)layouts[i], &info->layout[i]);
}

static enum cublas_beta matmul_beta(const struct matmul_info *info, const void *beta)
{
	if (!info->desc_known)
		return BETA_UNKNOWN;
	switch (info->desc.pointer_mode) {
	case CUBLASLT_POINTER_MODE_HOST:
	case CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST:
		return cublas_host_beta(beta, (cudaDataType)info->desc.scale_type);
	case CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO:
		return BETA_ZERO;
	default: /* DEVICE, DEVICE_VECTOR: beta lives in GPU memory */
		return BETA_UNKNOWN;
	}
}

/* [batch,] rows, cols as stored; rank 0 when the layout is unknown. */
static unsigned layout_shape(const struct matmul_info *info, unsigned which, long long *dims)
{
	const struct lt_layout_info *l = &info->layout[which];
	unsigned rank = 0;
	if (!info->layout_known[which])
		return 0;
	if (l->batch_count > 1)
		dims[rank++] = l->batch_count;
	dims[rank++] = (long long)l->rows;
	dims[rank++] = (long long)l->cols;
	return rank;
}

static enum dnntrace_dtype layout_dtype(const struct matmul_info *info, unsigned which)
{
	return info->layout_known[which] ? cublas_dtype((cudaDataType)info->layout[which].type)
					 : DNNTRACE_DTYPE_UNKNOWN;
}

static void add_matrix(struct lib_call *c, const struct matmul_info *info, unsigned which,
		       const void *ptr, enum dnntrace_role role)
{
	long long dims[3];
	unsigned rank = layout_shape(info, which, dims);
	lib_call_arg(c, ptr, role, layout_dtype(info, which), rank, dims);
}

/* Epilogue bits (cublasLt.h): 4 bias; 16, 256, 512 bias gradients; 128 aux; 8, 64 backward. */
enum {
	EPI_BIAS = CUBLASLT_EPILOGUE_BIAS,
	EPI_BGRAD = 16 | CUBLASLT_EPILOGUE_BGRADA | CUBLASLT_EPILOGUE_BGRADB,
	EPI_AUX = 128,
	EPI_BACKWARD = 8 | 64,
	EPI_RELU_MASK = CUBLASLT_EPILOGUE_RELU | 8,
};

static void add_epilogue_args(struct lib_call *c, const struct matmul_info *info)
{
	const struct lt_desc_info *d = &info->desc;
	const struct lt_layout_info *out = &info->layout[LT_D];
	bool out_known = info->layout_known[LT_D];
	enum dnntrace_dtype out_type = layout_dtype(info, LT_D);
	long long dims[3];

	if ((d->epilogue & (EPI_BIAS | EPI_BGRAD)) && d->bias) {
		bool gradient = d->epilogue & EPI_BGRAD;
		/* BGRADB: one value per column of D; the others per row. */
		dims[0] = (long long)(d->epilogue == CUBLASLT_EPILOGUE_BGRADB ? out->cols : out->rows);
		lib_call_arg(c, d->bias, gradient ? DNNTRACE_ROLE_WRITE : DNNTRACE_ROLE_READ,
			     d->bias_type >= 0 ? cublas_dtype((cudaDataType)d->bias_type) : out_type,
			     out_known ? 1 : 0, dims);
	} else {
		lib_call_unused(c, d->bias);
	}
	if ((d->epilogue & EPI_AUX) && d->aux) {
		unsigned rank = layout_shape(info, LT_D, dims);
		/* ReLU's aux is a bit-mask (one bit per element): no element type. */
		enum dnntrace_dtype aux_type =
			(d->epilogue & EPI_RELU_MASK) ? DNNTRACE_DTYPE_UNKNOWN
			: d->aux_type >= 0	       ? cublas_dtype((cudaDataType)d->aux_type)
						       : out_type;
		lib_call_arg(c, d->aux,
			     (d->epilogue & EPI_BACKWARD) ? DNNTRACE_ROLE_READ : DNNTRACE_ROLE_WRITE,
			     aux_type, rank, dims);
	} else {
		lib_call_unused(c, d->aux);
	}
}

static void add_params(struct lib_call *c, const struct matmul_info *info, size_t workspace_size)
{
	const struct lt_desc_info *d = &info->desc;
	const struct lt_layout_info *l = info->layout;
	bool dk = info->desc_known;
	bool a = info->layout_known[LT_A], b = info->layout_known[LT_B];
	bool cc = info->layout_known[LT_C], dd = info->layout_known[LT_D];
	long long k = -1;

	if (a && dk)
		k = (long long)(d->transa == CUBLAS_OP_N ? l[LT_A].cols : l[LT_A].rows);
	lib_call_param(c, dd ? (long long)l[LT_D].rows : -1);
	lib_call_param(c, dd ? (long long)l[LT_D].cols : -1);
	lib_call_param(c, k);
	lib_call_param(c, dk ? d->transa : -1);
	lib_call_param(c, dk ? d->transb : -1);
	lib_call_param(c, a ? l[LT_A].ld : -1);
	lib_call_param(c, b ? l[LT_B].ld : -1);
	lib_call_param(c, cc ? l[LT_C].ld : -1);
	lib_call_param(c, dd ? l[LT_D].ld : -1);
	lib_call_param(c, dd ? l[LT_D].batch_count : -1);
	lib_call_param(c, a ? (long long)l[LT_A].type : -1);
	lib_call_param(c, b ? (long long)l[LT_B].type : -1);
	lib_call_param(c, cc ? (long long)l[LT_C].type : -1);
	lib_call_param(c, dd ? (long long)l[LT_D].type : -1);
	lib_call_param(c, dk ? d->compute_type : -1);
	lib_call_param(c, dk ? d->scale_type : -1);
	lib_call_param(c, dk ? (long long)d->epilogue : -1);
	lib_call_param(c, dk ? d->pointer_mode : -1);
	lib_call_param(c, (long long)workspace_size);
}

/*
 * The descriptor and layouts are looked up (or asked of the library) before
 * forwarding, so the description reads what the call ran with.
 */
DNNTRACE_LIB_TRACED_CALL(cublasStatus_t, cublasLtMatmul,
	(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void *alpha,
	 const void *A, cublasLtMatrixLayout_t Adesc, const void *B, cublasLtMatrixLayout_t Bdesc,
	 const void *beta, const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
	 cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo, void *workspace,
	 size_t workspaceSizeInBytes, cudaStream_t stream),
	(lightHandle, computeDesc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo,
	 workspace, workspaceSizeInBytes, stream),
	NOT_FOUND, lttng_ust_tracepoint_enabled(dnntrace_lib, call),
	struct matmul_info info;
	matmul_info_of(computeDesc, (const void *const[LT_LAYOUTS]){ Adesc, Bdesc, Cdesc, Ddesc },
		       &info);
	enum cublas_beta beta_state = matmul_beta(&info, beta),
	struct lib_call event;
	lib_call_begin(&event, api, stream);
	add_matrix(&event, &info, LT_A, A, DNNTRACE_ROLE_READ);
	add_matrix(&event, &info, LT_B, B, DNNTRACE_ROLE_READ);
	/* C read in place (C == D) is D's use; C read when beta is zero, no use. */
	if (C == D || beta_state == BETA_ZERO)
		lib_call_unused(&event, C);
	else
		add_matrix(&event, &info, LT_C, C,
			   beta_state == BETA_NONZERO ? DNNTRACE_ROLE_READ : DNNTRACE_ROLE_UNKNOWN);
	add_matrix(&event, &info, LT_D, D,
		   C == D ? cublas_c_role(beta_state) : DNNTRACE_ROLE_WRITE);
	if (info.desc_known) {
		add_epilogue_args(&event, &info);
	} else {
		lib_call_unused(&event, NULL);
		lib_call_unused(&event, NULL);
	}
	if (workspace && workspaceSizeInBytes) {
		long long size = (long long)workspaceSizeInBytes;
		lib_call_arg(&event, workspace, DNNTRACE_ROLE_WORKSPACE, DNNTRACE_DTYPE_U8, 1, &size);
	} else {
		lib_call_unused(&event, workspace);
	}
	add_params(&event, &info, workspaceSizeInBytes);
	lib_call_emit(&event, call.call_id, call.start_ns, result))
