/*
 * See report_clear.h. The names are every file a report writes (the
 * writers in this directory and scripts/lib/dnntrace_plot.py); a file of
 * another name in OUT_DIR is the user's and stays.
 */
#include "analysis/report/report_clear.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const report_files[] = {
	"summary.txt", "index.csv", "kernels.config", "tensors.config",
	"liveness_analysis.config", "dnntrace_NNMemConsumptionLog.py",
	"dnntrace_TensorPeriodLog.py", "kernels.csv", "tensors.csv", "periods.csv",
	"memory.csv", "swap.csv", "categories.csv", "categories_time.csv",
	"energy.csv", "steps.csv", "gpu_time.csv", "overheads.csv", "timeline.json",
	"timeline.json.partial", "timeline.pftrace", "timeline.pftrace.partial",
	"memory_snapshot.pickle", NULL,
};

static const char *const plot_files[] = {
	"memory_over_kernels.png", "inactive_cdf.png", "inactive_vs_size.png",
	"categories.png", "overheads.png", "energy.png", NULL,
};

static bool in_list(const char *name, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

/* pid<digits>-dev<digits>: one process/device report of a multi-process one. */
/* G10's logs are named for --name: NAME_TensorPeriodLog.py. */
static bool is_g10_log(const char *name)
{
	static const char *const suffixes[] = {"_TensorPeriodLog.py", "_NNMemConsumptionLog.py"};
	size_t n = strlen(name);
	for (size_t i = 0; i < 2; i++) {
		size_t m = strlen(suffixes[i]);
		if (n > m && strcmp(name + n - m, suffixes[i]) == 0)
			return true;
	}
	return false;
}

static bool is_group_dir(const char *name)
{
	if (strncmp(name, "pid", 3) != 0)
		return false;
	const char *p = name + 3;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (strncmp(p, "-dev", 4) != 0)
		return false;
	p += 4;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0';
}

static int clear_dir(const char *dir, int depth, char *error, size_t error_size)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		snprintf(error, error_size, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		struct stat st;
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISREG(st.st_mode) && (in_list(e->d_name, report_files) ||
				is_g10_log(e->d_name))) {
			if (unlink(path) != 0)
				rc = -1;
		} else if (S_ISDIR(st.st_mode) && strcmp(e->d_name, "plots") == 0) {
			DIR *plots = opendir(path);
			for (struct dirent *p; plots && (p = readdir(plots));) {
				char png[PATH_MAX];
				if (in_list(p->d_name, plot_files) &&
				    snprintf(png, sizeof(png), "%s/%s", path, p->d_name) <
						(int)sizeof(png) && unlink(png) != 0)
					rc = -1;
			}
			if (plots)
				closedir(plots);
			rmdir(path);   /* only when nothing of the user's is left */
		} else if (S_ISDIR(st.st_mode) && depth == 0 && is_group_dir(e->d_name)) {
			rc = clear_dir(path, depth + 1, error, error_size);
			rmdir(path);
		}
		if (rc != 0 && !error[0])
			snprintf(error, error_size, "cannot remove %s: %s", path, strerror(errno));
	}
	closedir(d);
	return rc;
}

int dt_report_clear(const char *out_dir, char *error, size_t error_size)
{
	error[0] = '\0';
	return clear_dir(out_dir, 0, error, error_size);
}

int dt_report_out_dir_check(const char *out_dir, char *error, size_t error_size)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s", out_dir) >= (int)sizeof(path)) {
		snprintf(error, error_size, "%s: path too long", out_dir);
		return -1;
	}
	/* the directory itself, or the nearest ancestor that exists */
	for (bool first = true;; first = false) {
		struct stat st;
		if (stat(path, &st) == 0) {
			if (!S_ISDIR(st.st_mode)) {
				snprintf(error, error_size, "%s exists and is not a directory",
						path);
				return -1;
			}
			if (access(path, W_OK | X_OK) != 0) {
				snprintf(error, error_size, "cannot write into %s: %s",
						path, strerror(errno));
				return -1;
			}
			return 0;
		}
		if (errno != ENOENT) {
			snprintf(error, error_size, "cannot use %s: %s", path, strerror(errno));
			return -1;
		}
		(void)first;
		char *slash = strrchr(path, '/');
		if (!slash) {
			snprintf(path, sizeof(path), ".");
		} else if (slash == path) {
			path[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
}
