/*
 * Interned NVTX domains and registered strings (see nvtx_registry.h): two
 * small hash tables under one mutex. Creating a domain or registering a
 * string is rare (once per name in well-behaved programs), so a lock is fine
 * there; the range entry points only dereference handles and never lock.
 *
 * Must never free an entry: handles are used without the lock.
 */
#include "interceptors/nvtx/registry.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { REGISTRY_BUCKETS = 256 };

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nvtxDomainRegistration_st *domain_buckets[REGISTRY_BUCKETS];
static struct nvtxStringRegistration_st *string_buckets[REGISTRY_BUCKETS];

/* FNV-1a: short names, no adversary. */
static size_t bucket_of(const char *text)
{
	uint32_t hash = 2166136261u;

	for (; *text; text++)
		hash = (hash ^ (unsigned char)*text) * 16777619u;
	return hash % REGISTRY_BUCKETS;
}

nvtxDomainHandle_t nvtx_domain_intern(const char *name)
{
	name = nvtx_nonempty(name);
	size_t bucket = bucket_of(name);
	struct nvtxDomainRegistration_st *domain;

	pthread_mutex_lock(&registry_lock);
	for (domain = domain_buckets[bucket]; domain; domain = domain->next_in_bucket)
		if (strcmp(domain->name, name) == 0)
			break;
	if (!domain) {
		size_t length = strlen(name);
		domain = malloc(sizeof(*domain) + length + 1);
		if (domain) {
			memcpy(domain->name, name, length + 1);
			domain->next_in_bucket = domain_buckets[bucket];
			domain_buckets[bucket] = domain;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return domain;
}

nvtxStringHandle_t nvtx_string_intern(const char *text)
{
	text = nvtx_nonempty(text);
	size_t bucket = bucket_of(text);
	struct nvtxStringRegistration_st *string;

	pthread_mutex_lock(&registry_lock);
	for (string = string_buckets[bucket]; string; string = string->next_in_bucket)
		if (strcmp(string->text, text) == 0)
			break;
	if (!string) {
		size_t length = strlen(text);
		string = malloc(sizeof(*string) + length + 1);
		if (string) {
			memcpy(string->text, text, length + 1);
			string->next_in_bucket = string_buckets[bucket];
			string_buckets[bucket] = string;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return string;
}
