/*
 * Finds the real CUDA runtime functions (see real_functions.h).
 *
 * First dlsym(RTLD_NEXT, name): the usual case, libcudart in the global
 * scope. When that fails the runtime was loaded outside the global scope
 * (Python imports extensions RTLD_LOCAL, so torch's libcudart is invisible
 * to RTLD_NEXT while its callers still bind to our preloaded wrappers): we
 * then walk the loaded objects with dl_iterate_phdr, prefer ones named
 * libcudart.so*, and ask each with dlopen(path, RTLD_NOLOAD) + dlsym.
 *
 * The same holds for the driver (libcuda.so.1 dlopen()ed by libcudart or by
 * a framework, RTLD_LOCAL), cuDNN and cuBLAS: every loaded object is asked.
 * A pointer the program obtained through dlsym or cuGetProcAddress is
 * offered first (real_function_offer), so the wrapper we handed back in its
 * place forwards to exactly that function.
 *
 * Resolution is lazy (the plugin may be loaded after our constructor) and
 * retried until it succeeds; a found pointer is cached for good. Lookups use
 * the real dlsym (dlsym_wrapper.h), never our wrapper. Must never return a
 * symbol that lives in libdnntrace.so itself, and never dlopen a library
 * that is not already loaded.
 */
#include "interceptors/core/real_functions.h"

#include "interceptors/core/dlsym_wrapper.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

_Atomic(void *) real_function_table[REAL_FUNCTION_COUNT];

static const char *const function_names[REAL_FUNCTION_COUNT] = {
#define DT_NAME_API(id, name, kind, proc, cbid) [REAL_##name] = #name,
#define DT_NAME_LIB(id, name, args, params) [REAL_##name] = #name,
#define DT_NAME_WRAPPED(name, proc) [REAL_##name] = #name,
#define DT_NAME_HELPER(name) [REAL_##name] = #name,
	DNNTRACE_API_ENTRIES(DT_NAME_API)
	DNNTRACE_LIB_ENTRIES(DT_NAME_LIB)
	DNNTRACE_WRAPPED_ENTRIES(DT_NAME_WRAPPED)
	DNNTRACE_HELPER_ENTRIES(DT_NAME_HELPER)
};

/* Every entry point we wrap comes before the helpers (real_functions.h). */
static bool function_required(enum real_function_id id)
{
	return id < REAL_FIRST_HELPER;
}

static atomic_bool missing_warned[REAL_FUNCTION_COUNT];

static bool lives_in_this_library(const void *fn);

bool real_function_is_ours(const void *fn)
{
	return lives_in_this_library(fn);
}

static bool lives_in_this_library(const void *fn)
{
	Dl_info fn_info, self_info;

	if (!dladdr(fn, &fn_info) || !dladdr((const void *)&lives_in_this_library, &self_info))
		return false;
	return fn_info.dli_fbase == self_info.dli_fbase;
}

enum { MAX_CANDIDATES = 512 };

/*
 * Paths of loaded objects worth asking, libcudart.so* first. Collected
 * during dl_iterate_phdr and only opened afterwards: its callback runs with
 * the loader's lock held, and dlopen inside it is asking for trouble.
 */
struct candidates {
	void *self_base;
	const char *paths[MAX_CANDIDATES];
	size_t count;
	size_t cudart_count;
};

static bool is_cudart_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *file = slash ? slash + 1 : path;
	return strncmp(file, "libcudart.so", strlen("libcudart.so")) == 0;
}

static int collect_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct candidates *list = data;
	(void)size;

	/* The main program (empty name) and the vDSO have no path to reopen. */
	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	if ((void *)info->dlpi_addr == list->self_base || list->count == MAX_CANDIDATES)
		return 0;
	if (is_cudart_name(info->dlpi_name)) {
		/* Keep libcudart.so* ahead of everything else. */
		list->paths[list->count++] = list->paths[list->cudart_count];
		list->paths[list->cudart_count++] = info->dlpi_name;
	} else {
		list->paths[list->count++] = info->dlpi_name;
	}
	return 0;
}

static void *search_loaded_objects(const char *symbol)
{
	Dl_info self_info;
	struct candidates list = { .count = 0 };

	if (dladdr((const void *)&search_loaded_objects, &self_info))
		list.self_base = self_info.dli_fbase;
	dl_iterate_phdr(collect_object, &list);
	for (size_t i = 0; i < list.count; i++) {
		void *handle = dlopen(list.paths[i], RTLD_NOLOAD | RTLD_LAZY);
		if (!handle)
			continue;
		void *fn = dnntrace_real_dlsym(handle, symbol);
		dlclose(handle); /* NOLOAD took a reference; the object stays loaded */
		if (fn && !lives_in_this_library(fn))
			return fn;
	}
	return NULL;
}

/*
 * Looks the real id up and caches it; NULL if no loaded object has it.
 * Runs before the real function: leaves errno as the caller set it.
 */
static void *find_and_cache(enum real_function_id id)
{
	const char *name = function_names[id];
	int saved_errno = errno;
	void *fn = dnntrace_real_dlsym(RTLD_NEXT, name);

	if (fn && lives_in_this_library(fn))
		fn = NULL;
	if (!fn)
		fn = search_loaded_objects(name);
	if (fn)
		atomic_store_explicit(&real_function_table[id], fn, memory_order_release);
	errno = saved_errno;
	return fn;
}

void *real_function_resolve(enum real_function_id id)
{
	void *fn = find_and_cache(id);

	if (!fn && function_required(id) && !atomic_exchange(&missing_warned[id], true)) {
		int saved_errno = errno;
		fprintf(stderr, "dnntrace: cannot find the real %s in any loaded library; "
			"the call returns an error\n", function_names[id]);
		errno = saved_errno;
	}
	return fn;
}

/* A question, not a forwarded call: never warns (a driver-only program has no cudaMalloc). */
const char *real_function_library(enum real_function_id id, char *path, size_t size)
{
	Dl_info info;
	void *fn = real_function_available(id) ? real_function(id) : NULL;

	if (!fn || !dladdr(fn, &info) || !info.dli_fname || !info.dli_fname[0] || size == 0)
		return NULL;
	snprintf(path, size, "%s", info.dli_fname);
	return path;
}

enum real_function_id real_function_id_of(const char *name)
{
	for (int id = 0; id < REAL_FUNCTION_COUNT; id++)
		if (function_required(id) && strcmp(function_names[id], name) == 0)
			return (enum real_function_id)id;
	return REAL_FUNCTION_COUNT;
}

const char *real_function_name(enum real_function_id id)
{
	return function_names[id];
}

void real_function_offer(enum real_function_id id, void *fn)
{
	void *expected = NULL;

	if (!fn || lives_in_this_library(fn))
		return;
	atomic_compare_exchange_strong_explicit(&real_function_table[id], &expected, fn,
						memory_order_acq_rel, memory_order_acquire);
}

bool real_function_available(enum real_function_id id)
{
	return atomic_load_explicit(&real_function_table[id], memory_order_acquire) ||
	       find_and_cache(id) != NULL;
}
