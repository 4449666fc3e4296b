/*
 * Unit test of the metadata pre-check (metadata_check.c): TSDL texts that
 * must pass (braces inside strings and comments, nested blocks) and fail
 * (cut inside a block, a comment or a string, unbalanced or mismatched
 * brackets, a NUL byte, no closing ';'), and packetized files built here
 * byte by byte: intact, cut inside a packet or its header, a packet with
 * another UUID, impossible sizes, a scheme we cannot read. Expected
 * verdicts follow from how each input is built.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/decode/metadata_check.h"
#include "tests/analysis/check.h"

static int text_ok(const char *text)
{
	char why[200];
	return dt_metadata_check_text(text, strlen(text), why, sizeof(why)) == 0;
}

static const char *const intact =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"trace {\n\tmajor = 1;\n\tminor = 8;\n"
	"\tuuid = \"00112233-4455-6677-8899-aabbccddeeff\";\n"
	"\tbyte_order = le;\n};\n"
	"event {\n\tname = \"a{b\"; /* } */\n\tfields := struct { uint8_t x[2]; };\n};\n";

/* Writes TEXT as metadata packets of PACKET bytes (the last one padded),
 * returns the file size. */
static size_t write_packets(const char *path, const char *text, uint32_t packet,
		uint8_t uuid_byte)
{
	FILE *f = fopen(path, "wb");
	CHECK(f);
	size_t len = strlen(text), off = 0, total = 0, chunk = packet - 37;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		uint8_t h[37] = {0};
		uint32_t magic = 0x75D11D57, content = (uint32_t)(37 + n) * 8,
			 size = packet * 8;
		memcpy(h, &magic, 4);
		memset(h + 4, uuid_byte, 16);
		memcpy(h + 24, &content, 4);
		memcpy(h + 28, &size, 4);
		h[35] = 1;
		h[36] = 8;
		fwrite(h, 1, sizeof(h), f);
		fwrite(text + off, 1, n, f);
		for (size_t i = n; i < chunk; i++)
			fputc(0, f);
		off += n;
		total += packet;
	}
	fclose(f);
	return total;
}

static int file_ok(const char *path, char *why, size_t size)
{
	struct dt_metadata md;
	int rc = dt_metadata_check(path, &md, why, size);
	dt_metadata_free(&md);
	return rc == 0;
}

int main(void)
{
	CHECK(text_ok(intact));
	CHECK(text_ok("a { b { c; }; };\n// trailing comment\n"));
	CHECK(!text_ok("trace { major = 1;"));          /* cut inside a block */
	CHECK(!text_ok("a; /* never closed"));
	CHECK(!text_ok("a = \"never closed;"));
	CHECK(!text_ok("a { b; };}"));
	CHECK(!text_ok("a { b[2); };"));
	CHECK(!text_ok("a { b; }"));                    /* no closing ';' */
	CHECK(!text_ok(""));
	char nul[] = "a { b; };\0c;";
	char why[200];
	CHECK(dt_metadata_check_text(nul, sizeof(nul) - 1, why, sizeof(why)) != 0);

	/* every cut of the intact text fails, except right after one of its
	 * three top-level declarations (indistinguishable from a whole text) */
	size_t len = strlen(intact);
	const char *ends[] = {":= uint8_t;", "\tbyte_order = le;\n};", "x[2]; };\n};"};
	for (size_t cut = 0; cut + 2 < len; cut++) {
		int at_end = 0;
		for (size_t e = 0; e < 3; e++) {
			const char *p = strstr(intact, ends[e]);
			size_t end = (size_t)(p - intact) + strlen(ends[e]);
			at_end |= cut >= end && strspn(intact + end, "\n") >= cut - end;
		}
		int ok = dt_metadata_check_text(intact, cut, why, sizeof(why)) == 0;
		CHECK(ok == at_end);
	}

	char dir[] = "/tmp/dnntrace-mdcheck.XXXXXX";
	CHECK(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/metadata", dir);

	/* plain text */
	FILE *f = fopen(path, "wb");
	CHECK(f);
	fputs(intact, f);
	fclose(f);
	struct dt_metadata md;
	CHECK(dt_metadata_check(path, &md, why, sizeof(why)) == 0);
	CHECK(md.has_uuid && md.uuid[0] == 0x00 && md.uuid[15] == 0xff);
	CHECK(!md.lttng_layout);   /* no LTTng packet header declared */
	dt_metadata_free(&md);

	/* packetized, 64-byte packets: several of them */
	size_t size = write_packets(path, intact, 64, 0xab);
	CHECK(size > 4 * 64);
	CHECK(!file_ok(path, why, sizeof(why)));   /* packet UUID != text's */
	char uuid_text[400];
	snprintf(uuid_text, sizeof(uuid_text), "%s", intact);
	memcpy(strstr(uuid_text, "0011"), "abababab-abab-abab-abab-abababababab", 36);
	size = write_packets(path, uuid_text, 64, 0xab);
	CHECK(file_ok(path, why, sizeof(why)));
	/* cut inside a packet, inside a header, on a boundary before the end */
	for (size_t cut = 1; cut < size; cut++) {
		CHECK(truncate(path, (off_t)cut) == 0);
		int ok = file_ok(path, why, sizeof(why));
		CHECK(!ok || cut % 64 == 0);
		write_packets(path, uuid_text, 64, 0xab);
	}
	/* a byte of one packet's UUID, its sizes, its scheme */
	const struct { long offset; uint8_t value; } edits[] = {
		{64 + 4, 0xac},          /* packet 1's UUID */
		{64 + 24, 0x01},         /* content size not whole bytes */
		{64 + 30, 0x01},         /* packet size past the file */
		{64 + 32, 1},            /* compression */
		{64 + 36, 9},            /* minor version */
		{64 + 0, 0},             /* magic */
	};
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		write_packets(path, uuid_text, 64, 0xab);
		f = fopen(path, "r+b");
		CHECK(f);
		fseek(f, edits[i].offset, SEEK_SET);
		fputc(edits[i].value, f);
		fclose(f);
		if (file_ok(path, why, sizeof(why))) {
			fprintf(stderr, "edit %zu accepted\n", i);
			return 1;
		}
	}
	unlink(path);
	rmdir(dir);
	puts("metadata pre-check: good texts and files pass, cut or corrupt ones fail");
	return 0;
}
