/*
 * Checked allocation, growable arrays, the u64 hash map, the string pool
 * and removing a scratch tree (see util.h). Out of memory is the one failure handled by exiting, with a
 * single line on stderr: the analyzer cannot produce partial results then.
 */
#include "analysis/util.h"

#include <ftw.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void out_of_memory(void)
{
	fputs("dnntrace-analyze: out of memory\n", stderr);
	exit(2);
}

/*
 * Blocks of HUGE_ADVICE_MIN bytes or more (the model's tensors, the
 * results: tens of MB on a large trace) are asked for transparent huge
 * pages (THP in `madvise` mode here). On this project's 2-core virtual
 * machine the first touch of each 4 KiB page costs about 15 us of fault
 * handling (an 80 MB memset: 300-420 ms; with MADV_HUGEPAGE 180 ms the
 * first time, under 12 ms once the huge pages are the process's): on
 * the bench trace (/work/bench-d/pairs) 45 k page faults became 19.7 k.
 * 32 MiB, not less: at 4 MiB the smaller blocks' last huge pages raised
 * peak RSS by 4 MiB (to 149 MiB, the target being 150), at 32 MiB it
 * is unchanged. Only the whole 2 MiB pages inside a block are advised,
 * so no page outside it is taken; where THP is `never` or madvise
 * fails, nothing changes but the time. Assumed, not measured, on other
 * machines: no worse than 4 KiB pages.
 */
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HUGE_ADVICE_MIN ((size_t)32 << 20)

static void advise_huge_pages(void *p, size_t size)
{
	if (size < HUGE_ADVICE_MIN)
		return;
	uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
}

void *dt_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	advise_huge_pages(p, size);
	return p;
}

void *dt_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	/* calloc has checked count * size for overflow */
	advise_huge_pages(p, count * size);
	return p;
}

void *dt_xrealloc(void *ptr, size_t size)
{
	size_t old = ptr ? malloc_usable_size(ptr) : 0;
	if (size >= HUGE_ADVICE_MIN && size > old) {
		/* a growing large array: its new block advised before the
		 * copy touches it (realloc's own copy would fault every
		 * 4 KiB page of it first) */
		void *p = dt_xmalloc(size);
		if (old)
			memcpy(p, ptr, old);
		free(ptr);
		return p;
	}
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *dt_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = dt_xmalloc(n);
	memcpy(copy, s, n);
	return copy;
}

char *dt_xasprintf(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	int n = vsnprintf(NULL, 0, format, args);
	va_end(args);
	size_t size = n > 0 ? (size_t)n + 1 : 1;
	char *text = dt_xmalloc(size);
	text[0] = '\0';
	va_start(args, format);
	vsnprintf(text, size, format, args);
	va_end(args);
	return text;
}

void dt_grow(void **items, size_t count, size_t *cap, size_t elem_size)
{
	if (count < *cap)
		return;
	size_t new_cap = *cap ? *cap * 2 : 16;
	*items = dt_xrealloc(*items, new_cap * elem_size);
	*cap = new_cap;
}

void dt_sort(void *base, size_t count, size_t size,
		int (*compare)(const void *, const void *))
{
	/* Kernels, tensors and allocations mostly arrive in order already:
	 * one pass finds that and saves the n log n sort. */
	const char *item = base;
	size_t sorted = 1;
	while (sorted < count &&
	       compare(item + (sorted - 1) * size, item + sorted * size) <= 0)
		sorted++;
	if (sorted < count)
		qsort(base, count, size, compare);
}

void dt_sort_r(void *base, size_t count, size_t size,
		int (*compare)(const void *, const void *, void *), void *arg)
{
	const char *item = base;
	size_t sorted = 1;
	while (sorted < count &&
	       compare(item + (sorted - 1) * size, item + sorted * size, arg) <= 0)
		sorted++;
	if (sorted < count)
		qsort_r(base, count, size, compare, arg);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static void map_rehash(struct dt_u64map *map, size_t new_cap)
{
	uint64_t *old_keys = map->keys, *old_values = map->values;
	size_t old_cap = map->cap;
	map->keys = dt_xmalloc(new_cap * sizeof(uint64_t));
	map->values = dt_xmalloc(new_cap * sizeof(uint64_t));
	memset(map->keys, 0xff, new_cap * sizeof(uint64_t));
	map->cap = new_cap;
	map->count = 0;
	for (size_t i = 0; i < old_cap; i++)
		if (old_keys[i] != DT_MAP_EMPTY)
			dt_u64map_put(map, old_keys[i], old_values[i]);
	free(old_keys);
	free(old_values);
}

/* Ids in traces (call ids, correlation ids, tensor ids) are mostly dense
 * counters: small keys live in a direct array (value + 1, 0 = absent),
 * which avoids a cache miss per lookup; others go to the hash table. */
static bool direct_slot(struct dt_u64map *map, uint64_t key, bool grow)
{
	if (key < map->direct_cap)
		return true;
	if (!grow || key >= 2 * (uint64_t)map->direct_cap + 4096)
		return false;
	size_t new_cap = map->direct_cap ? map->direct_cap : 4096;
	while (new_cap <= key)
		new_cap *= 2;
	map->direct = dt_xrealloc(map->direct, new_cap * sizeof(uint64_t));
	memset(map->direct + map->direct_cap, 0,
			(new_cap - map->direct_cap) * sizeof(uint64_t));
	map->direct_cap = new_cap;
	return true;
}

void dt_u64map_put(struct dt_u64map *map, uint64_t key, uint64_t value)
{
	if (key == DT_MAP_EMPTY)
		return;
	if (value != UINT64_MAX && direct_slot(map, key, true)) {
		map->direct[key] = value + 1;
		return;
	}
	if (key < map->direct_cap)
		map->direct[key] = 0;   /* the hash table holds it from now on */
	if ((map->count + 1) * 2 > map->cap)
		map_rehash(map, map->cap ? map->cap * 2 : 64);
	size_t mask = map->cap - 1;
	for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
		if (map->keys[i] == key) {
			map->values[i] = value;
			return;
		}
		if (map->keys[i] == DT_MAP_EMPTY) {
			map->keys[i] = key;
			map->values[i] = value;
			map->count++;
			return;
		}
	}
}

bool dt_u64map_get(const struct dt_u64map *map, uint64_t key, uint64_t *value)
{
	if (key < map->direct_cap && map->direct[key]) {
		*value = map->direct[key] - 1;
		return true;
	}
	if (!map->cap || key == DT_MAP_EMPTY)
		return false;
	size_t mask = map->cap - 1;
	for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
		if (map->keys[i] == key) {
			*value = map->values[i];
			return true;
		}
		if (map->keys[i] == DT_MAP_EMPTY)
			return false;
	}
}

void dt_u64map_free(struct dt_u64map *map)
{
	free(map->direct);
	free(map->keys);
	free(map->values);
	memset(map, 0, sizeof(*map));
}

static uint64_t hash_string(const char *s)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void pool_insert(struct dt_strpool *pool, const char *stored)
{
	size_t mask = pool->cap - 1;
	size_t i = hash_string(stored) & mask;
	while (pool->slots[i])
		i = (i + 1) & mask;
	pool->slots[i] = stored;
	pool->count++;
}

const char *dt_strpool_intern(struct dt_strpool *pool, const char *s)
{
	if (pool->cap) {
		size_t mask = pool->cap - 1;
		for (size_t i = hash_string(s) & mask; pool->slots[i];
		     i = (i + 1) & mask)
			if (strcmp(pool->slots[i], s) == 0)
				return pool->slots[i];
	}
	if ((pool->count + 1) * 2 > pool->cap) {
		const char **old = pool->slots;
		size_t old_cap = pool->cap;
		pool->cap = old_cap ? old_cap * 2 : 64;
		pool->slots = dt_xcalloc(pool->cap, sizeof(*pool->slots));
		pool->count = 0;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				pool_insert(pool, old[i]);
		free(old);
	}
	const char *stored = dt_xstrdup(s);
	pool_insert(pool, stored);
	return stored;
}

void dt_strpool_free(struct dt_strpool *pool)
{
	for (size_t i = 0; i < pool->cap; i++)
		free((void *)pool->slots[i]);
	free(pool->slots);
	memset(pool, 0, sizeof(*pool));
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t powers_of_10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

char *dt_fmt_u64(char *p, uint64_t v)
{
	/* The digit count first, so the digits go straight to their place:
	 * log10 from the bit length (1233 / 4096 ~ log10(2)), then one
	 * comparison corrects it (v | 1: 0 has one digit too; the powers
	 * of 10 from 10 on are even, so no other count changes). */
	uint64_t odd = v | 1;
	unsigned bits = 64 - (unsigned)__builtin_clzll(odd);
	unsigned t = (bits * 1233) >> 12;
	size_t n = t + 1 - (odd < powers_of_10[t]);
	char *end = p + n;
	while (v >= 100) {
		end -= 2;
		memcpy(end, &digit_pairs[2 * (v % 100)], 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(end - 2, &digit_pairs[2 * v], 2);
	else
		end[-1] = (char)('0' + v);
	return p + n;
}

char *dt_fmt_i64(char *p, int64_t v)
{
	if (v >= 0)
		return dt_fmt_u64(p, (uint64_t)v);
	*p++ = '-';
	return dt_fmt_u64(p, (uint64_t)0 - (uint64_t)v);
}

char *dt_fmt_us3(char *p, uint64_t ns)
{
	p = dt_fmt_u64(p, ns / 1000);
	unsigned frac = (unsigned)(ns % 1000);
	*p++ = '.';
	*p++ = (char)('0' + frac / 100);
	memcpy(p, &digit_pairs[2 * (frac % 100)], 2);
	return p + 2;
}

/*
 * %g with precision 6 of the value ns * 10^-3, in integer arithmetic. The
 * double ns / 1000.0 that printf would see differs from the exact decimal
 * by far less than the 10^-3 step between candidates, so rounding the exact
 * value gives printf's digits, except at an exact tie, where printf's
 * result depends on the binary value: ties, and the exponential form, go to
 * snprintf.
 */
/* Decimal digits of v into out (no sign); returns their count. */
static int u64_digits(uint64_t v, char *out)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return n;
}

const char *dt_format_us_g(uint64_t ns, char *buf)
{
	if (ns == 0)
		return strcpy(buf, "0");
	char digits[24];
	int n = u64_digits(ns, digits);
	int exponent = n - 1 - 3;
	uint64_t significand = ns;
	int kept = n;
	if (n > 6) {
		uint64_t scale = 1;
		for (int i = 0; i < n - 6; i++)
			scale *= 10;
		uint64_t rest = ns % scale, half = scale / 2;
		significand = ns / scale;
		if (rest == half)
			goto slow;
		if (rest > half && ++significand == 1000000) {
			significand = 100000;
			exponent++;
		}
		kept = 6;
	}
	if (exponent < -4 || exponent >= 6)
		goto slow;
	u64_digits(significand, digits);
	while (kept > 1 && digits[kept - 1] == '0')
		kept--;
	digits[kept] = '\0';
	char *out = buf;
	if (exponent < 0) {
		*out++ = '0';
		*out++ = '.';
		for (int i = 0; i < -exponent - 1; i++)
			*out++ = '0';
		memcpy(out, digits, (size_t)kept + 1);
		return buf;
	}
	for (int i = 0; i <= exponent; i++)
		*out++ = i < kept ? digits[i] : '0';
	if (kept > exponent + 1) {
		*out++ = '.';
		memcpy(out, digits + exponent + 1, (size_t)(kept - exponent - 1));
		out += kept - exponent - 1;
	}
	*out = '\0';
	return buf;
slow:
	snprintf(buf, 32, "%g", (double)ns / 1000.0);
	return buf;
}

static int remove_entry(const char *path, const struct stat *st, int type,
		struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void dt_remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Length of the valid UTF-8 sequence at s (1-4), 0 if it is not one. */
int dt_utf8_length(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	uint32_t min, cp;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0) {
		n = 2; min = 0x80; cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3; min = 0x800; cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4; min = 0x10000; cp = c & 0x07;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;    /* also stops at the terminating NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;    /* overlong, beyond Unicode, or a surrogate */
	return n;
}
