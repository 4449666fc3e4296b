/*
 * dnntrace-analyze: the command line of the post-processor. Parses the
 * arguments into a request (request.h), refuses an OUT_DIR that holds
 * files (unless --force), and runs the request (run.c) in the supervised
 * child (supervisor.c). Exit codes: 0 success, 1 usage error, 2
 * unreadable input, 3 internal error (one line on stderr). Must never
 * analyze, decide a window or write a report itself: run.c and the
 * analysis files do.
 */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report/pass_outputs.h"
#include "analysis/report/report_clear.h"
#include "analysis/request.h"
#include "analysis/run.h"
#include "analysis/supervisor.h"
#include "dnntrace_version.h"

#define PROG DT_ANALYZE_PROG

static void usage(FILE *f)
{
	fputs("usage: " PROG " TRACE_DIR -o OUT_DIR [--kernels A:B | --range NAME[:N]]\n"
		"                 [--name NAME] [--granularity kernel|op] [--force]\n"
		"                 [--categories FILE] [--link-gbps GBPS]\n"
		"                 [--timeline auto|both|json|pftrace|none]\n"
		"                 [--no-timeline] [--snapshot-events N] [--watchdog-s N]\n"
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
		"  --timeline MODE\n"
		"                 the timeline files: timeline.pftrace (Perfetto's\n"
		"                 protobuf) and timeline.json (Chrome trace events\n"
		"                 in the PyTorch profiler's conventions, for HTA);\n"
		"                 auto (default): the .pftrace, and the .json too\n"
		"                 unless it passes 1000000 events (auto:N: N);\n"
		"                 both, json, pftrace, or none\n"
		"  --no-timeline  the same as --timeline none\n"
		"  --snapshot-events N\n"
		"                 memory_snapshot.pickle keeps the last N allocator\n"
		"                 events (default 100000, 0: all)\n"
		"  --watchdog-s N give up when decoding makes no progress for N\n"
		"                 seconds (default 30, 0: never)\n"
		"  -h, --help     show this help\n"
		"  -V, --version  print the version\n", f);
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

static bool parse_window(const char *arg, struct dt_request *req)
{
	const char *colon = strchr(arg, ':');
	return colon && parse_index(arg, colon, &req->window_first) &&
		parse_index(colon + 1, colon + strlen(colon), &req->window_last) &&
		req->window_first <= req->window_last;
}

/*
 * --range NAME[:N]: N is what follows the last ':' when it is all digits,
 * so op names such as aten::add stay whole (aten::add:2 is its second
 * occurrence). N counts from 1; without it, the first occurrence.
 */
static bool parse_range(char *arg, struct dt_request *req)
{
	req->range_name = arg;
	req->range_occurrence = 1;
	char *colon = strrchr(arg, ':');
	if (colon && colon[1] != '\0' &&
	    strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		if (!parse_index(colon + 1, colon + strlen(colon),
				&req->range_occurrence) || req->range_occurrence == 0)
			return false;
		*colon = '\0';
	}
	return req->range_name[0] != '\0';
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
static int parse_args(int argc, char **argv, struct dt_request *req)
{
	*req = dt_request_defaults();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return -1;
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			puts(PROG " " DNNTRACE_VERSION);
			return -1;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i >= argc)
				return usage_error("-o needs a directory");
			req->out_dir = argv[i];
		} else if (strcmp(a, "--kernels") == 0) {
			if (++i >= argc || !parse_window(argv[i], req))
				return usage_error("--kernels needs A:B with A <= B");
			req->has_window = true;
		} else if (strcmp(a, "--range") == 0) {
			if (++i >= argc || !parse_range(argv[i], req))
				return usage_error("--range needs NAME or NAME:N "
						"with N >= 1");
		} else if (strcmp(a, "--granularity") == 0) {
			if (++i < argc && strcmp(argv[i], "kernel") == 0)
				req->granularity = DT_GRANULARITY_KERNEL;
			else if (i < argc && strcmp(argv[i], "op") == 0)
				req->granularity = DT_GRANULARITY_OP;
			else
				return usage_error("--granularity needs kernel or op");
		} else if (strcmp(a, "--categories") == 0) {
			if (++i >= argc || !argv[i][0])
				return usage_error("--categories needs a file");
			req->categories_file = argv[i];
		} else if (strcmp(a, "--link-gbps") == 0) {
			char *end = NULL;
			if (++i < argc)
				req->link_gbps = strtod(argv[i], &end);
			if (i >= argc || end == argv[i] || *end != '\0' ||
			    !isfinite(req->link_gbps) || !(req->link_gbps > 0))
				return usage_error("--link-gbps needs a bandwidth "
						"in GB/s > 0");
		} else if (strcmp(a, "--watchdog-s") == 0) {
			size_t n;
			if (++i >= argc || !parse_index(argv[i], argv[i] +
					strlen(argv[i]), &n) || n > 86400)
				return usage_error("--watchdog-s needs seconds "
						"(0 to 86400)");
			req->watchdog_s = (unsigned)n;
		} else if (strcmp(a, "--snapshot-events") == 0) {
			if (++i >= argc || !parse_index(argv[i], argv[i] +
					strlen(argv[i]), &req->snapshot_events))
				return usage_error("--snapshot-events needs a count "
						"(0: all)");
		} else if (strcmp(a, "--force") == 0) {
			req->force = true;
		} else if (strcmp(a, "--no-timeline") == 0) {
			req->timeline = DT_TIMELINE_NONE;
		} else if (strcmp(a, "--timeline") == 0) {
			static const char *const modes[] = {"auto", "both",
				"json", "pftrace", "none"};
			const char *m = ++i < argc ? argv[i] : "";
			size_t k = 0;
			while (k < 5 && strcmp(m, modes[k]) != 0)
				k++;
			size_t n;
			if (k == 5 && strncmp(m, "auto:", 5) == 0 &&
			    parse_index(m + 5, m + strlen(m), &n) && n > 0) {
				k = DT_TIMELINE_AUTO;
				req->json_max_events = n;
			}
			if (k == 5)
				return usage_error("--timeline needs auto, auto:N, "
						"both, json, pftrace or none");
			req->timeline = (enum dt_timeline_mode)k;
		} else if (strcmp(a, "--name") == 0) {
			if (++i >= argc || !valid_name(argv[i]))
				return usage_error("--name needs a name of letters, "
						"digits and ._-+");
			req->name = argv[i];
		} else if (a[0] == '-' && a[1] != '\0') {
			char msg[300];
			snprintf(msg, sizeof(msg), "unknown option %.200s", a);
			return usage_error(msg);
		} else if (!req->trace_dir) {
			req->trace_dir = a;
		} else {
			return usage_error("only one TRACE_DIR");
		}
	}
	if (!req->trace_dir)
		return usage_error("missing TRACE_DIR");
	if (!req->out_dir)
		return usage_error("missing -o OUT_DIR");
	if (req->has_window && req->range_name)
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

int main(int argc, char **argv)
{
	struct dt_request req;
	int parsed = parse_args(argc, argv, &req);
	if (parsed != 0)
		return parsed < 0 ? 0 : 1;
	char out_error[512];
	/* before any decoding: a report that cannot be written is said now */
	if (dt_report_out_dir_check(req.out_dir, out_error, sizeof(out_error)) != 0) {
		fprintf(stderr, PROG ": %s\n", out_error);
		return 1;
	}
	if (!req.force && !out_dir_is_free(req.out_dir)) {
		fprintf(stderr, PROG ": %s is not empty (choose a new directory, "
				"or --force to replace its files)\n", req.out_dir);
		return 1;
	}
	/* --force replaces the previous report whole, not file by file */
	if (req.force && dt_report_clear(req.out_dir, out_error, sizeof(out_error)) != 0) {
		fprintf(stderr, PROG ": %s\n", out_error);
		return 1;
	}
	struct stat out_st;
	bool out_dir_existed = stat(req.out_dir, &out_st) == 0;
	int rc = dt_supervise(dt_run_request, &req, PROG, req.trace_dir,
			req.watchdog_s);
	if (rc != 0)
		dt_pass_outputs_clean_after_crash(req.out_dir, !out_dir_existed);
	/* The parent only waited: everything it allocated is freed (the child
	 * ran the checked work). _exit skips a sanitizer build's exit-time
	 * leak scan of this second process, which doubled the cost of every
	 * run of the fuzz harness. */
	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}
