/*
 * Tensor categories (tensors.csv `category`, `category_source`): what a
 * tensor is for in training, from the name the program gave it, from the
 * role a library call gave it, or inferred from its lifetime in the window.
 * Must never change a tensor's name or G10 results: categories only label.
 */
#ifndef DNNTRACE_ANALYSIS_CATEGORY_H
#define DNNTRACE_ANALYSIS_CATEGORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/derive/liveness.h"

enum dt_category {
	DT_CATEGORY_OTHER = 0,
	DT_CATEGORY_PARAMETER,
	DT_CATEGORY_GRADIENT,
	DT_CATEGORY_OPTIMIZER_STATE,
	DT_CATEGORY_ACTIVATION,
	DT_CATEGORY_WORKSPACE,
};

enum dt_category_source {
	DT_CATEGORY_INFERRED = 0,    /* from the lifetime in the window */
	DT_CATEGORY_FROM_TAG,        /* the tag's prefix: param: grad: optim: act: */
	DT_CATEGORY_FROM_ROLE,       /* a library call's WORKSPACE argument */
};

const char *dt_category_name(uint8_t category);
const char *dt_category_source_name(uint8_t source);

/* The category a tag name's prefix gives (param:, grad:, optim:, act:);
 * false for a name without one of them (or NULL). */
bool dt_category_of_tag(const char *name, uint8_t *category);

/* What the lifetime says, for a tensor no tag or role names: see
 * category.c. uses: its uses in the window (kernel order), n_kernels: the
 * window's size; global, birth and death as dt_group_analyze found them. */
uint8_t dt_category_infer(bool global, int64_t birth, int64_t death,
		const struct dt_use *uses, size_t n_uses, size_t n_kernels);

#endif
