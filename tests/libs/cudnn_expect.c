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
static long long pack_params[64][2]; /* uid, attribute of each pack argument */
static unsigned n_pack_params;

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
	n_pack_params = 0;
	out("{\"api\": \"%s\", \"result\": %d, \"handle\": %llu, \"stream\": %llu, \"args\": [",
	    api, status, (unsigned long long)(uintptr_t)handle,
	    (unsigned long long)(uintptr_t)stream);
}

static void vput_arg(const char *name, const void *ptr, const char *role, const char *dtype,
		     va_list dims)
{
	out("%s[\"%s\", %llu, \"%s\", \"%s\", [", expect_args++ ? ", " : "", name,
	    (unsigned long long)(uintptr_t)ptr, role, dtype);
	for (int i = 0;; i++) {
		long long d = va_arg(dims, long long);
		if (d < 0)
			break;
		out("%s%lld", i ? ", " : "", d);
	}
	out("]]");
}

/* role: R W RW WS U; dtype: "f32", ...; dims end with -1 */
void arg(const char *name, const void *ptr, const char *role, const char *dtype, ...)
{
	va_list ap;
	va_start(ap, dtype);
	vput_arg(name, ptr, role, dtype, ap);
	va_end(ap);
}

void unused(const char *name, const void *ptr)
{
	out("%s[\"%s\", %llu, \"-\", \"?\", []]", expect_args++ ? ", " : "", name,
	    (unsigned long long)(uintptr_t)ptr);
}

void pack_arg(long long uid, long long attribute, const void *ptr, const char *role,
	      const char *dtype, ...)
{
	va_list ap;
	if (n_pack_params == sizeof(pack_params) / sizeof(pack_params[0]))
		die("too many pack arguments", n_pack_params);
	pack_params[n_pack_params][0] = uid;
	pack_params[n_pack_params++][1] = attribute;
	va_start(ap, dtype);
	vput_arg("pack", ptr, role, dtype, ap);
	va_end(ap);
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
	for (unsigned i = 0; i < n_pack_params; i++) {
		param("uid", pack_params[i][0]);
		param("attribute", pack_params[i][1]);
	}
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

