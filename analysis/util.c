/*
 * Checked allocation, growable arrays, the u64 hash map and the string pool
 * (see util.h). Out of memory is the one failure handled by exiting, with a
 * single line on stderr: the analyzer cannot produce partial results then.
 */
#include "analysis/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
	fputs("dnntrace-analyze: out of memory\n", stderr);
	exit(2);
}

void *dt_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *dt_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *dt_xrealloc(void *ptr, size_t size)
{
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

void dt_grow(void **items, size_t count, size_t *cap, size_t elem_size)
{
	if (count < *cap)
		return;
	size_t new_cap = *cap ? *cap * 2 : 16;
	*items = dt_xrealloc(*items, new_cap * elem_size);
	*cap = new_cap;
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

void dt_u64map_put(struct dt_u64map *map, uint64_t key, uint64_t value)
{
	if (key == DT_MAP_EMPTY)
		return;
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
