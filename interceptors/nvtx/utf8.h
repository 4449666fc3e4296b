/*
 * Converts the wide strings of NVTX's W entry points (wchar_t: UTF-32 on
 * Linux) to the UTF-8 the trace stores. Independent of the C locale, never
 * allocates, never writes past the buffer it is given.
 */
#ifndef DNNTRACE_NVTX_UTF8_H
#define DNNTRACE_NVTX_UTF8_H

#include <stddef.h>
#include <wchar.h>

/*
 * Writes wide (NULL: empty) as NUL-terminated UTF-8 into out[0..out_size),
 * out_size >= 1. Code points that are not Unicode scalar values become
 * U+FFFD. A string too long is cut at a character boundary. Returns the
 * number of bytes written before the NUL.
 */
size_t nvtx_utf8_from_wide(const wchar_t *wide, char *out, size_t out_size);

#endif
