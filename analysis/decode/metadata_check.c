/*
 * Checks a CTF metadata file before libbabeltrace2 sees it (metadata_check.h).
 * Reads the whole file (metadata is KBs to a few MB) and never trusts a
 * size field beyond the file. Must never print: reasons go back as text.
 */
#include "analysis/decode/metadata_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util.h"

#define MD_MAGIC 0x75D11D57u
#define MD_HEADER_BYTES 37   /* magic uuid[16] checksum content_size
                                packet_size compression encryption
                                checksum_scheme major minor */
#define MD_MAX_BYTES (256u << 20)

static uint32_t read_u32(const uint8_t *p, bool big_endian)
{
	return big_endian ?
		(uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | p[3] :
		(uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
		(uint32_t)p[1] << 8 | p[0];
}

static int failf(char *why, size_t size, const char *what)
{
	snprintf(why, size, "%s", what);
	return -1;
}

int dt_metadata_check_text(const char *text, size_t len, char *why,
		size_t why_size)
{
	enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHARACTER } state = CODE;
	char stack[256];
	size_t depth = 0;
	char last = 0;        /* last significant character of code */
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '\0')
			return failf(why, why_size, "a NUL byte in the text");
		switch (state) {
		case LINE_COMMENT:
			if (c == '\n')
				state = CODE;
			continue;
		case BLOCK_COMMENT:
			if (c == '*' && i + 1 < len && text[i + 1] == '/') {
				state = CODE;
				i++;
			}
			continue;
		case STRING:
		case CHARACTER:
			if (c == '\\')
				i++;
			else if (c == (state == STRING ? '"' : '\''))
				state = CODE;
			else if (c == '\n')
				return failf(why, why_size, "a string runs past its line");
			continue;
		case CODE:
			break;
		}
		if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			state = LINE_COMMENT;
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			state = BLOCK_COMMENT;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		last = c;
		if (c == '"' || c == '\'') {
			state = c == '"' ? STRING : CHARACTER;
		} else if (c == '{' || c == '(' || c == '[') {
			if (depth == sizeof(stack))
				return failf(why, why_size, "blocks nested too deep");
			stack[depth++] = c;
		} else if (c == '}' || c == ')' || c == ']') {
			char open = c == '}' ? '{' : c == ')' ? '(' : '[';
			if (depth == 0 || stack[depth - 1] != open)
				return failf(why, why_size, "unbalanced braces");
			depth--;
		}
	}
	if (state == BLOCK_COMMENT || state == STRING || state == CHARACTER)
		return failf(why, why_size, "ends inside a comment or string");
	if (depth != 0)
		return failf(why, why_size, "ends inside a block (truncated?)");
	if (last != ';')
		return failf(why, why_size, "does not end with a complete "
				"declaration (truncated?)");
	return 0;
}

/* The packet header and context LTTng-UST declares on 64-bit little-endian
 * hosts, byte for byte as lttng-sessiond writes them. */
static const char *const lttng_layout_parts[] = {
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n",
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n",
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n",
	"typealias integer { size = 64; align = 8; signed = false; } := "
		"unsigned long;\n",
	"\tbyte_order = le;\n"
	"\tpacket.header := struct {\n"
	"\t\tuint32_t magic;\n"
	"\t\tuint8_t  uuid[16];\n"
	"\t\tuint32_t stream_id;\n"
	"\t\tuint64_t stream_instance_id;\n"
	"\t};\n",
	"typealias integer {\n"
	"\tsize = 64; align = 8; signed = false;\n"
	"\tmap = clock.monotonic.value;\n"
	"} := uint64_clock_monotonic_t;\n",
	"struct packet_context {\n"
	"\tuint64_clock_monotonic_t timestamp_begin;\n"
	"\tuint64_clock_monotonic_t timestamp_end;\n"
	"\tuint64_t content_size;\n"
	"\tuint64_t packet_size;\n"
	"\tuint64_t packet_seq_num;\n"
	"\tunsigned long events_discarded;\n"
	"\tuint32_t cpu_id;\n"
	"};\n",
};

static bool has_lttng_layout(const char *text)
{
	for (size_t i = 0; i < sizeof(lttng_layout_parts) /
			sizeof(lttng_layout_parts[0]); i++)
		if (!strstr(text, lttng_layout_parts[i]))
			return false;
	/* every stream uses it (a stream with another context is not ours) */
	const char *p = text;
	while ((p = strstr(p, "packet.context := ")) != NULL) {
		p += strlen("packet.context := ");
		if (strncmp(p, "struct packet_context;", 22) != 0)
			return false;
	}
	return true;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* `uuid = "8-4-4-4-12";` inside `trace { ... }` */
static bool parse_trace_uuid(const char *text, uint8_t uuid[16])
{
	const char *t = strstr(text, "\ntrace {");
	const char *u = t ? strstr(t, "\tuuid = \"") : NULL;
	if (!u)
		return false;
	u += strlen("\tuuid = \"");
	size_t n = 0;
	for (size_t i = 0; n < 16; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (u[i] != '-')
				return false;
			continue;
		}
		int hi = hex_value(u[i]), lo = hi < 0 ? -1 : hex_value(u[i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		uuid[n++] = (uint8_t)(hi << 4 | lo);
		i++;
	}
	return true;
}

static int read_whole(const char *path, uint8_t **data, size_t *len, char *why,
		size_t why_size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(why, why_size, "cannot open: %s", strerror(errno));
		return -1;
	}
	size_t cap = 65536, n = 0;
	uint8_t *buf = dt_xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap >= MD_MAX_BYTES) {
				fclose(f);
				free(buf);
				return failf(why, why_size, "larger than 256 MB");
			}
			cap *= 2;
			buf = dt_xrealloc(buf, cap);
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	bool error = ferror(f);
	fclose(f);
	if (error) {
		free(buf);
		return failf(why, why_size, "read error");
	}
	*data = buf;
	*len = n;
	return 0;
}

/* Joins the packets' text into md; -1 with a reason on any bad header. */
static int unpacketize(const uint8_t *data, size_t len, struct dt_metadata *md,
		char *why, size_t why_size)
{
	bool big_endian = read_u32(data, true) == MD_MAGIC;
	const uint8_t *first_uuid = data + 4;
	size_t off = 0, n_packet = 0;
	char *text = dt_xmalloc(len + 1);
	size_t text_len = 0;
	while (off < len) {
		const uint8_t *h = data + off;
		int bad = 0;
		char what[120];
		uint32_t content = 0, packet = 0;
		if (len - off < MD_HEADER_BYTES) {
			snprintf(what, sizeof(what), "the file ends inside the "
					"header of metadata packet %zu (truncated)",
					n_packet);
			bad = 1;
		} else {
			content = read_u32(h + 24, big_endian);
			packet = read_u32(h + 28, big_endian);
			if (read_u32(h, big_endian) != MD_MAGIC)
				snprintf(what, sizeof(what), "metadata packet %zu "
						"has no packet magic", n_packet), bad = 1;
			else if (memcmp(h + 4, first_uuid, 16) != 0)
				snprintf(what, sizeof(what), "metadata packet %zu "
						"has another UUID", n_packet), bad = 1;
			else if (h[32] || h[33] || h[34] || h[35] != 1 || h[36] != 8)
				snprintf(what, sizeof(what), "metadata packet %zu: "
						"unknown version or scheme", n_packet),
					bad = 1;
			else if (content % 8 || packet % 8 || content > packet ||
					content / 8 < MD_HEADER_BYTES)
				snprintf(what, sizeof(what), "metadata packet %zu: "
						"impossible sizes (content %u, packet "
						"%u bits)", n_packet, content, packet),
					bad = 1;
			else if (packet / 8 > len - off)
				snprintf(what, sizeof(what), "the file ends inside "
						"metadata packet %zu (truncated: %zu of "
						"%u bytes)", n_packet, len - off,
						packet / 8), bad = 1;
		}
		if (bad) {
			free(text);
			return failf(why, why_size, what);
		}
		memcpy(text + text_len, h + MD_HEADER_BYTES,
				content / 8 - MD_HEADER_BYTES);
		text_len += content / 8 - MD_HEADER_BYTES;
		off += packet / 8;
		n_packet++;
	}
	text[text_len] = '\0';
	md->text = text;
	md->len = text_len;
	memcpy(md->uuid, first_uuid, 16);
	md->has_uuid = true;
	return 0;
}

int dt_metadata_check(const char *path, struct dt_metadata *md, char *why,
		size_t why_size)
{
	memset(md, 0, sizeof(*md));
	uint8_t *data;
	size_t len;
	if (read_whole(path, &data, &len, why, why_size) != 0)
		return -1;
	int rc;
	if (len == 0) {
		rc = failf(why, why_size, "empty");
	} else if (len >= 4 && (read_u32(data, false) == MD_MAGIC ||
			read_u32(data, true) == MD_MAGIC)) {
		rc = unpacketize(data, len, md, why, why_size);
	} else if (len >= 8 && memcmp(data, "/* CTF 1", 8) == 0) {
		md->text = dt_xmalloc(len + 1);
		memcpy(md->text, data, len);
		md->text[len] = '\0';
		md->len = len;
		rc = 0;
	} else {
		rc = failf(why, why_size, "neither metadata packets nor "
				"\"/* CTF 1.8\" text");
	}
	free(data);
	if (rc == 0)
		rc = dt_metadata_check_text(md->text, md->len, why, why_size);
	if (rc == 0) {
		uint8_t text_uuid[16];
		bool text_has_uuid = parse_trace_uuid(md->text, text_uuid);
		if (md->has_uuid && text_has_uuid &&
		    memcmp(md->uuid, text_uuid, 16) != 0) {
			rc = failf(why, why_size, "its packets and its text name "
					"different trace UUIDs");
		} else if (text_has_uuid) {
			memcpy(md->uuid, text_uuid, 16);
			md->has_uuid = true;
		}
	}
	if (rc != 0) {
		dt_metadata_free(md);
		return -1;
	}
	md->lttng_layout = md->has_uuid && has_lttng_layout(md->text);
	return 0;
}

void dt_metadata_free(struct dt_metadata *md)
{
	free(md->text);
	memset(md, 0, sizeof(*md));
}
