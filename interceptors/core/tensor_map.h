/*
 * The live-allocation map: which tensor (device allocation) contains a given
 * address. Shared by all threads of the traced process: insertions and
 * removals take a mutex and bump a sequence count; lookups take no lock and
 * write no shared memory (they read optimistically and retry when a writer
 * ran meanwhile), so readers never block nor slow each other. Lookups of a
 * base or interior address cost O(log n) and allocate nothing; nodes come
 * from a pool that grows in chunks, rarely, and is never given back while
 * the map lives (a reader may still be looking at a removed node).
 *
 * Must never call into CUDA or emit trace events: it is a pure data
 * structure, unit-tested on its own (tests/interceptors/test_tensor_map.c).
 */
#ifndef DNNTRACE_TENSOR_MAP_H
#define DNNTRACE_TENSOR_MAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tensor_map_entry {
	uintptr_t base;
	uint64_t size;      /* bytes covered; 0 is stored as 1 so base still maps */
	int64_t tensor_id;
	int kind;           /* enum dnntrace_mem_kind */
	int device;         /* the allocation's device (-1: unknown) */
	bool graph_memory;  /* a graph allocation: its address stays its own
	                     * across launches and frees (allocation_record.c) */
};

struct tensor_map_node;
struct tensor_map_chunk;

struct tensor_map {
	pthread_mutex_t lock;          /* writers only */
	_Atomic unsigned long version; /* odd while a writer changes the tree */
	struct tensor_map_node *root;
	struct tensor_map_node *free_nodes;
	struct tensor_map_chunk *chunks;
	size_t count;
	/*
	 * Lowest base and highest end ever inserted: most 8-byte words of a
	 * kernel's parameters are small integers, rejected here without the
	 * lock. They only widen, which keeps the check a plain atomic load.
	 */
	_Atomic uintptr_t lowest;
	_Atomic uintptr_t highest;
};

/*
 * A statically initialised empty map: usable before any constructor runs
 * (a wrapped call can come from another library's constructor).
 */
#define TENSOR_MAP_INITIALIZER { \
	.lock = PTHREAD_MUTEX_INITIALIZER, .version = 0, \
	.lowest = UINTPTR_MAX, .highest = 0 }

/* Returns 0 on success, -1 on failure. */
int tensor_map_init(struct tensor_map *map);
void tensor_map_destroy(struct tensor_map *map);

/*
 * Adds an allocation. Entries overlapping it are stale (their free was not
 * seen, e.g. made while no session listened) and are dropped first; their
 * number is returned through *stale_dropped when it is not NULL.
 */
int tensor_map_insert(struct tensor_map *map, const struct tensor_map_entry *entry,
		      size_t *stale_dropped);

/* Removes the allocation starting exactly at base; false when there is none. */
bool tensor_map_remove(struct tensor_map *map, uintptr_t base,
		       struct tensor_map_entry *removed);

/*
 * Removes up to max entries of this device whose kind is not keep_kind
 * (a device reset ends those), copying them to out; returns how many. Call
 * again until it returns less than max.
 */
size_t tensor_map_take_device(struct tensor_map *map, int device, int keep_kind,
			      struct tensor_map_entry *out, size_t max);

/* The allocation containing addr (base or interior); false when none. */
bool tensor_map_find(struct tensor_map *map, uintptr_t addr,
		     struct tensor_map_entry *found);

/*
 * For each of n addresses, the id of the tensor containing it or -1, all
 * from one consistent state of the map (one launch's parameter words at once).
 */
void tensor_map_find_ids(struct tensor_map *map, const uintptr_t *addrs,
			 size_t n, int64_t *ids);

/* Quick reject without locking: false means addr is in no tensor. */
static inline bool tensor_map_may_contain(struct tensor_map *map, uintptr_t addr)
{
	return addr >= atomic_load_explicit(&map->lowest, memory_order_relaxed) &&
	       addr < atomic_load_explicit(&map->highest, memory_order_relaxed);
}

size_t tensor_map_count(struct tensor_map *map);

#endif
