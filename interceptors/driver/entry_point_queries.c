/*
 * Wrappers of the driver entry-point queries: cuGetProcAddress (CUDA 11.3,
 * four arguments), cuGetProcAddress_v2, and the runtime's
 * cudaGetDriverEntryPoint[ByVersion] (with _ptsz twins). Since CUDA 11.3
 * libcudart, cuBLAS and cuDNN reach every driver function this way, so
 * wrapping cuMemAlloc_v2 by symbol alone would miss them.
 *
 * Each calls the real query with the same arguments and returns its result
 * unchanged; when it handed back a function we wrap, the caller gets our
 * wrapper of exactly that version instead, and the real pointer is kept
 * (real_function_offer) for the wrapper to forward to. Which version a
 * query returns is decided as the driver does (cuda.h's cuGetProcAddress
 * documentation): the newest version of the symbol whose CUDA version is
 * at most the one asked, the per-thread-stream twin when the flags ask for
 * it. The versions are those of cudaTypedefs.h's PFN_<symbol>_v<version>
 * typedefs; a version older than any listed here is an ABI we do not wrap
 * (e.g. the 32-bit cuMemAlloc of v2000) and is handed back untouched.
 *
 * Must never trace anything itself, never change a query's result code or
 * status, and never hand back a wrapper for an ABI other than the one the
 * real query returned.
 */
#include <errno.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "interceptors/driver/cuda_driver_ptds.h"
#include "interceptors/core/dlsym_wrapper.h"
#include "interceptors/core/real_functions.h"
#include "interceptors/core/tracer.h"

DNNTRACE_PROTOTYPE_IS(cuGetProcAddress, PFN_cuGetProcAddress_v11030);
DNNTRACE_PROTOTYPE_IS(cuGetProcAddress_v2, PFN_cuGetProcAddress_v12000);

/* One version of one driver symbol that we wrap. */
struct proc_variant {
	const char *symbol;   /* the name a query asks for */
	int version;          /* from PFN_<symbol>_v<version> in cudaTypedefs.h */
	bool per_thread;      /* the _ptds/_ptsz twin */
	enum real_function_id id;
};

/* The catalogue's proc column (tracepoints/entry_points.h) as variants. */
#define DT_VARIANT(kind, symbol, version, id) DT_VARIANT_##kind(symbol, version, id)
#define DT_VARIANT_0(symbol, version, id)
#define DT_VARIANT_1(symbol, version, id) { symbol, version, false, id },
#define DT_VARIANT_2(symbol, version, id) { symbol, version, true, id },
#define DT_VARIANT_OF_API(id, name, kind, proc, cbid) DT_SPREAD(DT_VARIANT, proc, REAL_##name)
#define DT_VARIANT_OF_WRAPPED(name, proc) DT_SPREAD(DT_VARIANT, proc, REAL_##name)

static const struct proc_variant variants[] = {
	DNNTRACE_API_ENTRIES(DT_VARIANT_OF_API)
	DNNTRACE_WRAPPED_ENTRIES(DT_VARIANT_OF_WRAPPED)
};

enum { N_VARIANTS = sizeof(variants) / sizeof(variants[0]) };

/*
 * The variant a query for symbol at version returns, or NULL when it is
 * one we do not wrap. The per-thread twin only when asked for AND it exists
 * at that version; otherwise the legacy-stream one.
 */
static const struct proc_variant *variant_for(const char *symbol, int version, bool per_thread)
{
	const struct proc_variant *best = NULL, *best_per_thread = NULL;

	for (size_t i = 0; i < N_VARIANTS; i++) {
		const struct proc_variant *v = &variants[i];
		if (v->version > version || strcmp(v->symbol, symbol) != 0)
			continue;
		const struct proc_variant **slot = v->per_thread ? &best_per_thread : &best;
		if (!*slot || (*slot)->version < v->version)
			*slot = v;
	}
	if (per_thread && best_per_thread)
		return best_per_thread;
	return best;
}

/* What the caller gets for fn, the real query's answer to symbol at version. */
static void *substitute(const char *symbol, int version, bool per_thread, void *fn)
{
	if (!symbol || !fn || real_function_is_ours(fn))
		return fn;
	int saved_errno = errno;
	const struct proc_variant *variant = variant_for(symbol, version, per_thread);
	void *wrapper = variant ? dnntrace_our_wrapper(variant->id) : NULL;
	if (wrapper)
		real_function_offer(variant->id, fn);
	errno = saved_errno;
	return wrapper ? wrapper : fn;
}

static bool wants_per_thread(cuuint64_t flags)
{
	return (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
}

DNNTRACE_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
					     cuuint64_t flags,
					     CUdriverProcAddressQueryResult *symbolStatus)
{
	__typeof__(&cuGetProcAddress_v2) real = REAL(cuGetProcAddress_v2);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	CUresult result = real(symbol, pfn, cudaVersion, flags, symbolStatus);
	if (result == CUDA_SUCCESS && pfn)
		*pfn = substitute(symbol, cudaVersion, wants_per_thread(flags), *pfn);
	return result;
}

DNNTRACE_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
					  cuuint64_t flags)
{
	__typeof__(&cuGetProcAddress) real = REAL(cuGetProcAddress);
	if (!real)
		return CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND;
	CUresult result = real(symbol, pfn, cudaVersion, flags);
	if (result == CUDA_SUCCESS && pfn)
		*pfn = substitute(symbol, cudaVersion, wants_per_thread(flags), *pfn);
	return result;
}

/* --- the runtime's queries ----------------------------------------------- */

/* cudaGetDriverEntryPoint (deprecated in CUDA 13) is still exported and used. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/*
 * The CUDA version cudaGetDriverEntryPoint asks the driver for: the
 * runtime's own (cuda_runtime_api.h). 13000 if the runtime cannot say.
 */
static int runtime_version(void)
{
	__typeof__(&cudaRuntimeGetVersion) get_version = REAL(cudaRuntimeGetVersion);
	int version = 0;

	if (!get_version || get_version(&version) != cudaSuccess || version <= 0)
		return 13000;
	return version;
}

/*
 * The runtime's flags have the driver's values (cudaEnableLegacyStream 1,
 * cudaEnablePerThreadDefaultStream 2). cudaEnableDefault (0) means
 * per-thread for the _ptsz entry points, which code built with
 * --default-stream per-thread calls.
 */
static bool runtime_wants_per_thread(unsigned long long flags, bool ptsz_entry)
{
	if (flags & cudaEnablePerThreadDefaultStream)
		return true;
	return ptsz_entry && !(flags & cudaEnableLegacyStream);
}

static cudaError_t entry_point(__typeof__(&cudaGetDriverEntryPoint) real, bool ptsz_entry,
			       const char *symbol, void **funcPtr, unsigned long long flags,
			       enum cudaDriverEntryPointQueryResult *driverStatus)
{
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	cudaError_t result = real(symbol, funcPtr, flags, driverStatus);
	if (result == cudaSuccess && funcPtr)
		*funcPtr = substitute(symbol, runtime_version(),
				      runtime_wants_per_thread(flags, ptsz_entry), *funcPtr);
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
						    unsigned long long flags,
						    enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point(REAL(cudaGetDriverEntryPoint), false, symbol, funcPtr, flags,
			   driverStatus);
}

DNNTRACE_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(
	const char *symbol, void **funcPtr, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point(REAL(cudaGetDriverEntryPoint_ptsz), true, symbol, funcPtr, flags,
			   driverStatus);
}

DNNTRACE_SAME_PROTOTYPE(cudaGetDriverEntryPoint_ptsz, cudaGetDriverEntryPoint);

#pragma GCC diagnostic pop

DNNTRACE_SAME_PROTOTYPE(cudaGetDriverEntryPointByVersion_ptsz, cudaGetDriverEntryPointByVersion);

static cudaError_t entry_point_by_version(__typeof__(&cudaGetDriverEntryPointByVersion) real,
					  bool ptsz_entry, const char *symbol, void **funcPtr,
					  unsigned int cudaVersion, unsigned long long flags,
					  enum cudaDriverEntryPointQueryResult *driverStatus)
{
	if (!real)
		return cudaErrorSharedObjectSymbolNotFound;
	cudaError_t result = real(symbol, funcPtr, cudaVersion, flags, driverStatus);
	if (result == cudaSuccess && funcPtr)
		*funcPtr = substitute(symbol, (int)cudaVersion,
				      runtime_wants_per_thread(flags, ptsz_entry), *funcPtr);
	return result;
}

DNNTRACE_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(
	const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point_by_version(REAL(cudaGetDriverEntryPointByVersion), false, symbol,
				      funcPtr, cudaVersion, flags, driverStatus);
}

DNNTRACE_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
	const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point_by_version(REAL(cudaGetDriverEntryPointByVersion_ptsz), true, symbol,
				      funcPtr, cudaVersion, flags, driverStatus);
}
