/*
 * Protocol Buffers' wire format, by hand: varints, fixed64 and
 * length-delimited fields appended to a growable scratch buffer that
 * holds one message (for the timeline: one TracePacket) at a time, so
 * that nested messages learn their lengths before the bytes leave.
 * Knows no schema: field numbers are the callers' (timeline_pftrace.c).
 * Must never hold more than the message being built: the caller hands
 * each finished message on and resets the buffer.
 * The small, hot encoders are inline here (the timeline calls them tens
 * of millions of times on a large trace); growth and string checks stay
 * in protobuf_writer.c.
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

/* The most a tag and a 64-bit varint take together. */
#define DT_PB_MAX_FIELD 20

void dt_pb_reset(struct dt_pb *b);
void dt_pb_free(struct dt_pb *b);
/* Makes room for n more bytes (out of line: rare). */
void dt_pb_grow(struct dt_pb *b, size_t n);

static inline void dt_pb_room(struct dt_pb *b, size_t n)
{
	if (b->cap - b->len < n)
		dt_pb_grow(b, n);
}

/* Writes v as a base-128 varint at p (room already made); returns the
 * byte after it. */
static inline unsigned char *dt_pb_put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static inline void dt_pb_varint(struct dt_pb *b, uint32_t field, uint64_t v)
{
	dt_pb_room(b, DT_PB_MAX_FIELD);
	unsigned char *p = b->buf + b->len;
	p = dt_pb_put_varint(p, (uint64_t)field << 3 | DT_PB_VARINT);
	p = dt_pb_put_varint(p, v);
	b->len = (size_t)(p - b->buf);
}

/* int32/int64 fields: a negative value as its 64-bit two's complement
 * (10 bytes), as protobuf encodes them. */
static inline void dt_pb_int(struct dt_pb *b, uint32_t field, int64_t v)
{
	dt_pb_varint(b, field, (uint64_t)v);
}

static inline void dt_pb_fixed64(struct dt_pb *b, uint32_t field, uint64_t v)
{
	dt_pb_room(b, DT_PB_MAX_FIELD);
	unsigned char *p = b->buf + b->len;
	p = dt_pb_put_varint(p, (uint64_t)field << 3 | DT_PB_FIXED64);
	for (int i = 0; i < 8; i++)
		*p++ = (unsigned char)(v >> (8 * i));
	b->len = (size_t)(p - b->buf);
}

void dt_pb_bytes(struct dt_pb *b, uint32_t field, const void *data, size_t n);
/* A string field: bytes that are not valid UTF-8 become U+FFFD, so
 * decoders that check strings accept any name a trace holds. */
void dt_pb_string(struct dt_pb *b, uint32_t field, const char *s);

/* A nested message: open returns where its length goes (one byte
 * reserved), close writes the length, moving the body when it needs
 * more than one byte. Close the innermost first. */
static inline size_t dt_pb_open(struct dt_pb *b, uint32_t field)
{
	dt_pb_room(b, DT_PB_MAX_FIELD);
	unsigned char *p = b->buf + b->len;
	p = dt_pb_put_varint(p, (uint64_t)field << 3 | DT_PB_LEN);
	b->len = (size_t)(p - b->buf) + 1;
	return b->len - 1;
}

/* close for a body of 128 bytes or more (its length takes two bytes or
 * more): out of line. */
void dt_pb_close_long(struct dt_pb *b, size_t at);

static inline void dt_pb_close(struct dt_pb *b, size_t at)
{
	size_t body = b->len - at - 1;
	if (body < 0x80)
		b->buf[at] = (unsigned char)body;
	else
		dt_pb_close_long(b, at);
}

#endif
