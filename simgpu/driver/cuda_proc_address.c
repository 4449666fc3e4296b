/*
 * cuGetProcAddress / cuGetProcAddress_v2 of the simulated driver: the
 * entry point for a base name ("cuMemAlloc"), a CUDA version and the
 * stream flags, by the rules cuda.h describes: the newest variant whose
 * version is <= the one asked for ("cuMemAlloc" at >= 3020 is
 * cuMemAlloc_v2), and its _ptds/_ptsz twin when per-thread default
 * streams are asked for. Versions are those of cudaTypedefs.h's PFN_*
 * typedefs (simgpu/driver/test_proc_address_table.sh checks them).
 * It must never return a variant for a version it was not introduced in.
 * A base name the table lacks but the library exports (every function of
 * the real driver's export list: simgpu/exports/, most of them "not
 * supported" stubs) is handed out too, as a real driver hands out every
 * entry point: a program calling through it gets the stub's status
 * instead of a NULL pointer; by the versions of cudaTypedefs.h's PFN_
 * typedefs (proc_versions.h, generated), its exported variants paired with
 * them newest with newest (assumed: cuCtxCreate's 2000, 3020, 11040 and
 * 12050 are cuCtxCreate, _v2, _v3 and _v4), so a variant newer than the
 * version asked for is CUDA_ERROR_NOT_FOUND with VERSION_NOT_SUFFICIENT,
 * as for the table's names.
 */
#include "simgpu/driver/driver_internal.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "simgpu/driver/proc_address_table.h"

/* cudaTypedefs.h's variants: base name, the version that introduced it. */
static const struct typedef_version {
	const char *name;
	int version;
} typedef_versions[] = {
#define SIMGPU_PROC_VERSION(name, version) { name, version },
#include "proc_versions.h"
#undef SIMGPU_PROC_VERSION
};

struct proc_entry {
	const char *name;     /* base name, as cuGetProcAddress is asked */
	int version;          /* the CUDA version that introduced the variant */
	int per_thread;       /* the _ptds / _ptsz twin */
	void *fn;             /* NULL: a variant the simulator lacks */
};

#define FN(name, version, fn) { #name, version, 0, (void *)(fn) },
#define PT(name, version, fn) { #name, version, 1, (void *)(fn) },
#define NONE(name, version) { #name, version, 0, NULL },
static const struct proc_entry entries[] = {
	SIMGPU_PROC_ADDRESS_TABLE(FN, PT, NONE)
};
#undef FN
#undef PT
#undef NONE

static void *exported_entry(const char *symbol, int per_thread, int version,
			    int *too_new);

/*
 * Not found: CUDA_ERROR_NOT_FOUND with pfn NULL. cuda.h says CUDA_SUCCESS
 * with pfn NULL; real drivers answer CUDA_ERROR_NOT_FOUND (assumed from
 * their users' code, not observed here); symbolStatus says which case.
 */
static CUresult lookup(const char *symbol, void **pfn, int version,
		       cuuint64_t flags, CUdriverProcAddressQueryResult *status)
{
	const cuuint64_t known = CU_GET_PROC_ADDRESS_LEGACY_STREAM |
				 CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
	if (!symbol || !pfn || (flags & ~known) || version > SIM_DRIVER_VERSION)
		return CUDA_ERROR_INVALID_VALUE;
	int per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
	const struct proc_entry *legacy = NULL, *twin = NULL;
	int named = 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		const struct proc_entry *e = &entries[i];
		if (strcmp(e->name, symbol) != 0)
			continue;
		named = 1;
		if (e->version > version)
			continue;
		const struct proc_entry **best = e->per_thread ? &twin : &legacy;
		if (!*best || e->version > (*best)->version)
			*best = e;
	}
	/* A twin older than the chosen variant belongs to an older one. */
	if (twin && legacy && twin->version < legacy->version)
		twin = NULL;
	const struct proc_entry *chosen = per_thread && twin ? twin : legacy;
	*pfn = chosen ? chosen->fn : NULL;
	int too_new = 0;
	if (!named && ((*pfn = exported_entry(symbol, per_thread, version, &too_new)) != NULL ||
		       too_new))
		named = 1;
	if (status)
		*status = !named ? CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
			  : *pfn ? CU_GET_PROC_ADDRESS_SUCCESS
				 : CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
	return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

/* This library, as the dynamic linker knows it (linked -z nodelete). */
static void *own_library;
static pthread_once_t own_library_once = PTHREAD_ONCE_INIT;

static void open_own_library(void)
{
	Dl_info info;
	if (dladdr((void *)cuGetProcAddress_v2, &info) && info.dli_fname)
		own_library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

/* Whether name ends like a variant (_v2, _ptsz, _ptds): not a base name. */
static int variant_suffix(const char *name)
{
	size_t n = strlen(name);
	if (n > 5 && (strcmp(name + n - 5, "_ptsz") == 0 || strcmp(name + n - 5, "_ptds") == 0))
		return 1;
	const char *v = strrchr(name, '_');
	if (!v || v[1] != 'v' || !v[2])
		return 0;
	for (const char *c = v + 2; *c; c++)
		if (!isdigit((unsigned char)*c))
			return 0;
	return 1;
}

/* How many variants cudaTypedefs.h gives symbol, and the version of the
 * rank-th newest (rank 0: the newest); 0 if none. */
static int typedef_version(const char *symbol, int rank, int *count)
{
	int versions[16], n = 0;
	for (size_t i = 0; i < sizeof(typedef_versions) / sizeof(typedef_versions[0]); i++)
		if (strcmp(typedef_versions[i].name, symbol) == 0 && n < 16)
			versions[n++] = typedef_versions[i].version;
	*count = n;
	/* the rank-th largest, by selection (a handful at most) */
	int bound = 1 << 30, found = 0;
	for (int r = 0; r <= rank; r++) {
		found = 0;
		for (int i = 0; i < n; i++)
			if (versions[i] < bound && versions[i] > found)
				found = versions[i];
		bound = found;
	}
	return found;
}

/* An exported entry point for a base name the table lacks: the newest
   _vN variant exported (then the plain name) whose version (see the top
   of this file) is at most the one asked for, its per-thread twin when
   asked for and exported; NULL if none (*too_new: one exists, newer). */
static void *exported_entry(const char *symbol, int per_thread, int version,
			    int *too_new)
{
	if (strncmp(symbol, "cu", 2) != 0 || variant_suffix(symbol))
		return NULL;
	pthread_once(&own_library_once, open_own_library);
	if (!own_library)
		return NULL;
	char name[256];
	int rank = 0, n_versions = 0;
	typedef_version(symbol, 0, &n_versions);
	for (int v = 9; v >= 1; v--) {
		const char *suffix = v > 1 ? "_v" : "";
		if (v > 1)
			snprintf(name, sizeof name, "%s%s%d", symbol, suffix, v);
		else
			snprintf(name, sizeof name, "%s", symbol);
		void *fn = dlsym(own_library, name);
		if (!fn)
			continue;
		/* the rank-th newest export pairs with the rank-th newest
		 * version (none left: older than cudaTypedefs.h knows, so
		 * older than any version asked) */
		if (n_versions) {
			int introduced = rank < n_versions ? typedef_version(symbol, rank, &n_versions) : 0;
			rank++;
			if (introduced > version) {
				*too_new = 1;
				continue;
			}
		}
		if (per_thread) {
			char twin[272];
			snprintf(twin, sizeof twin, "%s_ptsz", name);
			void *t = dlsym(own_library, twin);
			if (!t) {
				snprintf(twin, sizeof twin, "%s_ptds", name);
				t = dlsym(own_library, twin);
			}
			if (t)
				return t;
		}
		return fn;
	}
	return NULL;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
			     cuuint64_t flags,
			     CUdriverProcAddressQueryResult *symbolStatus)
{
	return lookup(symbol, pfn, cudaVersion, flags, symbolStatus);
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
			  cuuint64_t flags)
{
	return lookup(symbol, pfn, cudaVersion, flags, NULL);
}
