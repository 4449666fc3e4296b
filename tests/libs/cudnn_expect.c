/*
 * The EXPECT lines of the cuDNN test programs (see cudnn_expect.h): one JSON
 * object per call, built in a static buffer and printed at expect_end.
 * Must never depend on the tracer.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "tests/libs/cudnn_expect.h"

void die(const char *what, long long status)
{
	fprintf(stderr, "cudnn_calls: %s failed (%lld)\n", what, status);
	exit(1);
}

/* --- expectations: one JSON object per call -------------------------------- */

static char expect_buf[8192];
static size_t expect_len;
static unsigned expect_args, expect_params;
static int expect_kernel_count = -1;

static void out(const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	int n = vsnprintf(expect_buf + expect_len, sizeof(expect_buf) - expect_len, format, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(expect_buf) - expect_len)
		die("expectation too long", 0);
	expect_len += (size_t)n;
}

void expect(const char *api, int status, const void *handle, const void *stream)
{
	expect_len = 0;
	expect_args = expect_params = 0;
	expect_kernel_count = -1;
	out("{\"api\": \"%s\", \"result\": %d, \"handle\": %llu, \"stream\": %llu, \"args\": [",
	    api, status, (unsigned long long)(uintptr_t)handle,
	    (unsigned long long)(uintptr_t)stream);
}

/* role: R W RW WS U; dtype: "f32", ...; dims end with -1 */
void arg(const char *name, const void *ptr, const char *role, const char *dtype, ...)
{
	va_list ap;
	out("%s[\"%s\", %llu, \"%s\", \"%s\", [", expect_args++ ? ", " : "", name,
	    (unsigned long long)(uintptr_t)ptr, role, dtype);
	va_start(ap, dtype);
	for (int i = 0;; i++) {
		long long d = va_arg(ap, long long);
		if (d < 0)
			break;
		out("%s%lld", i ? ", " : "", d);
	}
	va_end(ap);
	out("]]");
}

void param(const char *name, long long value)
{
	out("%s%s[\"%s\", %lld]", expect_params++ ? ", " : "], \"params\": [", "", name, value);
}

void expect_kernels(int count)
{
	expect_kernel_count = count;
}

void expect_end(void)
{
	if (!expect_params)
		out("], \"params\": [");
	if (expect_kernel_count >= 0)
		out("], \"kernels\": %d}", expect_kernel_count);
	else
		out("]}");
	printf("EXPECT %s\n", expect_buf);
	fflush(stdout);
}

static void *allocations[256];
static unsigned allocation_count;

void *device(size_t bytes)
{
	void *p = NULL;
	CHECK_CUDA(cudaMalloc(&p, bytes));
	if (allocation_count == sizeof(allocations) / sizeof(allocations[0]))
		die("too many test allocations", allocation_count);
	allocations[allocation_count++] = p;
	return p;
}

void free_devices(void)
{
	while (allocation_count)
		CHECK_CUDA(cudaFree(allocations[--allocation_count]));
}

