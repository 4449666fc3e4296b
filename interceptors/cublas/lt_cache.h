/*
 * What the program told cuBLASLt about its matmul descriptors and matrix
 * layouts, kept by the wrappers of their create/init/set/destroy functions
 * (lt_matmul.c) so that tracing a cublasLtMatmul needs no per-call
 * attribute queries: one short lock, five table probes.
 *
 * Keyed by descriptor address; Init of caller-owned memory resets an entry.
 * A full table drops new entries (the matmul wrapper then asks the real
 * library). Must never call into CUDA or cuBLAS, and never hold its lock
 * while anything else runs.
 */
#ifndef DNNTRACE_CUBLAS_LT_CACHE_H
#define DNNTRACE_CUBLAS_LT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The matmul descriptor attributes the trace needs (cublasLt.h types). */
struct lt_desc_info {
	int32_t compute_type, scale_type, pointer_mode, transa, transb;
	int32_t bias_type, aux_type; /* -1: unset (default: D's type) */
	uint32_t epilogue;
	const void *bias, *aux;
	int64_t aux_ld;
};

struct lt_layout_info {
	uint32_t type; /* cudaDataType */
	int32_t order, batch_count;
	uint64_t rows, cols;
	int64_t ld;
};

/* A descriptor as created or initialised (the header's defaults). */
void lt_cache_put_desc(const void *desc, const struct lt_desc_info *info);
void lt_cache_put_layout(const void *layout, const struct lt_layout_info *info);

/* One attribute set successfully (the value as the program passed it). */
void lt_cache_set_desc_attr(const void *desc, int attr, const void *buf, size_t size);
void lt_cache_set_layout_attr(const void *layout, int attr, const void *buf, size_t size);

void lt_cache_forget_desc(const void *desc);
void lt_cache_forget_layout(const void *layout);

/*
 * Copies the descriptor's and the n layouts' entries under one lock;
 * found[0] for the descriptor, found[1 + i] for layouts[i].
 */
void lt_cache_lookup(const void *desc, struct lt_desc_info *desc_info, const void *const *layouts,
		     struct lt_layout_info *layout_info, unsigned n, bool *found);

/* The defaults cublasLt.h documents for a new descriptor / layout. */
struct lt_desc_info lt_desc_defaults(int32_t compute_type, int32_t scale_type);
struct lt_layout_info lt_layout_defaults(uint32_t type, uint64_t rows, uint64_t cols, int64_t ld);

#endif
