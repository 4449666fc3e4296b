/*
 * Splitting a trace directory's stream files among decoders
 * (stream_split.h): largest file first, each to the decoder with the
 * fewest bytes so far. Must never write under the trace directory.
 */
#include "analysis/decode/stream_split.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/decode/trace_finder.h"
#include "analysis/supervisor.h"
#include "analysis/util.h"

#define MAX_DECODERS 64

size_t dt_decoders_wanted(void)
{
	const char *env = getenv("DNNTRACE_DECODERS");
	if (env && env[0]) {
		char *end;
		long n = strtol(env, &end, 10);
		if (*end == '\0' && n >= 1 && n <= MAX_DECODERS)
			return (size_t)n;
	}
	cpu_set_t set;
	size_t n = 1;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = (size_t)CPU_COUNT(&set);
	return n < 1 ? 1 : n > 8 ? 8 : n;
}

struct stream_file {
	size_t trace;                /* index into the trace directories */
	char *name;
	off_t size;
	size_t decoder;
};

static int larger_first(const void *a, const void *b)
{
	const struct stream_file *x = a, *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int link_to(const char *target_dir, const char *name,
		const char *view_dir, const char *as)
{
	char target[PATH_MAX * 2], link[PATH_MAX * 2];
	if (snprintf(target, sizeof(target), "%s/%s", target_dir, name) >=
			(int)sizeof(target) ||
	    snprintf(link, sizeof(link), "%s/%s", view_dir, as ? as : name) >=
			(int)sizeof(link))
		return -1;
	return symlink(target, link);
}

/* Decoder d's view of trace k: its metadata, its share of the stream
 * files, their indexes (when the trace has them). */
static int make_view(const char *view, const char *trace_dir,
		const struct stream_file *files, size_t n_files, size_t k,
		size_t d)
{
	char index_view[PATH_MAX + 80];
	bool index_made = false;
	if (mkdir(view, 0700) != 0 || link_to(trace_dir, "metadata", view,
			NULL) != 0)
		return -1;
	for (size_t i = 0; i < n_files; i++) {
		if (files[i].trace != k || files[i].decoder != d)
			continue;
		if (link_to(trace_dir, files[i].name, view, NULL) != 0)
			return -1;
		char idx[PATH_MAX * 2], index_dir[PATH_MAX + 8];
		struct stat st;
		if (snprintf(index_dir, sizeof(index_dir), "%s/index", trace_dir) >=
				(int)sizeof(index_dir) ||
		    snprintf(idx, sizeof(idx), "%s/%s.idx", index_dir,
				files[i].name) >= (int)sizeof(idx))
			return -1;
		if (stat(idx, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (snprintf(index_view, sizeof(index_view), "%s/index", view) >=
				(int)sizeof(index_view))
			return -1;
		if (!index_made && mkdir(index_view, 0700) != 0)
			return -1;
		index_made = true;
		char idx_name[PATH_MAX];
		if (snprintf(idx_name, sizeof(idx_name), "%s.idx", files[i].name) >=
				(int)sizeof(idx_name))
			return -1;
		if (link_to(index_dir, idx_name, index_view, NULL) != 0)
			return -1;
	}
	return 0;
}

int dt_stream_split(const char *trace_dir, size_t n_wanted,
		struct dt_stream_split *s)
{
	memset(s, 0, sizeof(*s));
	s->n_decoders = 1;
	char **dirs = NULL;
	size_t n_dirs = 0;
	if (n_wanted < 2)
		return 0;
	if (dt_find_trace_dirs(trace_dir, &dirs, &n_dirs) != 0) {
		dt_trace_dirs_free(dirs, n_dirs);
		return 0;
	}
	struct stream_file *files = NULL;
	size_t n_files = 0, cap_files = 0;
	char **absolute = dt_xcalloc(n_dirs + 1, sizeof(char *));
	for (size_t k = 0; k < n_dirs; k++) {
		absolute[k] = realpath(dirs[k], NULL);
		if (!absolute[k])
			continue;
		struct dt_stream_file *listed = NULL;
		size_t n_listed = 0, cap_listed = 0;
		dt_list_stream_files(absolute[k], &listed, &n_listed, &cap_listed);
		for (size_t i = 0; i < n_listed; i++)
			*DT_PUSH_SLOT(files, n_files, cap_files) =
				(struct stream_file){k, listed[i].name,
					listed[i].size, 0};
		free(listed);
	}
	size_t n = n_wanted < n_files ? n_wanted : n_files;
	int rc = 0;
	if (n >= 2) {
		dt_sort(files, n_files, sizeof(*files), larger_first);
		off_t *load = dt_xcalloc(n, sizeof(off_t));
		for (size_t i = 0; i < n_files; i++) {
			size_t best = 0;
			for (size_t d = 1; d < n; d++)
				if (load[d] < load[best])
					best = d;
			files[i].decoder = best;
			load[best] += files[i].size;
		}
		free(load);
		const char *tmp = getenv("TMPDIR");
		/* named as the check's view, so that the supervising parent
		 * removes it too if this process dies */
		if (snprintf(s->root, sizeof(s->root), "%s/dnntrace-view.XXXXXX",
				tmp && tmp[0] == '/' ? tmp : "/tmp") >=
				(int)sizeof(s->root) || !mkdtemp(s->root)) {
			s->root[0] = '\0';
			rc = -1;
		}
		if (rc == 0 && dt_progress_shared &&
		    !dt_progress_shared->scratch_dir[0])
			snprintf(dt_progress_shared->scratch_dir,
					sizeof(dt_progress_shared->scratch_dir),
					"%s", s->root);
		s->inputs = dt_xcalloc(n, sizeof(char **));
		s->n_inputs = dt_xcalloc(n, sizeof(size_t));
		s->n_decoders = n;
		for (size_t d = 0; rc == 0 && d < n; d++) {
			for (size_t k = 0; rc == 0 && k < n_dirs; k++) {
				bool any = false;
				for (size_t i = 0; i < n_files && !any; i++)
					any = files[i].trace == k &&
						files[i].decoder == d;
				if (!any || !absolute[k])
					continue;
				char view[PATH_MAX + 64];
				if (snprintf(view, sizeof(view), "%s/d%zut%zu",
						s->root, d, k) >= (int)sizeof(view) ||
				    make_view(view, absolute[k], files, n_files, k,
						d) != 0) {
					rc = -1;
					break;
				}
				s->inputs[d] = dt_xrealloc(s->inputs[d],
						(s->n_inputs[d] + 1) * sizeof(char *));
				s->inputs[d][s->n_inputs[d]++] = dt_xstrdup(view);
			}
		}
		if (rc != 0)
			dt_stream_split_free(s);
	}
	for (size_t i = 0; i < n_files; i++)
		free(files[i].name);
	free(files);
	for (size_t k = 0; k < n_dirs; k++)
		free(absolute[k]);
	free(absolute);
	dt_trace_dirs_free(dirs, n_dirs);
	return rc;
}

void dt_stream_split_free(struct dt_stream_split *s)
{
	for (size_t d = 0; s->inputs && d < s->n_decoders; d++) {
		for (size_t i = 0; i < s->n_inputs[d]; i++)
			free(s->inputs[d][i]);
		free(s->inputs[d]);
	}
	free(s->inputs);
	free(s->n_inputs);
	if (s->root[0]) {
		dt_remove_tree(s->root);
		if (dt_progress_shared &&
		    strcmp(dt_progress_shared->scratch_dir, s->root) == 0)
			dt_progress_shared->scratch_dir[0] = '\0';
	}
	memset(s, 0, sizeof(*s));
	s->n_decoders = 1;
}
