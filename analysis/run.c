/*
 * The supervised child's work (run.h): one request from trace to report,
 * in order: the --categories rules, the trace check, one decoding pass
 * (with the pass outputs), the groups and their windows, energy, the
 * analysis of the windows, the memory reports, then the report. Every
 * failure is one line on stderr and an exit code. Must never parse
 * arguments, decide a window, a role or a file's layout itself: window.c,
 * group_build.c and report_files.c do.
 */
#include "analysis/run.h"
#include "analysis/decode/record_status.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derive/energy.h"
#include "analysis/derive/group.h"
#include "analysis/derive/steps.h"
#include "analysis/report/memory_report.h"
#include "analysis/model/model.h"
#include "analysis/report/pass_outputs.h"
#include "analysis/report/report_files.h"
#include "analysis/report/timeline_json.h"
#include "analysis/request.h"
#include "analysis/supervisor.h"
#include "analysis/decode/trace_check.h"
#include "analysis/decode/stream_split.h"
#include "analysis/decode/trace_reader.h"
#include "analysis/util.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"

#define PROG DT_ANALYZE_PROG

/* The timeline files --timeline asks for. */
static struct dt_timeline_formats dt_request_timeline(const struct dt_request *req)
{
	enum dt_timeline_mode m = req->timeline;
	return (struct dt_timeline_formats){
		.json = m == DT_TIMELINE_AUTO || m == DT_TIMELINE_BOTH ||
			m == DT_TIMELINE_JSON,
		.pftrace = m == DT_TIMELINE_AUTO || m == DT_TIMELINE_BOTH ||
			m == DT_TIMELINE_PFTRACE,
		.json_max_events = m == DT_TIMELINE_AUTO ? req->json_max_events : 0,
	};
}

/* A window's timeline (--kernels, --range): the time a process's
 * windows span, its kernels' calls to their ends (and the range's own
 * times); all of it for a process with a group the window did not fit. */
struct process_span {
	int64_t vpid;
	uint64_t start, end;
	bool whole;
};

static bool windowed(const struct dt_request *req)
{
	return req->has_window || req->range_name;
}

static struct process_span *process_spans(const struct dt_group *groups,
		size_t n_groups, size_t *n_spans)
{
	struct process_span *spans = dt_xcalloc(n_groups + 1, sizeof(*spans));
	size_t n = 0;
	for (size_t i = 0; i < n_groups; i++) {
		const struct dt_group *g = &groups[i];
		struct process_span *sp = NULL;
		for (size_t j = 0; j < n && !sp; j++)
			if (spans[j].vpid == g->vpid)
				sp = &spans[j];
		if (!sp) {
			sp = &spans[n++];
			*sp = (struct process_span){g->vpid, UINT64_MAX, 0, false};
		}
		if (g->window_misfit) {
			sp->whole = true;
			continue;
		}
		for (size_t k = g->win_first; k < g->win_first + g->win_count; k++) {
			const struct dt_kernel *kn = &g->kernels[k];
			uint64_t from = kn->call_ns != DT_NO_TIME &&
				kn->call_ns < kn->start ? kn->call_ns : kn->start;
			if (from < sp->start)
				sp->start = from;
			if (kn->end > sp->end)
				sp->end = kn->end;
		}
		if (g->range_times) {
			if (g->range_start_ns < sp->start)
				sp->start = g->range_start_ns;
			uint64_t end = g->range_end_ns == DT_NO_TIME ? UINT64_MAX :
				g->range_end_ns;
			if (end > sp->end)
				sp->end = end;
		}
	}
	*n_spans = n;
	return spans;
}

/* The timeline of a window, by a second read of the trace: the window
 * is known only once the whole trace is, and the timeline is written as
 * events stream by, never held. 0, or -1 with a reason in error. */
static int window_timeline(const struct dt_request *req, const char *decode_dir,
		size_t decoders, const struct process_span *spans, size_t n_spans,
		char *error, size_t error_size)
{
	struct dt_timeline *tl = dt_timeline_open(req->out_dir, req->range_name,
			dt_request_timeline(req));
	if (!tl) {
		snprintf(error, error_size, "cannot write the timeline in %s: %s",
				req->out_dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n_spans; i++)
		if (!spans[i].whole && spans[i].start <= spans[i].end)
			dt_timeline_window(tl, spans[i].vpid, spans[i].start,
					spans[i].end);
	struct dt_model model;
	dt_model_init(&model);
	struct dt_pass_hooks hooks = {.timeline = tl};
	int rc = dt_read_trace_hooked(decode_dir, &model, &hooks, decoders,
			error, error_size);
	if (rc == 0)
		rc = dt_timeline_close(tl, &model, error, error_size);
	else
		dt_timeline_discard(tl, &model);
	dt_model_free(&model);
	return rc;
}

int dt_run_request(void *request)
{
	const struct dt_request *req = request;
	struct dt_category_rules rules = {0};
	char error[512];
	bool unreadable;
	if (req->categories_file && dt_category_rules_load(&rules,
			req->categories_file, error, sizeof(error), &unreadable) != 0) {
		fprintf(stderr, PROG ": %s\n", error);
		return unreadable ? 2 : 1;
	}

	struct dt_model model;
	dt_model_init(&model);
	dt_record_status_read(req->trace_dir);
	struct dt_pass_outputs outputs;
	struct dt_trace_check check;
	/* a window's timeline is written by a second read (window_timeline) */
	struct dt_timeline_formats first_pass = windowed(req) ?
		(struct dt_timeline_formats){0} : dt_request_timeline(req);
	bool timeline_later = windowed(req) && req->timeline != DT_TIMELINE_NONE;
	int begun = dt_pass_outputs_begin(&outputs, req->out_dir, first_pass,
			req->range_name, error, sizeof(error)) == 0;
	if (!begun ||
	    dt_trace_check(req->trace_dir, &check, error, sizeof(error)) != 0 ||
	    dt_read_trace_hooked(check.decode_dir, &model, &outputs.hooks,
			dt_decoders_wanted(), error, sizeof(error)) != 0 ||
	    dt_pass_outputs_end(&outputs, &model, error, sizeof(error)) != 0) {
		if (begun)
			dt_trace_check_error_path(&check, req->trace_dir, error,
					sizeof(error));
		fprintf(stderr, PROG ": %s\n", error);
		if (begun)
			dt_trace_check_free(&check);
		dt_pass_outputs_discard(&outputs, &model);
		dt_pass_outputs_free(&outputs);
		dt_model_free(&model);
		dt_category_rules_free(&rules);
		return 2;
	}
	dt_progress_enter(DT_PHASE_ANALYZING);

	/* Energy reads the model's GPU kernels and calls, the analysis only
	 * the groups: the model lets go of what each step no longer needs,
	 * so a million-kernel trace is not held twice at any peak. */
	struct dt_group *groups;
	size_t n_groups = dt_groups_build_for(&model, req, &groups);
	char *failure;
	int rc = dt_groups_choose_windows(req, &model, groups, n_groups,
			&failure);
	size_t n_spans = 0;
	struct process_span *spans = rc == 0 && timeline_later ?
		process_spans(groups, n_groups, &n_spans) : NULL;
	/* a window's reports read its kernels only: those after it go now,
	 * before energy's sweep needs its own memory */
	for (size_t i = 0; i < n_groups && rc == 0 && windowed(req); i++)
		dt_group_drop_after_window(&groups[i]);
	dt_model_drop_built(&model);
	struct dt_energy *energy = dt_xcalloc(n_groups + 1, sizeof(*energy));
	for (size_t i = 0; i < n_groups && rc == 0; i++)
		dt_energy_of_group(&model, &groups[i], &energy[i]);
	dt_model_drop_calls(&model);
	if (rc == 0)
		dt_groups_analyze_windows(groups, n_groups);
	for (size_t i = 0; i < n_groups && rc == 0; i++)
		groups[i].memory = dt_memory_report_new(&groups[i],
				dt_model_find_process(&model, groups[i].vpid),
				&rules, req->link_gbps);
	for (size_t i = 0; i < n_groups && rc == 0; i++)
		groups[i].steps = dt_steps_new(&groups[i],
				dt_model_find_process(&model, groups[i].vpid),
				req->range_name);

	if (rc == 0)
		rc = dt_write_reports(req, groups, n_groups, energy, &outputs,
				&failure);
	if (failure)
		fprintf(stderr, PROG ": %s\n", failure);
	free(failure);
	if (rc != 0)
		dt_pass_outputs_discard(&outputs, &model);
	dt_pass_outputs_free(&outputs);
	for (size_t i = 0; i < n_groups; i++) {
		dt_memory_report_free(groups[i].memory);
		dt_steps_free(groups[i].steps);
		dt_energy_free(&energy[i]);
		dt_group_free(&groups[i]);
	}
	dt_category_rules_free(&rules);
	free(energy);
	free(groups);
	dt_model_free(&model);
	if (rc == 0 && spans && window_timeline(req, check.decode_dir,
			dt_decoders_wanted(), spans, n_spans, error,
			sizeof(error)) != 0) {
		fprintf(stderr, PROG ": %s\n", error);
		rc = 2;
	}
	free(spans);
	dt_trace_check_free(&check);
	return rc;
}
