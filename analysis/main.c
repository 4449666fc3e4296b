/*
 * dnntrace-analyze: command line of the post-processor. Parses arguments,
 * reads the trace into the model, builds and analyzes one group per
 * (process, device), and writes each group's files. Exit codes: 0 success,
 * 1 usage error, 2 unreadable input (one line on stderr). Must never
 * analyze or format anything itself.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/csv_writer.h"
#include "analysis/damage.h"
#include "analysis/energy.h"
#include "analysis/g10_writer.h"
#include "analysis/group.h"
#include "analysis/memory_report.h"
#include "analysis/model.h"
#include "analysis/pass_outputs.h"
#include "analysis/report_index.h"
#include "analysis/summary.h"
#include "analysis/supervisor.h"
#include "analysis/trace_check.h"
#include "analysis/trace_reader.h"

#define PROG "dnntrace-analyze"

struct options {
	const char *trace_dir;
	const char *out_dir;
	const char *name;
	bool force;
	bool has_window;
	size_t window_first, window_last;
	const char *range_name;      /* --range NAME[:N], or NULL */
	size_t range_occurrence;     /* N, 1-based */
	enum dt_granularity granularity;
	const char *categories_file;  /* --categories FILE, or NULL */
	double link_gbps;             /* --link-gbps */
	bool no_timeline;            /* --no-timeline */
	unsigned watchdog_s;         /* no decoding progress for this long: stop */
};

#define DEFAULT_WATCHDOG_S 30

static void usage(FILE *f)
{
	fputs("usage: " PROG " TRACE_DIR -o OUT_DIR [--kernels A:B | --range NAME[:N]]\n"
		"                 [--name NAME] [--granularity kernel|op] [--force]\n"
		"                 [--categories FILE] [--link-gbps GBPS]\n"
		"                 [--watchdog-s N]\n"
		"  TRACE_DIR      an LTTng trace written by dnntrace record\n"
		"  -o OUT_DIR     where the G10 files, CSV tables and summary go\n"
		"  --kernels A:B  analyze indices A to B (inclusive) only\n"
		"  --range NAME[:N]\n"
		"                 analyze the kernels launched inside the N-th NVTX\n"
		"                 range named NAME (N from 1, default 1), e.g. one\n"
		"                 training step\n"
		"  --granularity kernel|op\n"
		"                 one index per GPU kernel (default), or per op: one\n"
		"                 library call or launch, its kernels merged\n"
		"  --name NAME    prefix of the two .py logs (default dnntrace)\n"
		"  --force        write into OUT_DIR even if it is not empty\n"
		"  --categories FILE\n"
		"                 lines 'keyword category': a tensor whose name holds\n"
		"                 the keyword counts in that category\n"
		"                 (categories.csv; first matching line wins)\n"
		"  --link-gbps GBPS\n"
		"                 host link bandwidth for swap.csv, GB/s each way\n"
		"                 (default 64: PCIe 5.0 x16)\n"
		"  --no-timeline  do not write timeline.json (Chrome trace events)\n"
		"  --watchdog-s N give up when decoding makes no progress for N\n"
		"                 seconds (default 30, 0: never)\n"
		"  -h, --help     show this help\n", f);
}

/* Bad usage: one line on stderr (the usage text is for --help only). */
static int usage_error(const char *what)
{
	fprintf(stderr, PROG ": %s (see --help)\n", what);
	return 1;
}

static bool parse_index(const char *s, const char *end, size_t *out)
{
	if (s == end)
		return false;
	size_t v = 0;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > (SIZE_MAX - 9) / 10)
			return false;
		v = v * 10 + (size_t)(*s - '0');
	}
	*out = v;
	return true;
}

static bool parse_window(const char *arg, struct options *o)
{
	const char *colon = strchr(arg, ':');
	return colon && parse_index(arg, colon, &o->window_first) &&
		parse_index(colon + 1, colon + strlen(colon), &o->window_last) &&
		o->window_first <= o->window_last;
}

/*
 * --range NAME[:N]: N is what follows the last ':' when it is all digits,
 * so op names such as aten::add stay whole (aten::add:2 is its second
 * occurrence). N counts from 1; without it, the first occurrence.
 */
static bool parse_range(char *arg, struct options *o)
{
	o->range_name = arg;
	o->range_occurrence = 1;
	char *colon = strrchr(arg, ':');
	if (colon && colon[1] != '\0' &&
	    strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		if (!parse_index(colon + 1, colon + strlen(colon),
				&o->range_occurrence) || o->range_occurrence == 0)
			return false;
		*colon = '\0';
	}
	return o->range_name[0] != '\0';
}

/* A name becomes part of file names: keep it to a safe alphabet. */
static bool valid_name(const char *s)
{
	if (!*s || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-+", *s)))
			return false;
	return true;
}

/* 0 ok, 1 usage error, -1 help printed */
static int parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->name = "dnntrace";
	o->link_gbps = DT_DEFAULT_LINK_GBPS;
	o->watchdog_s = DEFAULT_WATCHDOG_S;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return -1;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i >= argc)
				return usage_error("-o needs a directory");
			o->out_dir = argv[i];
		} else if (strcmp(a, "--kernels") == 0) {
			if (++i >= argc || !parse_window(argv[i], o))
				return usage_error("--kernels needs A:B with A <= B");
			o->has_window = true;
		} else if (strcmp(a, "--range") == 0) {
			if (++i >= argc || !parse_range(argv[i], o))
				return usage_error("--range needs NAME or NAME:N "
						"with N >= 1");
		} else if (strcmp(a, "--granularity") == 0) {
			if (++i < argc && strcmp(argv[i], "kernel") == 0)
				o->granularity = DT_GRANULARITY_KERNEL;
			else if (i < argc && strcmp(argv[i], "op") == 0)
				o->granularity = DT_GRANULARITY_OP;
			else
				return usage_error("--granularity needs kernel or op");
		} else if (strcmp(a, "--categories") == 0) {
			if (++i >= argc || !argv[i][0])
				return usage_error("--categories needs a file");
			o->categories_file = argv[i];
		} else if (strcmp(a, "--link-gbps") == 0) {
			char *end = NULL;
			if (++i < argc)
				o->link_gbps = strtod(argv[i], &end);
			if (i >= argc || end == argv[i] || *end != '\0' ||
			    !isfinite(o->link_gbps) || !(o->link_gbps > 0))
				return usage_error("--link-gbps needs a bandwidth "
						"in GB/s > 0");
		} else if (strcmp(a, "--watchdog-s") == 0) {
			size_t n;
			if (++i >= argc || !parse_index(argv[i], argv[i] +
					strlen(argv[i]), &n) || n > 86400)
				return usage_error("--watchdog-s needs seconds "
						"(0 to 86400)");
			o->watchdog_s = (unsigned)n;
		} else if (strcmp(a, "--force") == 0) {
			o->force = true;
		} else if (strcmp(a, "--no-timeline") == 0) {
			o->no_timeline = true;
		} else if (strcmp(a, "--name") == 0) {
			if (++i >= argc || !valid_name(argv[i]))
				return usage_error("--name needs a name of letters, "
						"digits and ._-+");
			o->name = argv[i];
		} else if (a[0] == '-' && a[1] != '\0') {
			char msg[300];
			snprintf(msg, sizeof(msg), "unknown option %.200s", a);
			return usage_error(msg);
		} else if (!o->trace_dir) {
			o->trace_dir = a;
		} else {
			return usage_error("only one TRACE_DIR");
		}
	}
	if (!o->trace_dir)
		return usage_error("missing TRACE_DIR");
	if (!o->out_dir)
		return usage_error("missing -o OUT_DIR");
	if (o->has_window && o->range_name)
		return usage_error("--kernels and --range cannot be combined");
	return 0;
}

/*
 * A report never mixes with other files: OUT_DIR must be absent or empty
 * unless --force says the files in it may be replaced.
 */
static bool out_dir_is_free(const char *path)
{
	DIR *dir = opendir(path);
	if (!dir)
		return true; /* absent (or unreadable: creating it will say why) */
	bool empty = true;
	for (struct dirent *e; empty && (e = readdir(dir));)
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(dir);
	return empty;
}

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
	const struct dt_g10_lines *lines;
	const char *dir;
	const char *name;
	int which;                   /* DT_G10_* files, 0: the CSV tables */
	int rc;
	int error;
};

static void *write_job_run(void *arg)
{
	struct write_job *job = arg;
	job->rc = job->which ? dt_write_g10_files(job->group, job->lines,
			job->dir, job->name, job->which) :
		dt_write_csv_files(job->group, job->dir);
	job->error = errno;
	return NULL;
}

/* The output files are independent and, on million-kernel traces, hundreds
 * of MB: three jobs of similar size (kernels.config; tensors.config with
 * liveness_analysis.config; the CSV tables with the .py logs) run on their
 * own threads where threads can be had. */
static int write_group(const struct dt_group *g, const char *dir,
		const char *name, const struct dt_energy *energy)
{
	if (make_dirs(dir) != 0)
		return -1;
	struct dt_g10_lines lines;
	dt_g10_lines_format(g, &lines);
	struct write_job jobs[] = {
		{g, &lines, dir, name, DT_G10_KERNELS, 0, 0},
		{g, &lines, dir, name, DT_G10_TENSORS, 0, 0},
		{g, &lines, dir, name, DT_G10_LOGS, 0, 0},
		{g, &lines, dir, name, 0, 0, 0},
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
	dt_g10_lines_free(&lines);
	for (size_t i = 0; i < N_JOBS; i++) {
		if (jobs[i].rc != 0) {
			errno = jobs[i].error;
			return -1;
		}
	}
	if (g->memory && dt_memory_report_write(g->memory, g, dir) != 0)
		return -1;
	if (dt_energy_write_csv(energy, dir) != 0)
		return -1;
	char path[PATH_MAX];
	if (join_path(path, sizeof(path), dir, "summary.txt") != 0)
		return -1;
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	dt_write_summary(f, g);
	dt_energy_write_summary(f, energy);
	return fclose(f) == 0 ? 0 : -1;
}

/* --kernels A:B (or none: every kernel). A window applies to every group
 * it fits; a group with fewer kernels is analyzed whole and says so.
 * Fitting none is a usage error (1). */
static int analyze_kernels(const struct options *o, struct dt_group *groups,
		size_t n_groups)
{
	bool window_fits_some = false;
	for (size_t i = 0; i < n_groups; i++) {
		struct dt_group *g = &groups[i];
		size_t first = 0, count = g->n_kernels;
		if (o->has_window && o->window_last < g->n_kernels) {
			first = o->window_first;
			count = o->window_last - o->window_first + 1;
			window_fits_some = true;
		} else if (o->has_window) {
			g->window_misfit = true;
			g->asked_first = o->window_first;
			g->asked_last = o->window_last;
		}
		dt_group_analyze(g, first, count);
	}
	if (!o->has_window || window_fits_some)
		return 0;
	size_t most = 0;
	for (size_t i = 0; i < n_groups; i++)
		if (groups[i].n_kernels > most)
			most = groups[i].n_kernels;
	fprintf(stderr, PROG ": --kernels %zu:%zu out of range: the trace "
			"has at most %zu %s per process and device\n",
			o->window_first, o->window_last, most,
			o->granularity == DT_GRANULARITY_OP ? "ops" : "kernels");
	return 1;
}

/*
 * --range NAME:N: in each group, the kernels launched (by any thread of its
 * process) inside the N-th range named NAME of that process. Like
 * --kernels, a group where it does not occur, or launched nothing, is
 * analyzed whole and says so; a range that fits no group is a usage
 * error (1): no such range, fewer occurrences, or no kernels inside.
 */
static int analyze_range(const struct options *o, const struct dt_model *m,
		struct dt_group *groups, size_t n_groups)
{
	size_t most = 0;
	for (size_t i = 0; i < m->n_processes; i++) {
		size_t count;
		dt_process_find_range(&m->processes[i], o->range_name, 0, &count);
		if (count > most)
			most = count;
	}
	bool fits_some = false;
	for (size_t i = 0; i < n_groups; i++) {
		struct dt_group *g = &groups[i];
		const struct dt_process *p = dt_model_find_process(m, g->vpid);
		const struct dt_range *r = p ? dt_process_find_range(p,
				o->range_name, o->range_occurrence - 1, NULL) : NULL;
		g->range_name = o->range_name;
		g->range_occurrence = o->range_occurrence;
		if (r && dt_group_analyze_range(g, r->start_ns, r->end_ns)) {
			fits_some = true;
		} else {
			g->window_misfit = true;
			dt_group_analyze(g, 0, g->n_kernels);
		}
	}
	if (fits_some)
		return 0;
	if (most == 0)
		fprintf(stderr, PROG ": --range %s: no NVTX range named %s in "
				"the trace\n", o->range_name, o->range_name);
	else if (o->range_occurrence > most)
		fprintf(stderr, PROG ": --range %s:%zu: %s occurs only %zu "
				"time%s in a process\n", o->range_name,
				o->range_occurrence, o->range_name, most,
				most == 1 ? "" : "s");
	else
		fprintf(stderr, PROG ": --range %s:%zu: no kernel was launched "
				"inside it\n", o->range_name, o->range_occurrence);
	return 1;
}

/* Energy over the analyzed window's GPU time (energy.c); none without
 * kernel times. */
static void energy_of_group(const struct dt_model *m, const struct dt_group *g,
		struct dt_energy *e)
{
	const struct dt_process *p = dt_model_find_process(m, g->vpid);
	uint64_t from = UINT64_MAX, to = 0;
	for (size_t k = g->win_first; k < g->win_first + g->win_count; k++) {
		if (g->kernels[k].start < from)
			from = g->kernels[k].start;
		if (g->kernels[k].end > to)
			to = g->kernels[k].end;
	}
	if (!p || g->kernel_times_missing)
		from = UINT64_MAX, to = 0;
	dt_energy_compute(p ? p : &(const struct dt_process){0}, g->device,
			from, to, e);
}

/* The supervised child's work (supervisor.h): check, decode (writing the
 * pass outputs as it goes), analyze, write. */
static int run(void *arg)
{
	const struct options o = *(const struct options *)arg;
	struct dt_category_rules rules = {0};
	char error[512];
	bool unreadable;
	if (o.categories_file && dt_category_rules_load(&rules,
			o.categories_file, error, sizeof(error), &unreadable) != 0) {
		fprintf(stderr, PROG ": %s\n", error);
		return unreadable ? 2 : 1;
	}

	struct dt_model model;
	dt_model_init(&model);
	struct dt_pass_outputs outputs;
	struct dt_trace_check check;
	int begun = dt_pass_outputs_begin(&outputs, o.out_dir, !o.no_timeline,
			error, sizeof(error)) == 0;
	if (!begun ||
	    dt_trace_check(o.trace_dir, &check, error, sizeof(error)) != 0 ||
	    dt_read_trace_hooked(check.decode_dir, &model, &outputs.hooks,
			error, sizeof(error)) != 0 ||
	    dt_pass_outputs_end(&outputs, &model, error, sizeof(error)) != 0) {
		if (begun)
			dt_trace_check_error_path(&check, o.trace_dir, error,
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

	struct dt_group *groups;
	size_t n_groups = dt_groups_build(&model, o.granularity, &groups);
	int rc = o.range_name ? analyze_range(&o, &model, groups, n_groups) :
		analyze_kernels(&o, groups, n_groups);
	for (size_t i = 0; i < n_groups && rc == 0; i++)
		groups[i].memory = dt_memory_report_new(&groups[i],
				dt_model_find_process(&model, groups[i].vpid),
				&rules, o.link_gbps);

	struct dt_energy *energy = dt_xcalloc(n_groups + 1, sizeof(*energy));
	for (size_t i = 0; i < n_groups && rc == 0; i++)
		energy_of_group(&model, &groups[i], &energy[i]);

	if (rc == 0 && make_dirs(o.out_dir) != 0) {
		fprintf(stderr, PROG ": cannot create %s: %s\n", o.out_dir,
				strerror(errno));
		rc = 2;
	}
	FILE *all = NULL;
	if (rc == 0 && n_groups > 1) {
		char path[PATH_MAX];
		if (join_path(path, sizeof(path), o.out_dir, "summary.txt") == 0)
			all = fopen(path, "w");
		if (!all || dt_write_index_csv(o.out_dir, groups, n_groups) != 0) {
			fprintf(stderr, PROG ": cannot write %s/%s: %s\n", o.out_dir,
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
			snprintf(dir, sizeof(dir), "%s", o.out_dir) >= (int)sizeof(dir) :
			join_path(dir, sizeof(dir), o.out_dir, sub) != 0;
		if (too_long || write_group(g, dir, o.name, &energy[i]) != 0 ||
		    dt_pass_outputs_write_group(&outputs, g, dir) != 0) {
			fprintf(stderr, PROG ": cannot write results to %s: %s\n",
					dir, strerror(errno));
			rc = 2;
			break;
		}
		if (n_groups > 1)
			printf("\n== %s\n", dir);
		dt_write_summary(stdout, g);
		dt_energy_write_summary(stdout, &energy[i]);
		if (all) {
			fprintf(all, "\n== %s\n", dir);
			dt_write_summary(all, g);
			dt_energy_write_summary(all, &energy[i]);
		}
	}
	if (all && fclose(all) != 0 && rc == 0) {
		fprintf(stderr, PROG ": cannot write %s/summary.txt\n", o.out_dir);
		rc = 2;
	}
	if (n_groups == 0 && rc == 0) {
		printf("no device allocations, kernels or launches in the trace\n");
		dt_damage_write_summary(stdout);
	}
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

int main(int argc, char **argv)
{
	struct options o;
	int parsed = parse_args(argc, argv, &o);
	if (parsed != 0)
		return parsed < 0 ? 0 : 1;
	if (!o.force && !out_dir_is_free(o.out_dir)) {
		fprintf(stderr, PROG ": %s is not empty (choose a new directory, "
				"or --force to replace its files)\n", o.out_dir);
		return 1;
	}
	struct stat out_st;
	bool out_dir_existed = stat(o.out_dir, &out_st) == 0;
	int rc = dt_supervise(run, &o, PROG, o.trace_dir, o.watchdog_s);
	if (rc != 0)
		dt_pass_outputs_clean_after_crash(o.out_dir, !out_dir_existed);
	/* The parent only waited: everything it allocated is freed (the child
	 * ran the checked work). _exit skips a sanitizer build's exit-time
	 * leak scan of this second process, which doubled the cost of every
	 * run of the fuzz harness. */
	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}
