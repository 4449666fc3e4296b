/*
 * A small table keyed by an opaque pointer (a cuDNN tensor or filter
 * descriptor, a cuDNN handle) holding a few 64-bit words about it: what the
 * program set, so the cuDNN wrappers need not ask the library on every call.
 *
 * Writers (descriptor setters, cudnnSetStream, destroys) take a mutex;
 * lookups take no lock and write no shared memory (a sequence count per
 * slot: they retry when a writer ran meanwhile). A lookup may miss even for
 * a key that was stored (table full, being compacted): callers must treat a
 * miss as "ask the library", never as "absent". A hit is always a value that
 * was stored for that key.
 *
 * Must never call into CUDA or cuDNN, and never allocate on the lookup path.
 */
#ifndef DNNTRACE_CUDNN_PTR_CACHE_H
#define DNNTRACE_CUDNN_PTR_CACHE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum {
	CUDNN_PTR_CACHE_WORDS = 10,
	CUDNN_PTR_CACHE_SLOTS = 4096, /* power of two */
};

struct cudnn_ptr_cache_slot {
	atomic_uint sequence; /* odd while a writer changes the slot */
	_Atomic uintptr_t key; /* 0: never used; 1: removed */
	_Atomic int64_t words[CUDNN_PTR_CACHE_WORDS];
};

struct cudnn_ptr_cache {
	pthread_mutex_t lock; /* writers only */
	unsigned used;        /* slots holding a key or a removal mark */
	unsigned removed;     /* slots holding a removal mark */
	struct cudnn_ptr_cache_slot slots[CUDNN_PTR_CACHE_SLOTS];
};

#define CUDNN_PTR_CACHE_INITIALIZER { .lock = PTHREAD_MUTEX_INITIALIZER }

/* Copies the words stored for key into words; false when not found. */
bool cudnn_ptr_cache_lookup(struct cudnn_ptr_cache *cache, const void *key,
			    int64_t words[CUDNN_PTR_CACHE_WORDS]);

/* Stores (or replaces) key's words. Silently keeps nothing when full. */
void cudnn_ptr_cache_store(struct cudnn_ptr_cache *cache, const void *key,
			   const int64_t words[CUDNN_PTR_CACHE_WORDS]);

void cudnn_ptr_cache_remove(struct cudnn_ptr_cache *cache, const void *key);

#endif
