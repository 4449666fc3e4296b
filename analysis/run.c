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

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/derive/energy.h"
#include "analysis/derive/group.h"
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
	int begun = dt_pass_outputs_begin(&outputs, req->out_dir,
			dt_request_timeline(req), req->range_name, error,
			sizeof(error)) == 0;
	if (!begun ||
	    dt_trace_check(req->trace_dir, &check, error, sizeof(error)) != 0 ||
	    dt_read_trace_hooked(check.decode_dir, &model, &outputs.hooks,
			/* a damaged trace's view is read by one graph */
			check.view_dir[0] ? 1 : dt_decoders_wanted(),
			error, sizeof(error)) != 0 ||
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
	dt_trace_check_free(&check);

	/* Energy reads the model's GPU kernels and calls, the analysis only
	 * the groups: the model lets go of what each step no longer needs,
	 * so a million-kernel trace is not held twice at any peak. */
	struct dt_group *groups;
	size_t n_groups = dt_groups_build(&model, req->granularity, &groups);
	char *failure;
	int rc = dt_groups_choose_windows(req, &model, groups, n_groups,
			&failure);
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
		dt_energy_free(&energy[i]);
		dt_group_free(&groups[i]);
	}
	dt_category_rules_free(&rules);
	free(energy);
	free(groups);
	dt_model_free(&model);
	return rc;
}
