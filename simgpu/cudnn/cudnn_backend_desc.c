/*
 * The simulated cuDNN backend API's descriptors: create, set and get
 * attributes (any attribute of any descriptor type is stored and read back
 * as set), finalize (checks what each modelled type needs) and destroy.
 * Status codes follow the real libcudnn.so.9 where it answers without a
 * GPU (README.md). Must never launch work: execution is cudnn_backend_exec.c.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/cudnn/cudnn_backend.h"

static size_t type_bytes(cudnnBackendAttributeType_t type)
{
	switch (type) {
	case CUDNN_TYPE_HANDLE: return sizeof(cudnnHandle_t);
	case CUDNN_TYPE_BOOLEAN: return sizeof(bool);
	case CUDNN_TYPE_INT64: return sizeof(int64_t);
	case CUDNN_TYPE_DOUBLE: return sizeof(double);
	case CUDNN_TYPE_VOID_PTR: return sizeof(void *);
	case CUDNN_TYPE_BACKEND_DESCRIPTOR: return sizeof(cudnnBackendDescriptor_t);
	case CUDNN_TYPE_CHAR: return 1;
	case CUDNN_TYPE_FRACTION: return sizeof(cudnnFraction_t);
	case CUDNN_TYPE_FLOAT: case CUDNN_TYPE_INT32: return 4;
	default:
		/* every other type is an enum */
		return (int)type >= 0 && type <= CUDNN_TYPE_MOE_GROUPED_MATMUL_MODE ? 4 : 0;
	}
}

/* "Float or double": scaling factors take either. */
#define SCALAR_TYPE ((cudnnBackendAttributeType_t)-1)

/* The attributes of the modelled descriptor types: type and most elements. */
static const struct known_attr {
	cudnnBackendAttributeName_t name;
	cudnnBackendAttributeType_t type;
	int64_t max_count;
} known_attrs[] = {
	{ CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1 },
	{ CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1 },
	{ CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, CUDNN_DIM_MAX },
	{ CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, CUDNN_DIM_MAX },
	{ CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1 },
	{ CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1 },
	{ CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1 },
	{ CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1 },
	{ CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1 },
	{ CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1 },
	{ CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, CUDNN_DIM_MAX - 2 },
	{ CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, CUDNN_DIM_MAX - 2 },
	{ CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, CUDNN_DIM_MAX - 2 },
	{ CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, CUDNN_DIM_MAX - 2 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_MATMUL_ADESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_MATMUL_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_MATMUL_CDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_MATMUL_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1 },
	{ CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_TDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2, SCALAR_TYPE, 1 },
	{ CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1 },
	{ CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0 },
	{ CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1 },
	{ CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0 },
	{ CUDNN_ATTR_ENGINE_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1 },
	{ CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1 },
	{ CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1 },
	{ CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1 },
	{ CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1 },
	{ CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 0 },
	{ CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 0 },
	{ CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1 },
};

static const struct known_attr *known_attr(cudnnBackendAttributeName_t name)
{
	for (size_t i = 0; i < sizeof known_attrs / sizeof known_attrs[0]; i++)
		if (known_attrs[i].name == name)
			return &known_attrs[i];
	return NULL;
}

/* Attribute names come in blocks of 100 (or so) per descriptor type. */
static const struct {
	cudnnBackendDescriptorType_t type;
	int lo, hi;
} attr_ranges[] = {
	{ CUDNN_BACKEND_POINTWISE_DESCRIPTOR, 0, 99 },
	{ CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, 100, 199 },
	{ CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, 200, 299 },
	{ CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, 300, 399 },
	{ CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, 400, 499 },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, 700, 705 },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, 706, 711 },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR, 712, 717 },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, 750, 799 },
	{ CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, 800, 899 },
	{ CUDNN_BACKEND_TENSOR_DESCRIPTOR, 900, 999 },
	{ CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, 1000, 1099 },
	{ CUDNN_BACKEND_ENGINE_DESCRIPTOR, 1300, 1399 },
	{ CUDNN_BACKEND_MATMUL_DESCRIPTOR, 1500, 1519 },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, 1520, 1599 },
};

/* Whether `name` belongs to `type`; unmodelled types take anything. */
static int attr_belongs(cudnnBackendDescriptorType_t type, cudnnBackendAttributeName_t name)
{
	for (size_t i = 0; i < sizeof attr_ranges / sizeof attr_ranges[0]; i++)
		if (attr_ranges[i].type == type)
			return (int)name >= attr_ranges[i].lo && (int)name <= attr_ranges[i].hi;
	return 1;
}

struct sim_backend *sim_backend_of(cudnnBackendDescriptor_t d)
{
	struct sim_backend *b = d;
	return b && b->magic == SIM_BACKEND_MAGIC ? b : NULL;
}

const struct sim_attr *sim_backend_attr(const struct sim_backend *b,
					cudnnBackendAttributeName_t name)
{
	for (int i = 0; i < b->nattrs; i++)
		if (b->attrs[i].name == name)
			return &b->attrs[i];
	return NULL;
}

struct sim_backend *sim_backend_attr_desc(const struct sim_backend *b,
					  cudnnBackendAttributeName_t name)
{
	const struct sim_attr *a = sim_backend_attr(b, name);
	if (!a || a->type != CUDNN_TYPE_BACKEND_DESCRIPTOR || a->count != 1)
		return NULL;
	return sim_backend_of(((cudnnBackendDescriptor_t *)a->data)[0]);
}

int64_t sim_backend_attr_int(const struct sim_backend *b, cudnnBackendAttributeName_t name,
			     int64_t fallback)
{
	const struct sim_attr *a = sim_backend_attr(b, name);
	if (!a || a->count < 1)
		return fallback;
	switch (a->type) {
	case CUDNN_TYPE_INT64: return ((int64_t *)a->data)[0];
	case CUDNN_TYPE_BOOLEAN: return ((bool *)a->data)[0];
	default: return type_bytes(a->type) == 4 ? ((int32_t *)a->data)[0] : fallback;
	}
}

/* ---- lifetime ---- */

static void unref(struct sim_backend *b);

static void drop_attr(struct sim_attr *a)
{
	if (a->type == CUDNN_TYPE_BACKEND_DESCRIPTOR)
		for (int64_t i = 0; i < a->count; i++)
			unref(sim_backend_of(((cudnnBackendDescriptor_t *)a->data)[i]));
	free(a->data);
	a->data = NULL;
}

static void unref(struct sim_backend *b)
{
	if (!b || --b->refs > 0)
		return;
	for (int i = 0; i < b->nattrs; i++)
		drop_attr(&b->attrs[i]);
	free(b->attrs);
	b->magic = 0;
	free(b);
}

static struct sim_backend *new_backend(cudnnBackendDescriptorType_t type)
{
	struct sim_backend *b = calloc(1, sizeof *b);
	if (b) {
		b->magic = SIM_BACKEND_MAGIC;
		b->type = type;
		b->refs = 1;
	}
	return b;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendCreateDescriptor(cudnnBackendDescriptorType_t descriptorType,
	cudnnBackendDescriptor_t *descriptor)
{
	if (!descriptor)
		return CUDNN_STATUS_BAD_PARAM_NULL_POINTER;
	/* The real 9.19 answers an unknown type with this odd code (observed). */
	if ((int)descriptorType < 0 || descriptorType > CUDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	struct sim_backend *b = new_backend(descriptorType);
	if (!b)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	*descriptor = b;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendDestroyDescriptor(cudnnBackendDescriptor_t descriptor)
{
	if (!descriptor)
		return CUDNN_STATUS_BAD_PARAM_NULL_POINTER; /* observed */
	struct sim_backend *b = sim_backend_of(descriptor);
	if (!b || b->destroyed_by_program)
		return CUDNN_STATUS_BAD_PARAM;
	b->destroyed_by_program = 1;
	unref(b);
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendInitialize(cudnnBackendDescriptor_t descriptor)
{
	struct sim_backend *b = sim_backend_of(descriptor);
	if (!descriptor)
		return CUDNN_STATUS_BAD_PARAM_NULL_POINTER;
	if (!b)
		return CUDNN_STATUS_BAD_PARAM;
	for (int i = 0; i < b->nattrs; i++)
		drop_attr(&b->attrs[i]);
	b->nattrs = 0;
	b->finalized = 0;
	b->workspace_bytes = 0;
	return CUDNN_STATUS_SUCCESS;
}

/* ---- attributes ---- */

/* Stores a copy of `count` elements (replacing any earlier value). */
static cudnnStatus_t store_attr(struct sim_backend *b, cudnnBackendAttributeName_t name,
				cudnnBackendAttributeType_t type, int64_t count, const void *data)
{
	size_t bytes = (size_t)count * type_bytes(type);
	void *copy = malloc(bytes ? bytes : 1);
	if (!copy)
		return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
	memcpy(copy, data, bytes);
	if (type == CUDNN_TYPE_BACKEND_DESCRIPTOR)
		for (int64_t i = 0; i < count; i++)
			sim_backend_of(((cudnnBackendDescriptor_t *)copy)[i])->refs++;
	struct sim_attr *slot = (struct sim_attr *)sim_backend_attr(b, name);
	if (slot) {
		drop_attr(slot);
	} else {
		if (b->nattrs == b->cap) {
			int cap = b->cap ? 2 * b->cap : 8;
			struct sim_attr *grown = realloc(b->attrs, (size_t)cap * sizeof *grown);
			if (!grown) {
				free(copy);
				return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
			}
			b->attrs = grown;
			b->cap = cap;
		}
		slot = &b->attrs[b->nattrs++];
	}
	slot->name = name;
	slot->type = type;
	slot->count = count;
	slot->data = copy;
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendSetAttribute(cudnnBackendDescriptor_t descriptor,
	cudnnBackendAttributeName_t attributeName, cudnnBackendAttributeType_t attributeType,
	int64_t elementCount, const void *arrayOfElements)
{
	if (!descriptor)
		return CUDNN_STATUS_BAD_PARAM_NULL_POINTER;
	struct sim_backend *b = sim_backend_of(descriptor);
	if (!b || b->finalized || !arrayOfElements || elementCount < 0 ||
	    type_bytes(attributeType) == 0 || !attr_belongs(b->type, attributeName))
		return CUDNN_STATUS_BAD_PARAM;
	const struct known_attr *k = known_attr(attributeName);
	if (k) {
		int scalar_ok = k->type == SCALAR_TYPE && (attributeType == CUDNN_TYPE_FLOAT ||
							   attributeType == CUDNN_TYPE_DOUBLE);
		if (k->type != attributeType && !scalar_ok)
			return CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE; /* observed */
		if (k->max_count && elementCount > k->max_count)
			return CUDNN_STATUS_BAD_PARAM;
		/* Results are read with Get, never set. */
		if (attributeName == CUDNN_ATTR_ENGINEHEUR_RESULTS ||
		    attributeName == CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE ||
		    attributeName == CUDNN_ATTR_ENGINECFG_WORKSPACE_SIZE)
			return CUDNN_STATUS_BAD_PARAM;
	}
	if (attributeType == CUDNN_TYPE_BACKEND_DESCRIPTOR)
		for (int64_t i = 0; i < elementCount; i++) {
			struct sim_backend *ref =
				sim_backend_of(((cudnnBackendDescriptor_t *)arrayOfElements)[i]);
			if (!ref)
				return CUDNN_STATUS_BAD_PARAM;
			if (!ref->finalized)
				return CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED;
		}
	return store_attr(b, attributeName, attributeType, elementCount, arrayOfElements);
}

/* Makes `to` (a descriptor the program created) a finalized copy of `from`. */
static cudnnStatus_t copy_into(struct sim_backend *to, const struct sim_backend *from)
{
	if (to->type != from->type)
		return CUDNN_STATUS_BAD_PARAM;
	if (to == from)
		return CUDNN_STATUS_SUCCESS;
	cudnnBackendInitialize(to);
	for (int i = 0; i < from->nattrs; i++) {
		const struct sim_attr *a = &from->attrs[i];
		cudnnStatus_t st = store_attr(to, a->name, a->type, a->count, a->data);
		if (st)
			return st;
	}
	to->workspace_bytes = from->workspace_bytes;
	to->finalized = from->finalized;
	return CUDNN_STATUS_SUCCESS;
}

/*
 * ENGINEHEUR_RESULTS: one engine config per engine, filled into the
 * ENGINECFG descriptors the program passes (as cudnn-frontend does).
 */
static cudnnStatus_t get_heuristic_results(struct sim_backend *heur, int64_t requested,
					   int64_t *count, cudnnBackendDescriptor_t *out)
{
	struct sim_backend *graph = sim_backend_attr_desc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH);
	*count = SIM_ENGINE_COUNT;
	for (int64_t i = 0; i < requested && i < SIM_ENGINE_COUNT; i++) {
		struct sim_backend *cfg = sim_backend_of(out[i]);
		if (!cfg || cfg->type != CUDNN_BACKEND_ENGINECFG_DESCRIPTOR)
			return CUDNN_STATUS_BAD_PARAM;
		struct sim_backend *engine = new_backend(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
		if (!engine)
			return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
		cudnnBackendDescriptor_t graph_ref = graph;
		cudnnStatus_t st = store_attr(engine, CUDNN_ATTR_ENGINE_OPERATION_GRAPH,
					      CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph_ref);
		if (!st)
			st = store_attr(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &i);
		engine->finalized = 1;
		cudnnBackendDescriptor_t engine_ref = engine;
		if (!st) {
			cudnnBackendInitialize(cfg);
			st = store_attr(cfg, CUDNN_ATTR_ENGINECFG_ENGINE,
					CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &engine_ref);
		}
		unref(engine); /* now held by the config only */
		if (st)
			return st;
		cfg->workspace_bytes = sim_backend_graph_workspace(graph, i);
		cfg->finalized = 1;
	}
	return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t CUDNNWINAPI cudnnBackendGetAttribute(cudnnBackendDescriptor_t const descriptor,
	cudnnBackendAttributeName_t attributeName, cudnnBackendAttributeType_t attributeType,
	int64_t requestedElementCount, int64_t *elementCount, void *arrayOfElements)
{
	if (!descriptor)
		return CUDNN_STATUS_BAD_PARAM_NULL_POINTER;
	struct sim_backend *b = sim_backend_of(descriptor);
	if (!b || !elementCount || requestedElementCount < 0 ||
	    (requestedElementCount > 0 && !arrayOfElements) || !attr_belongs(b->type, attributeName))
		return CUDNN_STATUS_BAD_PARAM;
	if (!b->finalized)
		return CUDNN_STATUS_NOT_INITIALIZED; /* observed */
	const struct known_attr *k = known_attr(attributeName);
	const struct sim_attr *a = sim_backend_attr(b, attributeName);
	cudnnBackendAttributeType_t want = a ? a->type : k ? k->type : attributeType;
	if (want != attributeType && !(want == SCALAR_TYPE && (attributeType == CUDNN_TYPE_FLOAT ||
							       attributeType == CUDNN_TYPE_DOUBLE)))
		return CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE; /* observed */

	/* Values the library works out rather than stores. */
	if (attributeName == CUDNN_ATTR_ENGINEHEUR_RESULTS)
		return get_heuristic_results(b, requestedElementCount, elementCount, arrayOfElements);
	if (attributeName == CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE ||
	    attributeName == CUDNN_ATTR_ENGINECFG_WORKSPACE_SIZE) {
		*elementCount = 1;
		if (requestedElementCount > 0)
			*(int64_t *)arrayOfElements = b->workspace_bytes;
		return CUDNN_STATUS_SUCCESS;
	}
	if (attributeName == CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT) {
		*elementCount = 1;
		if (requestedElementCount > 0)
			*(int64_t *)arrayOfElements = SIM_ENGINE_COUNT;
		return CUDNN_STATUS_SUCCESS;
	}
	/* An attribute never set reads back as no elements. */
	*elementCount = a ? a->count : 0;
	if (!a)
		return CUDNN_STATUS_SUCCESS;
	int64_t n = requestedElementCount < a->count ? requestedElementCount : a->count;
	if (a->type == CUDNN_TYPE_BACKEND_DESCRIPTOR) {
		/* Descriptors are copied into the ones the program passes. */
		for (int64_t i = 0; i < n; i++) {
			struct sim_backend *to = sim_backend_of(((cudnnBackendDescriptor_t *)arrayOfElements)[i]);
			struct sim_backend *from = sim_backend_of(((cudnnBackendDescriptor_t *)a->data)[i]);
			if (!to)
				return CUDNN_STATUS_BAD_PARAM;
			cudnnStatus_t st = copy_into(to, from);
			if (st)
				return st;
		}
		return CUDNN_STATUS_SUCCESS;
	}
	memcpy(arrayOfElements, a->data, (size_t)n * type_bytes(a->type));
	return CUDNN_STATUS_SUCCESS;
}

/* ---- finalize ---- */

static int has(const struct sim_backend *b, cudnnBackendAttributeName_t name)
{
	const struct sim_attr *a = sim_backend_attr(b, name);
	return a && a->count > 0;
}

static cudnnStatus_t finalize_tensor(const struct sim_backend *t)
{
	const struct sim_attr *dims = sim_backend_attr(t, CUDNN_ATTR_TENSOR_DIMENSIONS);
	const struct sim_attr *strides = sim_backend_attr(t, CUDNN_ATTR_TENSOR_STRIDES);
	if (!has(t, CUDNN_ATTR_TENSOR_UNIQUE_ID) || !has(t, CUDNN_ATTR_TENSOR_DATA_TYPE) ||
	    !has(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT) || !dims || !strides ||
	    dims->count < 1 || dims->count != strides->count)
		return CUDNN_STATUS_BAD_PARAM;
	for (int64_t i = 0; i < dims->count; i++)
		if (((int64_t *)dims->data)[i] <= 0 || ((int64_t *)strides->data)[i] < 0)
			return CUDNN_STATUS_BAD_PARAM;
	return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t finalize_convolution(const struct sim_backend *c)
{
	int64_t n = sim_backend_attr_int(c, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, 0);
	static const cudnnBackendAttributeName_t arrays[] = {
		CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES,
		CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS
	};
	if (!has(c, CUDNN_ATTR_CONVOLUTION_COMP_TYPE) || !has(c, CUDNN_ATTR_CONVOLUTION_CONV_MODE) ||
	    n < 1 || n > CUDNN_DIM_MAX - 2)
		return CUDNN_STATUS_BAD_PARAM;
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
		const struct sim_attr *a = sim_backend_attr(c, arrays[i]);
		if (!a || a->count != n)
			return CUDNN_STATUS_BAD_PARAM;
		for (int64_t j = 0; j < n; j++) {
			int64_t v = ((int64_t *)a->data)[j];
			int is_padding = i >= 2;
			if (is_padding ? v < 0 : v <= 0)
				return CUDNN_STATUS_BAD_PARAM;
		}
	}
	return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t finalize_plan(struct sim_backend *plan)
{
	struct sim_backend *cfg = sim_backend_attr_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG);
	struct sim_backend *engine = cfg ? sim_backend_attr_desc(cfg, CUDNN_ATTR_ENGINECFG_ENGINE) : NULL;
	struct sim_backend *graph = engine ? sim_backend_attr_desc(engine, CUDNN_ATTR_ENGINE_OPERATION_GRAPH) : NULL;
	const struct sim_attr *h = sim_backend_attr(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE);
	if (!graph || !h || !sim_handle_ok(*(cudnnHandle_t *)h->data))
		return CUDNN_STATUS_BAD_PARAM;
	plan->workspace_bytes = sim_backend_graph_workspace(
		graph, sim_backend_attr_int(engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, -1));
	return plan->workspace_bytes < 0 ? CUDNN_STATUS_NOT_SUPPORTED : CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t finalize_by_type(struct sim_backend *b)
{
	switch (b->type) {
	case CUDNN_BACKEND_TENSOR_DESCRIPTOR:
		return finalize_tensor(b);
	case CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR:
		return finalize_convolution(b);
	case CUDNN_BACKEND_MATMUL_DESCRIPTOR:
		return has(b, CUDNN_ATTR_MATMUL_COMP_TYPE) ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
	case CUDNN_BACKEND_POINTWISE_DESCRIPTOR:
		return has(b, CUDNN_ATTR_POINTWISE_MODE) ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
	case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
	case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
	case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR:
	case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR:
	case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR:
		return sim_backend_finalize_operation(b);
	case CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR:
		return sim_backend_finalize_graph(b);
	case CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR:
		return sim_backend_attr_desc(b, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH) &&
			       has(b, CUDNN_ATTR_ENGINEHEUR_MODE)
			       ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
	case CUDNN_BACKEND_ENGINE_DESCRIPTOR: {
		struct sim_backend *g = sim_backend_attr_desc(b, CUDNN_ATTR_ENGINE_OPERATION_GRAPH);
		if (!g || !has(b, CUDNN_ATTR_ENGINE_GLOBAL_INDEX))
			return CUDNN_STATUS_BAD_PARAM;
		return sim_backend_graph_workspace(g, sim_backend_attr_int(b, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, -1)) < 0
			       ? CUDNN_STATUS_NOT_SUPPORTED : CUDNN_STATUS_SUCCESS;
	}
	case CUDNN_BACKEND_ENGINECFG_DESCRIPTOR: {
		struct sim_backend *e = sim_backend_attr_desc(b, CUDNN_ATTR_ENGINECFG_ENGINE);
		struct sim_backend *g = e ? sim_backend_attr_desc(e, CUDNN_ATTR_ENGINE_OPERATION_GRAPH) : NULL;
		if (!g)
			return CUDNN_STATUS_BAD_PARAM;
		b->workspace_bytes = sim_backend_graph_workspace(
			g, sim_backend_attr_int(e, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, -1));
		return CUDNN_STATUS_SUCCESS;
	}
	case CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR:
		return finalize_plan(b);
	case CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR: {
		const struct sim_attr *uids = sim_backend_attr(b, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS);
		const struct sim_attr *ptrs = sim_backend_attr(b, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS);
		int64_t nu = uids ? uids->count : 0, np = ptrs ? ptrs->count : 0;
		return nu == np ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_BAD_PARAM;
	}
	default:
		/* Unmodelled types (other operations...): accepted as set. */
		return CUDNN_STATUS_SUCCESS;
	}
}

cudnnStatus_t CUDNNWINAPI cudnnBackendFinalize(cudnnBackendDescriptor_t descriptor)
{
	if (!descriptor)
		return CUDNN_STATUS_BAD_PARAM_NULL_POINTER; /* observed */
	struct sim_backend *b = sim_backend_of(descriptor);
	if (!b || b->finalized) /* finalizing twice is BAD_PARAM (observed) */
		return CUDNN_STATUS_BAD_PARAM;
	cudnnStatus_t st = finalize_by_type(b);
	if (st == CUDNN_STATUS_SUCCESS)
		b->finalized = 1;
	return st;
}
