/*
 * The shadow of the cuDNN backend descriptors (see cudnn_backend_shadow.h):
 * one node per live descriptor in a chained hash table, all behind one
 * mutex. What an attribute names is copied when it is set (a tensor's
 * facts into the operation, operations into the graph's summary), so a
 * descriptor the program destroys early (cuDNN copies by value too) still
 * leaves its facts where they are needed.
 *
 * Roles by operation (cudnn_graph.h attribute names): convolution forward
 * X, W read, Y written (READ_WRITE when BETA != 0); backward data W, DY
 * read, DX written; backward filter X, DY read, DW written; matmul A, B
 * (and the M/N/K override tensors) read, C written; pointwise X, B, T, DY
 * read, Y, DX written. Any other tensor attribute, or any tensor of an
 * operation type not listed, is DNNTRACE_ROLE_UNKNOWN. Each variant-pack
 * argument is described by its uid and the attribute that names it (the
 * producer's, for a tensor one operation writes and another reads: -1 for
 * a uid no graph tensor has, which has no shape either). Within one graph a
 * tensor read by one operation and written by another is READ_WRITE.
 *
 * Assumed from cudnn_graph.h and cudnn-frontend's use, not tested on a
 * real GPU: heuristics results fill ENGINECFG descriptors the program
 * created, and a plan holds the graph of the config it was given.
 *
 * Must never call into cuDNN, never emit events, never hold the mutex
 * anywhere but here.
 */
#include "interceptors/cudnn/backend_shadow.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "interceptors/cudnn/desc_cache.h"

enum {
	BUCKETS = 1024,
	MAX_RANK = CUDNN_DIM_MAX,
	MAX_OP_TENSORS = 16,
	MAX_SUMMARY_TENSORS = 64,
};

struct tensor_facts {
	int64_t uid;
	enum dnntrace_dtype dtype;
	unsigned rank;
	long long dims[MAX_RANK];
	bool is_virtual;
};

struct op_tensor {
	int attribute;       /* the operation's cudnnBackendAttributeName_t naming it */
	enum dnntrace_role role;
	bool blended; /* an output that becomes READ_WRITE when the op's beta != 0 */
	struct tensor_facts facts;
};

struct op_facts {
	unsigned count;
	struct op_tensor tensors[MAX_OP_TENSORS];
	bool beta_nonzero;
};

struct summary_entry {
	int attribute;
	enum dnntrace_role role;
	struct tensor_facts facts;
};

/* What a graph says about its tensors; shared, immutable once built. */
struct graph_summary {
	unsigned refs;
	unsigned ops;
	unsigned count;
	struct summary_entry entries[MAX_SUMMARY_TENSORS];
};

/* A variant pack as the program set it (read at execute without asking cuDNN). */
struct pack_facts {
	unsigned n_uids, n_ptrs; /* as many as fit */
	int64_t uids[BACKEND_SHADOW_PACK_MAX];
	void *ptrs[BACKEND_SHADOW_PACK_MAX];
	void *workspace;
};

struct shadow {
	struct shadow *next;
	cudnnBackendDescriptor_t desc;
	cudnnBackendDescriptorType_t type;
	struct tensor_facts tensor;   /* TENSOR */
	bool tensor_known;
	struct op_facts *op;          /* OPERATION_* */
	struct pack_facts *pack;      /* VARIANT_PACK */
	struct graph_summary *summary; /* graph, heuristics, engine, config, plan */
	int64_t workspace_bytes;      /* plan; -1 unknown */
};

static pthread_mutex_t shadow_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shadow *buckets[BUCKETS];

static unsigned bucket_of(const void *desc)
{
	uint64_t h = (uint64_t)(uintptr_t)desc * 0x9e3779b97f4a7c15ull;
	return (unsigned)(h >> 40) % BUCKETS;
}

static struct shadow *find(const void *desc)
{
	for (struct shadow *s = buckets[bucket_of(desc)]; s; s = s->next)
		if (s->desc == desc)
			return s;
	return NULL;
}

static void summary_release(struct graph_summary *summary)
{
	if (summary && --summary->refs == 0)
		free(summary);
}

static struct graph_summary *summary_share(struct graph_summary *summary)
{
	if (summary)
		summary->refs++;
	return summary;
}

static void set_summary(struct shadow *s, struct graph_summary *summary)
{
	struct graph_summary *old = s->summary;
	s->summary = summary_share(summary);
	summary_release(old);
}

static void unlink_and_free(struct shadow *victim)
{
	struct shadow **link = &buckets[bucket_of(victim->desc)];
	while (*link && *link != victim)
		link = &(*link)->next;
	if (*link)
		*link = victim->next;
	summary_release(victim->summary);
	free(victim->op);
	free(victim->pack);
	free(victim);
}

static bool is_operation(cudnnBackendDescriptorType_t type)
{
	switch (type) {
	case CUDNN_BACKEND_POINTWISE_DESCRIPTOR:
	case CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR:
	case CUDNN_BACKEND_ENGINE_DESCRIPTOR:
	case CUDNN_BACKEND_ENGINECFG_DESCRIPTOR:
	case CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR:
	case CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR:
	case CUDNN_BACKEND_INTERMEDIATE_INFO_DESCRIPTOR:
	case CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR:
	case CUDNN_BACKEND_KNOB_INFO_DESCRIPTOR:
	case CUDNN_BACKEND_LAYOUT_INFO_DESCRIPTOR:
	case CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR:
	case CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR:
	case CUDNN_BACKEND_TENSOR_DESCRIPTOR:
	case CUDNN_BACKEND_MATMUL_DESCRIPTOR:
	case CUDNN_BACKEND_REDUCTION_DESCRIPTOR:
	case CUDNN_BACKEND_RESAMPLE_DESCRIPTOR:
	case CUDNN_BACKEND_RNG_DESCRIPTOR:
	case CUDNN_BACKEND_KERNEL_CACHE_DESCRIPTOR:
	case CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR:
		return false;
	default:
		return true; /* every CUDNN_BACKEND_OPERATION_*_DESCRIPTOR */
	}
}

void backend_shadow_created(cudnnBackendDescriptor_t desc, cudnnBackendDescriptorType_t type)
{
	struct shadow *s = calloc(1, sizeof(*s));
	if (!s)
		return;
	s->desc = desc;
	s->type = type;
	s->workspace_bytes = -1;
	if (is_operation(type))
		s->op = calloc(1, sizeof(*s->op));
	else if (type == CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR)
		s->pack = calloc(1, sizeof(*s->pack));
	if ((is_operation(type) && !s->op) ||
	    (type == CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR && !s->pack)) {
		free(s);
		return;
	}
	pthread_mutex_lock(&shadow_lock);
	struct shadow *stale = find(desc); /* destroyed behind our back: replace */
	if (stale)
		unlink_and_free(stale);
	unsigned b = bucket_of(desc);
	s->next = buckets[b];
	buckets[b] = s;
	pthread_mutex_unlock(&shadow_lock);
}

void backend_shadow_destroyed(cudnnBackendDescriptor_t desc)
{
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = find(desc);
	if (s)
		unlink_and_free(s);
	pthread_mutex_unlock(&shadow_lock);
}

/* An operation attribute naming a tensor, and its role. */
struct tensor_slot {
	cudnnBackendDescriptorType_t op;
	cudnnBackendAttributeName_t name;
	enum dnntrace_role role;
	bool blended;
};

static const struct tensor_slot known_slots[] = {
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, DNNTRACE_ROLE_WRITE, true },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, DNNTRACE_ROLE_WRITE, true },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, DNNTRACE_ROLE_WRITE, true },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_MATMUL_ADESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_MATMUL_BDESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_MATMUL_CDESC, DNNTRACE_ROLE_WRITE, false },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_MATMUL_GEMM_M_OVERRIDE_DESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_MATMUL_GEMM_N_OVERRIDE_DESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_MATMUL_GEMM_K_OVERRIDE_DESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_POINTWISE_XDESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_POINTWISE_BDESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_POINTWISE_TDESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, DNNTRACE_ROLE_READ, false },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_POINTWISE_YDESC, DNNTRACE_ROLE_WRITE, false },
	{ CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	  CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, DNNTRACE_ROLE_WRITE, false },
};

static bool is_beta(cudnnBackendAttributeName_t name)
{
	return name == CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA ||
	       name == CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA ||
	       name == CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA;
}

static struct tensor_slot slot_for(cudnnBackendDescriptorType_t op,
				   cudnnBackendAttributeName_t name)
{
	for (size_t i = 0; i < sizeof(known_slots) / sizeof(known_slots[0]); i++)
		if (known_slots[i].op == op && known_slots[i].name == name)
			return known_slots[i];
	return (struct tensor_slot){ op, name, DNNTRACE_ROLE_UNKNOWN, false };
}

/* Lock held: the tensors an operation attribute names, copied into the op. */
static void op_set_tensors(struct shadow *op, cudnnBackendAttributeName_t name, int64_t count,
			   const cudnnBackendDescriptor_t *tensors)
{
	struct tensor_slot slot = slot_for(op->type, name);
	struct op_facts *facts = op->op;

	/* Setting an attribute again replaces what it named before. */
	unsigned kept = 0;
	for (unsigned i = 0; i < facts->count; i++)
		if (facts->tensors[i].attribute != (int)name)
			facts->tensors[kept++] = facts->tensors[i];
	facts->count = kept;
	for (int64_t i = 0; i < count && facts->count < MAX_OP_TENSORS; i++) {
		struct shadow *t = find(tensors[i]);
		if (!t || t->type != CUDNN_BACKEND_TENSOR_DESCRIPTOR || !t->tensor_known)
			continue;
		facts->tensors[facts->count++] = (struct op_tensor){
			.attribute = (int)name, .role = slot.role,
			.blended = slot.blended, .facts = t->tensor,
		};
	}
}

static enum dnntrace_role merge_roles(enum dnntrace_role a, enum dnntrace_role b)
{
	if (a == b)
		return a;
	if (a == DNNTRACE_ROLE_UNKNOWN || b == DNNTRACE_ROLE_UNKNOWN)
		return DNNTRACE_ROLE_UNKNOWN;
	return DNNTRACE_ROLE_READ_WRITE;
}

static bool writes(enum dnntrace_role role)
{
	return role == DNNTRACE_ROLE_WRITE || role == DNNTRACE_ROLE_READ_WRITE;
}

static void summary_add(struct graph_summary *summary, const struct op_facts *op)
{
	for (unsigned i = 0; i < op->count; i++) {
		const struct op_tensor *t = &op->tensors[i];
		enum dnntrace_role role = t->role;
		if (t->blended && op->beta_nonzero)
			role = DNNTRACE_ROLE_READ_WRITE;
		struct summary_entry *entry = NULL;
		for (unsigned e = 0; e < summary->count; e++)
			if (summary->entries[e].facts.uid == t->facts.uid)
				entry = &summary->entries[e];
		if (entry) {
			/* A produced tensor is named after its producer. */
			if (writes(role) && !writes(entry->role))
				entry->attribute = t->attribute;
			entry->role = merge_roles(entry->role, role);
		} else if (summary->count < MAX_SUMMARY_TENSORS) {
			summary->entries[summary->count++] = (struct summary_entry){
				.attribute = t->attribute, .role = role,
				.facts = t->facts,
			};
		}
	}
}

/* Lock held: the graph's OPS attribute, summarised. */
static void graph_set_ops(struct shadow *graph, int64_t count,
			  const cudnnBackendDescriptor_t *ops)
{
	struct graph_summary *summary = calloc(1, sizeof(*summary));
	if (!summary)
		return;
	summary->refs = 0;
	summary->ops = (unsigned)count;
	for (int64_t i = 0; i < count; i++) {
		struct shadow *op = find(ops[i]);
		if (op && op->op)
			summary_add(summary, op->op);
	}
	set_summary(graph, summary);
}

static void tensor_set(struct shadow *t, cudnnBackendAttributeName_t name,
		       cudnnBackendAttributeType_t type, int64_t count, const void *elements)
{
	switch (name) {
	case CUDNN_ATTR_TENSOR_UNIQUE_ID:
		if (type == CUDNN_TYPE_INT64 && count >= 1) {
			t->tensor.uid = *(const int64_t *)elements;
			t->tensor_known = true;
		}
		break;
	case CUDNN_ATTR_TENSOR_DATA_TYPE:
		if (type == CUDNN_TYPE_DATA_TYPE && count >= 1)
			t->tensor.dtype = cudnn_dtype(*(const cudnnDataType_t *)elements);
		break;
	case CUDNN_ATTR_TENSOR_DIMENSIONS:
		if (type == CUDNN_TYPE_INT64 && count >= 1 && count <= MAX_RANK) {
			t->tensor.rank = (unsigned)count;
			for (int64_t i = 0; i < count; i++)
				t->tensor.dims[i] = ((const int64_t *)elements)[i];
		}
		break;
	case CUDNN_ATTR_TENSOR_IS_VIRTUAL:
		if (type == CUDNN_TYPE_BOOLEAN && count >= 1)
			t->tensor.is_virtual = *(const bool *)elements;
		break;
	default:
		break;
	}
}

static void pack_set(struct pack_facts *pack, cudnnBackendAttributeName_t name,
		     cudnnBackendAttributeType_t type, int64_t count, const void *elements)
{
	unsigned n = count < BACKEND_SHADOW_PACK_MAX ? (unsigned)count : BACKEND_SHADOW_PACK_MAX;
	if (name == CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS && type == CUDNN_TYPE_INT64) {
		memcpy(pack->uids, elements, n * sizeof(pack->uids[0]));
		pack->n_uids = n;
	} else if (name == CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS && type == CUDNN_TYPE_VOID_PTR) {
		memcpy(pack->ptrs, elements, n * sizeof(pack->ptrs[0]));
		pack->n_ptrs = n;
	} else if (name == CUDNN_ATTR_VARIANT_PACK_WORKSPACE && type == CUDNN_TYPE_VOID_PTR) {
		pack->workspace = *(void *const *)elements;
	}
}

static bool scale_nonzero(cudnnBackendAttributeType_t type, const void *elements)
{
	if (type == CUDNN_TYPE_FLOAT)
		return *(const float *)elements != 0.0f;
	if (type == CUDNN_TYPE_DOUBLE)
		return *(const double *)elements != 0.0;
	return true; /* a type we cannot read: assume the output is blended */
}

/* Lock held: desc now leads to the graph behind `from`. */
static void inherit(struct shadow *desc, const void *from)
{
	struct shadow *source = find(from);
	if (source)
		set_summary(desc, source->summary);
}

void backend_shadow_set(cudnnBackendDescriptor_t desc, cudnnBackendAttributeName_t name,
			cudnnBackendAttributeType_t type, int64_t count, const void *elements)
{
	if (!elements || count <= 0)
		return;
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = find(desc);
	const cudnnBackendDescriptor_t *descs = elements;
	bool names_descs = type == CUDNN_TYPE_BACKEND_DESCRIPTOR;
	if (!s) {
		/* created before we could see it: nothing to attach to */
	} else if (s->type == CUDNN_BACKEND_TENSOR_DESCRIPTOR) {
		tensor_set(s, name, type, count, elements);
	} else if (s->pack) {
		pack_set(s->pack, name, type, count, elements);
	} else if (s->op && names_descs) {
		op_set_tensors(s, name, count, descs);
	} else if (s->op && is_beta(name)) {
		s->op->beta_nonzero = scale_nonzero(type, elements);
	} else if (names_descs) {
		switch (name) {
		case CUDNN_ATTR_OPERATIONGRAPH_OPS:
			graph_set_ops(s, count, descs);
			break;
		case CUDNN_ATTR_ENGINE_OPERATION_GRAPH:
		case CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH:
		case CUDNN_ATTR_ENGINECFG_ENGINE:
		case CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG:
			inherit(s, descs[0]);
			break;
		default:
			break;
		}
	}
	pthread_mutex_unlock(&shadow_lock);
}

/* Heuristics results, a config's engine, a plan's config: the outputs lead to the same graph. */
void backend_shadow_got(cudnnBackendDescriptor_t desc, cudnnBackendAttributeName_t name,
			cudnnBackendAttributeType_t type, int64_t count, const void *elements)
{
	if (type != CUDNN_TYPE_BACKEND_DESCRIPTOR || !elements || count <= 0)
		return;
	if (name != CUDNN_ATTR_ENGINEHEUR_RESULTS && name != CUDNN_ATTR_ENGINECFG_ENGINE &&
	    name != CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG)
		return;
	pthread_mutex_lock(&shadow_lock);
	struct shadow *source = find(desc);
	const cudnnBackendDescriptor_t *outputs = elements;
	for (int64_t i = 0; source && source->summary && i < count; i++) {
		struct shadow *out = find(outputs[i]);
		if (out)
			set_summary(out, source->summary);
	}
	pthread_mutex_unlock(&shadow_lock);
}

bool backend_shadow_pack(cudnnBackendDescriptor_t pack, int64_t *uids, void **ptrs,
			 unsigned *count, void **workspace)
{
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = find(pack);
	bool known = s && s->pack;
	if (known) {
		unsigned n = s->pack->n_uids < s->pack->n_ptrs ? s->pack->n_uids : s->pack->n_ptrs;
		memcpy(uids, s->pack->uids, n * sizeof(uids[0]));
		memcpy(ptrs, s->pack->ptrs, n * sizeof(ptrs[0]));
		*count = n;
		*workspace = s->pack->workspace;
	}
	pthread_mutex_unlock(&shadow_lock);
	return known;
}

bool backend_shadow_is_plan(cudnnBackendDescriptor_t desc)
{
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = find(desc);
	bool plan = s && s->type == CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR;
	pthread_mutex_unlock(&shadow_lock);
	return plan;
}

void backend_shadow_plan_workspace(cudnnBackendDescriptor_t plan, int64_t bytes)
{
	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = find(plan);
	if (s)
		s->workspace_bytes = bytes;
	pthread_mutex_unlock(&shadow_lock);
}

void backend_shadow_describe(cudnnBackendDescriptor_t plan, const int64_t *uids,
			     void *const *ptrs, unsigned count, void *workspace,
			     struct lib_call *c)
{
	const struct summary_entry *entries[BACKEND_SHADOW_PACK_MAX];

	pthread_mutex_lock(&shadow_lock);
	struct shadow *s = find(plan);
	const struct graph_summary *summary = s ? s->summary : NULL;
	for (unsigned i = 0; i < count; i++) {
		const struct summary_entry *entry = NULL;
		for (unsigned e = 0; summary && e < summary->count; e++)
			if (summary->entries[e].facts.uid == uids[i])
				entry = &summary->entries[e];
		entries[i] = entry;
		if (entry)
			lib_call_arg(c, ptrs[i], entry->role, entry->facts.dtype,
				     entry->facts.rank, entry->facts.dims);
		else
			lib_call_arg(c, ptrs[i], DNNTRACE_ROLE_UNKNOWN, DNNTRACE_DTYPE_UNKNOWN, 0,
				     NULL);
	}
	int64_t workspace_bytes = s ? s->workspace_bytes : -1;
	long long dims[1] = { workspace_bytes };
	if (workspace || workspace_bytes > 0)
		lib_call_arg(c, workspace, DNNTRACE_ROLE_WORKSPACE, DNNTRACE_DTYPE_U8,
			     workspace_bytes >= 0 ? 1 : 0, dims);
	else
		lib_call_unused(c, workspace);
	lib_call_param(c, summary ? (long long)summary->ops : -1LL);
	lib_call_param(c, workspace_bytes);
	for (unsigned i = 0; i < count; i++) {
		lib_call_param(c, uids[i]);
		lib_call_param(c, entries[i] ? entries[i]->attribute : -1);
	}
	pthread_mutex_unlock(&shadow_lock);
}
