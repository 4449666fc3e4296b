/*
 * The fatbin reader (core_fatbin.c) on real nvcc output and on corrupted
 * copies of it. Inputs: tests/nvcc/nv_kernels.cu compiled by the toolkit's
 * nvcc into $(BUILD)/nvcc/nv_kernels.fatbin, nv_kernels_zstd.fatbin (every
 * entry zstd-compressed) and nv_kernels.cubin (tests/nvcc/module.mk). The
 * expected kernels, layouts and variables are those of that source, known by
 * construction (names: the Itanium mangling of its declarations; layouts:
 * the C++ ABI). Corruptions: truncations (every length up to 512, then every 41st), every
 * single-byte change of
 * the headers, 500 rounds of deterministic random byte changes: each must give
 * success or a documented error code with a reason, never a crash (run
 * under ASan too). Skips (77) only when nvcc is absent.
 */
#include "simgpu/core/core_fatbin.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                          \
			failures++;                                        \
		}                                                          \
	} while (0)

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

struct want_kernel {
	const char *name;
	size_t n;
	size_t offsets[4], sizes[4];
};

/* tests/nvcc/nv_kernels.cu's kernels: struct Pair is 24 bytes, Tile<double,2>
 * 16, Tile<float,4> 16 (8-aligned after a pointer). */
static const struct want_kernel want_kernels[] = {
	{ "_Z4vaddPKfS0_Pfi", 4, { 0, 8, 16, 24 }, { 8, 8, 8, 4 } },
	{ "_Z10apply_pair4Pairc", 2, { 0, 24 }, { 24, 1 } },
	{ "_Z11scale_tilesIfLi4EEvPT_4TileIS0_XT0_EEx", 3, { 0, 8, 24 }, { 8, 16, 8 } },
	{ "_Z11scale_tilesIdLi2EEvPT_4TileIS0_XT0_EEx", 3, { 0, 8, 24 }, { 8, 16, 8 } },
	{ "_Z8use_biasPfPKfi", 3, { 0, 8, 16 }, { 8, 8, 4 } },
	{ "_Z9no_paramsv", 0, { 0 }, { 0 } },
};

static void check_module(const char *what, const struct sim_fatbin_module *m)
{
	size_t n = sizeof(want_kernels) / sizeof(want_kernels[0]);
	CHECK(m->arch == 90);
	if (m->nkernels != n) {
		fprintf(stderr, "%s: %zu kernels, want %zu\n", what, m->nkernels, n);
		failures++;
	}
	for (size_t i = 0; i < n; i++) {
		const struct want_kernel *w = &want_kernels[i];
		const struct sim_fatbin_kernel *k = sim_fatbin_kernel(m, w->name);
		if (!k) {
			fprintf(stderr, "%s: no kernel %s\n", what, w->name);
			failures++;
			continue;
		}
		CHECK(k->nparams == w->n);
		for (size_t p = 0; p < w->n && p < k->nparams; p++) {
			if (k->offsets[p] != w->offsets[p] || k->sizes[p] != w->sizes[p]) {
				fprintf(stderr, "%s: %s param %zu at %zu+%zu, want %zu+%zu\n",
					what, w->name, p, k->offsets[p], k->sizes[p],
					w->offsets[p], w->sizes[p]);
				failures++;
			}
		}
	}
	CHECK(sim_fatbin_kernel(m, "vadd") == NULL); /* names are mangled */
	const struct sim_fatbin_var *counter = sim_fatbin_var(m, "d_counter");
	const struct sim_fatbin_var *coeffs = sim_fatbin_var(m, "c_coeffs");
	const struct sim_fatbin_var *bias = sim_fatbin_var(m, "d_bias");
	CHECK(counter && counter->size == 4 && counter->init);
	CHECK(coeffs && coeffs->size == 12 && coeffs->init);
	CHECK(bias && bias->size == 16 && !bias->init); /* .nv.global: zeros */
	if (counter && counter->init) {
		int v;
		memcpy(&v, counter->init, sizeof(v));
		CHECK(v == 7);
	}
	if (coeffs && coeffs->init) {
		float f[3];
		memcpy(f, coeffs->init, sizeof(f));
		CHECK(f[0] == 1.5f && f[1] == 2.5f && f[2] == 3.5f);
	}
}

static int is_documented_error(CUresult r)
{
	return r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
	       r == CUDA_ERROR_OUT_OF_MEMORY;
}

/* Parses a corrupted copy: success, or a documented error with a reason. */
static void parse_corrupt(const unsigned char *buf, size_t len, const char *what)
{
	struct sim_fatbin_module m;
	char why[200];
	unsigned char *copy = malloc(len ? len : 1);
	memcpy(copy, buf, len);
	CUresult r = sim_fatbin_parse(copy, len, &m, why, sizeof(why));
	if (r == CUDA_SUCCESS) {
		sim_fatbin_free(&m);
	} else if (!is_documented_error(r) || !why[0]) {
		fprintf(stderr, "%s: error %d with reason '%s'\n", what, (int)r, why);
		failures++;
	}
	free(copy);
}

static void corrupt_all(const unsigned char *image, size_t len, size_t header_bytes,
			const char *what)
{
	unsigned char *buf = malloc(len);
	char label[128];
	/* Every truncation (the length is known: the reader must respect it). */
	for (size_t cut = 0; cut < len; cut += (cut < 512 ? 1 : 41)) {
		snprintf(label, sizeof(label), "%s cut at %zu", what, cut);
		parse_corrupt(image, cut, label);
	}
	/* Every byte of the headers, set to a few telling values. */
	static const unsigned char values[] = { 0x00, 0xff, 0x7f, 0x80, 0x01 };
	for (size_t i = 0; i < header_bytes && i < len; i++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			memcpy(buf, image, len);
			buf[i] = values[v];
			snprintf(label, sizeof(label), "%s byte %zu = 0x%02x", what, i, values[v]);
			parse_corrupt(buf, len, label);
		}
	}
	/* Random bytes anywhere (fixed seed: deterministic). */
	unsigned int seed = 12345;
	for (int round = 0; round < 500; round++) {
		memcpy(buf, image, len);
		for (int k = 0; k < 4; k++)
			buf[rand_r(&seed) % len] = (unsigned char)rand_r(&seed);
		snprintf(label, sizeof(label), "%s random round %d", what, round);
		parse_corrupt(buf, len, label);
	}
	free(buf);
}

int main(void)
{
	const char *cuda_home = getenv("CUDA_HOME");
	char nvcc[PATH_MAX];
	snprintf(nvcc, sizeof(nvcc), "%s/bin/nvcc", cuda_home ? cuda_home : "/usr/local/cuda");
	if (access(nvcc, X_OK) != 0) {
		printf("SKIP: %s not found: no nvcc output to read\n", nvcc);
		return 77;
	}
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 1;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0'; /* $(BUILD)/tests */
	snprintf(dir, sizeof(dir), "%s/../nvcc", exe);

	static const char *const files[] = { "nv_kernels.fatbin", "nv_kernels_zstd.fatbin",
					     "nv_kernels.cubin" };
	for (size_t f = 0; f < 3; f++) {
		char path[PATH_MAX * 2];
		snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
		size_t len;
		unsigned char *image = read_file(path, &len);
		if (!image) {
			fprintf(stderr, "cannot read %s (built by make with nvcc)\n", path);
			return 1;
		}
		struct sim_fatbin_module m;
		char why[200];
		CUresult r = sim_fatbin_parse(image, len, &m, why, sizeof(why));
		if (r != CUDA_SUCCESS) {
			fprintf(stderr, "%s: error %d: %s\n", files[f], (int)r, why);
			failures++;
		} else {
			check_module(files[f], &m);
			sim_fatbin_free(&m);
		}
		/* As a program's registration passes it: no length known. */
		if (f < 2) {
			r = sim_fatbin_parse(image, SIZE_MAX, &m, why, sizeof(why));
			CHECK(r == CUDA_SUCCESS);
			if (r == CUDA_SUCCESS) {
				check_module(files[f], &m);
				sim_fatbin_free(&m);
			}
		}
		corrupt_all(image, len, f == 2 ? 64 : 16 + 80, files[f]);
		free(image);
	}

	/* Not device code at all; a fatbin of no sm_90 cubin. */
	struct sim_fatbin_module m;
	char why[200];
	CHECK(sim_fatbin_parse("simgpu!!", 8, &m, why, sizeof(why)) == CUDA_ERROR_INVALID_IMAGE);
	CHECK(strstr(why, "neither") != NULL);
	CHECK(sim_fatbin_parse(NULL, 0, &m, why, sizeof(why)) == CUDA_ERROR_INVALID_VALUE);
	unsigned char ptx_only[16 + 64 + 8] = { 0 };
	const uint32_t magic = SIM_FATBIN_MAGIC;
	const uint16_t version = 1, header = 16, kind = 1;
	const uint64_t fat_size = 64 + 8, payload = 8;
	const uint32_t entry_header = 64, arch = 90;
	memcpy(ptx_only, &magic, 4);
	memcpy(ptx_only + 4, &version, 2);
	memcpy(ptx_only + 6, &header, 2);
	memcpy(ptx_only + 8, &fat_size, 8);
	memcpy(ptx_only + 16, &kind, 2);
	memcpy(ptx_only + 20, &entry_header, 4);
	memcpy(ptx_only + 24, &payload, 8);
	memcpy(ptx_only + 16 + 28, &arch, 4);
	CHECK(sim_fatbin_parse(ptx_only, sizeof(ptx_only), &m, why, sizeof(why)) ==
	      CUDA_ERROR_NO_BINARY_FOR_GPU);
	CHECK(strstr(why, "sm_90") != NULL);

	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("fatbin reader: 3 nvcc images read exactly; corrupted copies all handled\n");
	return 0;
}
