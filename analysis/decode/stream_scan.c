/*
 * Packet walk of one stream file (stream_scan.h). The layout is LTTng-UST's
 * on 64-bit little-endian hosts: header magic u32, uuid[16], stream_id u32,
 * stream_instance_id u64; context timestamp_begin, timestamp_end,
 * content_size, packet_size (bits), packet_seq_num, events_discarded u64,
 * cpu_id u32. Must never print and never read past the file.
 */
#include "analysis/decode/stream_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/decode/damage.h"
#include "analysis/supervisor.h"
#include "analysis/util.h"

#define PACKET_MAGIC 0xC1FC1FC1u
#define HEAD_BYTES 84            /* header 32 + context 52 */
#define INDEX_MAGIC 0xC1F1DCC1u

struct head {
	uint32_t magic;
	uint8_t uuid[16];
	uint32_t stream_id;
	uint64_t instance_id;
	uint64_t begin, end, content_bits, packet_bits, seq, discarded;
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
		(uint32_t)p[1] << 8 | p[0];
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | p[3];
}

static bool read_head(int fd, uint64_t off, struct head *h)
{
	uint8_t b[HEAD_BYTES];
	if (pread(fd, b, sizeof(b), (off_t)off) != (ssize_t)sizeof(b))
		return false;
	h->magic = le32(b);
	memcpy(h->uuid, b + 4, 16);
	h->stream_id = le32(b + 20);
	h->instance_id = le64(b + 24);
	h->begin = le64(b + 32);
	h->end = le64(b + 40);
	h->content_bits = le64(b + 48);
	h->packet_bits = le64(b + 56);
	h->seq = le64(b + 64);
	h->discarded = le64(b + 72);
	return true;
}

/* A header's own fields make sense (not yet its place in the stream). */
static const char *head_problem(const struct head *h, const uint8_t uuid[16],
		const struct dt_stream_scan *s)
{
	if (h->magic != PACKET_MAGIC)
		return "no packet magic";
	if (memcmp(h->uuid, uuid, 16) != 0)
		return "another trace's UUID";
	if (s->has_ids && (h->stream_id != s->stream_id ||
			h->instance_id != s->instance_id))
		return "another stream's id";
	if (h->packet_bits % 8 || h->content_bits % 8 ||
	    h->content_bits > h->packet_bits ||
	    h->content_bits < HEAD_BYTES * 8)
		return "impossible content or packet size";
	if (h->begin > h->end)
		return "ends before it begins";
	if (h->end == UINT64_MAX)   /* libbabeltrace2's "no time" value */
		return "impossible end time";
	return NULL;
}

static void keep(struct dt_stream_scan *s, uint64_t off, const struct head *h)
{
	if (s->n_kept == s->cap_kept) {
		s->cap_kept = s->cap_kept ? 2 * s->cap_kept : 16;
		s->kept = dt_xrealloc(s->kept, s->cap_kept * sizeof(*s->kept));
		uint64_t **cols[] = {&s->content_bits, &s->begin, &s->end,
			&s->discarded, &s->seq};
		for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			*cols[i] = dt_xrealloc(*cols[i], s->cap_kept *
					sizeof(uint64_t));
	}
	size_t i = s->n_kept++;
	s->kept[i] = (struct dt_packet_range){off, h->packet_bits / 8};
	s->content_bits[i] = h->content_bits;
	s->begin[i] = h->begin;
	s->end[i] = h->end;
	s->discarded[i] = h->discarded;
	s->seq[i] = h->seq;
}

/* Damage is noted only by the checks' scan, never by a second look at
 * a file (stream_split.c's), which would count it twice. */
#define NOTE(quiet, ...) do { if (!(quiet)) dt_damage_note(__VA_ARGS__); } while (0)

static int scan_file(const char *path, const char *display,
		const uint8_t *uuid, uint64_t packet_size_hint,
		struct dt_stream_scan *s, bool quiet)
{
	memset(s, 0, sizeof(*s));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	s->file_size = (uint64_t)st.st_size;
	uint8_t own_uuid[16];
	if (!uuid) {
		/* the file's own first packet's (a second look at a file
		 * the checks passed) */
		struct head first;
		memset(own_uuid, 0, sizeof(own_uuid));
		if (s->file_size >= HEAD_BYTES && read_head(fd, 0, &first))
			memcpy(own_uuid, first.uuid, sizeof(own_uuid));
		uuid = own_uuid;
	}
	memcpy(s->uuid, uuid, sizeof(s->uuid));
	uint64_t off = 0, step = packet_size_hint, n = 0;
	bool clean = true;
	while (off < s->file_size) {
		dt_progress_tick();   /* the watchdog also watches the checks */
		uint64_t left = s->file_size - off;
		struct head h;
		const char *problem = NULL;
		if (left < HEAD_BYTES || !read_head(fd, off, &h)) {
			NOTE(quiet, DT_DAMAGE_STREAM_CUT, 1, "%s: ends inside "
					"the header of packet %" PRIu64 " (byte %"
					PRIu64 ")", display, n, off);
			clean = false;
			break;
		}
		problem = head_problem(&h, uuid, s);
		if (!problem && h.packet_bits / 8 > left) {
			NOTE(quiet, DT_DAMAGE_STREAM_CUT, 1, "%s: packet %"
					PRIu64 " at byte %" PRIu64 " says %" PRIu64
					" bytes, the file has %" PRIu64 " left",
					display, n, off, h.packet_bits / 8, left);
			clean = false;
			break;
		}
		if (!problem && s->n_kept > 0) {
			size_t last = s->n_kept - 1;
			if (h.begin < s->end[last])
				problem = "begins before the previous packet ends "
					"(out of order)";
			else if (h.seq <= s->seq[last])
				problem = "sequence number goes back (out of order)";
			else if (h.discarded < s->discarded[last])
				problem = "discarded-event count goes back";
		}
		if (problem) {
			clean = false;
			bool order = strstr(problem, "out of order") != NULL;
			uint64_t size = order ? h.packet_bits / 8 : step;
			NOTE(quiet, order ? DT_DAMAGE_OUT_OF_ORDER :
					DT_DAMAGE_PACKET_DROPPED, 1, "%s: packet %"
					PRIu64 " at byte %" PRIu64 ": %s", display,
					n, off, problem);
			if (size == 0 || size > left) {
				/* nowhere to resume: the rest is lost */
				break;
			}
			off += size;
			n++;
			continue;
		}
		if (!s->has_ids) {
			s->has_ids = true;
			s->stream_id = h.stream_id;
			s->instance_id = h.instance_id;
		}
		if (s->n_kept > 0 && h.seq > s->seq[s->n_kept - 1] + 1)
			NOTE(quiet, DT_DAMAGE_PACKET_GAP, h.seq -
					s->seq[s->n_kept - 1] - 1, "%s: packets %"
					PRIu64 " to %" PRIu64 " missing (sequence "
					"gap before byte %" PRIu64 ")", display,
					s->seq[s->n_kept - 1] + 1, h.seq - 1, off);
		keep(s, off, &h);
		if (step == 0)
			step = h.packet_bits / 8;
		off += h.packet_bits / 8;
		n++;
	}
	close(fd);
	s->whole = clean;
	return 0;
}

int dt_stream_scan(const char *path, const char *display,
		const uint8_t uuid[16], uint64_t packet_size_hint,
		struct dt_stream_scan *s)
{
	return scan_file(path, display, uuid, packet_size_hint, s, false);
}

int dt_stream_packets(const char *path, struct dt_stream_scan *s)
{
	return scan_file(path, path, NULL, 0, s, true);
}

uint64_t dt_stream_first_packet_size(const char *path, const uint8_t uuid[16])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct head h;
	struct dt_stream_scan none = {0};
	uint64_t size = read_head(fd, 0, &h) && !head_problem(&h, uuid, &none) ?
		h.packet_bits / 8 : 0;
	close(fd);
	return size;
}

bool dt_stream_index_agrees(const char *idx_path, const struct dt_stream_scan *s,
		uint64_t *beyond)
{
	*beyond = 0;
	FILE *f = fopen(idx_path, "rb");
	if (!f)
		return false;
	uint8_t h[16];
	bool agrees = false;
	if (fread(h, 1, sizeof(h), f) != sizeof(h) || be32(h) != INDEX_MAGIC ||
	    be32(h + 4) != 1 || be32(h + 12) < 56 || be32(h + 12) > 4096)
		goto out;
	uint32_t entry_len = be32(h + 12);
	bool has_seq = entry_len >= 72;
	uint8_t e[4096];
	size_t i = 0;
	agrees = true;
	for (;; i++) {
		size_t got = fread(e, 1, entry_len, f);
		if (got == 0)
			break;
		if (got != entry_len) {
			agrees = false;
			break;
		}
		if (be64(e) >= s->file_size)
			(*beyond)++;
		if (i >= s->n_kept || be64(e) != s->kept[i].offset ||
		    be64(e + 8) != s->kept[i].size * 8 ||
		    be64(e + 16) != s->content_bits[i] ||
		    be64(e + 24) != s->begin[i] || be64(e + 32) != s->end[i] ||
		    be64(e + 40) != s->discarded[i] ||
		    be64(e + 48) != s->stream_id ||
		    (has_seq && (be64(e + 56) != s->instance_id ||
				 be64(e + 64) != s->seq[i])))
			agrees = false;
	}
	if (i != s->n_kept)
		agrees = false;
out:
	fclose(f);
	return agrees;
}

void dt_stream_scan_free(struct dt_stream_scan *s)
{
	free(s->kept);
	free(s->content_bits);
	free(s->begin);
	free(s->end);
	free(s->discarded);
	free(s->seq);
	memset(s, 0, sizeof(*s));
}
