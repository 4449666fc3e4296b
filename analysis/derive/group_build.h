/*
 * Groups from the event model (group_build.c): kernel order, ops, links
 * to launches and library calls, each kernel's tensor uses.
 * Must never analyze a window: window.c does.
 */
#ifndef DNNTRACE_ANALYSIS_DERIVE_GROUP_BUILD_H
#define DNNTRACE_ANALYSIS_DERIVE_GROUP_BUILD_H

#include <stddef.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"

/* Every (process, device) with tensors, kernels or allocation attempts, in
 * process order then device order, one index per kernel or per op.
 * Fills *groups; returns the count. A group may read the model's tensors
 * in place (the model then marks them lent, and must outlive it). */
size_t dt_groups_build(struct dt_model *m, enum dt_granularity granularity,
		struct dt_group **groups);

/* The same for what req asks: with a window (--kernels, --range) each
 * group holds only its window's kernel records and touches (kernels_from
 * says where they start in the full order; window.c chooses them from
 * the order first); without, all of them, as dt_groups_build. */
struct dt_request;
size_t dt_groups_build_for(struct dt_model *m, const struct dt_request *req,
		struct dt_group **groups);

#endif
