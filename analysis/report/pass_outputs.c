/*
 * Opening, finishing and writing the pass's own outputs (pass_outputs.h).
 * Must never leave a timeline file, partial or not, behind a failed run.
 */
#include "analysis/report/pass_outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report/gpu_time_report.h"
#include "analysis/derive/overheads.h"
#include "analysis/report/overheads_csv.h"
#include "analysis/report/timeline_json.h"

/* The timeline's processes and its end time are those of these events
 * only: a sample or a name event moves neither. */
void dt_pass_hooks_on_event(const struct dt_pass_hooks *h, struct dt_model *m,
		const struct dt_event *e)
{
	if (e->procname && h->timeline)     /* a thread's first event */
		dt_timeline_thread_name(h->timeline, m, e);
	switch (e->kind) {
	case DT_EVENT_ALLOC:
	case DT_EVENT_FREE:
	case DT_EVENT_MEMCPY:
	case DT_EVENT_MEMSET:
	case DT_EVENT_LAUNCH:
	case DT_EVENT_GRAPH_LAUNCH:
	case DT_EVENT_LIB_CALL:
	case DT_EVENT_GPU_KERNEL:
	case DT_EVENT_GPU_MEMCPY:
	case DT_EVENT_GPU_MEMSET:
	case DT_EVENT_EXTERNAL_CORRELATION:
	case DT_EVENT_NVTX_PUSH:
	case DT_EVENT_NVTX_POP:
	case DT_EVENT_NVTX_START:
	case DT_EVENT_NVTX_END:
		break;
	default:
		return;
	}
	if (h->timeline)
		dt_timeline_on_event(h->timeline, m, e);
	if (h->overheads)
		dt_overheads_on_event(h->overheads, m, e);
}

int dt_pass_outputs_begin(struct dt_pass_outputs *o, const char *out_dir,
		struct dt_timeline_formats timeline, const char *step_range,
		char *error, size_t error_size)
{
	memset(o, 0, sizeof(*o));
	o->out_dir = out_dir;
	o->hooks.overheads = dt_overheads_new();
	if (!timeline.json && !timeline.pftrace)
		return 0;
	struct stat st;
	if (stat(out_dir, &st) != 0) {
		if (mkdir(out_dir, 0777) != 0) {
			snprintf(error, error_size, "cannot create %s: %s",
					out_dir, strerror(errno));
			return -1;
		}
		o->created_out_dir = true;
	}
	o->hooks.timeline = dt_timeline_open(out_dir, step_range, timeline);
	if (!o->hooks.timeline) {
		snprintf(error, error_size, "cannot write the timeline in %s: %s",
				out_dir, strerror(errno));
		return -1;
	}
	o->timeline_begun = true;
	return 0;
}

int dt_pass_outputs_end(struct dt_pass_outputs *o, const struct dt_model *m,
		char *error, size_t error_size)
{
	int rc = 0;
	if (o->hooks.timeline) {
		rc = dt_timeline_close(o->hooks.timeline, m, error, error_size);
		o->hooks.timeline = NULL;
	}
	if (o->hooks.overheads)
		dt_overheads_finish(o->hooks.overheads, m);
	return rc;
}

void dt_pass_outputs_discard(struct dt_pass_outputs *o, const struct dt_model *m)
{
	if (o->hooks.timeline) {
		dt_timeline_discard(o->hooks.timeline, m);
		o->hooks.timeline = NULL;
	}
	if (o->timeline_begun) {
		dt_timeline_remove(o->out_dir);
		if (o->created_out_dir)
			rmdir(o->out_dir);   /* only if still empty */
	}
}

void dt_pass_outputs_clean_after_crash(const char *out_dir, bool created_out_dir)
{
	dt_timeline_remove(out_dir);
	if (created_out_dir)
		rmdir(out_dir);   /* only if empty */
}

int dt_pass_outputs_write_group(const struct dt_pass_outputs *o,
		const struct dt_group *g, const char *dir)
{
	if (o->hooks.overheads &&
	    dt_overheads_write(o->hooks.overheads, g->vpid, dir) != 0)
		return -1;
	return dt_gpu_time_write_csv(g, dir);
}

void dt_pass_outputs_free(struct dt_pass_outputs *o)
{
	dt_overheads_free(o->hooks.overheads);
	o->hooks.overheads = NULL;
}
