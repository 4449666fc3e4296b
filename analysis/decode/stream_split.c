/*
 * Sharing a trace directory's stream files among decoders
 * (stream_split.h): files larger than a decoder's share cut into slices on
 * packet boundaries, then every piece, largest first, to the decoder with
 * the fewest bytes so far. Must never write under the trace directory.
 */
#include "analysis/decode/stream_split.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "analysis/decode/packet_copy.h"
#include "analysis/decode/stream_scan.h"
#include "analysis/decode/trace_finder.h"
#include "analysis/supervisor.h"
#include "analysis/util.h"

#define MAX_DECODERS 64
/* room always left in TMPDIR by the slices' copies and the spill files */
#define SPARE_BYTES ((uint64_t)64 << 20)

uint64_t dt_scratch_room(const char *root)
{
	struct statvfs vfs;
	if (statvfs(root, &vfs) != 0)
		return 0;
	uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return free_bytes > SPARE_BYTES ? free_bytes - SPARE_BYTES : 0;
}

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
	struct dt_stream_scan scan;  /* its packets, when it is cut */
	uint64_t on_decoders;        /* bit d: decoder d has a piece of it */
};

/* A whole file, or packets [first, end) of its scan. */
struct piece {
	size_t file;
	uint64_t bytes;
	bool whole;
	size_t first, end;
	uint32_t slice;              /* 0: the file's first (or only) piece */
	size_t decoder;
};

struct plan {
	struct stream_file *files;
	size_t n_files, cap_files;
	char **traces;               /* absolute trace directories */
	size_t n_traces;
	struct piece *pieces;
	size_t n_pieces, cap_pieces;
};

static int larger_first(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->slice < y->slice ? -1 : x->slice > y->slice;
}

/* ---- the pieces ---------------------------------------------------------- */

static uint64_t packets_bytes(const struct dt_stream_scan *sc, size_t first,
		size_t end)
{
	uint64_t bytes = 0;
	for (size_t i = first; i < end; i++)
		bytes += sc->kept[i].size;
	return bytes;
}

/* The file as slices cut before packets cuts[0..n) (increasing, inside). */
static void add_slices(struct plan *p, size_t f, const size_t *cuts, size_t n)
{
	const struct dt_stream_scan *sc = &p->files[f].scan;
	size_t first = 0;
	for (size_t j = 0; j <= n; j++) {
		size_t end = j < n ? cuts[j] : sc->n_kept;
		*DT_PUSH_SLOT(p->pieces, p->n_pieces, p->cap_pieces) =
			(struct piece){f, packets_bytes(sc, first, end), false,
				first, end, (uint32_t)j, 0};
		first = end;
	}
}

static void add_whole(struct plan *p, size_t f)
{
	*DT_PUSH_SLOT(p->pieces, p->n_pieces, p->cap_pieces) = (struct piece){
		f, (uint64_t)p->files[f].size, true, 0, 0, 0, 0};
}

/* Reads file f's packets; false when it cannot be cut (unreadable, a
 * packet not sane, fewer than two packets). */
static bool scan_for_cutting(struct plan *p, size_t f)
{
	struct stream_file *sf = &p->files[f];
	char path[PATH_MAX * 2];
	if (snprintf(path, sizeof(path), "%s/%s", p->traces[sf->trace],
			sf->name) >= (int)sizeof(path))
		return false;
	if (dt_stream_packets(path, &sf->scan) != 0)
		return false;
	if (!sf->scan.whole || !sf->scan.has_ids || sf->scan.n_kept < 2) {
		dt_stream_scan_free(&sf->scan);
		return false;
	}
	return true;
}

/* DNNTRACE_SPLIT_PACKETS=K1,K2,...: the packets before which the largest
 * file is cut (tests: a cut where they want it); 0 when unset. */
static size_t forced_cuts(size_t *cuts, size_t max)
{
	const char *env = getenv("DNNTRACE_SPLIT_PACKETS");
	size_t n = 0;
	for (const char *at = env; at && *at && n < max;) {
		char *end;
		unsigned long long k = strtoull(at, &end, 10);
		if (end == at)
			break;
		if (k > 0 && (n == 0 || k > cuts[n - 1]))
			cuts[n++] = (size_t)k;
		at = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* The smallest slice worth a graph of its own: DT_SLICE_MIN_BYTES, or
 * DNNTRACE_SLICE_MIN_BYTES (tests: small traces cut too). */
static uint64_t slice_min_bytes(void)
{
	const char *env = getenv("DNNTRACE_SLICE_MIN_BYTES");
	if (env && env[0]) {
		char *end;
		unsigned long long n = strtoull(env, &end, 10);
		if (*end == '\0' && n >= 1)
			return n;
	}
	return DT_SLICE_MIN_BYTES;
}

/* Cuts of a file into slices of `share` bytes (a decoder's fair share),
 * each on the packet boundary nearest its end, and what is left as the
 * last slice (joined to the one before when under min_slice): the other
 * files then fill the last slice's decoder up to its share. At most
 * max_slices slices. */
static size_t share_cuts(const struct dt_stream_scan *sc, uint64_t share,
		uint64_t min_slice, size_t max_slices, size_t *cuts)
{
	uint64_t total = packets_bytes(sc, 0, sc->n_kept), before = 0;
	size_t n = 0, i = 0;
	for (size_t j = 1; j < max_slices; j++) {
		uint64_t target = share * j;
		if (target + min_slice > total)
			break;
		/* the boundary before packet i is `before` bytes in */
		while (i < sc->n_kept && before + sc->kept[i].size / 2 < target)
			before += sc->kept[i++].size;
		if (i > 0 && i < sc->n_kept && (n == 0 || i > cuts[n - 1]))
			cuts[n++] = i;
	}
	return n;
}

/* The pieces of every file: whole, or cut when slicing is allowed. */
static void make_pieces(struct plan *p, size_t n_wanted, bool slicing)
{
	uint64_t total = 0;
	size_t largest = 0;
	for (size_t f = 0; f < p->n_files; f++) {
		total += (uint64_t)p->files[f].size;
		if (p->files[f].size > p->files[largest].size)
			largest = f;
	}
	uint64_t share = total / n_wanted, min_slice = slice_min_bytes();
	if (share == 0)
		share = 1;
	size_t forced[MAX_DECODERS], n_forced = forced_cuts(forced,
			MAX_DECODERS - 1);
	size_t cuts[MAX_DECODERS];
	for (size_t f = 0; f < p->n_files; f++) {
		uint64_t size = (uint64_t)p->files[f].size;
		size_t n_cuts = 0;
		bool cut = slicing && (n_forced ? f == largest :
				size > share && size >= 2 * min_slice);
		if (cut && scan_for_cutting(p, f)) {
			const struct dt_stream_scan *sc = &p->files[f].scan;
			if (n_forced) {
				/* no more slices than decoders */
				for (size_t j = 0; j < n_forced &&
						n_cuts + 1 < n_wanted; j++)
					if (forced[j] < sc->n_kept)
						cuts[n_cuts++] = forced[j];
			} else {
				n_cuts = share_cuts(sc, share < min_slice ?
						min_slice : share, min_slice,
						n_wanted, cuts);
			}
		}
		if (n_cuts > 0)
			add_slices(p, f, cuts, n_cuts);
		else
			add_whole(p, f);
	}
}

/* Largest piece first, each to the decoder with the fewest bytes that has
 * no piece of its file (one view holds one file of a stream). The number
 * of decoders used. */
static size_t assign(struct plan *p, size_t n)
{
	dt_sort(p->pieces, p->n_pieces, sizeof(*p->pieces), larger_first);
	uint64_t *load = dt_xcalloc(n, sizeof(*load));
	size_t used = 0;
	for (size_t i = 0; i < p->n_pieces; i++) {
		struct piece *pc = &p->pieces[i];
		struct stream_file *sf = &p->files[pc->file];
		size_t best = n;
		for (size_t d = 0; d < n; d++)
			if (!(sf->on_decoders >> d & 1) &&
			    (best == n || load[d] < load[best]))
				best = d;
		/* a file has at most n pieces: some decoder has none of it */
		pc->decoder = best;
		sf->on_decoders |= (uint64_t)1 << best;
		load[best] += pc->bytes;
		if (best + 1 > used)
			used = best + 1;
	}
	free(load);
	return used;
}

/* ---- the views ---------------------------------------------------------- */

static int link_to(const char *target_dir, const char *name,
		const char *view_dir)
{
	char target[PATH_MAX * 2], link[PATH_MAX * 2];
	if (snprintf(target, sizeof(target), "%s/%s", target_dir, name) >=
			(int)sizeof(target) ||
	    snprintf(link, sizeof(link), "%s/%s", view_dir, name) >=
			(int)sizeof(link))
		return -1;
	return symlink(target, link);
}

/* A whole file's index, linked when the trace has one. */
static int link_index(const char *trace_dir, const char *name,
		const char *view, bool *index_made)
{
	char idx[PATH_MAX * 2], index_dir[PATH_MAX + 8], index_view[PATH_MAX + 80];
	char idx_name[PATH_MAX];
	struct stat st;
	if (snprintf(index_dir, sizeof(index_dir), "%s/index", trace_dir) >=
			(int)sizeof(index_dir) ||
	    snprintf(idx, sizeof(idx), "%s/%s.idx", index_dir, name) >=
			(int)sizeof(idx))
		return -1;
	if (stat(idx, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (snprintf(index_view, sizeof(index_view), "%s/index", view) >=
			(int)sizeof(index_view) ||
	    snprintf(idx_name, sizeof(idx_name), "%s.idx", name) >=
			(int)sizeof(idx_name))
		return -1;
	if (!*index_made && mkdir(index_view, 0700) != 0)
		return -1;
	*index_made = true;
	return link_to(index_dir, idx_name, index_view);
}

/* A slice: its packets copied (no index: babeltrace2 indexes the copy
 * itself), and its head when it starts inside its file. */
static int copy_slice(const struct plan *p, const struct piece *pc,
		const char *view, struct dt_stream_split *s)
{
	const struct stream_file *sf = &p->files[pc->file];
	const struct dt_stream_scan *sc = &sf->scan;
	char from[PATH_MAX * 2], to[PATH_MAX * 2];
	if (snprintf(from, sizeof(from), "%s/%s", p->traces[sf->trace],
			sf->name) >= (int)sizeof(from) ||
	    snprintf(to, sizeof(to), "%s/%s", view, sf->name) >= (int)sizeof(to))
		return -1;
	/* DNNTRACE_TEST_SLICE_COPY_FAILS (tests): the disk fills up after the
	 * slice's first packet, as ENOSPC would leave it */
	bool fails = getenv("DNNTRACE_TEST_SLICE_COPY_FAILS") != NULL;
	if (dt_copy_packets(from, to, sc->kept + pc->first,
			fails ? 1 : pc->end - pc->first) != 0)
		return -1;
	if (fails) {
		errno = ENOSPC;
		return -1;
	}
	s->copied_bytes += pc->bytes;
	if (pc->first == 0)
		return 0;
	size_t d = pc->decoder, a = pc->first;
	struct dt_slice_head *h = DT_PUSH_SLOT(s->heads[d], s->n_heads[d],
			s->cap_heads[d]);
	memset(h, 0, sizeof(*h));
	memcpy(h->uuid, sc->uuid, sizeof(h->uuid));
	h->class_id = sc->stream_id;
	h->stream_id = sc->instance_id;
	h->slice = pc->slice;
	h->lost_events = sc->discarded[a] - sc->discarded[a - 1];
	h->lost_packets = sc->seq[a] > sc->seq[a - 1] + 1;
	return 0;
}

/* Decoder d's view of trace k: its metadata, its pieces of the trace's
 * files. */
static int make_view(const struct plan *p, size_t d, size_t k,
		const char *view, struct dt_stream_split *s)
{
	bool index_made = false;
	if (mkdir(view, 0700) != 0 || link_to(p->traces[k], "metadata", view) != 0)
		return -1;
	for (size_t i = 0; i < p->n_pieces; i++) {
		const struct piece *pc = &p->pieces[i];
		const struct stream_file *sf = &p->files[pc->file];
		if (pc->decoder != d || sf->trace != k)
			continue;
		if (!pc->whole) {
			if (copy_slice(p, pc, view, s) != 0)
				return -1;
		} else if (link_to(p->traces[k], sf->name, view) != 0 ||
				link_index(p->traces[k], sf->name, view,
					&index_made) != 0) {
			return -1;
		}
	}
	return 0;
}

/* The views' directory: inside the checks' view when there is one (the
 * supervising parent removes that one if this process dies), else in
 * TMPDIR, named as the check's view so that the parent removes it. */
static int make_root(struct dt_stream_split *s)
{
	if (dt_progress_shared && dt_progress_shared->scratch_dir[0] &&
	    snprintf(s->root, sizeof(s->root), "%s/split.XXXXXX",
			dt_progress_shared->scratch_dir) < (int)sizeof(s->root) &&
	    mkdtemp(s->root))
		return 0;
	const char *tmp = getenv("TMPDIR");
	if (snprintf(s->root, sizeof(s->root), "%s/dnntrace-view.XXXXXX",
			tmp && tmp[0] == '/' ? tmp : "/tmp") >=
			(int)sizeof(s->root) || !mkdtemp(s->root)) {
		s->root[0] = '\0';
		return -1;
	}
	if (dt_progress_shared && !dt_progress_shared->scratch_dir[0])
		snprintf(dt_progress_shared->scratch_dir,
				sizeof(dt_progress_shared->scratch_dir), "%s",
				s->root);
	return 0;
}

static bool room_for_slices(const struct plan *p, const char *root)
{
	uint64_t bytes = 0;
	for (size_t i = 0; i < p->n_pieces; i++)
		if (!p->pieces[i].whole)
			bytes += p->pieces[i].bytes;
	return bytes == 0 || dt_scratch_room(root) >= bytes;
}

static int make_views(const struct plan *p, size_t n, struct dt_stream_split *s)
{
	if (make_root(s) != 0)
		return -1;
	s->n_decoders = n;
	s->inputs = dt_xcalloc(n, sizeof(char **));
	s->n_inputs = dt_xcalloc(n, sizeof(size_t));
	s->heads = dt_xcalloc(n, sizeof(struct dt_slice_head *));
	s->n_heads = dt_xcalloc(n, sizeof(size_t));
	s->cap_heads = dt_xcalloc(n, sizeof(size_t));
	if (!room_for_slices(p, s->root)) {
		errno = 0;   /* no room: said so in the plan */
		return -1;
	}
	for (size_t d = 0; d < n; d++) {
		for (size_t k = 0; k < p->n_traces; k++) {
			bool any = false;
			for (size_t i = 0; i < p->n_pieces && !any; i++)
				any = p->pieces[i].decoder == d &&
					p->files[p->pieces[i].file].trace == k;
			if (!any)
				continue;
			char view[PATH_MAX + 64];
			if (snprintf(view, sizeof(view), "%s/d%zut%zu", s->root,
					d, k) >= (int)sizeof(view) ||
			    make_view(p, d, k, view, s) != 0)
				return -1;
			s->inputs[d] = dt_xrealloc(s->inputs[d],
					(s->n_inputs[d] + 1) * sizeof(char *));
			s->inputs[d][s->n_inputs[d]++] = dt_xstrdup(view);
		}
	}
	return 0;
}

/* DNNTRACE_SPLIT_PLAN=FILE (tests, and whoever wonders how a trace was
 * shared out): one line per piece, and why slices were given up. */
static void write_plan(const struct plan *p, size_t n, const char *given_up)
{
	const char *path = getenv("DNNTRACE_SPLIT_PLAN");
	FILE *f = path && path[0] ? fopen(path, "a") : NULL;
	if (!f)
		return;
	if (given_up)
		fprintf(f, "slices given up: %s\n", given_up);
	fprintf(f, "decoders %zu pieces %zu\n", n, p->n_pieces);
	for (size_t i = 0; i < p->n_pieces; i++) {
		const struct piece *pc = &p->pieces[i];
		const struct stream_file *sf = &p->files[pc->file];
		const struct dt_stream_scan *sc = &sf->scan;
		fprintf(f, "decoder %zu file %s bytes %llu", pc->decoder,
				sf->name, (unsigned long long)pc->bytes);
		if (pc->whole)
			fprintf(f, " whole\n");
		else
			fprintf(f, " slice %u packets %zu-%zu lost_events %llu "
					"lost_packets %d\n", pc->slice, pc->first,
					pc->end, (unsigned long long)(pc->first ?
					sc->discarded[pc->first] -
					sc->discarded[pc->first - 1] : 0),
					pc->first && sc->seq[pc->first] >
					sc->seq[pc->first - 1] + 1);
	}
	fclose(f);
}

static void plan_free_pieces(struct plan *p)
{
	free(p->pieces);
	p->pieces = NULL;
	p->n_pieces = p->cap_pieces = 0;
	for (size_t f = 0; f < p->n_files; f++) {
		dt_stream_scan_free(&p->files[f].scan);
		p->files[f].on_decoders = 0;
	}
}

int dt_stream_split(const char *trace_dir, size_t n_wanted,
		struct dt_stream_split *s)
{
	memset(s, 0, sizeof(*s));
	s->n_decoders = 1;
	if (n_wanted < 2)
		return 0;
	if (n_wanted > MAX_DECODERS)
		n_wanted = MAX_DECODERS;
	char **dirs = NULL;
	size_t n_dirs = 0;
	if (dt_find_trace_dirs(trace_dir, &dirs, &n_dirs) != 0) {
		dt_trace_dirs_free(dirs, n_dirs);
		return 0;
	}
	struct plan p = {0};
	p.traces = dt_xcalloc(n_dirs + 1, sizeof(char *));
	p.n_traces = n_dirs;
	for (size_t k = 0; k < n_dirs; k++) {
		p.traces[k] = realpath(dirs[k], NULL);
		if (!p.traces[k])
			continue;
		struct dt_stream_file *listed = NULL;
		size_t n_listed = 0, cap_listed = 0;
		dt_list_stream_files(p.traces[k], &listed, &n_listed, &cap_listed);
		for (size_t i = 0; i < n_listed; i++) {
			struct stream_file *sf = DT_PUSH_SLOT(p.files, p.n_files,
					p.cap_files);
			memset(sf, 0, sizeof(*sf));
			sf->trace = k;
			sf->name = listed[i].name;
			sf->size = listed[i].size;
		}
		free(listed);
	}
	int rc = 0;
	char given_up[200] = "";
	/* first with slices; if they cannot be copied, whole files only */
	for (int slicing = 1; slicing >= 0; slicing--) {
		make_pieces(&p, n_wanted, slicing);
		size_t n = p.n_pieces < n_wanted ? p.n_pieces : n_wanted;
		if (n < 2) {
			write_plan(&p, 1, given_up[0] ? given_up : NULL);
			plan_free_pieces(&p);
			rc = 0;
			break;
		}
		n = assign(&p, n);
		rc = make_views(&p, n, s);
		if (rc == 0)
			write_plan(&p, n, given_up[0] ? given_up : NULL);
		bool sliced = false;
		for (size_t i = 0; i < p.n_pieces; i++)
			sliced = sliced || !p.pieces[i].whole;
		plan_free_pieces(&p);
		if (rc == 0)
			break;
		snprintf(given_up, sizeof(given_up), "%s", errno ?
				strerror(errno) : "no room for them");
		dt_stream_split_free(s);
		if (!sliced)
			break;
	}
	for (size_t i = 0; i < p.n_files; i++)
		free(p.files[i].name);
	free(p.files);
	for (size_t k = 0; k < n_dirs; k++)
		free(p.traces[k]);
	free(p.traces);
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
	for (size_t d = 0; s->heads && d < s->n_decoders; d++)
		free(s->heads[d]);
	free(s->inputs);
	free(s->n_inputs);
	free(s->heads);
	free(s->n_heads);
	free(s->cap_heads);
	if (s->root[0]) {
		dt_remove_tree(s->root);
		if (dt_progress_shared &&
		    strcmp(dt_progress_shared->scratch_dir, s->root) == 0)
			dt_progress_shared->scratch_dir[0] = '\0';
	}
	memset(s, 0, sizeof(*s));
	s->n_decoders = 1;
}
