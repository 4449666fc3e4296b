/*
 * libdnntrace.so as an NVTX injection library: NVTX 3 (header-only, one
 * instance per library or program built with its headers) dlopens the path in
 * NVTX_INJECTION64_PATH on its first call and calls InitializeInjectionNvtx2,
 * which fills that instance's function tables with the entry points below.
 * Push/pop and start/end ranges, in any domain and in the A, W (stored as
 * UTF-8) and Ex forms, become dnntrace_nvtx events; marks, categories, thread
 * and resource names are left to NVTX's no-ops.
 *
 * When libdnntrace.so is also preloaded (as `dnntrace record` does), the
 * loader hands NVTX the already loaded copy (same file), so both roles share
 * one state.
 *
 * Tested with NVTX 3's own headers (CUDA 13 toolkit) in a C program. Assumed,
 * not tested here: that the NVTX copies inside real libraries (PyTorch's
 * libtorch_cuda, and the older libnvToolsExt.so.1 of NVTX 2, which loads
 * injections through the same InitializeInjectionNvtx2 and module tables)
 * behave as those headers do; their tables may be shorter, hence the size
 * checks in fill_module.
 *
 * Must never call NVTX or CUDA, never start the tracer (CUPTI) and never
 * lock on the range entry points: they run on the program's hot path. With no
 * session listening they only return. Push/pop return NVTX_NO_PUSH_POP_TRACKING,
 * as NVTX does with no tool, so the program sees the same values either way.
 */
#include "interceptors/nvtx/registry.h"
#include "interceptors/core/event_count.h"
#include "interceptors/nvtx/utf8.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_nvtx.h"

#include <stdatomic.h>
#include <stddef.h>

/* Longest name stored for a wide-string message, in UTF-8 bytes. */
enum { WIDE_NAME_BYTES = 1024 };

/* Range ids for start/end: unique per process, never 0 (NVTX's "no range"). */
static atomic_uint_fast64_t next_range_id = 1;

/*
 * The message of an event attribute structure as UTF-8: ASCII as is, Unicode
 * converted into wide_buffer, a registered string's text. Anything else
 * (no attributes, a structure too short to hold a message, no message, an
 * empty one): NVTX_UNNAMED, as the trace holds no empty string.
 */
static const char *message_of(const nvtxEventAttributes_t *attributes,
			      char wide_buffer[WIDE_NAME_BYTES])
{
	if (!attributes || attributes->size < offsetof(nvtxEventAttributes_t, message) +
						      sizeof(attributes->message))
		return NVTX_UNNAMED;
	switch (attributes->messageType) {
	case NVTX_MESSAGE_TYPE_ASCII:
		return nvtx_nonempty(attributes->message.ascii);
	case NVTX_MESSAGE_TYPE_UNICODE:
		nvtx_utf8_from_wide(attributes->message.unicode, wide_buffer, WIDE_NAME_BYTES);
		return nvtx_nonempty(wide_buffer);
	case NVTX_MESSAGE_TYPE_REGISTERED:
		return nvtx_string_text(attributes->message.registered);
	default:
		return NVTX_UNNAMED;
	}
}

/* --- push / pop ------------------------------------------------------- */

static int NVTX_API domain_range_push_ex(nvtxDomainHandle_t domain,
					 const nvtxEventAttributes_t *attributes)
{
	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, push)) {
		char wide_buffer[WIDE_NAME_BYTES];
		DNNTRACE_EMIT(dnntrace_nvtx, push, nvtx_domain_name(domain),
				     message_of(attributes, wide_buffer));
	}
	return NVTX_NO_PUSH_POP_TRACKING;
}

static int NVTX_API range_push_ex(const nvtxEventAttributes_t *attributes)
{
	return domain_range_push_ex(NULL, attributes);
}

static int NVTX_API range_push_a(const char *message)
{
	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, push))
		DNNTRACE_EMIT(dnntrace_nvtx, push, NVTX_DEFAULT_DOMAIN_NAME,
				     nvtx_nonempty(message));
	return NVTX_NO_PUSH_POP_TRACKING;
}

static int NVTX_API range_push_w(const wchar_t *message)
{
	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, push)) {
		char name[WIDE_NAME_BYTES];
		nvtx_utf8_from_wide(message, name, sizeof(name));
		DNNTRACE_EMIT(dnntrace_nvtx, push, NVTX_DEFAULT_DOMAIN_NAME,
				     nvtx_nonempty(name));
	}
	return NVTX_NO_PUSH_POP_TRACKING;
}

static int NVTX_API domain_range_pop(nvtxDomainHandle_t domain)
{
	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, pop))
		DNNTRACE_EMIT(dnntrace_nvtx, pop, nvtx_domain_name(domain));
	return NVTX_NO_PUSH_POP_TRACKING;
}

static int NVTX_API range_pop(void)
{
	return domain_range_pop(NULL);
}

/* --- start / end ------------------------------------------------------ */

/*
 * Ids are handed out whether or not a session listens: the program keeps
 * them, and a session started in between still sees matching ends.
 */
static nvtxRangeId_t NVTX_API domain_range_start_ex(nvtxDomainHandle_t domain,
						    const nvtxEventAttributes_t *attributes)
{
	nvtxRangeId_t id = atomic_fetch_add_explicit(&next_range_id, 1, memory_order_relaxed);

	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, start)) {
		char wide_buffer[WIDE_NAME_BYTES];
		DNNTRACE_EMIT(dnntrace_nvtx, start, id, nvtx_domain_name(domain),
				     message_of(attributes, wide_buffer));
	}
	return id;
}

static nvtxRangeId_t NVTX_API range_start_ex(const nvtxEventAttributes_t *attributes)
{
	return domain_range_start_ex(NULL, attributes);
}

static nvtxRangeId_t NVTX_API range_start_a(const char *message)
{
	nvtxRangeId_t id = atomic_fetch_add_explicit(&next_range_id, 1, memory_order_relaxed);

	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, start))
		DNNTRACE_EMIT(dnntrace_nvtx, start, id, NVTX_DEFAULT_DOMAIN_NAME,
				     nvtx_nonempty(message));
	return id;
}

static nvtxRangeId_t NVTX_API range_start_w(const wchar_t *message)
{
	nvtxRangeId_t id = atomic_fetch_add_explicit(&next_range_id, 1, memory_order_relaxed);

	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, start)) {
		char name[WIDE_NAME_BYTES];
		nvtx_utf8_from_wide(message, name, sizeof(name));
		DNNTRACE_EMIT(dnntrace_nvtx, start, id, NVTX_DEFAULT_DOMAIN_NAME,
				     nvtx_nonempty(name));
	}
	return id;
}

static void NVTX_API range_end(nvtxRangeId_t id)
{
	if (lttng_ust_tracepoint_enabled(dnntrace_nvtx, end))
		DNNTRACE_EMIT(dnntrace_nvtx, end, id);
}

static void NVTX_API domain_range_end(nvtxDomainHandle_t domain, nvtxRangeId_t id)
{
	(void)domain; /* ids are unique across domains */
	range_end(id);
}

/* --- domains and registered strings ------------------------------------ */

static nvtxDomainHandle_t NVTX_API domain_create_a(const char *name)
{
	return nvtx_domain_intern(name);
}

static nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t *name)
{
	char utf8[WIDE_NAME_BYTES];

	nvtx_utf8_from_wide(name, utf8, sizeof(utf8));
	return nvtx_domain_intern(utf8);
}

/* Registered strings are interned process-wide: the domain does not matter. */
static nvtxStringHandle_t NVTX_API domain_register_string_a(nvtxDomainHandle_t domain,
							    const char *text)
{
	(void)domain;
	return nvtx_string_intern(text);
}

static nvtxStringHandle_t NVTX_API domain_register_string_w(nvtxDomainHandle_t domain,
							    const wchar_t *text)
{
	char utf8[WIDE_NAME_BYTES];

	(void)domain;
	nvtx_utf8_from_wide(text, utf8, sizeof(utf8));
	return nvtx_string_intern(utf8);
}

/* --- the injection entry point ----------------------------------------- */

struct table_entry {
	unsigned callback_id;
	NvtxFunctionPointer function;
};

#define ENTRY(id, function) { (id), (NvtxFunctionPointer)(function) }

static const struct table_entry core_entries[] = {
	ENTRY(NVTX_CBID_CORE_RangeStartEx, range_start_ex),
	ENTRY(NVTX_CBID_CORE_RangeStartA, range_start_a),
	ENTRY(NVTX_CBID_CORE_RangeStartW, range_start_w),
	ENTRY(NVTX_CBID_CORE_RangeEnd, range_end),
	ENTRY(NVTX_CBID_CORE_RangePushEx, range_push_ex),
	ENTRY(NVTX_CBID_CORE_RangePushA, range_push_a),
	ENTRY(NVTX_CBID_CORE_RangePushW, range_push_w),
	ENTRY(NVTX_CBID_CORE_RangePop, range_pop),
};

static const struct table_entry core2_entries[] = {
	ENTRY(NVTX_CBID_CORE2_DomainRangeStartEx, domain_range_start_ex),
	ENTRY(NVTX_CBID_CORE2_DomainRangeEnd, domain_range_end),
	ENTRY(NVTX_CBID_CORE2_DomainRangePushEx, domain_range_push_ex),
	ENTRY(NVTX_CBID_CORE2_DomainRangePop, domain_range_pop),
	ENTRY(NVTX_CBID_CORE2_DomainRegisterStringA, domain_register_string_a),
	ENTRY(NVTX_CBID_CORE2_DomainRegisterStringW, domain_register_string_w),
	ENTRY(NVTX_CBID_CORE2_DomainCreateA, domain_create_a),
	ENTRY(NVTX_CBID_CORE2_DomainCreateW, domain_create_w),
};

/*
 * Writes our entry points into one module's table. An older NVTX may have a
 * shorter table (out_size) and leaves unused slots NULL: those are skipped.
 */
static int fill_module(const NvtxExportTableCallbacks *callbacks, NvtxCallbackModule module,
		       const struct table_entry *entries, size_t count)
{
	NvtxFunctionTable table = NULL;
	unsigned int size = 0;

	if (!callbacks->GetModuleFunctionTable(module, &table, &size) || !table)
		return 0;
	for (size_t i = 0; i < count; i++)
		if (entries[i].callback_id < size && table[entries[i].callback_id])
			*table[entries[i].callback_id] = entries[i].function;
	return 1;
}

/*
 * Called by each NVTX instance once, under its own init-once; may run on
 * several threads for several instances at a time (nothing here is shared
 * but the registry, which locks). Returning 0 makes NVTX fall back to no-ops.
 */
DNNTRACE_EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
	if (!get_export_table)
		return 0;
	const NvtxExportTableCallbacks *callbacks = get_export_table(NVTX_ETID_CALLBACKS);
	if (!callbacks || callbacks->struct_size < offsetof(NvtxExportTableCallbacks,
							    GetModuleFunctionTable) +
							   sizeof(callbacks->GetModuleFunctionTable) ||
	    !callbacks->GetModuleFunctionTable)
		return 0;

	const NvtxExportTableVersionInfo *version = get_export_table(NVTX_ETID_VERSIONINFO);
	if (version && version->struct_size >= offsetof(NvtxExportTableVersionInfo,
							SetInjectionNvtxVersion) +
						       sizeof(version->SetInjectionNvtxVersion) &&
	    version->SetInjectionNvtxVersion)
		version->SetInjectionNvtxVersion(NVTX_VERSION);

	if (!fill_module(callbacks, NVTX_CB_MODULE_CORE, core_entries,
			 sizeof(core_entries) / sizeof(core_entries[0])))
		return 0;
	/* NVTX 1 has no CORE2 module: its core ranges still work. */
	fill_module(callbacks, NVTX_CB_MODULE_CORE2, core2_entries,
		    sizeof(core2_entries) / sizeof(core2_entries[0]));
	return 1;
}
