/*
 * The simulated cuBLASLt descriptors as they live inside the header's
 * semi-opaque structs (programs may own the memory: cublasLt*Init), shared
 * by the descriptor functions (cublaslt_descriptors.c) and the matmul
 * (cublaslt_matmul.c). A magic word tells an initialised descriptor from
 * garbage. Must never be seen outside libcublasLt.so.13.
 */
#ifndef SIMGPU_LT_DESCRIPTORS_H
#define SIMGPU_LT_DESCRIPTORS_H

#include <stdbool.h>
#include <stdint.h>

#include <cublasLt.h>

enum {
	LT_DESC_MAGIC = 0x4c54444553430001u,
	LT_LAYOUT_MAGIC = 0x4c544c59u,
	LT_PREF_MAGIC = 0x4c545052u,
	LT_DESC_WIDE = 16,   /* 8-byte attributes (pointers, strides) */
	LT_DESC_NARROW = 20, /* 4- and 1-byte attributes (types, modes, flags) */
};

/* Every matmul attribute has a slot (the table in cublaslt_descriptors.c). */
struct lt_matmul_desc {
	uint64_t magic;
	uint64_t wide[LT_DESC_WIDE];
	uint32_t narrow[LT_DESC_NARROW];
};

struct lt_layout {
	uint32_t magic;
	uint32_t type; /* cudaDataType */
	int32_t order;
	int32_t batch_count;
	uint64_t rows, cols;
	int64_t ld, batch_stride, plane_offset;
	uint32_t batch_mode, unused;
};

struct lt_preference {
	uint32_t magic;
	uint32_t search_mode, reduction_mask;
	uint32_t min_alignment[4];
	float max_waves;
	uint64_t max_workspace, impl_mask;
};

_Static_assert(sizeof(struct lt_matmul_desc) <= sizeof(cublasLtMatmulDescOpaque_t), "desc fits");
_Static_assert(sizeof(struct lt_layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout fits");
_Static_assert(sizeof(struct lt_preference) <= sizeof(cublasLtMatmulPreferenceOpaque_t),
	       "preference fits");

/* The descriptor, or NULL when d is NULL or not initialised. */
struct lt_matmul_desc *lt_desc(cublasLtMatmulDesc_t d);
struct lt_layout *lt_layout(cublasLtMatrixLayout_t l);
struct lt_preference *lt_preference(cublasLtMatmulPreference_t p);

/* A matmul attribute's value (zero-extended from its size). */
uint64_t lt_desc_get(const struct lt_matmul_desc *d, cublasLtMatmulDescAttributes_t attr);

#endif
