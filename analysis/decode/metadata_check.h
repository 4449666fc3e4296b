/*
 * A cheap check of one CTF metadata file before libbabeltrace2 parses it
 * (metadata_check.c): libbabeltrace2 2.0 spins forever on some truncated
 * metadata files and aborts on others. Must never accept a file that ends
 * inside a metadata packet or inside a declaration.
 */
#ifndef DNNTRACE_ANALYSIS_METADATA_CHECK_H
#define DNNTRACE_ANALYSIS_METADATA_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt_metadata {
	char *text;              /* the TSDL text, packets joined, NUL-ended */
	size_t len;
	bool has_uuid;
	uint8_t uuid[16];        /* the trace's, from `trace { uuid = ... }` */
	/* the text declares exactly the packet header and context LTTng-UST
	 * writes on a 64-bit little-endian host (what stream_scan.c reads) */
	bool lttng_layout;
};

/*
 * Reads and checks path. Packetized metadata: every packet header is
 * sane (magic, version 1.8, no compression, encryption or checksum,
 * sizes whole bytes, content within the packet, one UUID) and the file
 * ends exactly where its last packet ends. The text (packetized or plain):
 * no NUL byte, comments and strings closed, (), [] and {} balanced and the
 * last declaration ended by ';'. 0 and *md filled, or -1 with a short
 * reason in why (md left empty).
 */
int dt_metadata_check(const char *path, struct dt_metadata *md, char *why,
		size_t why_size);
void dt_metadata_free(struct dt_metadata *md);

/* The checks on TSDL text alone (exposed for unit tests). */
int dt_metadata_check_text(const char *text, size_t len, char *why,
		size_t why_size);

#endif
