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

void dt_pb_grow(struct dt_pb *b, size_t n)
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

static void tag(struct dt_pb *b, uint32_t field, unsigned wire_type)
{
	dt_pb_room(b, DT_PB_MAX_FIELD);
	unsigned char *p = dt_pb_put_varint(b->buf + b->len,
			(uint64_t)field << 3 | wire_type);
	b->len = (size_t)(p - b->buf);
}

static void raw_varint(struct dt_pb *b, uint64_t v)
{
	dt_pb_room(b, DT_PB_MAX_FIELD);
	b->len = (size_t)(dt_pb_put_varint(b->buf + b->len, v) - b->buf);
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

void dt_pb_bytes(struct dt_pb *b, uint32_t field, const void *data, size_t n)
{
	tag(b, field, DT_PB_LEN);
	raw_varint(b, n);
	dt_pb_room(b, n);
	if (n)
		memcpy(b->buf + b->len, data, n);
	b->len += n;
}

void dt_pb_string(struct dt_pb *b, uint32_t field, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t at = dt_pb_open(b, field);
	for (;;) {
		const unsigned char *run = p;      /* ASCII goes as it is */
		while (*p && *p < 0x80)
			p++;
		size_t n = (size_t)(p - run);
		dt_pb_room(b, n + 4);
		memcpy(b->buf + b->len, run, n);
		b->len += n;
		if (!*p)
			break;
		int k = dt_utf8_length(p);
		if (k == 0) {            /* not UTF-8: U+FFFD */
			memcpy(b->buf + b->len, "\xef\xbf\xbd", 3);
			b->len += 3;
			p++;
			continue;
		}
		memcpy(b->buf + b->len, p, (size_t)k);
		b->len += (size_t)k;
		p += k;
	}
	dt_pb_close(b, at);
}

void dt_pb_close_long(struct dt_pb *b, size_t at)
{
	size_t body = b->len - at - 1;
	size_t extra = varint_size(body) - 1;
	dt_pb_room(b, extra);
	memmove(b->buf + at + 1 + extra, b->buf + at + 1, body);
	b->len += extra;
	dt_pb_put_varint(b->buf + at, body);
}
