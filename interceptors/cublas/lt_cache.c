/*
 * The cuBLASLt descriptor cache (see cublas_lt_cache.h): two open-addressing
 * tables (linear probing, backward-shift deletion, at most half full) under
 * one mutex. Fixed
 * size, allocated once: a program keeps few descriptors alive at a time
 * (PyTorch creates and destroys them around each matmul).
 *
 * Must never allocate, call into CUDA, or hold the lock while calling out.
 */
#include "interceptors/cublas/lt_cache.h"

#include <pthread.h>
#include <string.h>

#include <cublasLt.h>

enum { LT_CACHE_SLOTS = 4096 }; /* a power of two */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* One table: keys and their values in parallel arrays. */
struct table {
	const void *keys[LT_CACHE_SLOTS];
	unsigned count;
	size_t value_size;
	void *values;
};

static struct lt_desc_info desc_values[LT_CACHE_SLOTS];
static struct lt_layout_info layout_values[LT_CACHE_SLOTS];
static struct table descs = { .value_size = sizeof(desc_values[0]), .values = desc_values };
static struct table layouts = { .value_size = sizeof(layout_values[0]), .values = layout_values };

static unsigned home_of(const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
	return (unsigned)(h >> 40) & (LT_CACHE_SLOTS - 1);
}

static void *value_at(struct table *t, unsigned i)
{
	return (char *)t->values + (size_t)i * t->value_size;
}

/* The slot holding key, or the empty slot where it would go (never full: half at most). */
static unsigned find_slot(const struct table *t, const void *key)
{
	unsigned i = home_of(key);
	while (t->keys[i] && t->keys[i] != key)
		i = (i + 1) & (LT_CACHE_SLOTS - 1);
	return i;
}

/* The value of key, or NULL. */
static void *find_value(struct table *t, const void *key)
{
	if (!key)
		return NULL;
	unsigned i = find_slot(t, key);
	return t->keys[i] ? value_at(t, i) : NULL;
}

/* Inserts or overwrites; drops the entry when the table is half full. */
static void put(struct table *t, const void *key, const void *value)
{
	if (!key)
		return;
	unsigned i = find_slot(t, key);
	if (!t->keys[i]) {
		if (t->count >= LT_CACHE_SLOTS / 2)
			return;
		t->count++;
		t->keys[i] = key;
	}
	memcpy(value_at(t, i), value, t->value_size);
}

/* Backward-shift deletion: later entries of the probe chain move up. */
static void remove_key(struct table *t, const void *key)
{
	if (!key)
		return;
	unsigned hole = find_slot(t, key), next = hole;
	if (!t->keys[hole])
		return;
	t->keys[hole] = NULL;
	t->count--;
	for (;;) {
		next = (next + 1) & (LT_CACHE_SLOTS - 1);
		if (!t->keys[next])
			return;
		unsigned home = home_of(t->keys[next]);
		/* An entry whose home lies cyclically in (hole, next] stays. */
		bool stays = hole <= next ? (hole < home && home <= next)
					  : (hole < home || home <= next);
		if (stays)
			continue;
		t->keys[hole] = t->keys[next];
		memcpy(value_at(t, hole), value_at(t, next), t->value_size);
		t->keys[next] = NULL;
		hole = next;
	}
}

void lt_cache_put_desc(const void *desc, const struct lt_desc_info *info)
{
	pthread_mutex_lock(&cache_lock);
	put(&descs, desc, info);
	pthread_mutex_unlock(&cache_lock);
}

void lt_cache_put_layout(const void *layout, const struct lt_layout_info *info)
{
	pthread_mutex_lock(&cache_lock);
	put(&layouts, layout, info);
	pthread_mutex_unlock(&cache_lock);
}

/* Copies the value only when it has the attribute's own size (the real set succeeded). */
static void copy_sized(void *field, size_t field_size, const void *buf, size_t size)
{
	if (buf && size == field_size)
		memcpy(field, buf, size);
}

static void set_desc_field(struct lt_desc_info *d, int attr, const void *buf, size_t size)
{
	switch (attr) {
	case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: copy_sized(&d->compute_type, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_SCALE_TYPE: copy_sized(&d->scale_type, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_POINTER_MODE: copy_sized(&d->pointer_mode, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_TRANSA: copy_sized(&d->transa, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_TRANSB: copy_sized(&d->transb, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_EPILOGUE: copy_sized(&d->epilogue, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_BIAS_POINTER: copy_sized(&d->bias, 8, buf, size); break;
	case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER: copy_sized(&d->aux, 8, buf, size); break;
	case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD: copy_sized(&d->aux_ld, 8, buf, size); break;
	case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: copy_sized(&d->bias_type, 4, buf, size); break;
	case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE: copy_sized(&d->aux_type, 4, buf, size); break;
	default: break; /* not needed by the trace */
	}
}

static void set_layout_field(struct lt_layout_info *l, int attr, const void *buf, size_t size)
{
	switch (attr) {
	case CUBLASLT_MATRIX_LAYOUT_TYPE: copy_sized(&l->type, 4, buf, size); break;
	case CUBLASLT_MATRIX_LAYOUT_ORDER: copy_sized(&l->order, 4, buf, size); break;
	case CUBLASLT_MATRIX_LAYOUT_ROWS: copy_sized(&l->rows, 8, buf, size); break;
	case CUBLASLT_MATRIX_LAYOUT_COLS: copy_sized(&l->cols, 8, buf, size); break;
	case CUBLASLT_MATRIX_LAYOUT_LD: copy_sized(&l->ld, 8, buf, size); break;
	case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: copy_sized(&l->batch_count, 4, buf, size); break;
	default: break;
	}
}

void lt_cache_set_desc_attr(const void *desc, int attr, const void *buf, size_t size)
{
	pthread_mutex_lock(&cache_lock);
	struct lt_desc_info *info = find_value(&descs, desc);
	if (info)
		set_desc_field(info, attr, buf, size);
	pthread_mutex_unlock(&cache_lock);
}

void lt_cache_set_layout_attr(const void *layout, int attr, const void *buf, size_t size)
{
	pthread_mutex_lock(&cache_lock);
	struct lt_layout_info *info = find_value(&layouts, layout);
	if (info)
		set_layout_field(info, attr, buf, size);
	pthread_mutex_unlock(&cache_lock);
}

void lt_cache_forget_desc(const void *desc)
{
	pthread_mutex_lock(&cache_lock);
	remove_key(&descs, desc);
	pthread_mutex_unlock(&cache_lock);
}

void lt_cache_forget_layout(const void *layout)
{
	pthread_mutex_lock(&cache_lock);
	remove_key(&layouts, layout);
	pthread_mutex_unlock(&cache_lock);
}

void lt_cache_lookup(const void *desc, struct lt_desc_info *desc_info, const void *const *layout_keys,
		     struct lt_layout_info *layout_info, unsigned n, bool *found)
{
	pthread_mutex_lock(&cache_lock);
	const struct lt_desc_info *d = find_value(&descs, desc);
	found[0] = d != NULL;
	if (d)
		*desc_info = *d;
	for (unsigned i = 0; i < n; i++) {
		const struct lt_layout_info *l = find_value(&layouts, layout_keys[i]);
		found[1 + i] = l != NULL;
		if (l)
			layout_info[i] = *l;
	}
	pthread_mutex_unlock(&cache_lock);
}

struct lt_desc_info lt_desc_defaults(int32_t compute_type, int32_t scale_type)
{
	return (struct lt_desc_info){
		.compute_type = compute_type,
		.scale_type = scale_type,
		.pointer_mode = CUBLASLT_POINTER_MODE_HOST,
		.transa = CUBLAS_OP_N,
		.transb = CUBLAS_OP_N,
		.bias_type = -1,
		.aux_type = -1,
		.epilogue = CUBLASLT_EPILOGUE_DEFAULT,
	};
}

struct lt_layout_info lt_layout_defaults(uint32_t type, uint64_t rows, uint64_t cols, int64_t ld)
{
	return (struct lt_layout_info){
		.type = type, .order = CUBLASLT_ORDER_COL, .batch_count = 1,
		.rows = rows, .cols = cols, .ld = ld,
	};
}
