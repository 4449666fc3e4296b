/*
 * Unit test of the live-allocation map (interceptors/core/tensor_map.c): base and
 * interior lookups against a brute-force model under random inserts and
 * removals, stale-overlap replacement, the batch lookup, and many threads
 * reading while others insert and remove. Must never depend on CUDA.
 */
#include "interceptors/core/tensor_map.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		failures++; \
	} \
} while (0)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* --- model: slots on a grid, each live or not -------------------------- */

enum { SLOTS = 4000, SLOT_STRIDE = 1 << 16 };
static const uintptr_t ARENA = 0x7f0000000000ull;

struct model_slot { bool live; uint64_t size; int64_t id; };
static struct model_slot model[SLOTS];

static int64_t model_lookup(uintptr_t addr)
{
	if (addr < ARENA)
		return -1;
	uint64_t slot = (addr - ARENA) / SLOT_STRIDE;
	uint64_t offset = (addr - ARENA) % SLOT_STRIDE;
	if (slot >= SLOTS || !model[slot].live || offset >= model[slot].size)
		return -1;
	return model[slot].id;
}

static void test_against_model(void)
{
	struct tensor_map map;
	int64_t next_id = 0;

	CHECK(tensor_map_init(&map) == 0, "init");
	for (int step = 0; step < 60000; step++) {
		size_t slot = next_random() % SLOTS;
		uintptr_t base = ARENA + slot * SLOT_STRIDE;
		if (!model[slot].live) {
			uint64_t size = 1 + next_random() % SLOT_STRIDE;
			struct tensor_map_entry entry = { base, size, next_id, 0, 0, false };
			size_t stale = 99;
			CHECK(tensor_map_insert(&map, &entry, &stale) == 0, "insert");
			CHECK(stale == 0, "no stale entry expected, got %zu", stale);
			model[slot] = (struct model_slot){ true, size, next_id++ };
		} else {
			struct tensor_map_entry removed;
			CHECK(tensor_map_remove(&map, base, &removed), "remove live slot %zu", slot);
			CHECK(removed.tensor_id == model[slot].id, "removed id %lld != %lld",
			      (long long)removed.tensor_id, (long long)model[slot].id);
			model[slot].live = false;
		}
		/* Probe random addresses: bases, interiors, ends, gaps. */
		for (int probe = 0; probe < 4; probe++) {
			size_t s = next_random() % SLOTS;
			uintptr_t addr = ARENA + s * SLOT_STRIDE;
			switch (next_random() % 4) {
			case 0: break;
			case 1: addr += model[s].size ? next_random() % model[s].size : 0; break;
			case 2: addr += model[s].size; break;       /* one past the end */
			default: addr += next_random() % SLOT_STRIDE; break;
			}
			struct tensor_map_entry found;
			bool hit = tensor_map_find(&map, addr, &found);
			int64_t want = model_lookup(addr);
			CHECK(hit == (want >= 0) && (!hit || found.tensor_id == want),
			      "lookup %#lx: got %s %lld, want %lld", (unsigned long)addr,
			      hit ? "hit" : "miss", hit ? (long long)found.tensor_id : -1LL,
			      (long long)want);
		}
		if (failures > 10)
			break;
	}
	size_t live = 0;
	for (size_t s = 0; s < SLOTS; s++)
		live += model[s].live;
	CHECK(tensor_map_count(&map) == live, "count %zu != %zu", tensor_map_count(&map), live);

	/* Removing an interior address or an unknown base removes nothing. */
	for (size_t s = 0; s < SLOTS; s++) {
		if (model[s].live && model[s].size > 1) {
			uintptr_t base = ARENA + s * SLOT_STRIDE;
			CHECK(!tensor_map_remove(&map, base + 1, NULL), "interior remove");
			CHECK(tensor_map_find(&map, base + 1, NULL), "still there");
			break;
		}
	}
	CHECK(!tensor_map_remove(&map, 12345, NULL), "unknown remove");
	tensor_map_destroy(&map);
}

static void test_stale_overlap_and_batch(void)
{
	struct tensor_map map = TENSOR_MAP_INITIALIZER;
	size_t stale;

	/* Three stale neighbours; a new allocation covers two of them. */
	struct tensor_map_entry a = { 0x1000, 0x100, 1, 0, 0, false }, b = { 0x1100, 0x100, 2, 0, 0, false },
				c = { 0x1200, 0x100, 3, 0, 0, false }, fresh = { 0x1080, 0x100, 4, 0, 0, false };
	tensor_map_insert(&map, &a, NULL);
	tensor_map_insert(&map, &b, NULL);
	tensor_map_insert(&map, &c, NULL);
	CHECK(tensor_map_insert(&map, &fresh, &stale) == 0 && stale == 2,
	      "overlap replaced %zu entries, want 2", stale);
	uintptr_t addrs[] = { 0x1000, 0x1080, 0x117f, 0x1180, 0x1200, 0x12ff, 0x1300, 0 };
	int64_t want[] = { -1, 4, 4, -1, 3, 3, -1, -1 };
	int64_t ids[8];
	tensor_map_find_ids(&map, addrs, 8, ids);
	for (int i = 0; i < 8; i++)
		CHECK(ids[i] == want[i], "batch[%d] %#lx: %lld want %lld", i,
		      (unsigned long)addrs[i], (long long)ids[i], (long long)want[i]);
	CHECK(!tensor_map_may_contain(&map, 0xfff) && !tensor_map_may_contain(&map, 0x1300),
	      "quick reject outside [lowest, highest)");

	/* A zero-size allocation still maps its base (stored as one byte). */
	struct tensor_map_entry empty = { 0x5000, 0, 9, 0, 0, false };
	tensor_map_insert(&map, &empty, NULL);
	struct tensor_map_entry found;
	CHECK(tensor_map_find(&map, 0x5000, &found) && found.tensor_id == 9, "zero size");
	CHECK(!tensor_map_find(&map, 0x5001, NULL), "zero size covers one byte");
	/* An allocation running past the top of the address space saturates. */
	struct tensor_map_entry top = { UINTPTR_MAX - 0xff, 0x1000, 10, 0, 0, false };
	tensor_map_insert(&map, &top, NULL);
	CHECK(tensor_map_find(&map, UINTPTR_MAX - 1, &found) && found.tensor_id == 10, "top");
	tensor_map_destroy(&map);
}

/* --- threads ------------------------------------------------------------ */

enum { THREADS = 8, STABLE = 512, ROUNDS = 20000 };
static struct tensor_map shared_map = TENSOR_MAP_INITIALIZER;
static const uintptr_t STABLE_BASE = 0x100000000ull, CHURN_BASE = 0x200000000ull;
static atomic_int thread_failures;

static void *thread_main(void *arg)
{
	uintptr_t index = (uintptr_t)arg;
	uint64_t state = 0x1234567 + index;
	uintptr_t mine = CHURN_BASE + index * 0x100000;

	for (int round = 0; round < ROUNDS; round++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		/* Every stable tensor is always found, by base or interior. */
		uint64_t s = (state >> 33) % STABLE;
		uintptr_t addr = STABLE_BASE + s * 0x1000 + ((state >> 20) % 0x800);
		struct tensor_map_entry found;
		if (!tensor_map_find(&shared_map, addr, &found) || found.tensor_id != (int64_t)s)
			atomic_fetch_add(&thread_failures, 1);
		/* This thread's own tensor comes and goes; only it touches it. */
		struct tensor_map_entry entry = { mine, 0x800, 100000 + (int64_t)index, 0, 0, false };
		if (tensor_map_insert(&shared_map, &entry, NULL) != 0 ||
		    !tensor_map_find(&shared_map, mine + 0x7ff, &found) ||
		    found.tensor_id != entry.tensor_id ||
		    !tensor_map_remove(&shared_map, mine, NULL) ||
		    tensor_map_find(&shared_map, mine, NULL))
			atomic_fetch_add(&thread_failures, 1);
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t threads[THREADS];

	for (uint64_t s = 0; s < STABLE; s++) {
		struct tensor_map_entry entry = { STABLE_BASE + s * 0x1000, 0x800, (int64_t)s, 0, 0, false };
		tensor_map_insert(&shared_map, &entry, NULL);
	}
	for (uintptr_t i = 0; i < THREADS; i++)
		pthread_create(&threads[i], NULL, thread_main, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	CHECK(atomic_load(&thread_failures) == 0, "%d wrong answers under concurrency",
	      atomic_load(&thread_failures));
	CHECK(tensor_map_count(&shared_map) == STABLE, "count after threads %zu",
	      tensor_map_count(&shared_map));
	tensor_map_destroy(&shared_map);
}

/* A device reset takes every entry of its device except the kept kind, in
 * batches, and leaves the other devices' entries alone. */
static void test_take_device(void)
{
	struct tensor_map map;
	tensor_map_init(&map);
	for (int i = 0; i < 100; i++) {
		struct tensor_map_entry e = { 0x10000 + (uintptr_t)i * 0x100, 0x80, i,
					      i % 10 == 0 ? 7 : 1, i % 3 == 0 ? 1 : 0, false };
		tensor_map_insert(&map, &e, NULL);
	}
	/* device 0: i % 3 != 0 (66 entries), of which kind 7 (kept): i % 10 == 0
	 * and i % 3 != 0: 10, 20, 40, 50, 70, 80 -> 60 taken */
	struct tensor_map_entry out[16];
	size_t taken = 0, n;
	int64_t last = -1;
	bool ordered = true, right = true;
	do {
		n = tensor_map_take_device(&map, 0, 7, out, 16);
		for (size_t k = 0; k < n; k++) {
			right &= out[k].device == 0 && out[k].kind != 7;
			ordered &= out[k].tensor_id > last;
			last = out[k].tensor_id;
		}
		taken += n;
	} while (n == 16);
	CHECK(taken == 60, "took %zu entries of device 0, want 60", taken);
	CHECK(right && ordered, "took another device's or a kept entry, or out of order");
	CHECK(tensor_map_count(&map) == 40, "%zu entries left, want 40", tensor_map_count(&map));
	struct tensor_map_entry found;
	CHECK(tensor_map_find(&map, 0x10000 + 3 * 0x100, &found) && found.tensor_id == 3,
	      "device 1's entry 3 is gone");
	CHECK(tensor_map_find(&map, 0x10000 + 10 * 0x100, &found) && found.tensor_id == 10,
	      "the kept kind's entry 10 is gone");
	CHECK(!tensor_map_find(&map, 0x10000 + 1 * 0x100, &found), "entry 1 still mapped");
	tensor_map_destroy(&map);
}

int main(void)
{
	test_take_device();
	test_against_model();
	test_stale_overlap_and_batch();
	test_threads();
	if (failures) {
		fprintf(stderr, "tensor_map: %d checks failed\n", failures);
		return 1;
	}
	printf("tensor_map: all checks passed\n");
	return 0;
}
