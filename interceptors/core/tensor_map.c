/*
 * The live-allocation map (see tensor_map.h): an AVL tree keyed by base
 * address, so "which allocation contains addr" is the entry with the greatest
 * base <= addr, checked against its end. Entries never overlap.
 *
 * Readers are a sequence lock's: read the version (even: no writer), walk
 * the tree with relaxed atomic loads, and keep the answer only if the
 * version is unchanged; a walk that meets a half-rotated tree is cut off
 * after MAX_WALK steps and retried. After a few failed tries a reader takes
 * the writers' mutex, so it always ends. Writers store plainly under the
 * mutex; the readers' loads are atomic so they read whole words.
 *
 * Must never call into CUDA, emit trace events, or free a node while the map
 * lives: removed nodes go back to a free list inside chunks that stay mapped.
 */
#include "interceptors/core/tensor_map.h"

#include <stdlib.h>

enum {
	NODES_PER_CHUNK = 1024,
	MAX_WALK = 128,          /* an AVL tree of 2^64 nodes is < 93 high */
	OPTIMISTIC_TRIES = 4,
};

struct tensor_map_node {
	struct tensor_map_entry entry;
	struct tensor_map_node *left;
	struct tensor_map_node *right;
	int height;
};

struct tensor_map_chunk {
	struct tensor_map_chunk *next;
	struct tensor_map_node nodes[NODES_PER_CHUNK];
};

static uintptr_t entry_end(const struct tensor_map_entry *entry)
{
	uintptr_t end = entry->base + entry->size;
	return end < entry->base ? UINTPTR_MAX : end; /* saturate at the top */
}

int tensor_map_init(struct tensor_map *map)
{
	map->root = NULL;
	map->free_nodes = NULL;
	map->chunks = NULL;
	map->count = 0;
	atomic_init(&map->lowest, UINTPTR_MAX);
	atomic_init(&map->highest, 0);
	atomic_init(&map->version, 0);
	return pthread_mutex_init(&map->lock, NULL) == 0 ? 0 : -1;
}

void tensor_map_destroy(struct tensor_map *map)
{
	struct tensor_map_chunk *chunk = map->chunks;

	while (chunk) {
		struct tensor_map_chunk *next = chunk->next;
		free(chunk);
		chunk = next;
	}
	map->chunks = NULL;
	map->root = NULL;
	map->free_nodes = NULL;
	map->count = 0;
	pthread_mutex_destroy(&map->lock);
}

/* --- writers' side ----------------------------------------------------- */

static void write_begin(struct tensor_map *map)
{
	pthread_mutex_lock(&map->lock);
	unsigned long version = atomic_load_explicit(&map->version, memory_order_relaxed);
	atomic_store_explicit(&map->version, version + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); /* odd before any tree change */
}

static void write_end(struct tensor_map *map)
{
	unsigned long version = atomic_load_explicit(&map->version, memory_order_relaxed);
	atomic_store_explicit(&map->version, version + 1, memory_order_release);
	pthread_mutex_unlock(&map->lock);
}

/* Called with the writers' mutex held. */
static struct tensor_map_node *node_take(struct tensor_map *map)
{
	if (!map->free_nodes) {
		struct tensor_map_chunk *chunk = malloc(sizeof(*chunk));
		if (!chunk)
			return NULL;
		chunk->next = map->chunks;
		map->chunks = chunk;
		for (size_t i = 0; i < NODES_PER_CHUNK; i++) {
			chunk->nodes[i].left = map->free_nodes;
			map->free_nodes = &chunk->nodes[i];
		}
	}
	struct tensor_map_node *node = map->free_nodes;
	map->free_nodes = node->left;
	return node;
}

static void node_give_back(struct tensor_map *map, struct tensor_map_node *node)
{
	node->left = map->free_nodes;
	map->free_nodes = node;
}

/* --- AVL balancing --------------------------------------------------- */

static int height(const struct tensor_map_node *node)
{
	return node ? node->height : 0;
}

static void update_height(struct tensor_map_node *node)
{
	int l = height(node->left), r = height(node->right);
	node->height = 1 + (l > r ? l : r);
}

static struct tensor_map_node *rotate_right(struct tensor_map_node *node)
{
	struct tensor_map_node *pivot = node->left;
	node->left = pivot->right;
	pivot->right = node;
	update_height(node);
	update_height(pivot);
	return pivot;
}

static struct tensor_map_node *rotate_left(struct tensor_map_node *node)
{
	struct tensor_map_node *pivot = node->right;
	node->right = pivot->left;
	pivot->left = node;
	update_height(node);
	update_height(pivot);
	return pivot;
}

static struct tensor_map_node *rebalance(struct tensor_map_node *node)
{
	update_height(node);
	int balance = height(node->left) - height(node->right);
	if (balance > 1) {
		if (height(node->left->left) < height(node->left->right))
			node->left = rotate_left(node->left);
		return rotate_right(node);
	}
	if (balance < -1) {
		if (height(node->right->right) < height(node->right->left))
			node->right = rotate_right(node->right);
		return rotate_left(node);
	}
	return node;
}

/* Inserts a fresh node whose base is not in the tree. */
static struct tensor_map_node *insert_node(struct tensor_map_node *root,
					   struct tensor_map_node *fresh)
{
	if (!root)
		return fresh;
	if (fresh->entry.base < root->entry.base)
		root->left = insert_node(root->left, fresh);
	else
		root->right = insert_node(root->right, fresh);
	return rebalance(root);
}

static struct tensor_map_node *detach_min(struct tensor_map_node *root,
					  struct tensor_map_node **min)
{
	if (!root->left) {
		*min = root;
		return root->right;
	}
	root->left = detach_min(root->left, min);
	return rebalance(root);
}

/* Unlinks the node with this base (if any) and returns it through *removed. */
static struct tensor_map_node *remove_node(struct tensor_map_node *root, uintptr_t base,
					   struct tensor_map_node **removed)
{
	if (!root)
		return NULL;
	if (base < root->entry.base) {
		root->left = remove_node(root->left, base, removed);
	} else if (base > root->entry.base) {
		root->right = remove_node(root->right, base, removed);
	} else {
		*removed = root;
		if (!root->left)
			return root->right;
		if (!root->right)
			return root->left;
		struct tensor_map_node *successor;
		struct tensor_map_node *right = detach_min(root->right, &successor);
		successor->left = root->left;
		successor->right = right;
		root = successor;
	}
	return rebalance(root);
}

/* The node with the greatest base <= addr, or NULL. */
static const struct tensor_map_node *floor_node(const struct tensor_map_node *node,
						uintptr_t addr)
{
	const struct tensor_map_node *best = NULL;

	while (node) {
		if (node->entry.base <= addr) {
			best = node;
			node = node->right;
		} else {
			node = node->left;
		}
	}
	return best;
}

static const struct tensor_map_node *containing_node(const struct tensor_map *map,
						     uintptr_t addr)
{
	const struct tensor_map_node *node = floor_node(map->root, addr);
	return node && addr < entry_end(&node->entry) ? node : NULL;
}

/* --- readers' side ----------------------------------------------------- */

#define RELAXED(lvalue) __atomic_load_n(&(lvalue), __ATOMIC_RELAXED)

/*
 * containing_node without the lock: copies the containing entry to *found
 * (base 0 and size 0 when none). False when the walk was cut off, i.e. the
 * tree was changing under it; the caller validates the version anyway.
 */
static bool racy_find(const struct tensor_map *map, uintptr_t addr,
		      struct tensor_map_entry *found)
{
	const struct tensor_map_node *node = RELAXED(map->root), *best = NULL;
	uintptr_t best_base = 0;

	for (unsigned steps = 0; node; steps++) {
		if (steps == MAX_WALK)
			return false;
		uintptr_t base = RELAXED(node->entry.base);
		if (base <= addr) {
			best = node;
			best_base = base;
			node = RELAXED(node->right);
		} else {
			node = RELAXED(node->left);
		}
	}
	found->base = 0;
	found->size = 0;
	found->tensor_id = -1;
	if (best) {
		uint64_t size = RELAXED(best->entry.size);
		uintptr_t end = best_base + size;
		if (end < best_base)
			end = UINTPTR_MAX;
		if (addr < end) {
			found->base = best_base;
			found->size = size;
			found->tensor_id = RELAXED(best->entry.tensor_id);
			found->kind = RELAXED(best->entry.kind);
		}
	}
	return true;
}

static unsigned long read_begin(const struct tensor_map *map)
{
	return atomic_load_explicit(&map->version, memory_order_acquire);
}

/* True when nothing changed since read_begin returned version. */
static bool read_valid(const struct tensor_map *map, unsigned long version)
{
	atomic_thread_fence(memory_order_acquire); /* the walk's loads before the check */
	return (version & 1) == 0 &&
	       atomic_load_explicit(&map->version, memory_order_relaxed) == version;
}

/* --- public operations ------------------------------------------------ */

int tensor_map_insert(struct tensor_map *map, const struct tensor_map_entry *entry,
		      size_t *stale_dropped)
{
	struct tensor_map_entry stored = *entry;
	size_t dropped = 0;

	if (stored.size == 0)
		stored.size = 1;
	uintptr_t end = entry_end(&stored);

	write_begin(map);
	/* Entries never overlap, so the only candidate is the floor of end-1. */
	for (;;) {
		const struct tensor_map_node *last = floor_node(map->root, end - 1);
		if (!last || entry_end(&last->entry) <= stored.base)
			break;
		struct tensor_map_node *removed = NULL;
		map->root = remove_node(map->root, last->entry.base, &removed);
		node_give_back(map, removed);
		map->count--;
		dropped++;
	}
	struct tensor_map_node *node = node_take(map);
	if (node) {
		node->entry = stored;
		node->left = node->right = NULL;
		node->height = 1;
		map->root = insert_node(map->root, node);
		map->count++;
		if (stored.base < atomic_load_explicit(&map->lowest, memory_order_relaxed))
			atomic_store_explicit(&map->lowest, stored.base, memory_order_relaxed);
		if (end > atomic_load_explicit(&map->highest, memory_order_relaxed))
			atomic_store_explicit(&map->highest, end, memory_order_relaxed);
	}
	write_end(map);

	if (stale_dropped)
		*stale_dropped = dropped;
	return node ? 0 : -1;
}

bool tensor_map_remove(struct tensor_map *map, uintptr_t base,
		       struct tensor_map_entry *removed)
{
	struct tensor_map_node *node = NULL;

	write_begin(map);
	map->root = remove_node(map->root, base, &node);
	if (node) {
		if (removed)
			*removed = node->entry;
		node_give_back(map, node);
		map->count--;
	}
	write_end(map);
	return node != NULL;
}

/* Up to max entries of the context (and device, unless -1), in base order,
 * not of keep_kind. */
static size_t collect_owned(const struct tensor_map_node *node, int device, uintptr_t context,
			    int keep_kind, struct tensor_map_entry *out, size_t n, size_t max)
{
	if (!node || n >= max)
		return n;
	n = collect_owned(node->left, device, context, keep_kind, out, n, max);
	if (n < max && node->entry.context == context &&
	    (device < 0 || node->entry.device == device) && node->entry.kind != keep_kind)
		out[n++] = node->entry;
	return collect_owned(node->right, device, context, keep_kind, out, n, max);
}

size_t tensor_map_take_context(struct tensor_map *map, int device, uintptr_t context,
			       int keep_kind, struct tensor_map_entry *out, size_t max)
{
	write_begin(map);
	size_t n = collect_owned(map->root, device, context, keep_kind, out, 0, max);
	for (size_t i = 0; i < n; i++) {
		struct tensor_map_node *node = NULL;
		map->root = remove_node(map->root, out[i].base, &node);
		if (node) {
			node_give_back(map, node);
			map->count--;
		}
	}
	write_end(map);
	return n;
}

bool tensor_map_find(struct tensor_map *map, uintptr_t addr,
		     struct tensor_map_entry *found)
{
	struct tensor_map_entry entry;

	if (!tensor_map_may_contain(map, addr))
		return false;
	for (int tries = 0; tries < OPTIMISTIC_TRIES; tries++) {
		unsigned long version = read_begin(map);
		if (racy_find(map, addr, &entry) && read_valid(map, version))
			goto done;
	}
	/* Writers kept changing the tree: read it under their mutex. */
	pthread_mutex_lock(&map->lock);
	const struct tensor_map_node *node = containing_node(map, addr);
	entry = node ? node->entry : (struct tensor_map_entry){ .tensor_id = -1 };
	pthread_mutex_unlock(&map->lock);
done:
	if (entry.size == 0)
		return false;
	if (found)
		*found = entry;
	return true;
}

void tensor_map_find_ids(struct tensor_map *map, const uintptr_t *addrs,
			 size_t n, int64_t *ids)
{
	struct tensor_map_entry entry;

	for (int tries = 0; tries < OPTIMISTIC_TRIES; tries++) {
		unsigned long version = read_begin(map);
		bool walked = true;
		for (size_t i = 0; walked && i < n; i++) {
			walked = racy_find(map, addrs[i], &entry);
			ids[i] = entry.tensor_id;
		}
		if (walked && read_valid(map, version))
			return;
	}
	pthread_mutex_lock(&map->lock);
	for (size_t i = 0; i < n; i++) {
		const struct tensor_map_node *node = containing_node(map, addrs[i]);
		ids[i] = node ? node->entry.tensor_id : -1;
	}
	pthread_mutex_unlock(&map->lock);
}

size_t tensor_map_count(struct tensor_map *map)
{
	pthread_mutex_lock(&map->lock);
	size_t count = map->count;
	pthread_mutex_unlock(&map->lock);
	return count;
}
