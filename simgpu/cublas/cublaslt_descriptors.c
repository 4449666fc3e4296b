/*
 * Simulated libcublasLt.so.13: the handle, status strings, and the matmul,
 * matrix layout and preference descriptors (create, init in the caller's
 * memory, set/get attribute with the header's sizes and defaults).
 *
 * Must never accept an attribute size other than the header's, and never
 * write past the caller's buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "simgpu/cublas/lt_descriptors.h"

struct cublasLtContext {
	int unused;
};

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle)
{
	if (!lightHandle)
		return CUBLAS_STATUS_INVALID_VALUE;
	*lightHandle = calloc(1, sizeof(**lightHandle));
	return *lightHandle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle)
{
	if (!lightHandle)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	free(lightHandle);
	return CUBLAS_STATUS_SUCCESS;
}

static const struct {
	const char *name, *text;
} statuses[] = {
	[CUBLAS_STATUS_SUCCESS] = { "CUBLAS_STATUS_SUCCESS", "the operation completed successfully" },
	[CUBLAS_STATUS_NOT_INITIALIZED] = { "CUBLAS_STATUS_NOT_INITIALIZED", "the library was not initialized" },
	[CUBLAS_STATUS_ALLOC_FAILED] = { "CUBLAS_STATUS_ALLOC_FAILED", "the resource allocation failed" },
	[CUBLAS_STATUS_INVALID_VALUE] = { "CUBLAS_STATUS_INVALID_VALUE", "an invalid numeric value was used as an argument" },
	[CUBLAS_STATUS_ARCH_MISMATCH] = { "CUBLAS_STATUS_ARCH_MISMATCH", "an absent device architectural feature is required" },
	[CUBLAS_STATUS_MAPPING_ERROR] = { "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed" },
	[CUBLAS_STATUS_EXECUTION_FAILED] = { "CUBLAS_STATUS_EXECUTION_FAILED", "the GPU program failed to execute" },
	[CUBLAS_STATUS_INTERNAL_ERROR] = { "CUBLAS_STATUS_INTERNAL_ERROR", "an internal operation failed" },
	[CUBLAS_STATUS_NOT_SUPPORTED] = { "CUBLAS_STATUS_NOT_SUPPORTED", "the functionality requested is not supported" },
	[CUBLAS_STATUS_LICENSE_ERROR] = { "CUBLAS_STATUS_LICENSE_ERROR", "the functionality requested requires some license" },
};

static int known_status(cublasStatus_t status)
{
	unsigned i = (unsigned)status;
	return i < sizeof(statuses) / sizeof(statuses[0]) && statuses[i].name;
}

const char *cublasLtGetStatusName(cublasStatus_t status)
{
	return known_status(status) ? statuses[status].name : "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasLtGetStatusString(cublasStatus_t status)
{
	return known_status(status) ? statuses[status].text : "unknown error";
}

/* --- get/set by size, as every *GetAttribute documents ------------------ */

static cublasStatus_t set_value(void *field, size_t field_size, const void *buf, size_t size)
{
	if (!buf || size != field_size)
		return CUBLAS_STATUS_INVALID_VALUE;
	memcpy(field, buf, size);
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t get_value(const void *field, size_t field_size, void *buf, size_t size,
				size_t *written)
{
	if (size == 0) {
		if (!written)
			return CUBLAS_STATUS_INVALID_VALUE;
		*written = field_size;
		return CUBLAS_STATUS_SUCCESS;
	}
	if (!buf || size != field_size)
		return CUBLAS_STATUS_INVALID_VALUE;
	memcpy(buf, field, size);
	if (written)
		*written = size;
	return CUBLAS_STATUS_SUCCESS;
}

/* --- matmul descriptor ---------------------------------------------------- */

struct desc_attr {
	unsigned char valid, size, index; /* index into wide (size 8) or narrow */
};

#define WIDE(i) { 1, 8, i }
#define NARROW(i, size) { 1, size, i }
static const struct desc_attr desc_attrs[] = {
	[CUBLASLT_MATMUL_DESC_COMPUTE_TYPE] = NARROW(0, 4),
	[CUBLASLT_MATMUL_DESC_SCALE_TYPE] = NARROW(1, 4),
	[CUBLASLT_MATMUL_DESC_POINTER_MODE] = NARROW(2, 4),
	[CUBLASLT_MATMUL_DESC_TRANSA] = NARROW(3, 4),
	[CUBLASLT_MATMUL_DESC_TRANSB] = NARROW(4, 4),
	[CUBLASLT_MATMUL_DESC_TRANSC] = NARROW(5, 4),
	[CUBLASLT_MATMUL_DESC_FILL_MODE] = NARROW(6, 4),
	[CUBLASLT_MATMUL_DESC_EPILOGUE] = NARROW(7, 4),
	[CUBLASLT_MATMUL_DESC_BIAS_POINTER] = WIDE(0),
	[CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE] = WIDE(1),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER] = WIDE(2),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD] = WIDE(3),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE] = WIDE(4),
	[CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE] = WIDE(5),
	[CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET] = NARROW(8, 4),
	[CUBLASLT_MATMUL_DESC_A_SCALE_POINTER] = WIDE(6),
	[CUBLASLT_MATMUL_DESC_B_SCALE_POINTER] = WIDE(7),
	[CUBLASLT_MATMUL_DESC_C_SCALE_POINTER] = WIDE(8),
	[CUBLASLT_MATMUL_DESC_D_SCALE_POINTER] = WIDE(9),
	[CUBLASLT_MATMUL_DESC_AMAX_D_POINTER] = WIDE(10),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE] = NARROW(9, 4),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER] = WIDE(11),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER] = WIDE(12),
	[CUBLASLT_MATMUL_DESC_FAST_ACCUM] = NARROW(10, 1),
	[CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE] = NARROW(11, 4),
	[CUBLASLT_MATMUL_DESC_A_SCALE_MODE] = NARROW(12, 4),
	[CUBLASLT_MATMUL_DESC_B_SCALE_MODE] = NARROW(13, 4),
	[CUBLASLT_MATMUL_DESC_C_SCALE_MODE] = NARROW(14, 4),
	[CUBLASLT_MATMUL_DESC_D_SCALE_MODE] = NARROW(15, 4),
	[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE] = NARROW(16, 4),
	[CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER] = WIDE(13),
	[CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE] = NARROW(17, 4),
	[CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR] = WIDE(14),
};
#undef WIDE
#undef NARROW

static const struct desc_attr *find_desc_attr(cublasLtMatmulDescAttributes_t attr)
{
	unsigned i = (unsigned)attr;
	if (i >= sizeof(desc_attrs) / sizeof(desc_attrs[0]) || !desc_attrs[i].valid)
		return NULL;
	return &desc_attrs[i];
}

static void *desc_field(struct lt_matmul_desc *d, const struct desc_attr *a)
{
	return a->size == 8 ? (void *)&d->wide[a->index] : (void *)&d->narrow[a->index];
}

struct lt_matmul_desc *lt_desc(cublasLtMatmulDesc_t d)
{
	struct lt_matmul_desc *desc = (struct lt_matmul_desc *)d;
	return desc && desc->magic == LT_DESC_MAGIC ? desc : NULL;
}

uint64_t lt_desc_get(const struct lt_matmul_desc *d, cublasLtMatmulDescAttributes_t attr)
{
	const struct desc_attr *a = find_desc_attr(attr);
	if (!a)
		return 0;
	if (a->size == 8)
		return d->wide[a->index];
	if (a->size == 1)
		return (uint8_t)d->narrow[a->index];
	return d->narrow[a->index];
}

static void desc_set_int(struct lt_matmul_desc *d, cublasLtMatmulDescAttributes_t attr,
			 int32_t value)
{
	memcpy(desc_field(d, find_desc_attr(attr)), &value, sizeof(value));
}

cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
					       cublasComputeType_t computeType,
					       cudaDataType_t scaleType)
{
	if (!matmulDesc || size < sizeof(struct lt_matmul_desc))
		return CUBLAS_STATUS_ALLOC_FAILED;
	struct lt_matmul_desc *d = (struct lt_matmul_desc *)matmulDesc;
	memset(d, 0, sizeof(*d));
	d->magic = LT_DESC_MAGIC;
	desc_set_int(d, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, computeType);
	desc_set_int(d, CUBLASLT_MATMUL_DESC_SCALE_TYPE, scaleType);
	desc_set_int(d, CUBLASLT_MATMUL_DESC_POINTER_MODE, CUBLASLT_POINTER_MODE_HOST);
	desc_set_int(d, CUBLASLT_MATMUL_DESC_FILL_MODE, CUBLAS_FILL_MODE_FULL);
	desc_set_int(d, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_DEFAULT);
	desc_set_int(d, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, -1);
	desc_set_int(d, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, -1);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc,
					cublasComputeType_t computeType, cudaDataType_t scaleType)
{
	if (!matmulDesc)
		return CUBLAS_STATUS_INVALID_VALUE;
	cublasLtMatmulDesc_t d = calloc(1, sizeof(*d));
	if (!d)
		return CUBLAS_STATUS_ALLOC_FAILED;
	cublasLtMatmulDescInit_internal(d, sizeof(*d), computeType, scaleType);
	*matmulDesc = d;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc)
{
	struct lt_matmul_desc *d = lt_desc(matmulDesc);
	if (d)
		d->magic = 0;
	free(matmulDesc);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
					      cublasLtMatmulDescAttributes_t attr,
					      const void *buf, size_t sizeInBytes)
{
	struct lt_matmul_desc *d = lt_desc(matmulDesc);
	const struct desc_attr *a = find_desc_attr(attr);
	if (!d || !a)
		return CUBLAS_STATUS_INVALID_VALUE;
	return set_value(desc_field(d, a), a->size, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc,
					      cublasLtMatmulDescAttributes_t attr, void *buf,
					      size_t sizeInBytes, size_t *sizeWritten)
{
	struct lt_matmul_desc *d = lt_desc(matmulDesc);
	const struct desc_attr *a = find_desc_attr(attr);
	if (!d || !a)
		return CUBLAS_STATUS_INVALID_VALUE;
	return get_value(desc_field(d, a), a->size, buf, sizeInBytes, sizeWritten);
}

/* --- matrix layout ---------------------------------------------------- */

struct lt_layout *lt_layout(cublasLtMatrixLayout_t l)
{
	struct lt_layout *layout = (struct lt_layout *)l;
	return layout && layout->magic == LT_LAYOUT_MAGIC ? layout : NULL;
}

static void *layout_field(struct lt_layout *l, cublasLtMatrixLayoutAttribute_t attr,
			  size_t *size)
{
	switch (attr) {
	case CUBLASLT_MATRIX_LAYOUT_TYPE: *size = 4; return &l->type;
	case CUBLASLT_MATRIX_LAYOUT_ORDER: *size = 4; return &l->order;
	case CUBLASLT_MATRIX_LAYOUT_ROWS: *size = 8; return &l->rows;
	case CUBLASLT_MATRIX_LAYOUT_COLS: *size = 8; return &l->cols;
	case CUBLASLT_MATRIX_LAYOUT_LD: *size = 8; return &l->ld;
	case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: *size = 4; return &l->batch_count;
	case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: *size = 8; return &l->batch_stride;
	case CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET: *size = 8; return &l->plane_offset;
	case CUBLASLT_MATRIX_LAYOUT_BATCH_MODE: *size = 4; return &l->batch_mode;
	}
	return NULL;
}

cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size,
						 cudaDataType type, uint64_t rows, uint64_t cols,
						 int64_t ld)
{
	if (!matLayout || size < sizeof(struct lt_layout))
		return CUBLAS_STATUS_ALLOC_FAILED;
	struct lt_layout *l = (struct lt_layout *)matLayout;
	*l = (struct lt_layout){
		.magic = LT_LAYOUT_MAGIC, .type = (uint32_t)type, .order = CUBLASLT_ORDER_COL,
		.batch_count = 1, .rows = rows, .cols = cols, .ld = ld,
	};
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type,
					  uint64_t rows, uint64_t cols, int64_t ld)
{
	if (!matLayout)
		return CUBLAS_STATUS_INVALID_VALUE;
	cublasLtMatrixLayout_t l = calloc(1, sizeof(*l));
	if (!l)
		return CUBLAS_STATUS_ALLOC_FAILED;
	cublasLtMatrixLayoutInit_internal(l, sizeof(*l), type, rows, cols, ld);
	*matLayout = l;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout)
{
	struct lt_layout *l = lt_layout(matLayout);
	if (l)
		l->magic = 0;
	free(matLayout);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
						cublasLtMatrixLayoutAttribute_t attr,
						const void *buf, size_t sizeInBytes)
{
	struct lt_layout *l = lt_layout(matLayout);
	size_t size = 0;
	void *field = l ? layout_field(l, attr, &size) : NULL;
	if (!field)
		return CUBLAS_STATUS_INVALID_VALUE;
	return set_value(field, size, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
						cublasLtMatrixLayoutAttribute_t attr, void *buf,
						size_t sizeInBytes, size_t *sizeWritten)
{
	struct lt_layout *l = lt_layout(matLayout);
	size_t size = 0;
	void *field = l ? layout_field(l, attr, &size) : NULL;
	if (!field)
		return CUBLAS_STATUS_INVALID_VALUE;
	return get_value(field, size, buf, sizeInBytes, sizeWritten);
}

/* --- preference --------------------------------------------------------- */

struct lt_preference *lt_preference(cublasLtMatmulPreference_t p)
{
	struct lt_preference *pref = (struct lt_preference *)p;
	return pref && pref->magic == LT_PREF_MAGIC ? pref : NULL;
}

static void *preference_field(struct lt_preference *p, cublasLtMatmulPreferenceAttributes_t attr,
			      size_t *size)
{
	switch (attr) {
	case CUBLASLT_MATMUL_PREF_SEARCH_MODE: *size = 4; return &p->search_mode;
	case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: *size = 8; return &p->max_workspace;
	case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK: *size = 4; return &p->reduction_mask;
	case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES: *size = 4; return &p->min_alignment[0];
	case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES: *size = 4; return &p->min_alignment[1];
	case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES: *size = 4; return &p->min_alignment[2];
	case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES: *size = 4; return &p->min_alignment[3];
	case CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT: *size = 4; return &p->max_waves;
	case CUBLASLT_MATMUL_PREF_IMPL_MASK: *size = 8; return &p->impl_mask;
	}
	return NULL;
}

cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size)
{
	if (!pref || size < sizeof(struct lt_preference))
		return CUBLAS_STATUS_ALLOC_FAILED;
	*(struct lt_preference *)pref = (struct lt_preference){
		.magic = LT_PREF_MAGIC,
		.search_mode = CUBLASLT_SEARCH_BEST_FIT,
		.reduction_mask = CUBLASLT_REDUCTION_SCHEME_MASK,
		.min_alignment = { 256, 256, 256, 256 },
		.impl_mask = UINT64_MAX,
	};
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)
{
	if (!pref)
		return CUBLAS_STATUS_INVALID_VALUE;
	cublasLtMatmulPreference_t p = calloc(1, sizeof(*p));
	if (!p)
		return CUBLAS_STATUS_ALLOC_FAILED;
	cublasLtMatmulPreferenceInit_internal(p, sizeof(*p));
	*pref = p;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref)
{
	struct lt_preference *p = lt_preference(pref);
	if (p)
		p->magic = 0;
	free(pref);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
						    cublasLtMatmulPreferenceAttributes_t attr,
						    const void *buf, size_t sizeInBytes)
{
	struct lt_preference *p = lt_preference(pref);
	size_t size = 0;
	void *field = p ? preference_field(p, attr, &size) : NULL;
	if (!field)
		return CUBLAS_STATUS_INVALID_VALUE;
	return set_value(field, size, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
						    cublasLtMatmulPreferenceAttributes_t attr,
						    void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
	struct lt_preference *p = lt_preference(pref);
	size_t size = 0;
	void *field = p ? preference_field(p, attr, &size) : NULL;
	if (!field)
		return CUBLAS_STATUS_INVALID_VALUE;
	return get_value(field, size, buf, sizeInBytes, sizeWritten);
}

/* The real 13.0 libcublasLt answers 130100 (= CUBLAS_VERSION of its
   headers) and 13000 (observed on this machine without a GPU). */
size_t cublasLtGetVersion(void)
{
	return CUBLAS_VERSION;
}

size_t cublasLtGetCudartVersion(void)
{
	return CUDART_VERSION;
}
