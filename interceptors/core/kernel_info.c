/*
 * Kernel names and parameter layouts, cached per function handle, and the
 * scan of launch parameters for tensor pointers (see kernel_info.h).
 *
 * The cache is an open-addressing table of atomic pointers: a reader probes
 * without locks; a writer publishes a fully built info, function id
 * included, with one compare-and-swap (a loser frees its copy and wastes
 * its id). Infos live until exit.
 * Must never call a wrapped (traced) function: only REAL() ones.
 */
#include "interceptors/core/kernel_info.h"
#include "interceptors/core/event_count.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/core/real_functions.h"
#include "tracepoints/dnntrace_api.h"

enum {
	TABLE_SLOTS = 1 << 16,   /* distinct kernels cached; beyond, asked per launch */
	MAX_PARAMS = 1 << 15,    /* CUDA caps parameters at 32764 bytes */
	WORDS_PER_BATCH = 64,
};

static _Atomic(struct kernel_info *) table[TABLE_SLOTS];
static atomic_uint_fast64_t next_function_id = 1;
/* Bumped in a forked child, so that announcements of the parent's epoch
 * count as not made (announcement values: see kernel_info_announce). */
static atomic_uint announce_epoch = 1;
static atomic_uint_fast64_t overflowed_launches;
static atomic_bool overflow_reported;

static const struct kernel_info no_info = {
	.func = NULL, .driver = false, .name = "", .function_id = 0, .n_params = 0,
};

/* How one API names a kernel and its parameters: the runtime's or the driver's. */
struct kernel_probe {
	bool driver;
	/* Returns whether there is a parameter index; fills offset and size. */
	bool (*param)(const void *func, uint32_t index, size_t *offset, size_t *size);
	const char *(*name)(const void *func);
	/* Whether probing now would hide an error the program has yet to see. */
	bool (*error_pending)(void);
	void (*clear_error)(void);
};

static size_t slot_of(const void *func)
{
	uint64_t h = (uint64_t)(uintptr_t)func * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 48) & (TABLE_SLOTS - 1);
}

static struct kernel_info *table_find(const void *func, bool driver, size_t *free_slot)
{
	size_t slot = slot_of(func);

	for (size_t probes = 0; probes < TABLE_SLOTS; probes++) {
		struct kernel_info *info = atomic_load_explicit(&table[slot], memory_order_acquire);
		if (!info) {
			*free_slot = slot;
			return NULL;
		}
		if (info->func == func && info->driver == driver)
			return info;
		slot = (slot + 1) & (TABLE_SLOTS - 1);
	}
	*free_slot = TABLE_SLOTS; /* full */
	return NULL;
}

/* --- the runtime's view: cudaFuncGetParamInfo, cudaFuncGetName --------- */

static bool runtime_param(const void *func, uint32_t index, size_t *offset, size_t *size)
{
	__typeof__(&cudaFuncGetParamInfo) param_info = REAL(cudaFuncGetParamInfo);
	return param_info && param_info(func, index, offset, size) == cudaSuccess;
}

static const char *runtime_name(const void *func)
{
	__typeof__(&cudaFuncGetName) get_name = REAL(cudaFuncGetName);
	const char *name = NULL;

	if (!get_name || get_name(&name, func) != cudaSuccess)
		return NULL;
	return name;
}

/*
 * A pending error: our probe's own errors would replace it, and
 * cudaGetLastError() could not put it back. A runtime without
 * cudaGetLastError has no error state a program could observe.
 */
static bool runtime_error_pending(void)
{
	__typeof__(&cudaPeekAtLastError) peek = REAL(cudaPeekAtLastError);
	return peek && REAL(cudaGetLastError) && peek() != cudaSuccess;
}

static void runtime_clear_error(void)
{
	__typeof__(&cudaGetLastError) clear = REAL(cudaGetLastError);
	if (clear && REAL(cudaPeekAtLastError))
		clear(); /* the error that ended the parameter loop */
}

static const struct kernel_probe runtime_probe = {
	.driver = false, .param = runtime_param, .name = runtime_name,
	.error_pending = runtime_error_pending, .clear_error = runtime_clear_error,
};

/* --- the driver's view: cuFuncGetParamInfo, cuFuncGetName ---------------- */

static bool driver_param(const void *func, uint32_t index, size_t *offset, size_t *size)
{
	__typeof__(&cuFuncGetParamInfo) param_info = REAL(cuFuncGetParamInfo);
	return param_info && param_info((CUfunction)func, index, offset, size) == CUDA_SUCCESS;
}

static const char *driver_name(const void *func)
{
	__typeof__(&cuFuncGetName) get_name = REAL(cuFuncGetName);
	const char *name = NULL;

	if (!get_name || get_name(&name, (CUfunction)func) != CUDA_SUCCESS)
		return NULL;
	return name;
}

/* The driver API keeps no per-thread last error: nothing to hide or clear. */
static bool no_error_pending(void)
{
	return false;
}

static void nothing_to_clear(void)
{
}

static const struct kernel_probe driver_probe = {
	.driver = true, .param = driver_param, .name = driver_name,
	.error_pending = no_error_pending, .clear_error = nothing_to_clear,
};

/* Asks the API for func's name and layout; NULL means ask again later. */
static struct kernel_info *probe_kernel(const struct kernel_probe *probe, const void *func)
{
	if (probe->error_pending())
		return NULL;

	uint32_t n_params = 0;
	size_t offset, size;
	while (n_params < MAX_PARAMS && probe->param(func, n_params, &offset, &size))
		n_params++;

	const char *name = probe->name(func);
	if (!name)
		name = "";
	size_t name_len = strlen(name);

	struct kernel_info *info = malloc(sizeof(*info) + n_params * sizeof(info->params[0]) +
					  name_len + 1);
	if (!info) {
		probe->clear_error();
		return NULL;
	}
	char *name_copy = (char *)&info->params[n_params];
	memcpy(name_copy, name, name_len + 1);
	info->func = func;
	info->driver = probe->driver;
	info->name = name_copy;
	/* Taken before publishing: a thread that loses the race wastes its id. */
	info->function_id = atomic_fetch_add_explicit(&next_function_id, 1,
						      memory_order_relaxed);
	atomic_init(&info->announcement, 0);
	info->n_params = n_params;
	for (uint32_t i = 0; i < n_params; i++) {
		probe->param(func, i, &offset, &size);
		info->params[i].offset = (uint32_t)offset;
		info->params[i].size = (uint32_t)size;
	}
	probe->clear_error();
	return info;
}

static const struct kernel_info *info_get(const struct kernel_probe *probe, const void *func)
{
	size_t slot;
	struct kernel_info *info = table_find(func, probe->driver, &slot);

	if (info)
		return info;
	int saved_errno = errno; /* the launch's caller must see the real launch's errno */
	struct kernel_info *fresh = probe_kernel(probe, func);
	errno = saved_errno;
	if (!fresh)
		return &no_info;
	while (slot < TABLE_SLOTS) {
		struct kernel_info *expected = NULL;
		if (atomic_compare_exchange_strong_explicit(&table[slot], &expected, fresh,
							    memory_order_acq_rel,
							    memory_order_acquire))
			return fresh;
		/* Another thread took the slot: maybe for this very kernel. */
		info = table_find(func, probe->driver, &slot);
		if (info) {
			free(fresh);
			return info;
		}
	}
	/*
	 * Table full: hand out the fresh info for this launch only. It leaks
	 * one small block per such launch, which is why the table is large.
	 */
	return fresh;
}

const struct kernel_info *kernel_info_get(const void *func)
{
	return info_get(&runtime_probe, func);
}

const struct kernel_info *kernel_info_get_driver(const void *function)
{
	return info_get(&driver_probe, function);
}

/*
 * The order rule. LTTng writes each CPU's events to its own stream and the
 * analyzer merges the streams by time, so "a function event before every
 * launch that names it" holds when the function event is STAMPED before the
 * launch. A thread claims the announcement (epoch * 2: in progress), writes
 * the event, then marks it done (epoch * 2 + 1, release). A thread that sees
 * it done launches after the event was stamped; one that sees it in
 * progress cannot know whether it was stamped yet, so it writes the
 * function event too, on its own thread before its launch: a duplicate the
 * analyzer ignores, only when two threads race on a new kernel. The
 * analyzer still resolves names at the end of the trace (a lossy channel
 * may drop a function event). Only while the function event is enabled: a
 * session that listens for launches but not functions leaves every
 * function unannounced. Once per process, not per session: a session
 * started while the process already ran (dnntrace record always starts
 * its session first) misses the functions announced before it.
 */
void kernel_info_announce(const struct kernel_info *info)
{
	if (info->function_id == 0)
		return;
	/* Infos with an id are the heap blocks probe_kernel built, never const. */
	struct kernel_info *mutable_info = (struct kernel_info *)info;
	unsigned epoch = atomic_load_explicit(&announce_epoch, memory_order_relaxed);
	unsigned in_progress = epoch * 2, done = epoch * 2 + 1;
	unsigned state = atomic_load_explicit(&mutable_info->announcement, memory_order_acquire);

	if (state == done || !lttng_ust_tracepoint_enabled(dnntrace_api, function))
		return;
	bool claimed = false;
	while (state != in_progress && state != done) {
		if (atomic_compare_exchange_weak_explicit(&mutable_info->announcement, &state,
							  in_progress, memory_order_acq_rel,
							  memory_order_acquire)) {
			claimed = true;
			break;
		}
	}
	if (state == done)
		return;
	DNNTRACE_EMIT(dnntrace_api, function, info->function_id, info->func, info->name,
			     info->n_params);
	if (claimed)
		atomic_store_explicit(&mutable_info->announcement, done, memory_order_release);
}

void kernel_info_forget_announcements(void)
{
	atomic_fetch_add_explicit(&announce_epoch, 1, memory_order_relaxed);
}

static void add_unique(int64_t id, int64_t *ids, unsigned *count, bool *overflow)
{
	if (id < 0)
		return;
	for (unsigned i = 0; i < *count; i++)
		if (ids[i] == id)
			return;
	if (*count == KERNEL_MAX_TENSORS) {
		*overflow = true;
		return;
	}
	ids[(*count)++] = id;
}

/*
 * Words that may point into a tensor, resolved to tensor ids 64 at a time
 * (one map lookup pass per batch), kept unique; on the caller's stack, and
 * started by batch_start (words[] is filled before it is read: clearing it
 * would cost a launch more than scanning a 300-byte parameter block).
 */
struct word_batch {
	struct tensor_map *tensors;
	int64_t *ids;
	unsigned count;
	bool overflow;
	size_t n_words;
	uintptr_t words[WORDS_PER_BATCH];
};

static void batch_start(struct word_batch *batch, struct tensor_map *tensors, int64_t *ids)
{
	batch->tensors = tensors;
	batch->ids = ids;
	batch->count = 0;
	batch->overflow = false;
	batch->n_words = 0;
}

static void resolve_batch(struct word_batch *batch)
{
	int64_t found[WORDS_PER_BATCH];

	tensor_map_find_ids(batch->tensors, batch->words, batch->n_words, found);
	for (size_t i = 0; i < batch->n_words; i++)
		add_unique(found[i], batch->ids, &batch->count, &batch->overflow);
	batch->n_words = 0;
}

static inline void batch_add(struct word_batch *batch, uintptr_t word)
{
	if (!tensor_map_may_contain(batch->tensors, word))
		return;
	batch->words[batch->n_words++] = word;
	if (batch->n_words == WORDS_PER_BATCH)
		resolve_batch(batch);
}

/* The ids found, after the last partial batch; counts an overflowing launch. */
static unsigned batch_finish(struct word_batch *batch)
{
	if (batch->n_words)
		resolve_batch(batch);
	if (batch->overflow)
		atomic_fetch_add_explicit(&overflowed_launches, 1, memory_order_relaxed);
	return batch->count;
}

unsigned kernel_scan_tensors(const struct kernel_info *info, void **args,
			     struct tensor_map *tensors, int64_t *ids)
{
	struct word_batch batch;

	if (!args)
		return 0;
	batch_start(&batch, tensors, ids);
	for (uint32_t i = 0; i < info->n_params; i++) {
		const struct kernel_param *param = &info->params[i];
		const unsigned char *bytes = args[i];
		uint64_t end = (uint64_t)param->offset + param->size;
		/* Alignment is that of the device-side parameter buffer, not of args[i]. */
		for (uint64_t at = (param->offset + 7u) & ~7ull; at + 8 <= end; at += 8) {
			uintptr_t word;
			memcpy(&word, bytes + (at - param->offset), sizeof(word));
			batch_add(&batch, word);
		}
	}
	return batch_finish(&batch);
}

unsigned kernel_scan_buffer(const void *buffer, size_t size, struct tensor_map *tensors,
			    int64_t *ids)
{
	struct word_batch batch;
	const unsigned char *bytes = buffer;

	if (!buffer)
		return 0;
	batch_start(&batch, tensors, ids);
	for (size_t at = 0; at + 8 <= size; at += 8) {
		uintptr_t word;
		memcpy(&word, bytes + at, sizeof(word));
		batch_add(&batch, word);
	}
	return batch_finish(&batch);
}

void kernel_info_report_overflow(void)
{
	uint64_t n = atomic_load(&overflowed_launches);

	if (n && !atomic_exchange(&overflow_reported, true))
		fprintf(stderr, "dnntrace: %llu launches referenced more than %d tensors; "
			"their launch events list only the first %d\n",
			(unsigned long long)n, KERNEL_MAX_TENSORS, KERNEL_MAX_TENSORS);
}
