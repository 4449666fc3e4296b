/*
 * Walks the packets of one LTTng-UST stream file by their headers
 * (stream_scan.c), before libbabeltrace2 reads it: libbabeltrace2 2.0
 * aborts on a file shorter than its packet headers say, on a corrupt
 * header and on an index that disagrees with the file. Decides which
 * packets can be decoded and notes the damage (damage.h). Reads only the
 * fixed 84-byte header and context of each packet (metadata_check.h says
 * when the trace declares that layout). Must never trust a size field
 * beyond the file.
 */
#ifndef DNNTRACE_ANALYSIS_STREAM_SCAN_H
#define DNNTRACE_ANALYSIS_STREAM_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt_packet_range {
	uint64_t offset, size;      /* bytes */
};

struct dt_stream_scan {
	uint64_t file_size;
	struct dt_packet_range *kept;   /* packets that may be decoded */
	size_t n_kept, cap_kept;
	bool whole;                 /* kept = the whole file, in one piece */
	bool has_ids;
	uint8_t uuid[16];           /* the UUID the packets were checked against */
	uint32_t stream_id;
	uint64_t instance_id;
	/* per kept packet, for the index check */
	uint64_t *content_bits, *begin, *end, *discarded, *seq;
};

/*
 * Scans path (display: its name in messages). packet_size_hint: the
 * usual packet size of the trace in bytes (0: unknown), to step over a
 * packet whose header is unreadable. Returns -1 only when the file cannot
 * be read at all (then it is skipped and noted as missing).
 */
int dt_stream_scan(const char *path, const char *display,
		const uint8_t uuid[16], uint64_t packet_size_hint,
		struct dt_stream_scan *s);

/*
 * The packets of a stream file already checked (stream_split.c: an intact
 * trace's file, or a view's copy of the usable packets), with the UUID of
 * its own first packet: like dt_stream_scan, but noting no damage (the
 * checks did). -1 when the file cannot be read; s->whole false when some
 * packet is not sane (then the file is not to be cut).
 */
int dt_stream_packets(const char *path, struct dt_stream_scan *s);

/* The size in bytes of the file's first packet when its header is sane,
 * else 0. */
uint64_t dt_stream_first_packet_size(const char *path, const uint8_t uuid[16]);

/*
 * Compares an LTTng index file (index/NAME.idx) with the scan: true when it
 * lists exactly the kept packets. *beyond: how many packets it lists past
 * the end of the file (the stream ended early).
 */
bool dt_stream_index_agrees(const char *idx_path, const struct dt_stream_scan *s,
		uint64_t *beyond);

void dt_stream_scan_free(struct dt_stream_scan *s);

#endif
