/*
 * Python pickle writer (pickle_writer.h). Opcodes, as in CPython's
 * Lib/pickle.py for protocol 4: PROTO 4; EMPTY_DICT, EMPTY_LIST, MARK,
 * SETITEMS, APPENDS; BININT1, BININT2, BININT, LONG1; SHORT_BINUNICODE,
 * BINUNICODE; BINFLOAT; NONE, NEWTRUE, NEWFALSE; MEMOIZE, BINGET,
 * LONG_BINGET; STOP. Strings are UTF-8:
 * a byte that is not part of valid UTF-8 becomes U+FFFD, so any name a
 * trace holds unpickles. Must never write an opcode that runs code.
 */
#include "analysis/report/pickle_writer.h"

#include "analysis/util.h"

#include <string.h>

#define BATCH 1000                   /* CPython's _BATCHSIZE */

static void op(struct dt_pickle *p, unsigned char c)
{
	dt_out_c(p->out, (char)c);
}

static void le(struct dt_pickle *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		op(p, (unsigned char)(v >> (8 * i)));
}

/* One more stack item in the open container: a full batch is added to it. */
static void added(struct dt_pickle *p)
{
	if (p->depth == 0 || p->depth > DT_PICKLE_DEPTH)
		return;
	int d = p->depth - 1;
	uint32_t limit = p->is_dict[d] ? 2 * BATCH : BATCH;
	if (++p->batched[d] < limit)
		return;
	op(p, p->is_dict[d] ? 'u' : 'e');    /* SETITEMS / APPENDS */
	op(p, '(');                          /* MARK */
	p->batched[d] = 0;
}

void dt_pickle_begin(struct dt_pickle *p, struct dt_out *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	op(p, 0x80);                         /* PROTO */
	op(p, 4);
}

int dt_pickle_end(struct dt_pickle *p)
{
	op(p, '.');                          /* STOP */
	return p->depth == 0 && !p->overflow ? 0 : -1;
}

static uint32_t memoize(struct dt_pickle *p)
{
	op(p, 0x94);                         /* MEMOIZE: the top of the stack */
	return p->memo_count++;
}

static void open_container(struct dt_pickle *p, bool dict, uint32_t *memo)
{
	op(p, dict ? '}' : ']');             /* EMPTY_DICT / EMPTY_LIST */
	if (memo)                            /* the empty container, as CPython */
		*memo = memoize(p);
	op(p, '(');
	if (p->depth < DT_PICKLE_DEPTH) {
		p->is_dict[p->depth] = dict;
		p->batched[p->depth] = 0;
	} else {
		p->overflow = true;
	}
	p->depth++;
}

static void close_container(struct dt_pickle *p, bool dict)
{
	if (p->depth == 0) {
		p->overflow = true;
		return;
	}
	op(p, dict ? 'u' : 'e');
	p->depth--;
	added(p);
}

void dt_pickle_dict_begin(struct dt_pickle *p) { open_container(p, true, NULL); }
void dt_pickle_dict_end(struct dt_pickle *p) { close_container(p, true); }
void dt_pickle_list_begin(struct dt_pickle *p) { open_container(p, false, NULL); }

uint32_t dt_pickle_list_begin_memo(struct dt_pickle *p)
{
	uint32_t memo;
	open_container(p, false, &memo);
	return memo;
}

void dt_pickle_memo_get(struct dt_pickle *p, uint32_t index)
{
	if (index < 256) {
		op(p, 'h');                  /* BINGET */
		op(p, (unsigned char)index);
	} else {
		op(p, 'j');                  /* LONG_BINGET */
		le(p, index, 4);
	}
	added(p);
}
void dt_pickle_list_end(struct dt_pickle *p) { close_container(p, false); }

void dt_pickle_int(struct dt_pickle *p, int64_t v)
{
	if (v >= 0 && v < 256) {
		op(p, 'K');                  /* BININT1 */
		op(p, (unsigned char)v);
	} else if (v >= 0 && v < 65536) {
		op(p, 'M');                  /* BININT2 */
		le(p, (uint64_t)v, 2);
	} else if (v >= INT32_MIN && v <= INT32_MAX) {
		op(p, 'J');                  /* BININT */
		le(p, (uint64_t)v, 4);
	} else {
		/* LONG1: the fewest little-endian two's complement bytes */
		int n = 8;
		while (n > 1) {
			int64_t top = v >> (8 * (n - 1) - 1);
			if (top != 0 && top != -1)
				break;
			n--;
		}
		op(p, 0x8a);
		op(p, (unsigned char)n);
		le(p, (uint64_t)v, n);
	}
	added(p);
}

void dt_pickle_uint(struct dt_pickle *p, uint64_t v)
{
	if (v <= INT64_MAX) {
		dt_pickle_int(p, (int64_t)v);
		return;
	}
	op(p, 0x8a);                         /* LONG1, 9 bytes: sign byte 0 */
	op(p, 9);
	le(p, v, 8);
	op(p, 0);
	added(p);
}

void dt_pickle_float(struct dt_pickle *p, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	op(p, 'G');                          /* BINFLOAT, big-endian */
	for (int i = 7; i >= 0; i--)
		op(p, (unsigned char)(bits >> (8 * i)));
	added(p);
}

void dt_pickle_bool(struct dt_pickle *p, bool v)
{
	op(p, v ? 0x88 : 0x89);
	added(p);
}

void dt_pickle_none(struct dt_pickle *p)
{
	op(p, 'N');
	added(p);
}

/* The string's opcode and bytes, not yet counted in its container. */
static void str_body(struct dt_pickle *p, const char *s)
{
	static const char replacement[] = "\xef\xbf\xbd";   /* U+FFFD */
	const unsigned char *u = (const unsigned char *)s;
	uint64_t length = 0;                 /* the UTF-8 written */
	for (size_t i = 0; u[i];) {
		int n = dt_utf8_length(u + i);
		length += n ? (uint64_t)n : 3;
		i += n ? (size_t)n : 1;
	}
	if (length < 256) {
		op(p, 0x8c);                 /* SHORT_BINUNICODE */
		op(p, (unsigned char)length);
	} else {
		op(p, 'X');                  /* BINUNICODE */
		le(p, length, 4);
	}
	for (size_t i = 0; u[i];) {
		int n = dt_utf8_length(u + i);
		if (n) {
			dt_out_mem(p->out, (const char *)u + i, (size_t)n);
			i += (size_t)n;
		} else {
			dt_out_mem(p->out, replacement, 3);
			i++;
		}
	}
}

void dt_pickle_str(struct dt_pickle *p, const char *s)
{
	if (!s) {
		dt_pickle_none(p);
		return;
	}
	str_body(p, s);
	added(p);
}

void dt_pickle_str_shared(struct dt_pickle *p, const char *s)
{
	if (!s) {
		dt_pickle_none(p);
		return;
	}
	size_t slot = ((uintptr_t)s >> 3) * 0x9E3779B97F4A7C15ull >> 57;  /* 7 bits */
	for (size_t probe = 0; probe < DT_PICKLE_SHARED; probe++) {
		size_t i = (slot + probe) % DT_PICKLE_SHARED;
		if (p->shared[i] == s) {
			dt_pickle_memo_get(p, p->shared_memo[i]);
			return;
		}
		if (!p->shared[i]) {
			str_body(p, s);
			p->shared[i] = s;
			p->shared_memo[i] = memoize(p);
			added(p);
			return;
		}
	}
	dt_pickle_str(p, s);                 /* the table is full */
}

void dt_pickle_key_str(struct dt_pickle *p, const char *key, const char *v)
{
	dt_pickle_str(p, key);
	dt_pickle_str(p, v);
}

void dt_pickle_key_int(struct dt_pickle *p, const char *key, int64_t v)
{
	dt_pickle_str(p, key);
	dt_pickle_int(p, v);
}

void dt_pickle_key_uint(struct dt_pickle *p, const char *key, uint64_t v)
{
	dt_pickle_str(p, key);
	dt_pickle_uint(p, v);
}
