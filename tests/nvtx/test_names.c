/*
 * Unit test of what the NVTX injection stores as names: the wchar_t to UTF-8
 * conversion (checked against the compiler's own UTF-8 literals) and the
 * interned domains and registered strings (one handle per name, also when
 * threads race to create it). Must never depend on the C locale.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "interceptors/nvtx/registry.h"
#include "interceptors/nvtx/utf8.h"

static int failures;

#define CHECK(cond, ...)                                   \
	do {                                               \
		if (!(cond) && failures++ < 20) {          \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);      \
			fputc('\n', stderr);               \
		}                                          \
	} while (0)

static void expect_utf8(const wchar_t *wide, size_t out_size, const char *expected)
{
	char out[64];

	memset(out, 'X', sizeof(out));
	size_t length = nvtx_utf8_from_wide(wide, out, out_size);
	CHECK(strcmp(out, expected) == 0, "converted to \"%s\", expected \"%s\"", out, expected);
	CHECK(length == strlen(expected), "length %zu, expected %zu", length, strlen(expected));
	CHECK(out_size >= sizeof(out) || out[out_size] == 'X', "wrote past %zu bytes", out_size);
}

static void test_utf8(void)
{
	expect_utf8(L"plain ascii", 64, "plain ascii");
	expect_utf8(L"é ü ß", 64, "é ü ß");
	expect_utf8(L"€ 日本", 64, "€ 日本");
	expect_utf8(L"𝄞 clef", 64, "𝄞 clef");
	expect_utf8(NULL, 64, "");
	expect_utf8(L"", 64, "");

	const wchar_t not_scalar[] = { L'a', 0xD800, L'b', 0xDFFF, 0x110000, -5, 0 };
	expect_utf8(not_scalar, 64, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");

	/* Cut at a character boundary, never inside one. */
	expect_utf8(L"aé€", 1, "");
	expect_utf8(L"aé€", 2, "a");
	expect_utf8(L"aé€", 3, "a");
	expect_utf8(L"aé€", 4, "aé");
	expect_utf8(L"aé€", 6, "aé");
	expect_utf8(L"aé€", 7, "aé€");
	expect_utf8(L"𝄞", 4, "");
	expect_utf8(L"𝄞", 5, "𝄞");
}

static void test_registry(void)
{
	nvtxDomainHandle_t alpha = nvtx_domain_intern("alpha");
	nvtxDomainHandle_t beta = nvtx_domain_intern("βeta");

	CHECK(alpha && beta && alpha != beta, "two names, two domains");
	CHECK(nvtx_domain_intern("alpha") == alpha, "same name, same domain");
	CHECK(strcmp(nvtx_domain_name(alpha), "alpha") == 0, "domain name %s", nvtx_domain_name(alpha));
	CHECK(strcmp(nvtx_domain_name(beta), "βeta") == 0, "domain name %s", nvtx_domain_name(beta));
	CHECK(strcmp(nvtx_domain_name(NULL), "<default>") == 0, "default domain's name");
	CHECK(nvtx_domain_intern(NULL) == nvtx_domain_intern(""), "NULL name is \"\"");
	CHECK(strcmp(nvtx_domain_name(nvtx_domain_intern("")), "<unnamed>") == 0,
	      "an empty domain name is never stored: %s", nvtx_domain_name(nvtx_domain_intern("")));

	nvtxStringHandle_t step = nvtx_string_intern("step");
	CHECK(step && nvtx_string_intern("step") == step, "same text, same handle");
	CHECK(nvtx_string_intern("steps") != step, "different text, different handle");
	CHECK(strcmp(nvtx_string_text(step), "step") == 0, "string text %s", nvtx_string_text(step));
	CHECK(strcmp(nvtx_string_text(NULL), "<unnamed>") == 0, "NULL handle's text");
	CHECK(strcmp(nvtx_string_text(nvtx_string_intern("")), "<unnamed>") == 0,
	      "an empty string is never stored");
}

/* Prime, so every racer's stride visits every name. */
enum { RACERS = 4, RACED_NAMES = 307 };
static nvtxDomainHandle_t raced_domains[RACERS][RACED_NAMES];
static nvtxStringHandle_t raced_strings[RACERS][RACED_NAMES];

static void *race(void *argument)
{
	int racer = (int)(size_t)argument;

	for (int i = 0; i < RACED_NAMES; i++) {
		/* Each racer walks the names in a different order. */
		int name = (i * (2 * racer + 1)) % RACED_NAMES;
		char text[32];
		snprintf(text, sizeof(text), "raced.%d", name);
		raced_domains[racer][name] = nvtx_domain_intern(text);
		raced_strings[racer][name] = nvtx_string_intern(text);
	}
	return NULL;
}

static void test_racing_creators(void)
{
	pthread_t threads[RACERS];

	for (int racer = 0; racer < RACERS; racer++)
		pthread_create(&threads[racer], NULL, race, (void *)(size_t)racer);
	for (int racer = 0; racer < RACERS; racer++)
		pthread_join(threads[racer], NULL);
	for (int name = 0; name < RACED_NAMES; name++) {
		char text[32];
		snprintf(text, sizeof(text), "raced.%d", name);
		for (int racer = 0; racer < RACERS; racer++) {
			CHECK(raced_domains[racer][name] == raced_domains[0][name],
			      "racer %d got another domain for %s", racer, text);
			CHECK(raced_strings[racer][name] == raced_strings[0][name],
			      "racer %d got another string for %s", racer, text);
		}
		CHECK(strcmp(nvtx_domain_name(raced_domains[0][name]), text) == 0, "domain %s", text);
		CHECK(strcmp(nvtx_string_text(raced_strings[0][name]), text) == 0, "string %s", text);
	}
}

int main(void)
{
	test_utf8();
	test_registry();
	test_racing_creators();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("nvtx names: all checks passed\n");
	return 0;
}
