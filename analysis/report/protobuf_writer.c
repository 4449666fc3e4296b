/*
 * Protocol Buffers wire encoding (protobuf_writer.h): base-128 varints,
 * little-endian fixed64, length-delimited fields
 * (https://protobuf.dev/programming-guides/encoding/).
 * Must never write a length that differs from the bytes that follow it.
 */
#include "analysis/report/protobuf_writer.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/util.h"

static void room(struct dt_pb *b, size_t n)
{
	if (b->cap - b->len >= n)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len < n)
		cap *= 2;
	b->buf = dt_xrealloc(b->buf, cap);
	b->cap = cap;
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void raw_varint(struct dt_pb *b, uint64_t v)
{
	room(b, 10);
	unsigned char *p = b->buf + b->len;
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	b->len = (size_t)(p - b->buf);
}

static void tag(struct dt_pb *b, uint32_t field, unsigned wire_type)
{
	raw_varint(b, (uint64_t)field << 3 | wire_type);
}

void dt_pb_reset(struct dt_pb *b)
{
	b->len = 0;
}

void dt_pb_free(struct dt_pb *b)
{
	free(b->buf);
	*b = (struct dt_pb){0};
}

void dt_pb_varint(struct dt_pb *b, uint32_t field, uint64_t v)
{
	tag(b, field, DT_PB_VARINT);
	raw_varint(b, v);
}

void dt_pb_fixed64(struct dt_pb *b, uint32_t field, uint64_t v)
{
	tag(b, field, DT_PB_FIXED64);
	room(b, 8);
	for (int i = 0; i < 8; i++)
		b->buf[b->len++] = (unsigned char)(v >> (8 * i));
}

void dt_pb_bytes(struct dt_pb *b, uint32_t field, const void *data, size_t n)
{
	tag(b, field, DT_PB_LEN);
	raw_varint(b, n);
	room(b, n);
	if (n)
		memcpy(b->buf + b->len, data, n);
	b->len += n;
}

void dt_pb_string(struct dt_pb *b, uint32_t field, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t at = dt_pb_open(b, field);
	while (*p) {
		int n = *p < 0x80 ? 1 : dt_utf8_length(p);
		room(b, 3);
		if (n == 0) {            /* not UTF-8: U+FFFD */
			memcpy(b->buf + b->len, "\xef\xbf\xbd", 3);
			b->len += 3;
			p++;
			continue;
		}
		room(b, (size_t)n);
		memcpy(b->buf + b->len, p, (size_t)n);
		b->len += (size_t)n;
		p += n;
	}
	dt_pb_close(b, at);
}

size_t dt_pb_open(struct dt_pb *b, uint32_t field)
{
	tag(b, field, DT_PB_LEN);
	room(b, 1);
	return b->len++;
}

void dt_pb_close(struct dt_pb *b, size_t at)
{
	size_t body = b->len - at - 1;
	size_t extra = varint_size(body) - 1;
	if (extra) {
		room(b, extra);
		memmove(b->buf + at + 1 + extra, b->buf + at + 1, body);
		b->len += extra;
	}
	unsigned char *p = b->buf + at;
	uint64_t v = body;
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p = (unsigned char)v;
}
