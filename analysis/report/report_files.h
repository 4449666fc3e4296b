/*
 * Where a request's report goes and in what order (report_files.c): each
 * group's files (G10's, the CSV tables, the memory report, energy.csv,
 * the pass outputs, summary.txt) into OUT_DIR for one group, or into
 * OUT_DIR/pid<vpid>-dev<d>/ with index.csv and an OUT_DIR/summary.txt
 * that starts with the table across groups; and the summaries on stdout.
 * Must never analyze: the groups come in analyzed.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_FILES_H
#define DNNTRACE_ANALYSIS_REPORT_FILES_H

#include <stddef.h>

#include "analysis/derive/energy.h"
#include "analysis/derive/group.h"
#include "analysis/report/pass_outputs.h"
#include "analysis/request.h"

/* Writes the report of n_groups analyzed groups (energy[i] is group i's)
 * into req->out_dir, created if needed. 0, or 2 with a one-line reason in
 * *error (malloc'd, the caller frees it; NULL on 0). */
int dt_write_reports(const struct dt_request *req,
		const struct dt_group *groups, size_t n_groups,
		const struct dt_energy *energy,
		const struct dt_pass_outputs *outputs, char **error);

#endif
