/*
 * The stream files of a trace directory shared out among several decoders
 * (stream_split.c), so that as many babeltrace2 graphs decode them at
 * once: each decoder gets a directory of views, one per CTF trace that has
 * stream files for it, holding a link to the trace's metadata, links to
 * the whole stream files it decodes (and their indexes), and copies of
 * the slices it decodes of larger files. LTTng writes one stream file
 * per CPU and channel, but a single-threaded program puts nearly all its
 * events in one: a file larger than a decoder's fair share is cut, on
 * packet boundaries, into slices (packet ranges), each copied into a
 * file of its own in the decoder's view (libbabeltrace2 2.0's
 * source.ctf.fs reads whole files: it cannot be told to stop at a
 * packet). A slice that starts inside its file carries what one graph
 * would have said at its first packet (the loss since the packet before
 * it: dt_slice_head), and its place among its file's slices, which the
 * merge uses to keep one stream's slices in file order.
 * Must never change the files under the trace directory.
 */
#ifndef DNNTRACE_ANALYSIS_DECODE_STREAM_SPLIT_H
#define DNNTRACE_ANALYSIS_DECODE_STREAM_SPLIT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A slice that starts inside its stream file: which stream it belongs to
 * (as babeltrace2 names it: trace UUID, stream class id, stream id, the
 * packet header's stream_id and stream_instance_id), its place, and the
 * loss between the packet before it and its first packet, from the
 * packet contexts (events_discarded, packet_seq_num): babeltrace2 sees
 * no packet before a file's first and says nothing of it. */
struct dt_slice_head {
	uint8_t uuid[16];
	uint64_t class_id, stream_id;
	uint32_t slice;              /* 1, 2, ...: the file's slices in order */
	uint64_t lost_events;        /* events_discarded grew by this */
	bool lost_packets;           /* packet_seq_num skipped some */
};

struct dt_stream_split {
	char root[PATH_MAX];         /* the views' temporary directory, "" */
	size_t n_decoders;           /* 1: no split (read trace_dir itself) */
	char ***inputs;              /* per decoder, its trace views */
	size_t *n_inputs;
	struct dt_slice_head **heads;   /* per decoder, its slices' heads */
	size_t *n_heads, *cap_heads;
	uint64_t copied_bytes;       /* the slices' copies, on disk in root */
};

/* How many decoders to run: DNNTRACE_DECODERS when set (1 to 64), else the
 * CPUs this process may run on, at most 8. */
size_t dt_decoders_wanted(void);

/*
 * Shares trace_dir's stream files among at most n_wanted decoders. A file
 * larger than total/n_wanted (and than two slices of DT_SLICE_MIN_BYTES)
 * is cut into slices of that size (on packet boundaries) and what is left;
 * every piece (whole file or
 * slice) then goes, largest first, to the decoder with the fewest bytes
 * that has no piece of the same file. When the slices cannot be copied
 * (no room in TMPDIR, a failed write), the whole files are shared out as
 * if no file were large: the same report, less parallel.
 * DNNTRACE_SPLIT_PACKETS=K1[,K2...] (tests) cuts the largest stream file
 * before its packets K1, K2, ... (counted from 0), whatever its size, and
 * no other; DNNTRACE_SLICE_MIN_BYTES=N (tests) sets the minimum slice
 * size instead of DT_SLICE_MIN_BYTES; DNNTRACE_TEST_SLICE_COPY_FAILS (tests)
 * makes every slice's copy fail with ENOSPC after its first packet. 0 with s->n_decoders >= 1 (1: no views were made), -1 when
 * the views could not be made (s->n_decoders is 1 then).
 */
#define DT_SLICE_MIN_BYTES (8u << 20)
int dt_stream_split(const char *trace_dir, size_t n_wanted,
		struct dt_stream_split *s);
/* Removes the views. */
void dt_stream_split_free(struct dt_stream_split *s);
/* The bytes scratch files may take under root (the split's views, the
 * decoders' spill files): its free space less 64 MiB always left; 0 when
 * that cannot be read. */
uint64_t dt_scratch_room(const char *root);

#endif
