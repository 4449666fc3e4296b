/*
 * The analysis group as a container (group.h): creating one, adding
 * tensors, kernels, touches and shapes (dt_groups_build and tests fill it
 * this way), letting go of kernels after its window, freeing it, and a
 * tensor's display name. Must never decide
 * anything about kernels, roles or windows: group_build.c, tensor_uses.c
 * and window.c do; and never read the trace or write output.
 */
#include "analysis/derive/group.h"

#include <stdlib.h>
#include <string.h>

void dt_group_init(struct dt_group *g, int64_t vpid, int32_t device)
{
	memset(g, 0, sizeof(*g));
	g->vpid = vpid;
	g->device = device;
	g->stats.device = device;
	g->cupti_ok = -1;    /* until a process says */
}

void dt_group_add_tensor(struct dt_group *g, const struct dt_tensor *t)
{
	*DT_PUSH_SLOT(g->tensors, g->n_tensors, g->cap_tensors) = *t;
}

void dt_group_add_kernel(struct dt_group *g, const struct dt_kernel *k,
		const struct dt_touch *touches, uint32_t n_touches)
{
	struct dt_kernel *slot = DT_PUSH_SLOT(g->kernels, g->n_kernels,
			g->cap_kernels);
	*slot = *k;
	slot->touches_at = g->n_touches;
	slot->n_touches = n_touches;
	g->n_kernels_held = g->n_kernels;
	for (uint32_t i = 0; i < n_touches; i++)
		*DT_PUSH_SLOT(g->touches, g->n_touches, g->cap_touches) =
			touches[i];
}

uint32_t dt_group_add_dims(struct dt_group *g, const int64_t *dims, uint8_t rank)
{
	size_t at = g->n_dims;
	for (uint8_t i = 0; i < rank; i++)
		*DT_PUSH_SLOT(g->dims, g->n_dims, g->cap_dims) = dims[i];
	return (uint32_t)at;
}

void dt_group_drop_after_window(struct dt_group *g)
{
	size_t kept = g->win_first + g->win_count;
	if (kept >= g->n_kernels_held)
		return;
	/* touches are pushed in kernel order: those of the kept kernels
	 * are a prefix */
	size_t kept_touches = kept ? g->kernels[kept - 1].touches_at +
		g->kernels[kept - 1].n_touches : 0;
	/* fresh copies, so that the large arrays really go back (a shrinking
	 * realloc may keep them whole) */
	struct dt_kernel *kernels = dt_xmalloc(kept * sizeof(*kernels) + 1);
	memcpy(kernels, g->kernels, kept * sizeof(*kernels));
	free(g->kernels);
	g->kernels = kernels;
	g->cap_kernels = g->n_kernels_held = kept;
	struct dt_touch *touches = dt_xmalloc(kept_touches * sizeof(*touches) + 1);
	if (kept_touches)
		memcpy(touches, g->touches, kept_touches * sizeof(*touches));
	free(g->touches);
	g->touches = touches;
	g->n_touches = g->cap_touches = kept_touches;
}

void dt_group_free(struct dt_group *g)
{
	if (!g->tensors_borrowed)
		free(g->tensors);
	free(g->kernels);
	free(g->touches);
	free(g->dims);
	dt_strpool_free(&g->names);
	free(g->results);
	free(g->periods);
	free(g->live_bytes);
	free(g->active_bytes);
	free(g->g10_total_bytes);
	memset(g, 0, sizeof(*g));
}

const char *dt_tensor_display_name(const struct dt_tensor *t, char *buf,
		size_t size)
{
	if (t->name)
		return t->name;
	/* hot when writing kernels.config: no snprintf */
	if (size < 22)
		return "t?";
	buf[0] = 't';
	*dt_fmt_i64(buf + 1, t->id) = '\0';
	return buf;
}
