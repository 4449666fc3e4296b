/*
 * context_reset: the driver's context calls that end tensors, each with
 * 1 MiB tensors it knows, on device 0, driver API only (no runtime, so no
 * reference of the runtime's keeps the primary context alive):
 *
 *   1. a context of its own (cuCtxCreate): A1, A2 (cuMemAlloc) and S1
 *      (cuMemAllocAsync, which belongs to no context), kernel in_created;
 *      cuCtxDestroy ends A1 and A2, S1 stays;
 *   2. the primary context, retained once: B1, B2, kernel in_primary (on
 *      B1, B2, S1); cuDevicePrimaryCtxReset ends B1, B2 and S1 (the
 *      device's stream-ordered memory goes with its primary context);
 *   3. still retained: C1, C2, kernel after_reset; the release of the last
 *      reference resets the context and ends C1, C2;
 *   4. retained twice: D1, a release (one reference left: D1 lives),
 *      kernel still_retained on D1, cuMemFree(D1), the last release (ends
 *      nothing: nothing is left).
 *
 * `context_reset many N`: N contexts created and all alive at once, then
 * destroyed (the tracer's table of created contexts holds 256: past it,
 * it must say how many it could not hold).
 *
 * At most 3 MiB is ever allocated (kernels in_created and in_primary); a
 * trace that let a context's tensors outlive it reports 5 MiB at
 * in_primary and more later. Its stdout must not depend on whether it is
 * traced. Any CUDA failure: one line on stderr, exit 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "simgpu/simgpu.h"

enum { MIB = 1 << 20, PARAMS = 3 };

static const char in_created, in_primary, after_reset, still_retained;

static void check(CUresult result, const char *call, int line)
{
	if (result != CUDA_SUCCESS) {
		fprintf(stderr, "context_reset: %s failed (%d) at line %d\n", call, (int)result,
			line);
		exit(1);
	}
}
#define CHECK(call) check((call), #call, __LINE__)

static CUdeviceptr alloc_mib(void)
{
	CUdeviceptr p = 0;
	CHECK(cuMemAlloc_v2(&p, MIB));
	return p;
}

/* A kernel of three pointer parameters on a, b, c, waited for. */
static void launch(CUfunction f, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c)
{
	void *params[PARAMS] = {&a, &b, &c};
	CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
	CHECK(cuCtxSynchronize());
}

static CUfunction kernel(CUmodule module, const void *host, const char *name)
{
	size_t sizes[PARAMS] = {sizeof(CUdeviceptr), sizeof(CUdeviceptr), sizeof(CUdeviceptr)};
	CUfunction f = NULL;
	simgpu_define_kernel(host, name, PARAMS, sizes);
	CHECK(cuModuleGetFunction(&f, module, name));
	return f;
}

static int many_contexts(int n)
{
	CUcontext *contexts = calloc((size_t)n, sizeof(*contexts));
	if (!contexts)
		return 1;
	CHECK(cuInit(0));
	for (int i = 0; i < n; i++)
		CHECK(cuCtxCreate_v4(&contexts[i], NULL, 0, 0));
	for (int i = n - 1; i >= 0; i--)
		CHECK(cuCtxDestroy_v2(contexts[i]));
	free(contexts);
	printf("context_reset: %d contexts done\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	CUmodule module = NULL;
	CUcontext created = NULL, primary = NULL;

	if (argc == 3 && strcmp(argv[1], "many") == 0)
		return many_contexts(atoi(argv[2]));
	CHECK(cuInit(0));
	CHECK(cuModuleLoadData(&module, "simgpu"));
	CUfunction k_created = kernel(module, &in_created, "in_created");
	CUfunction k_primary = kernel(module, &in_primary, "in_primary");
	CUfunction k_after = kernel(module, &after_reset, "after_reset");
	CUfunction k_retained = kernel(module, &still_retained, "still_retained");

	/* 1. a created context */
	CHECK(cuCtxCreate_v4(&created, NULL, 0, 0));
	CUdeviceptr a1 = alloc_mib(), a2 = alloc_mib(), s1 = 0;
	CHECK(cuMemAllocAsync(&s1, MIB, NULL));
	launch(k_created, a1, a2, s1);
	CHECK(cuCtxDestroy_v2(created));

	/* 2. the primary context, reset while retained */
	CHECK(cuDevicePrimaryCtxRetain(&primary, 0));
	CHECK(cuCtxSetCurrent(primary));
	CUdeviceptr b1 = alloc_mib(), b2 = alloc_mib();
	launch(k_primary, b1, b2, s1);
	CHECK(cuDevicePrimaryCtxReset_v2(0));

	/* 3. its last reference released */
	CUdeviceptr c1 = alloc_mib(), c2 = alloc_mib();
	launch(k_after, c1, c2, 0);
	CHECK(cuDevicePrimaryCtxRelease_v2(0));

	/* 4. a release that leaves a reference */
	CHECK(cuDevicePrimaryCtxRetain(&primary, 0));
	CHECK(cuDevicePrimaryCtxRetain(&primary, 0));
	CHECK(cuCtxSetCurrent(primary));
	CUdeviceptr d1 = alloc_mib();
	CHECK(cuDevicePrimaryCtxRelease_v2(0));
	launch(k_retained, d1, 0, 0);
	CHECK(cuMemFree_v2(d1));
	CHECK(cuDevicePrimaryCtxRelease_v2(0));

	printf("context_reset: done\n");
	return 0;
}
