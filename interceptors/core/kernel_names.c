/*
 * The kernel name ids of kernel_names.h: names are kept by their text in a
 * chained hash table (one copy each, until exit), and a small cache keyed
 * by CUPTI's pointer skips the hashing while the pointer still points to
 * the same text (checked against the copy every time: the pointer is a
 * hint, the text decides). One mutex covers both; it is only taken on the
 * buffer-completed path. Must never be called from a wrapped call.
 */
#include "interceptors/core/kernel_names.h"
#include "interceptors/core/event_count.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tracepoints/dnntrace_gpu.h"

enum {
	BUCKETS = 1 << 12,       /* distinct names hash into these; chains grow */
	POINTER_SLOTS = 1 << 10, /* the pointer cache: direct-mapped, overwritten */
};

struct name {
	struct name *next;
	uint64_t hash;
	uint32_t id;
	char text[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct name *buckets[BUCKETS];
static struct {
	const char *pointer;
	const struct name *name;
} pointer_cache[POINTER_SLOTS];
static uint32_t next_id = 1;

/* FNV-1a over the text, and its length. */
static uint64_t hash_of(const char *text, size_t *length)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t n = 0;
	for (; text[n]; n++)
		h = (h ^ (unsigned char)text[n]) * 0x100000001b3ull;
	*length = n;
	return h;
}

static size_t pointer_slot(const char *pointer)
{
	return (size_t)(((uintptr_t)pointer * 0x9E3779B97F4A7C15ull) >> 40) & (POINTER_SLOTS - 1);
}

/* Lock held: the name with this text, remembered and announced if new; NULL
 * when there is no memory to remember it. */
static const struct name *find_or_add(const char *text)
{
	size_t length;
	uint64_t hash = hash_of(text, &length);
	struct name **chain = &buckets[hash & (BUCKETS - 1)];

	for (struct name *n = *chain; n; n = n->next)
		if (n->hash == hash && strcmp(n->text, text) == 0)
			return n;
	struct name *n = malloc(sizeof(*n) + length + 1);
	if (!n)
		return NULL;
	n->hash = hash;
	n->id = next_id++;
	memcpy(n->text, text, length + 1);
	n->next = *chain;
	*chain = n;
	DNNTRACE_EMIT(dnntrace_gpu, kernel_name, n->id, n->text);
	return n;
}

uint32_t kernel_name_id(const char *name)
{
	if (!name || !name[0])
		return 0;
	pthread_mutex_lock(&lock);
	size_t slot = pointer_slot(name);
	const struct name *n = pointer_cache[slot].name;
	if (pointer_cache[slot].pointer != name || strcmp(n->text, name) != 0) {
		n = find_or_add(name);
		pointer_cache[slot].pointer = n ? name : NULL;
		pointer_cache[slot].name = n;
	}
	uint32_t id = n ? n->id : 0;
	pthread_mutex_unlock(&lock);
	return id;
}
