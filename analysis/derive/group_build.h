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

#endif
