/*
 * Unit test of interceptors/cudnn/ptr_cache.c, the lock-free pointer-keyed
 * cache behind the cuDNN wrappers' descriptor shapes and handle streams:
 * store, replace, remove, reuse of removed slots, compaction after many
 * removals (every live key still found), a full table (stores dropped, hits
 * still right), and readers racing a writer never seeing a torn entry (each
 * key's words are a function of the key and a version, checked on every hit).
 * Must never call CUDA.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "interceptors/cudnn/ptr_cache.h"

static int failures;
#define EXPECT(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
	printf(__VA_ARGS__); printf("\n"); } } while (0)

static struct cudnn_ptr_cache cache = CUDNN_PTR_CACHE_INITIALIZER;

static const void *key_of(unsigned i)
{
	return (const void *)(uintptr_t)(0x10000 + 64 * (uintptr_t)i);
}

static void words_for(const void *key, int64_t version, int64_t *w)
{
	for (int i = 0; i < CUDNN_PTR_CACHE_WORDS; i++)
		w[i] = (int64_t)(uintptr_t)key * 3 + version * 7 + i;
}

/* True when w is words_for(key, some version); sets *version. */
static int consistent(const void *key, const int64_t *w, int64_t *version)
{
	int64_t v = (w[0] - (int64_t)(uintptr_t)key * 3) / 7;
	int64_t expect[CUDNN_PTR_CACHE_WORDS];
	words_for(key, v, expect);
	for (int i = 0; i < CUDNN_PTR_CACHE_WORDS; i++)
		if (w[i] != expect[i])
			return 0;
	*version = v;
	return 1;
}

static void test_basic(void)
{
	int64_t w[CUDNN_PTR_CACHE_WORDS], got[CUDNN_PTR_CACHE_WORDS], v;
	EXPECT(!cudnn_ptr_cache_lookup(&cache, key_of(1), got), "empty cache hit");
	EXPECT(!cudnn_ptr_cache_lookup(&cache, NULL, got), "NULL key hit");
	words_for(key_of(1), 1, w);
	cudnn_ptr_cache_store(&cache, key_of(1), w);
	EXPECT(cudnn_ptr_cache_lookup(&cache, key_of(1), got) && consistent(key_of(1), got, &v) && v == 1,
	       "stored key not found");
	words_for(key_of(1), 2, w);
	cudnn_ptr_cache_store(&cache, key_of(1), w);
	EXPECT(cudnn_ptr_cache_lookup(&cache, key_of(1), got) && consistent(key_of(1), got, &v) && v == 2,
	       "replaced words not seen");
	cudnn_ptr_cache_remove(&cache, key_of(1));
	EXPECT(!cudnn_ptr_cache_lookup(&cache, key_of(1), got), "removed key still found");
	cudnn_ptr_cache_store(&cache, key_of(1), w);
	EXPECT(cudnn_ptr_cache_lookup(&cache, key_of(1), got), "key stored again not found");
	cudnn_ptr_cache_remove(&cache, key_of(1));
}

/* Create/destroy churn far beyond the capacity: live keys stay findable. */
static void test_churn(void)
{
	int64_t w[CUDNN_PTR_CACHE_WORDS], got[CUDNN_PTR_CACHE_WORDS], v;
	enum { LIVE = 200, ROUNDS = 20 * CUDNN_PTR_CACHE_SLOTS };
	for (unsigned i = 0; i < ROUNDS; i++) {
		words_for(key_of(1000 + i), 5, w);
		cudnn_ptr_cache_store(&cache, key_of(1000 + i), w);
		if (i >= LIVE)
			cudnn_ptr_cache_remove(&cache, key_of(1000 + i - LIVE));
	}
	unsigned found = 0;
	for (unsigned i = ROUNDS - LIVE; i < ROUNDS; i++)
		found += cudnn_ptr_cache_lookup(&cache, key_of(1000 + i), got) &&
			 consistent(key_of(1000 + i), got, &v) && v == 5;
	EXPECT(found == LIVE, "after churn %u of %d live keys found", found, LIVE);
	EXPECT(!cudnn_ptr_cache_lookup(&cache, key_of(1000), got), "an old removed key found");
	for (unsigned i = ROUNDS - LIVE; i < ROUNDS; i++)
		cudnn_ptr_cache_remove(&cache, key_of(1000 + i));
}

/* More live keys than slots: some stores are dropped, every hit is right. */
static void test_full(void)
{
	int64_t w[CUDNN_PTR_CACHE_WORDS], got[CUDNN_PTR_CACHE_WORDS], v;
	unsigned n = 2 * CUDNN_PTR_CACHE_SLOTS, hits = 0, wrong = 0;
	for (unsigned i = 0; i < n; i++) {
		words_for(key_of(500000 + i), 9, w);
		cudnn_ptr_cache_store(&cache, key_of(500000 + i), w);
	}
	for (unsigned i = 0; i < n; i++) {
		if (!cudnn_ptr_cache_lookup(&cache, key_of(500000 + i), got))
			continue;
		hits++;
		wrong += !(consistent(key_of(500000 + i), got, &v) && v == 9);
	}
	EXPECT(wrong == 0, "%u wrong hits in a full table", wrong);
	EXPECT(hits >= CUDNN_PTR_CACHE_SLOTS / 2, "only %u hits in a full table", hits);
	for (unsigned i = 0; i < n; i++)
		cudnn_ptr_cache_remove(&cache, key_of(500000 + i));
}

static atomic_bool stop;
static atomic_uint torn, reader_hits;

static void *reader(void *arg)
{
	int64_t got[CUDNN_PTR_CACHE_WORDS], v;
	(void)arg;
	while (!atomic_load(&stop)) {
		for (unsigned i = 0; i < 64; i++) {
			if (!cudnn_ptr_cache_lookup(&cache, key_of(900000 + i), got))
				continue;
			atomic_fetch_add(&reader_hits, 1);
			if (!consistent(key_of(900000 + i), got, &v))
				atomic_fetch_add(&torn, 1);
		}
	}
	return NULL;
}

static void test_race(void)
{
	pthread_t threads[2];
	int64_t w[CUDNN_PTR_CACHE_WORDS];
	for (int t = 0; t < 2; t++)
		pthread_create(&threads[t], NULL, reader, NULL);
	/*
	 * At least 20000 rounds, and on until the readers have seen entries
	 * (on a loaded 2-core machine they may not run at all during the first
	 * rounds), within a bound so a broken cache still ends the test.
	 */
	time_t deadline = time(NULL) + 20;
	for (int64_t round = 0; round < 20000 ||
	     (atomic_load(&reader_hits) < 1000 && time(NULL) < deadline); round++) {
		unsigned i = (unsigned)(round % 64);
		words_for(key_of(900000 + i), round, w);
		cudnn_ptr_cache_store(&cache, key_of(900000 + i), w);
		if (round % 7 == 0)
			cudnn_ptr_cache_remove(&cache, key_of(900000 + (i + 5) % 64));
	}
	atomic_store(&stop, 1);
	for (int t = 0; t < 2; t++)
		pthread_join(threads[t], NULL);
	EXPECT(atomic_load(&torn) == 0, "%u torn reads", atomic_load(&torn));
	EXPECT(atomic_load(&reader_hits) > 0, "readers never hit");
}

int main(void)
{
	test_basic();
	test_churn();
	test_full();
	test_race();
	if (failures)
		return 1;
	printf("cudnn_ptr_cache: all checks passed\n");
	return 0;
}
