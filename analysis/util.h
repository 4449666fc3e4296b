/*
 * Small shared helpers of the analyzer: checked allocation, a growable
 * array, a u64 -> u64 hash map and a string interning pool. Every structure
 * here grows with tensors, kernels or distinct names, never with raw events.
 * Must never print anything except the one fatal out-of-memory line.
 */
#ifndef DNNTRACE_ANALYSIS_UTIL_H
#define DNNTRACE_ANALYSIS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

void *dt_xmalloc(size_t size);
void *dt_xcalloc(size_t count, size_t size);
void *dt_xrealloc(void *ptr, size_t size);
char *dt_xstrdup(const char *s);
/* printf into a new string (the caller frees it). */
char *dt_xasprintf(const char *format, ...)
	__attribute__((format(printf, 1, 2)));

/* Makes room for one more element in a growable array (*items, *count, *cap). */
void dt_grow(void **items, size_t count, size_t *cap, size_t elem_size);
#define DT_PUSH_SLOT(arr, count, cap) \
	(dt_grow((void **)&(arr), (count), &(cap), sizeof(*(arr))), &(arr)[(count)++])

/* qsort for arrays that may be empty and so NULL: qsort's base must point
 * to an array even when count is 0 (C11 7.22.5), which UBSan checks. */
void dt_sort(void *base, size_t count, size_t size,
		int (*compare)(const void *, const void *));
/* dt_sort with an argument for compare (qsort_r's). */
void dt_sort_r(void *base, size_t count, size_t size,
		int (*compare)(const void *, const void *, void *), void *arg);

/* Map from u64 keys to u64 values: a direct array for small keys, open
 * addressing for the rest. UINT64_MAX is not a key. */
struct dt_u64map {
	uint64_t *direct;     /* small keys: value + 1, 0 = absent */
	size_t direct_cap;
	uint64_t *keys;
	uint64_t *values;
	size_t cap;   /* power of two, or 0 */
	size_t count;
};
#define DT_MAP_EMPTY UINT64_MAX

void dt_u64map_put(struct dt_u64map *map, uint64_t key, uint64_t value);
bool dt_u64map_get(const struct dt_u64map *map, uint64_t key, uint64_t *value);
void dt_u64map_free(struct dt_u64map *map);

/* Number formatting straight into a buffer, two digits per step: what
 * the report's big files spend most of their formatting on. Each writes
 * the digits at p (no NUL) and returns the end; u64 and i64 need 20 bytes
 * of room, us3 24. */
char *dt_fmt_u64(char *p, uint64_t v);
char *dt_fmt_i64(char *p, int64_t v);
/* ns as µs with exactly three decimals ("1234.567"): exact, no double. */
char *dt_fmt_us3(char *p, uint64_t ns);

/* ns / 1000 formatted exactly as printf("%g") would (G10's iostream
 * default), without printf on the common path. buf needs 32 bytes. */
const char *dt_format_us_g(uint64_t ns, char *buf);

/* Interned strings: equal names share one stored copy for the whole run. */
struct dt_strpool {
	const char **slots;
	size_t cap;
	size_t count;
};
const char *dt_strpool_intern(struct dt_strpool *pool, const char *s);
void dt_strpool_free(struct dt_strpool *pool);

/* Removes path and everything below it, as far as it can (links are
 * removed, never followed). */
void dt_remove_tree(const char *path);

/* Length of the valid UTF-8 sequence at s (1-4), 0 if it is not one
   (stops at the terminating NUL). Both text writers (timeline JSON,
   pickle) replace what is not valid UTF-8. */
int dt_utf8_length(const unsigned char *s);

#endif
