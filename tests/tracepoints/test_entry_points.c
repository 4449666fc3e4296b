/*
 * The catalogue's promise (tracepoints/entry_points.h): an id once written
 * into a trace keeps its entry point. Compares the catalogue with
 * entry_point_ids.txt beside this file, the ids traces were written with:
 * every line there must still hold, and every traced entry point of the
 * catalogue must be there (a new one is added to the file with its new id).
 * Also: no id or name twice, and the trace's enum values (dnntrace_enums.h)
 * equal the catalogue's ids.
 *
 * With --wrapped it prints the names of every entry point libdnntrace.so
 * must export, one a line, for test_catalogue_exports.sh. Must never
 * accept a changed id, whatever else changed with it.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracepoints/dnntrace_enums.h"

struct entry {
	const char *provider; /* "api" or "lib" */
	int id;
	const char *name;
	bool seen_in_file;
};

#define API_ENTRY(id, name, kind, proc, cbid) { "api", id, #name, false },
#define LIB_ENTRY(id, name, args, params) { "lib", id, #name, false },
static struct entry catalogue[] = {
	DNNTRACE_API_ENTRIES(API_ENTRY)
	DNNTRACE_LIB_ENTRIES(LIB_ENTRY)
};
enum { N_ENTRIES = sizeof(catalogue) / sizeof(catalogue[0]) };

/* The enum constants the tracer writes, by name, for the same check. */
#define API_ENUM_VALUE(id, name, kind, proc, cbid) DNNTRACE_API_##name,
#define LIB_ENUM_VALUE(id, name, args, params) DNNTRACE_LIB_##name,
static const int enum_values[N_ENTRIES] = {
	DNNTRACE_API_ENTRIES(API_ENUM_VALUE)
	DNNTRACE_LIB_ENTRIES(LIB_ENUM_VALUE)
};

static int failures;

static void fail(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *format, ...)
{
	va_list args;

	va_start(args, format);
	fputs("FAIL: ", stderr);
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
	va_end(args);
	failures++;
}

static void list_wrapped(void)
{
#define PRINT_API(id, name, kind, proc, cbid) puts(#name);
#define PRINT_LIB(id, name, args, params) puts(#name);
#define PRINT_WRAPPED(name, proc) puts(#name);
	DNNTRACE_API_ENTRIES(PRINT_API)
	DNNTRACE_LIB_ENTRIES(PRINT_LIB)
	DNNTRACE_WRAPPED_ENTRIES(PRINT_WRAPPED)
}

static void check_unique(void)
{
	for (int i = 0; i < N_ENTRIES; i++) {
		for (int j = i + 1; j < N_ENTRIES; j++) {
			if (strcmp(catalogue[i].name, catalogue[j].name) == 0) {
				fail("%s is in the catalogue twice",
					 catalogue[i].name);
			}
			if (strcmp(catalogue[i].provider, catalogue[j].provider) == 0 &&
			    catalogue[i].id == catalogue[j].id) {
				fail("%s id %d is given to both %s and %s",
					 catalogue[i].provider, catalogue[i].id,
					 catalogue[i].name, catalogue[j].name);
			}
		}
		if (enum_values[i] != catalogue[i].id) {
			fail("enum value of %s is %d, catalogue id %d",
				 catalogue[i].name, enum_values[i], catalogue[i].id);
		}
	}
}

static struct entry *find(const char *provider, const char *name)
{
	for (int i = 0; i < N_ENTRIES; i++)
		if (strcmp(catalogue[i].provider, provider) == 0 &&
		    strcmp(catalogue[i].name, name) == 0)
			return &catalogue[i];
	return NULL;
}

static void check_against_file(const char *path)
{
	char line[256], provider[16], name[128];
	int id, line_number = 0, lines = 0;
	FILE *file = fopen(path, "r");

	if (!file) {
		fprintf(stderr, "FAIL: cannot open %s\n", path);
		exit(1);
	}
	while (fgets(line, sizeof(line), file)) {
		line_number++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%15s %d %127s", provider, &id, name) != 3) {
			fail("%s:%d: not 'provider id name'", path, line_number);
			continue;
		}
		lines++;
		struct entry *entry = find(provider, name);
		if (!entry) {
			fail("%s %d %s was traced and is gone from the catalogue",
				 provider, id, name);
		} else if (entry->id != id) {
			fail("%s %s changed its id from %d to %d", provider,
				 name, id, entry->id);
		} else {
			entry->seen_in_file = true;
		}
	}
	fclose(file);
	for (int i = 0; i < N_ENTRIES; i++) {
		if (!catalogue[i].seen_in_file) {
			fail("%s %d %s is not in %s (add it there)",
				 catalogue[i].provider, catalogue[i].id, catalogue[i].name, path);
		}
	}
	printf("%d ids in %s, %d traced entry points in the catalogue\n", lines, path,
	       (int)N_ENTRIES);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--wrapped") == 0) {
		list_wrapped();
		return 0;
	}
	const char *root = getenv("DNNTRACE_ROOT");
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/tracepoints/entry_point_ids.txt", root ? root : ".");
	check_unique();
	check_against_file(path);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
