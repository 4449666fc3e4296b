/*
 * Copying packet ranges of a stream file into a new file (packet_copy.c):
 * the usable packets of a damaged file for the checks' view
 * (trace_check.c), a slice of a large file for one decoder
 * (stream_split.c). Must never write to the file it copies from, and
 * never leave a partial file behind unnoticed: a failure says so.
 */
#ifndef DNNTRACE_ANALYSIS_DECODE_PACKET_COPY_H
#define DNNTRACE_ANALYSIS_DECODE_PACKET_COPY_H

#include <stddef.h>

#include "analysis/decode/stream_scan.h"

/* Writes ranges[0..n) of `from`, in order, into `to`, which must not
 * exist yet. 0, or -1 with errno set (`to` may then exist, partly
 * written: the caller removes its scratch directory). */
int dt_copy_packets(const char *from, const char *to,
		const struct dt_packet_range *ranges, size_t n);

#endif
