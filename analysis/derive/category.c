/*
 * Tensor categories (category.h). Explicit names win over roles, roles over
 * inference. Must never guess where the trace says: inference is only for
 * tensors nothing named, and its result is marked inferred.
 */
#include "analysis/derive/category.h"

#include <string.h>

static const char *const category_names[] = {
	[DT_CATEGORY_OTHER] = "other",
	[DT_CATEGORY_PARAMETER] = "parameter",
	[DT_CATEGORY_GRADIENT] = "gradient",
	[DT_CATEGORY_OPTIMIZER_STATE] = "optimizer_state",
	[DT_CATEGORY_ACTIVATION] = "activation",
	[DT_CATEGORY_WORKSPACE] = "workspace",
};

static const char *const source_names[] = {
	[DT_CATEGORY_INFERRED] = "inferred",
	[DT_CATEGORY_FROM_TAG] = "tag",
	[DT_CATEGORY_FROM_ROLE] = "role",
};

const char *dt_category_name(uint8_t category)
{
	return category < sizeof(category_names) / sizeof(category_names[0]) ?
		category_names[category] : "other";
}

const char *dt_category_source_name(uint8_t source)
{
	return source < sizeof(source_names) / sizeof(source_names[0]) ?
		source_names[source] : "inferred";
}

/* The prefixes the python helper (python/) puts before a tensor's path. */
static const struct {
	const char *prefix;
	uint8_t category;
} tag_prefixes[] = {
	{"param:", DT_CATEGORY_PARAMETER},
	{"grad:", DT_CATEGORY_GRADIENT},
	{"optim:", DT_CATEGORY_OPTIMIZER_STATE},
	{"act:", DT_CATEGORY_ACTIVATION},
};

bool dt_category_of_tag(const char *name, uint8_t *category)
{
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof(tag_prefixes) / sizeof(tag_prefixes[0]); i++) {
		size_t n = strlen(tag_prefixes[i].prefix);
		if (strncmp(name, tag_prefixes[i].prefix, n) == 0) {
			*category = tag_prefixes[i].category;
			return true;
		}
	}
	return false;
}

/*
 * The window [0, n) is split at its middle kernel, mid = n / 2: a training
 * step's forward pass comes before its backward pass, and without anything
 * marking where one ends the middle index stands for that boundary (an
 * approximation: backward usually has more kernels than forward).
 *   parameter-like:  global in the window (alive across all of it) and
 *                    read (G10 input) by at least one kernel before mid and
 *                    one at or after mid: used by forward and backward.
 *   activation-like: local (born in the window), Birth (first use) before
 *                    mid and last read at or after mid (Death - 1 >= mid):
 *                    written in forward, consumed in backward.
 *   other:           everything else (never read, short-lived, read on
 *                    one side only, such as optimizer state or gradients).
 */
uint8_t dt_category_infer(bool global, int64_t birth, int64_t death,
		const struct dt_use *uses, size_t n_uses, size_t n_kernels)
{
	if (n_kernels == 0)
		return DT_CATEGORY_OTHER;
	size_t mid = n_kernels / 2;
	if (global) {
		bool before = false, after = false;
		for (size_t i = 0; i < n_uses; i++) {
			if (!(uses[i].roles & DT_ROLE_READ))
				continue;
			if (uses[i].kernel < mid)
				before = true;
			else
				after = true;
		}
		return before && after ? DT_CATEGORY_PARAMETER : DT_CATEGORY_OTHER;
	}
	if (birth >= 0 && (size_t)birth < mid && death > (int64_t)mid)
		return DT_CATEGORY_ACTIVATION;
	return DT_CATEGORY_OTHER;
}
