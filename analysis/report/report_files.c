/*
 * The report of a request on disk and on stdout (report_files.h): the
 * directory layout (one group in OUT_DIR, several in pid<vpid>-dev<d>/
 * with index.csv), each group's files written by their writers (the big
 * ones on threads), and the summaries in order. Must never analyze or
 * format a file's content itself: the writers do.
 */
#include "analysis/report/report_files.h"
#include "analysis/decode/record_status.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/report/csv_writer.h"
#include "analysis/report/steps_csv.h"
#include "analysis/decode/damage.h"
#include "analysis/report/g10_writer.h"
#include "analysis/report/memory_report.h"
#include "analysis/report/memory_snapshot.h"
#include "analysis/report/report_index.h"
#include "analysis/report/summary.h"
#include "analysis/util.h"
#include "analysis/report/energy_report.h"

static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	struct stat st;
	if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* dir + "/" + file into buf; -1 (ENAMETOOLONG) when it does not fit. */
static int join_path(char *buf, size_t size, const char *dir, const char *file)
{
	int n = snprintf(buf, size, "%s/%s", dir, file);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

struct write_job {
	const struct dt_group *group;
	const char *dir;
	const char *name;
	int which;                   /* DT_G10_* files, 0: the CSV tables */
	int rc;
	int error;
};

static void *write_job_run(void *arg)
{
	struct write_job *job = arg;
	job->rc = job->which ? dt_write_g10_files(job->group, job->dir,
			job->name, job->which) :
		dt_write_csv_files(job->group, job->dir);
	job->error = errno;
	return NULL;
}

/* The output files are independent and, on million-kernel traces, hundreds
 * of MB: three jobs of similar size (kernels.config; tensors.config with
 * liveness_analysis.config; the CSV tables with the .py logs) run on their
 * own threads where threads can be had. */
static int write_group(const struct dt_group *g, const char *dir,
		const struct dt_request *req, const struct dt_energy *energy)
{
	if (make_dirs(dir) != 0)
		return -1;
	struct write_job jobs[] = {
		{g, dir, req->name, DT_G10_KERNELS, 0, 0},
		{g, dir, req->name, DT_G10_TENSORS, 0, 0},
		{g, dir, req->name, DT_G10_LOGS, 0, 0},
		{g, dir, req->name, 0, 0, 0},
	};
	enum { N_JOBS = sizeof(jobs) / sizeof(jobs[0]), N_THREADED = 2 };
	pthread_t threads[N_THREADED];
	bool threaded[N_THREADED];
	for (size_t i = 0; i < N_THREADED; i++)
		threaded[i] = pthread_create(&threads[i], NULL, write_job_run,
				&jobs[i]) == 0;
	for (size_t i = 0; i < N_JOBS; i++)
		if (i >= N_THREADED || !threaded[i])
			write_job_run(&jobs[i]);
	for (size_t i = 0; i < N_THREADED; i++)
		if (threaded[i])
			pthread_join(threads[i], NULL);
	for (size_t i = 0; i < N_JOBS; i++) {
		if (jobs[i].rc != 0) {
			errno = jobs[i].error;
			return -1;
		}
	}
	if (g->memory && dt_memory_report_write(g->memory, g, dir) != 0)
		return -1;
	if (dt_memory_snapshot_write(g, dir, req->snapshot_events) != 0)
		return -1;
	if (dt_energy_write_csv(energy, dir) != 0)
		return -1;
	if (dt_steps_write_csv(g->steps, dir) != 0)
		return -1;
	char path[PATH_MAX];
	if (join_path(path, sizeof(path), dir, "summary.txt") != 0)
		return -1;
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	dt_write_summary(f, g, req);
	dt_energy_write_summary(f, energy);
	dt_write_summary_version(f);
	return fclose(f) == 0 ? 0 : -1;
}

int dt_write_reports(const struct dt_request *req,
		const struct dt_group *groups, size_t n_groups,
		const struct dt_energy *energy,
		const struct dt_pass_outputs *outputs, char **error)
{
	*error = NULL;
	if (make_dirs(req->out_dir) != 0) {
		*error = dt_xasprintf("cannot create %s: %s", req->out_dir,
				strerror(errno));
		return 2;
	}
	int rc = 0;
	FILE *all = NULL;
	if (n_groups > 1) {
		char path[PATH_MAX];
		if (join_path(path, sizeof(path), req->out_dir, "summary.txt") == 0)
			all = fopen(path, "w");
		if (!all || dt_write_index_csv(req->out_dir, groups, n_groups) != 0) {
			*error = dt_xasprintf("cannot write %s/%s: %s", req->out_dir,
					all ? "index.csv" : "summary.txt",
					strerror(errno));
			rc = 2;
		} else {
			/* the table across processes and devices, then each one */
			dt_write_report_index(stdout, groups, n_groups);
			dt_write_report_index(all, groups, n_groups);
		}
	}
	for (size_t i = 0; i < n_groups && rc == 0; i++) {
		const struct dt_group *g = &groups[i];
		char dir[PATH_MAX], sub[64];
		dt_group_subdir(g, sub, sizeof(sub));
		int too_long = n_groups == 1 ?
			snprintf(dir, sizeof(dir), "%s", req->out_dir) >= (int)sizeof(dir) :
			join_path(dir, sizeof(dir), req->out_dir, sub) != 0;
		if (too_long || write_group(g, dir, req, &energy[i]) != 0 ||
		    dt_pass_outputs_write_group(outputs, g, dir) != 0) {
			*error = dt_xasprintf("cannot write results to %s: %s",
					dir, strerror(errno));
			rc = 2;
			break;
		}
		if (n_groups > 1)
			printf("\n== %s\n", dir);
		dt_write_summary(stdout, g, req);
		dt_energy_write_summary(stdout, &energy[i]);
		dt_write_summary_version(stdout);
		if (all) {
			fprintf(all, "\n== %s\n", dir);
			dt_write_summary(all, g, req);
			dt_energy_write_summary(all, &energy[i]);
			dt_write_summary_version(all);
		}
	}
	if (all && fclose(all) != 0 && rc == 0) {
		*error = dt_xasprintf("cannot write %s/summary.txt", req->out_dir);
		rc = 2;
	}
	if (n_groups == 0 && rc == 0) {
		/* printed, and the report's summary.txt says the same */
		char path[PATH_MAX];
		FILE *f = join_path(path, sizeof(path), req->out_dir, "summary.txt") == 0 ?
			fopen(path, "w") : NULL;
		FILE *outs[2] = {stdout, f};
		for (int i = 0; i < 2 && outs[i]; i++) {
			fputs(dt_record_status.present && !dt_record_status_nothing_traced() ?
					"no CUDA allocation, copy or launch is left in the trace\n" :
					"no CUDA allocation, copy or launch was traced\n", outs[i]);
			dt_record_status_write_summary(outs[i]);
			dt_damage_write_summary(outs[i]);
		}
		if (!f || fclose(f) != 0) {
			*error = dt_xasprintf("cannot write %s/summary.txt", req->out_dir);
			rc = 2;
		}
	}
	return rc;
}
