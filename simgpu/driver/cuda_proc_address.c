/*
 * cuGetProcAddress / cuGetProcAddress_v2 of the simulated driver: the
 * entry point for a base name ("cuMemAlloc"), a CUDA version and the
 * stream flags, by the rules cuda.h describes: the newest variant whose
 * version is <= the one asked for ("cuMemAlloc" at >= 3020 is
 * cuMemAlloc_v2), and its _ptds/_ptsz twin when per-thread default
 * streams are asked for. Versions are those of cudaTypedefs.h's PFN_*
 * typedefs (simgpu/driver/test_proc_address_table.sh checks them).
 * It must never return a variant for a version it was not introduced in.
 */
#include "simgpu/driver/driver_internal.h"

#include <string.h>

#include "simgpu/driver/proc_address_table.h"

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
	if (status)
		*status = !named ? CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
			  : *pfn ? CU_GET_PROC_ADDRESS_SUCCESS
				 : CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
	return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
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
