/*
 * The simulated driver's modules from real device code: cuModuleLoad (a
 * file), cuModuleLoadData and cuModuleLoadDataEx on nvcc's fatbin, zstd
 * fatbin and cubin of tests/nvcc/nv_kernels.cu (built by make with the
 * toolkit's nvcc): cuModuleGetFunction by mangled name, cuFuncGetName /
 * cuFuncGetParamInfo as the C++ ABI lays the parameters out (known by
 * construction), cuModuleGetGlobal with the initial values of the source,
 * a launch, cuModuleUnload; bad images are CUDA_ERROR_INVALID_IMAGE, a
 * missing file CUDA_ERROR_FILE_NOT_FOUND. The driver alone (libcuda.so.1).
 * Skips (77) only when nvcc is absent.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simgpu/tests/driver_test.h"

static char dir[PATH_MAX];

static unsigned char *read_image(const char *name, size_t *len)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot read %s (built by make with nvcc)\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc(*len);
	CHECK(buf && fread(buf, 1, *len, f) == *len);
	fclose(f);
	return buf;
}

static void check_module(CUmodule m)
{
	CUfunction vadd, pair, missing;
	CHECK_CU(cuModuleGetFunction(&vadd, m, "_Z4vaddPKfS0_Pfi"));
	CHECK_CU(cuModuleGetFunction(&pair, m, "_Z10apply_pair4Pairc"));
	CHECK_CU_IS(cuModuleGetFunction(&missing, m, "vadd"), CUDA_ERROR_NOT_FOUND);
	const char *name = NULL;
	CHECK_CU(cuFuncGetName(&name, pair));
	CHECK(strcmp(name, "_Z10apply_pair4Pairc") == 0);
	/* vadd(const float *, const float *, float *, int); apply_pair(Pair of
	 * two pointers, an int and a float = 24 bytes, char). */
	static const size_t vadd_off[] = { 0, 8, 16, 24 }, vadd_size[] = { 8, 8, 8, 4 };
	size_t off, size;
	for (size_t i = 0; i < 4; i++) {
		CHECK_CU(cuFuncGetParamInfo(vadd, i, &off, &size));
		CHECK_EQ_U64(off, vadd_off[i]);
		CHECK_EQ_U64(size, vadd_size[i]);
	}
	CHECK_CU_IS(cuFuncGetParamInfo(vadd, 4, &off, &size), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuFuncGetParamInfo(pair, 1, &off, &size));
	CHECK_EQ_U64(off, 24);
	CHECK_EQ_U64(size, 1);

	CUdeviceptr counter, coeffs;
	size_t bytes = 0;
	CHECK_CU(cuModuleGetGlobal_v2(&counter, &bytes, m, "d_counter"));
	CHECK_EQ_U64(bytes, 4);
	int value = 0;
	CHECK_CU(cuMemcpyDtoH_v2(&value, counter, sizeof(value)));
	CHECK(value == 7);
	CHECK_CU(cuModuleGetGlobal_v2(&coeffs, &bytes, m, "c_coeffs"));
	float c[3];
	CHECK_CU(cuMemcpyDtoH_v2(c, coeffs, sizeof(c)));
	CHECK(c[0] == 1.5f && c[1] == 2.5f && c[2] == 3.5f);
	CHECK_CU_IS(cuModuleGetGlobal_v2(&counter, &bytes, m, "nope"), CUDA_ERROR_NOT_FOUND);

	CUdeviceptr a;
	CHECK_CU(cuMemAlloc_v2(&a, 4096));
	int n = 1024;
	void *args[] = { &a, &a, &a, &n };
	CHECK_CU(cuLaunchKernel(vadd, 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	CHECK_CU(cuCtxSynchronize());
	CHECK_CU(cuMemFree_v2(a));
}

int main(void)
{
	const char *cuda_home = getenv("CUDA_HOME");
	char nvcc[PATH_MAX];
	snprintf(nvcc, sizeof(nvcc), "%s/bin/nvcc", cuda_home ? cuda_home : "/usr/local/cuda");
	if (access(nvcc, X_OK) != 0) {
		printf("SKIP: %s not found: no nvcc output to load\n", nvcc);
		return 77;
	}
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(len > 0);
	exe[len] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(dir, sizeof(dir), "%.*s/../nvcc", (int)(sizeof(dir) - 16), exe);

	CHECK_CU(cuInit(0));
	CUcontext ctx;
	CHECK_CU(cuCtxCreate_v4(&ctx, NULL, 0, 0));

	static const char *const images[] = { "nv_kernels.fatbin", "nv_kernels_zstd.fatbin",
					      "nv_kernels.cubin" };
	for (size_t i = 0; i < 3; i++) {
		size_t n;
		unsigned char *image = read_image(images[i], &n);
		CUmodule m;
		CHECK_CU(cuModuleLoadData(&m, image));
		check_module(m);
		CHECK_CU(cuModuleUnload(m));
		CHECK_CU_IS(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
		CUjit_option opt = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
		void *opt_value = (void *)(uintptr_t)0;
		CHECK_CU(cuModuleLoadDataEx(&m, image, 1, &opt, &opt_value));
		check_module(m);
		CHECK_CU(cuModuleUnload(m));
		/* Corrupted copies (no length is passed: only changes that do not
		 * enlarge a declared size): an error, not a module. */
		if (i < 2) {
			uint32_t arch = 80; /* the first entry: the sm_90 cubin */
			memcpy(image + 16 + 28, &arch, sizeof(arch));
			CHECK_CU_IS(cuModuleLoadData(&m, image),
				    CUDA_ERROR_NO_BINARY_FOR_GPU);
		} else {
			image[18] ^= 0xff; /* e_machine: no longer EM_CUDA */
			CHECK_CU_IS(cuModuleLoadData(&m, image), CUDA_ERROR_INVALID_IMAGE);
		}
		image[1] ^= 0xff;
		CHECK_CU_IS(cuModuleLoadData(&m, image), CUDA_ERROR_INVALID_IMAGE);
		free(image);
	}
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s/nv_kernels.cubin", dir);
	CUmodule m;
	CHECK_CU(cuModuleLoad(&m, path));
	check_module(m);
	CHECK_CU(cuModuleUnload(m));
	snprintf(path, sizeof(path), "%s/no-such-file.cubin", dir);
	CHECK_CU_IS(cuModuleLoad(&m, path), CUDA_ERROR_FILE_NOT_FOUND);
	CHECK_CU_IS(cuModuleLoadData(&m, "not device code"), CUDA_ERROR_INVALID_IMAGE);
	CHECK_CU_IS(cuModuleLoadData(&m, NULL), CUDA_ERROR_INVALID_VALUE);
	CHECK_CU(cuCtxDestroy_v2(ctx));
	printf("modules from nvcc's fatbin, zstd fatbin and cubin: names, layouts, globals\n");
	return 0;
}
