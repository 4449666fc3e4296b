/*
 * Checks of the trace files before decoding, and the view libbabeltrace2
 * reads when some of them are damaged (trace_check.h). Must never write
 * under TRACE_DIR and never print: damage goes to damage.h, failures back
 * as one line.
 */
#include "analysis/decode/trace_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/decode/damage.h"
#include "analysis/decode/metadata_check.h"
#include "analysis/decode/packet_copy.h"
#include "analysis/decode/stream_scan.h"
#include "analysis/decode/trace_finder.h"
#include "analysis/supervisor.h"
#include "analysis/util.h"

struct stream {
	char *name;
	struct dt_stream_scan scan;
	bool readable;
	bool skip;           /* a duplicate, or nothing usable in it */
};

struct trace {
	char *dir;           /* absolute or as given */
	const char *rel;     /* below TRACE_DIR, for messages */
	struct dt_metadata md;
	bool usable;
	bool needs_view;
	struct stream *streams;
	size_t n_streams, cap_streams;
};

static struct {
	struct trace *items;
	size_t n, cap;
} found;

static void list_streams(struct trace *t)
{
	struct dt_stream_file *files = NULL;
	size_t n = 0, cap = 0;
	dt_list_stream_files(t->dir, &files, &n, &cap);
	for (size_t i = 0; i < n; i++) {
		struct stream *s = DT_PUSH_SLOT(t->streams, t->n_streams,
				t->cap_streams);
		memset(s, 0, sizeof(*s));
		s->name = files[i].name;   /* the stream owns it now */
	}
	free(files);
}

static bool has_stream(const struct trace *t, const char *name)
{
	for (size_t i = 0; i < t->n_streams; i++)
		if (strcmp(t->streams[i].name, name) == 0)
			return true;
	return false;
}

/* LTTng names stream files CHANNEL_N, N from 0 for every CPU, each with
 * index/CHANNEL_N.idx: an index without its file, or a number missing
 * below the highest, is a removed stream file. */
static void find_missing(struct trace *t, const char *display_dir)
{
	char index_dir[PATH_MAX];
	snprintf(index_dir, sizeof(index_dir), "%s/index", t->dir);
	DIR *d = opendir(index_dir);
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			size_t len = strlen(e->d_name);
			if (e->d_name[0] == '.' || len < 5 ||
			    strcmp(e->d_name + len - 4, ".idx") != 0)
				continue;
			char name[256];
			snprintf(name, sizeof(name), "%.*s", (int)(len - 4),
					e->d_name);
			if (!has_stream(t, name)) {
				dt_damage_note(DT_DAMAGE_STREAM_MISSING, 1,
						"%s/%s: missing (its index is there)",
						display_dir, name);
				t->needs_view = true;
			}
		}
		closedir(d);
	}
	for (size_t i = 0; i < t->n_streams; i++) {
		const char *name = t->streams[i].name;
		const char *us = strrchr(name, '_');
		char *end;
		if (!us || us[1] == '\0')
			continue;
		unsigned long n = strtoul(us + 1, &end, 10);
		if (*end || n > 4096)
			continue;
		for (unsigned long k = 0; k < n; k++) {
			char other[300];
			snprintf(other, sizeof(other), "%.*s_%lu", (int)(us - name),
					name, k);
			char idx[PATH_MAX];
			struct stat st;
			snprintf(idx, sizeof(idx), "%s/index/%s.idx", t->dir, other);
			/* reported above when its index is there */
			if (!has_stream(t, other) && stat(idx, &st) != 0) {
				dt_damage_note(DT_DAMAGE_STREAM_MISSING, 1,
						"%s/%s: missing (%s exists)",
						display_dir, other, name);
			}
		}
	}
}

static void scan_streams(struct trace *t, const char *display_dir)
{
	/* the first sane packet of any file gives the step over bad ones */
	uint64_t hint = 0;
	for (size_t i = 0; i < t->n_streams && hint == 0; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", t->dir, t->streams[i].name);
		hint = dt_stream_first_packet_size(path, t->md.uuid);
	}
	for (size_t i = 0; i < t->n_streams; i++) {
		struct stream *s = &t->streams[i];
		char path[PATH_MAX], display[PATH_MAX + 300];
		snprintf(path, sizeof(path), "%s/%s", t->dir, s->name);
		snprintf(display, sizeof(display), "%s/%s", display_dir, s->name);
		s->readable = dt_stream_scan(path, display, t->md.uuid, hint,
				&s->scan) == 0;
		if (!s->readable) {
			dt_damage_note(DT_DAMAGE_STREAM_MISSING, 1,
					"%s: unreadable", display);
			s->skip = true;
			t->needs_view = true;
		}
	}
	for (size_t i = 0; i < t->n_streams; i++) {
		struct stream *s = &t->streams[i];
		if (s->skip)
			continue;
		if (!s->scan.whole)
			t->needs_view = true;
		if (s->scan.n_kept == 0 && s->scan.file_size > 0) {
			s->skip = true;
			t->needs_view = true;
		}
		/* two files of one stream: the first (by name) is kept */
		for (size_t j = 0; j < i && s->scan.has_ids; j++) {
			const struct stream *o = &t->streams[j];
			if (!o->skip && o->scan.has_ids &&
			    o->scan.stream_id == s->scan.stream_id &&
			    o->scan.instance_id == s->scan.instance_id) {
				dt_damage_note(DT_DAMAGE_STREAM_DUPLICATE, 1,
						"%s/%s: repeats the stream of %s",
						display_dir, s->name, o->name);
				s->skip = true;
				t->needs_view = true;
				break;
			}
		}
		if (s->skip || s->scan.file_size == 0)
			continue;
		char idx[PATH_MAX];
		uint64_t beyond = 0;
		snprintf(idx, sizeof(idx), "%s/index/%s.idx", t->dir, s->name);
		if (access(idx, F_OK) == 0 &&
		    !dt_stream_index_agrees(idx, &s->scan, &beyond)) {
			t->needs_view = true;   /* decode without the index */
			if (beyond > 0 && s->scan.whole)
				dt_damage_note(DT_DAMAGE_STREAM_SHORT, 1,
						"%s/%s: ends early (its index lists "
						"%llu more packets)", display_dir,
						s->name, (unsigned long long)beyond);
		}
	}
}

static int write_file(const char *to, const char *text, size_t len)
{
	FILE *f = fopen(to, "wbx");
	if (!f)
		return -1;
	size_t put = fwrite(text, 1, len, f);
	return fclose(f) == 0 && put == len ? 0 : -1;
}

static int absolute(const char *path, char *out, size_t size)
{
	if (path[0] == '/')
		return snprintf(out, size, "%s", path) < (int)size ? 0 : -1;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	return snprintf(out, size, "%s/%s", cwd, path) < (int)size ? 0 : -1;
}

/* The view: tN/ per usable trace. Metadata is written as plain TSDL text
 * (libbabeltrace2 reads either form). */
static int build_view(struct dt_trace_check *c)
{
	const char *tmp = getenv("TMPDIR");
	char templ[PATH_MAX];
	if (snprintf(templ, sizeof(templ), "%s/dnntrace-view.XXXXXX",
			tmp && tmp[0] == '/' ? tmp : "/tmp") >= (int)sizeof(templ) ||
	    !mkdtemp(templ))
		return -1;
	snprintf(c->view_dir, sizeof(c->view_dir), "%s", templ);
	if (dt_progress_shared)
		snprintf(dt_progress_shared->scratch_dir,
				sizeof(dt_progress_shared->scratch_dir), "%s", templ);
	for (size_t k = 0; k < found.n; k++) {
		struct trace *t = &found.items[k];
		if (!t->usable)
			continue;
		char dir[PATH_MAX], path[PATH_MAX + 300], from[PATH_MAX + 300];
		if (snprintf(dir, sizeof(dir), "%s/t%zu", templ, k) >=
				(int)sizeof(dir))
			return -1;
		snprintf(path, sizeof(path), "%s/metadata", dir);
		if (mkdir(dir, 0700) != 0 ||
		    write_file(path, t->md.text, t->md.len) != 0)
			return -1;
		for (size_t i = 0; i < t->n_streams; i++) {
			struct stream *s = &t->streams[i];
			if (s->skip)
				continue;
			char target[PATH_MAX];
			snprintf(path, sizeof(path), "%s/%s", dir, s->name);
			snprintf(from, sizeof(from), "%s/%s", t->dir, s->name);
			if (s->readable && !s->scan.whole) {
				if (dt_copy_packets(from, path, s->scan.kept,
						s->scan.n_kept) != 0)
					return -1;
			} else if (absolute(from, target, sizeof(target)) != 0 ||
					symlink(target, path) != 0) {
				return -1;
			}
		}
	}
	snprintf(c->decode_dir, sizeof(c->decode_dir), "%s", templ);
	return 0;
}

static void free_found(void)
{
	for (size_t k = 0; k < found.n; k++) {
		struct trace *t = &found.items[k];
		for (size_t i = 0; i < t->n_streams; i++) {
			free(t->streams[i].name);
			dt_stream_scan_free(&t->streams[i].scan);
		}
		free(t->streams);
		dt_metadata_free(&t->md);
		free(t->dir);
	}
	free(found.items);
	memset(&found, 0, sizeof(found));
}

int dt_trace_check(const char *trace_dir, struct dt_trace_check *c,
		char *error, size_t error_size)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->decode_dir, sizeof(c->decode_dir), "%s", trace_dir);
	dt_progress_enter(DT_PHASE_CHECKING);
	struct stat st;
	/* not a directory, no metadata: the reader says so */
	char **dirs = NULL;
	size_t n_dirs = 0;
	if (stat(trace_dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    dt_find_trace_dirs(trace_dir, &dirs, &n_dirs) != 0 || n_dirs == 0) {
		dt_trace_dirs_free(dirs, n_dirs);
		return 0;
	}
	for (size_t k = 0; k < n_dirs; k++) {
		struct trace *t = DT_PUSH_SLOT(found.items, found.n, found.cap);
		memset(t, 0, sizeof(*t));
		t->dir = dirs[k];   /* the trace owns it now */
	}
	free(dirs);
	size_t prefix = strlen(trace_dir);
	bool any_usable = false, view = false;
	char first_error[1024] = "";
	for (size_t k = 0; k < found.n; k++) {
		struct trace *t = &found.items[k];
		t->rel = t->dir + (strncmp(t->dir, trace_dir, prefix) == 0 ?
				prefix : 0);
		char display[PATH_MAX];
		snprintf(display, sizeof(display), "%s%s", trace_dir, t->rel);
		char why[200], path[PATH_MAX + 16];
		snprintf(path, sizeof(path), "%s/metadata", t->dir);
		if (dt_metadata_check(path, &t->md, why, sizeof(why)) != 0) {
			dt_damage_note(DT_DAMAGE_TRACE_SKIPPED, 1, "%s/metadata: %s",
					display, why);
			if (!first_error[0])
				snprintf(first_error, sizeof(first_error),
						"%.200s/metadata: truncated or corrupt "
						"metadata (%s)", display, why);
			view = true;
			continue;
		}
		t->usable = true;
		any_usable = true;
		if (!t->md.lttng_layout)
			continue;   /* not LTTng-UST's layout: decode as it is */
		list_streams(t);
		find_missing(t, display);
		scan_streams(t, display);
		view = view || t->needs_view;
	}
	int rc = 0;
	if (!any_usable) {
		snprintf(error, error_size, "%s", first_error);
		rc = -1;
	} else if (view && build_view(c) != 0) {
		snprintf(error, error_size, "%s: cannot prepare the damaged "
				"trace for decoding in %s: %s", trace_dir,
				c->view_dir[0] ? c->view_dir : "TMPDIR",
				strerror(errno));
		rc = -1;
	}
	free_found();
	c->failed = rc != 0;
	return rc;
}

void dt_trace_check_error_path(const struct dt_trace_check *c,
		const char *trace_dir, char *error, size_t error_size)
{
	if (c->failed)
		return;
	char line[1024];
	size_t n = strlen(c->view_dir);
	if (n > 0 && strncmp(error, c->view_dir, n) == 0)
		snprintf(line, sizeof(line), "%s%s", trace_dir, error + n);
	else
		snprintf(line, sizeof(line), "%s", error);
	/* what was found wrong explains what libbabeltrace2 could not read */
	if (dt_damage_any() && strstr(line, "has no dnntrace events"))
		snprintf(error, error_size, "%.700s: truncated or corrupt trace: "
				"no dnntrace event is readable (trace damage: %s)",
				trace_dir, dt_damage.first);
	else if (dt_damage_any())
		snprintf(error, error_size, "%.700s (trace damage: %s)", line,
				dt_damage.first);
	else
		snprintf(error, error_size, "%s", line);
}

void dt_trace_check_free(struct dt_trace_check *c)
{
	if (c->view_dir[0])
		dt_remove_tree(c->view_dir);
	c->view_dir[0] = '\0';
}
