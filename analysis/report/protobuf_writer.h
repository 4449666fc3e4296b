/*
 * Protocol Buffers' wire format, by hand: varints, fixed64 and
 * length-delimited fields appended to a growable scratch buffer that
 * holds one message (for the timeline: one TracePacket) at a time, so
 * that nested messages learn their lengths before the bytes leave.
 * Knows no schema: field numbers are the callers' (timeline_pftrace.c).
 * Must never hold more than the message being built: the caller hands
 * each finished message on and resets the buffer.
 */
#ifndef DNNTRACE_ANALYSIS_PROTOBUF_WRITER_H
#define DNNTRACE_ANALYSIS_PROTOBUF_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct dt_pb {
	unsigned char *buf;
	size_t len, cap;
};

/* Wire types (protobuf encoding spec). */
enum { DT_PB_VARINT = 0, DT_PB_FIXED64 = 1, DT_PB_LEN = 2 };

void dt_pb_reset(struct dt_pb *b);
void dt_pb_free(struct dt_pb *b);

void dt_pb_varint(struct dt_pb *b, uint32_t field, uint64_t v);
/* int32/int64 fields: a negative value as its 64-bit two's complement
 * (10 bytes), as protobuf encodes them. */
static inline void dt_pb_int(struct dt_pb *b, uint32_t field, int64_t v)
{
	dt_pb_varint(b, field, (uint64_t)v);
}
void dt_pb_fixed64(struct dt_pb *b, uint32_t field, uint64_t v);
void dt_pb_bytes(struct dt_pb *b, uint32_t field, const void *data, size_t n);
/* A string field: bytes that are not valid UTF-8 become U+FFFD, so
 * decoders that check strings accept any name a trace holds. */
void dt_pb_string(struct dt_pb *b, uint32_t field, const char *s);

/* A nested message: open returns where its length goes (one byte
 * reserved), close writes the length, moving the body when it needs
 * more than one byte. Close the innermost first. */
size_t dt_pb_open(struct dt_pb *b, uint32_t field);
void dt_pb_close(struct dt_pb *b, size_t at);

#endif
