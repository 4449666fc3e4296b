/*
 * wchar_t (UTF-32) to UTF-8 for NVTX's W entry points (see nvtx_utf8.h).
 * Must never depend on the program's locale: a program in the "C" locale
 * still names its ranges in any script.
 */
#include "interceptors/nvtx/utf8.h"

#include <stdint.h>

enum { REPLACEMENT_CHARACTER = 0xFFFD };

static size_t encoded_length(uint32_t code_point)
{
	if (code_point < 0x80)
		return 1;
	if (code_point < 0x800)
		return 2;
	if (code_point < 0x10000)
		return 3;
	return 4;
}

static void encode(uint32_t code_point, char *out, size_t length)
{
	static const unsigned char lead_bits[] = { 0, 0x00, 0xC0, 0xE0, 0xF0 };

	for (size_t i = length - 1; i > 0; i--) {
		out[i] = (char)(0x80 | (code_point & 0x3F));
		code_point >>= 6;
	}
	out[0] = (char)(lead_bits[length] | code_point);
}

size_t nvtx_utf8_from_wide(const wchar_t *wide, char *out, size_t out_size)
{
	size_t used = 0;

	for (; wide && *wide; wide++) {
		uint32_t code_point = (uint32_t)*wide;
		if (code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
			code_point = REPLACEMENT_CHARACTER;
		size_t length = encoded_length(code_point);
		if (used + length >= out_size)
			break;
		encode(code_point, out + used, length);
		used += length;
	}
	out[used] = '\0';
	return used;
}
