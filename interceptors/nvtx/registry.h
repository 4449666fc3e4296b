/*
 * The NVTX handles libdnntrace.so gives out as an injection library: domains
 * (nvtxDomainCreateA/W) and registered strings (nvtxDomainRegisterStringA/W).
 * NVTX declares both handle types opaque and hands them back to the tool
 * unchanged, so they point to the structs defined here. Both are interned by
 * text and live until the process ends: a handle stays valid however many
 * NVTX instances (one per library built with NVTX 3's headers) or threads
 * use it, and memory grows with the number of distinct names only.
 *
 * Must never call NVTX (it may be initialising while we run).
 */
#ifndef DNNTRACE_NVTX_REGISTRY_H
#define DNNTRACE_NVTX_REGISTRY_H

#define NVTX_NO_IMPL /* a tool: NVTX's types and tables, not its loader */
#include <nvtx3/nvToolsExt.h>

struct nvtxDomainRegistration_st {
	struct nvtxDomainRegistration_st *next_in_bucket;
	char name[];
};

struct nvtxStringRegistration_st {
	struct nvtxStringRegistration_st *next_in_bucket;
	char text[];
};

/*
 * Names the trace gives to what has no name of its own. The trace never holds
 * an empty string: Babeltrace 2.0 (up to 2.0.4 at least) decodes an empty
 * string field as the previous event's value of that field (fixed upstream
 * in review.lttng.org/c/babeltrace/+/4528, not in the stable 2.0 releases).
 */
#define NVTX_DEFAULT_DOMAIN_NAME "<default>" /* NVTX's default domain: a NULL handle */
#define NVTX_UNNAMED "<unnamed>"             /* an empty or missing name or message */

static inline const char *nvtx_nonempty(const char *name)
{
	return name && *name ? name : NVTX_UNNAMED;
}

/* The domain named name (NULL or "": NVTX_UNNAMED), created on first use; NULL when out of memory. */
nvtxDomainHandle_t nvtx_domain_intern(const char *name);

/* The registered string text (NULL or "": NVTX_UNNAMED), created on first use; NULL when out of memory. */
nvtxStringHandle_t nvtx_string_intern(const char *text);

static inline const char *nvtx_domain_name(nvtxDomainHandle_t domain)
{
	return domain ? domain->name : NVTX_DEFAULT_DOMAIN_NAME;
}

static inline const char *nvtx_string_text(nvtxStringHandle_t string)
{
	return string ? string->text : NVTX_UNNAMED;
}

#endif
