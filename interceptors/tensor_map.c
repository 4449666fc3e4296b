/*
 * The live-allocation map (see tensor_map.h): an AVL tree keyed by base
 * address, so "which allocation contains addr" is the entry with the greatest
 * base <= addr, checked against its end. Entries never overlap.
 *
 * Must never call into CUDA, emit trace events, or allocate while a reader
 * holds the lock; nodes are recycled through a free list.
 */
#include "interceptors/tensor_map.h"

#include <stdlib.h>

enum { NODES_PER_CHUNK = 1024 };

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
	pthread_rwlockattr_t attr;

	map->root = NULL;
	map->free_nodes = NULL;
	map->chunks = NULL;
	map->count = 0;
	atomic_init(&map->lowest, UINTPTR_MAX);
	atomic_init(&map->highest, 0);
	if (pthread_rwlockattr_init(&attr) != 0)
		return -1;
	/* Launches read constantly; without this a free could wait forever. */
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	int rc = pthread_rwlock_init(&map->lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	return rc == 0 ? 0 : -1;
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
	pthread_rwlock_destroy(&map->lock);
}

/* Called with the write lock held. */
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

/* --- public operations ------------------------------------------------ */

int tensor_map_insert(struct tensor_map *map, const struct tensor_map_entry *entry,
		      size_t *stale_dropped)
{
	struct tensor_map_entry stored = *entry;
	size_t dropped = 0;

	if (stored.size == 0)
		stored.size = 1;
	uintptr_t end = entry_end(&stored);

	pthread_rwlock_wrlock(&map->lock);
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
	pthread_rwlock_unlock(&map->lock);

	if (stale_dropped)
		*stale_dropped = dropped;
	return node ? 0 : -1;
}

bool tensor_map_remove(struct tensor_map *map, uintptr_t base,
		       struct tensor_map_entry *removed)
{
	struct tensor_map_node *node = NULL;

	pthread_rwlock_wrlock(&map->lock);
	map->root = remove_node(map->root, base, &node);
	if (node) {
		if (removed)
			*removed = node->entry;
		node_give_back(map, node);
		map->count--;
	}
	pthread_rwlock_unlock(&map->lock);
	return node != NULL;
}

bool tensor_map_find(struct tensor_map *map, uintptr_t addr,
		     struct tensor_map_entry *found)
{
	if (!tensor_map_may_contain(map, addr))
		return false;
	pthread_rwlock_rdlock(&map->lock);
	const struct tensor_map_node *node = containing_node(map, addr);
	if (node && found)
		*found = node->entry;
	pthread_rwlock_unlock(&map->lock);
	return node != NULL;
}

void tensor_map_find_ids(struct tensor_map *map, const uintptr_t *addrs,
			 size_t n, int64_t *ids)
{
	pthread_rwlock_rdlock(&map->lock);
	for (size_t i = 0; i < n; i++) {
		const struct tensor_map_node *node = containing_node(map, addrs[i]);
		ids[i] = node ? node->entry.tensor_id : -1;
	}
	pthread_rwlock_unlock(&map->lock);
}

size_t tensor_map_count(struct tensor_map *map)
{
	pthread_rwlock_rdlock(&map->lock);
	size_t count = map->count;
	pthread_rwlock_unlock(&map->lock);
	return count;
}
