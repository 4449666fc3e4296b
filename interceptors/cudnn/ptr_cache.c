/*
 * The pointer-keyed cache of the cuDNN wrappers (see cudnn_ptr_cache.h):
 * open addressing, every key within PROBE_LIMIT slots of its home slot, so
 * a lookup reads a bounded run of slots. Removed keys leave a mark that
 * later stores reuse; when marks pile up the table is compacted in place
 * (readers meanwhile may miss, which callers accept).
 *
 * Must never call into CUDA or cuDNN; lookups never lock nor allocate.
 */
#include "interceptors/cudnn/ptr_cache.h"

#include <stdlib.h>
#include <string.h>

enum {
	PROBE_LIMIT = 64,
	KEY_EMPTY = 0,
	KEY_REMOVED = 1,
};

static unsigned home_slot(uintptr_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	return (unsigned)(h >> 40) & (CUDNN_PTR_CACHE_SLOTS - 1);
}

static struct cudnn_ptr_cache_slot *slot_at(struct cudnn_ptr_cache *cache, unsigned home,
					    unsigned step)
{
	return &cache->slots[(home + step) & (CUDNN_PTR_CACHE_SLOTS - 1)];
}

bool cudnn_ptr_cache_lookup(struct cudnn_ptr_cache *cache, const void *key,
			    int64_t words[CUDNN_PTR_CACHE_WORDS])
{
	uintptr_t wanted = (uintptr_t)key;
	unsigned home = home_slot(wanted);

	if (wanted <= KEY_REMOVED)
		return false;
	for (unsigned step = 0; step < PROBE_LIMIT; step++) {
		struct cudnn_ptr_cache_slot *slot = slot_at(cache, home, step);
		for (;;) {
			unsigned before = atomic_load_explicit(&slot->sequence, memory_order_acquire);
			if (before & 1u)
				continue; /* a writer is in this slot: wait for it */
			uintptr_t found = atomic_load_explicit(&slot->key, memory_order_relaxed);
			if (found == wanted) {
				for (unsigned i = 0; i < CUDNN_PTR_CACHE_WORDS; i++)
					words[i] = atomic_load_explicit(&slot->words[i],
									memory_order_relaxed);
			}
			atomic_thread_fence(memory_order_acquire);
			if (atomic_load_explicit(&slot->sequence, memory_order_relaxed) != before)
				continue;
			if (found == wanted)
				return true;
			if (found == KEY_EMPTY)
				return false;
			break;
		}
	}
	return false;
}

/* Writer side (lock held): one slot rewritten under its sequence count. */
static void write_slot(struct cudnn_ptr_cache_slot *slot, uintptr_t key, const int64_t *words)
{
	unsigned sequence = atomic_load_explicit(&slot->sequence, memory_order_relaxed);
	atomic_store_explicit(&slot->sequence, sequence + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&slot->key, key, memory_order_relaxed);
	for (unsigned i = 0; i < CUDNN_PTR_CACHE_WORDS; i++)
		atomic_store_explicit(&slot->words[i], words ? words[i] : 0, memory_order_relaxed);
	atomic_store_explicit(&slot->sequence, sequence + 2, memory_order_release);
}

/* Lock held. The slot holding key, or NULL. */
static struct cudnn_ptr_cache_slot *find_locked(struct cudnn_ptr_cache *cache, uintptr_t key)
{
	unsigned home = home_slot(key);
	for (unsigned step = 0; step < PROBE_LIMIT; step++) {
		struct cudnn_ptr_cache_slot *slot = slot_at(cache, home, step);
		uintptr_t found = atomic_load_explicit(&slot->key, memory_order_relaxed);
		if (found == key)
			return slot;
		if (found == KEY_EMPTY)
			return NULL;
	}
	return NULL;
}

/* Lock held: a slot for a key not in the table (empty or removed), or NULL. */
static struct cudnn_ptr_cache_slot *free_slot_locked(struct cudnn_ptr_cache *cache, uintptr_t key)
{
	unsigned home = home_slot(key);
	for (unsigned step = 0; step < PROBE_LIMIT; step++) {
		struct cudnn_ptr_cache_slot *slot = slot_at(cache, home, step);
		uintptr_t found = atomic_load_explicit(&slot->key, memory_order_relaxed);
		if (found == KEY_EMPTY || found == KEY_REMOVED)
			return slot;
	}
	return NULL;
}

struct saved_entry {
	uintptr_t key;
	int64_t words[CUDNN_PTR_CACHE_WORDS];
};

/* Lock held: drops every removal mark by re-storing the live keys. */
static void compact_locked(struct cudnn_ptr_cache *cache)
{
	struct saved_entry *saved = malloc(sizeof(*saved) * CUDNN_PTR_CACHE_SLOTS);
	unsigned count = 0;

	for (unsigned i = 0; i < CUDNN_PTR_CACHE_SLOTS; i++) {
		struct cudnn_ptr_cache_slot *slot = &cache->slots[i];
		uintptr_t key = atomic_load_explicit(&slot->key, memory_order_relaxed);
		if (key == KEY_EMPTY)
			continue;
		if (key != KEY_REMOVED && saved) {
			saved[count].key = key;
			for (unsigned w = 0; w < CUDNN_PTR_CACHE_WORDS; w++)
				saved[count].words[w] = atomic_load_explicit(&slot->words[w],
									     memory_order_relaxed);
			count++;
		}
		write_slot(slot, KEY_EMPTY, NULL);
	}
	cache->used = 0;
	cache->removed = 0;
	for (unsigned i = 0; i < count; i++) {
		struct cudnn_ptr_cache_slot *slot = free_slot_locked(cache, saved[i].key);
		if (slot) {
			write_slot(slot, saved[i].key, saved[i].words);
			cache->used++;
		}
	}
	free(saved);
}

void cudnn_ptr_cache_store(struct cudnn_ptr_cache *cache, const void *key,
			   const int64_t words[CUDNN_PTR_CACHE_WORDS])
{
	uintptr_t k = (uintptr_t)key;

	if (k <= KEY_REMOVED)
		return;
	pthread_mutex_lock(&cache->lock);
	struct cudnn_ptr_cache_slot *slot = find_locked(cache, k);
	if (!slot) {
		/* Only worth it when removal marks are many: live keys stay. */
		if (cache->used >= CUDNN_PTR_CACHE_SLOTS / 4 * 3 &&
		    cache->removed >= CUDNN_PTR_CACHE_SLOTS / 8)
			compact_locked(cache);
		slot = free_slot_locked(cache, k);
		if (slot && atomic_load_explicit(&slot->key, memory_order_relaxed) == KEY_EMPTY)
			cache->used++;
		else if (slot)
			cache->removed--;
	}
	if (slot)
		write_slot(slot, k, words);
	pthread_mutex_unlock(&cache->lock);
}

void cudnn_ptr_cache_remove(struct cudnn_ptr_cache *cache, const void *key)
{
	uintptr_t k = (uintptr_t)key;

	if (k <= KEY_REMOVED)
		return;
	pthread_mutex_lock(&cache->lock);
	struct cudnn_ptr_cache_slot *slot = find_locked(cache, k);
	if (slot) {
		write_slot(slot, KEY_REMOVED, NULL);
		cache->removed++;
	}
	pthread_mutex_unlock(&cache->lock);
}
