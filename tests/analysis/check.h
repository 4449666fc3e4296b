/*
 * Minimal assertions for the analysis unit tests: print the failing check
 * with its location and exit 1. Must never let a failed check pass silently.
 */
#ifndef DNNTRACE_TESTS_ANALYSIS_CHECK_H
#define DNNTRACE_TESTS_ANALYSIS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	exit(1); } } while (0)

#define CHECK_EQ_INT(actual, expected) do { \
	long long a_ = (long long)(actual), e_ = (long long)(expected); \
	if (a_ != e_) { fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", \
		__FILE__, __LINE__, #actual, a_, e_); exit(1); } } while (0)

#define CHECK_EQ_STR(actual, expected) do { \
	const char *a_ = (actual), *e_ = (expected); \
	if (!a_ || strcmp(a_, e_) != 0) { fprintf(stderr, \
		"%s:%d: %s differs.\n--- got:\n%s\n--- expected:\n%s\n", \
		__FILE__, __LINE__, #actual, a_ ? a_ : "(null)", e_); exit(1); } } while (0)

#endif
