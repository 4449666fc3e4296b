/*
 * mem_categories: one training-like iteration whose memory by category and
 * swap opportunities are known by construction: seven tensors of known
 * sizes (whole MiB, so the simulated GPU's 256-byte rounding changes
 * nothing), named by tag (param:, grad:, act:, a plain name, one untagged),
 * nine kernels with exact durations, gaps between uses chosen so that some
 * inactive periods can be swapped over a 64 GB/s link and one cannot.
 *
 *   mem_categories TRUTH_DIR   writes the ground truth (truth.h) and
 *                              categories_truth.csv: index,rules,category,bytes
 *                              = bytes of each category allocated when kernel
 *                              index is launched, for the two ways of
 *                              naming categories (rules = 1: with the rule
 *                              file of tests/e2e/test_memory_report.sh,
 *                              "batch input" and "fc2 layer2"; 0: without)
 *
 * Kernels (durations in us), tensors each touches:
 *   0 fc1_fwd  20  X W1 A1      3 busy 100  S        6 fc2_bwd 20  A2 W2 A1
 *   1 fc2_fwd  20  A1 W2 A2     4 busy 100  S        7 fc1_bwd 30  A1 W1 X G1
 *   2 loss    100  A2           5 busy 100  S        8 sgd     10  W1 G1
 * W1, W2 and X live across the iteration (global); A1, A2 are allocated
 * before kernel 0, S before kernel 3 once kernel 2 has run (freed after
 * 5), A2 freed after 6,
 * G1 allocated before 7, A1 freed after 7. Its stdout must not depend on
 * whether it is traced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

#define MIB (1024u * 1024u)
#define US 1000u

enum { W1, W2, X, A1, A2, S, G1, N_TENSORS };

static const struct {
	const char *tag;        /* NULL: never tagged */
	size_t bytes;
	int global;
	const char *with_rules; /* category with the rule file */
	const char *without;    /* category from the tag alone */
} spec[N_TENSORS] = {
	[W1] = {"param:fc1.weight", 4 * MIB, 1, "parameter", "parameter"},
	[W2] = {"param:fc2.weight", 1 * MIB, 1, "layer2", "parameter"},
	[X] = {"input.batch", 2 * MIB, 1, "input", "Others"},
	[A1] = {"act:fc1.out", 4 * MIB, 0, "activation", "activation"},
	[A2] = {"act:fc2.out", 2 * MIB, 0, "layer2", "activation"},
	[S] = {NULL, 4 * MIB, 0, "Others", "Others"},
	[G1] = {"grad:fc1.weight", 4 * MIB, 0, "gradient", "gradient"},
};

static struct truth *truth;
static void *ptr[N_TENSORS];
static int live[N_TENSORS];
static FILE *categories;
static unsigned n_kernels;

static const char k_fc1_fwd, k_fc2_fwd, k_loss, k_busy, k_fc2_bwd, k_fc1_bwd,
	k_sgd;

static void alloc(int t)
{
	void *p = NULL;
	WL_CHECK(cudaMalloc(&p, spec[t].bytes));
	truth_alloc(truth, p, spec[t].bytes, spec[t].tag ? spec[t].tag : "",
		    spec[t].global);
	if (spec[t].tag)
		wl_tag(p, spec[t].tag);
	ptr[t] = p;
	live[t] = 1;
}

static void release(int t)
{
	wl_free(truth, ptr[t]);
	live[t] = 0;
}

/* The bytes of each category allocated now, i.e. at the kernel's launch:
 * cudaFree waits for the device, so nothing changes while a kernel runs. */
static void note_categories(void)
{
	for (int rules = 0; rules <= 1; rules++) {
		const char *names[N_TENSORS];
		size_t bytes[N_TENSORS], n = 0;
		for (int t = 0; t < N_TENSORS; t++) {
			if (!live[t])
				continue;
			const char *c = rules ? spec[t].with_rules : spec[t].without;
			size_t i = 0;
			while (i < n && strcmp(names[i], c) != 0)
				i++;
			if (i == n) {
				names[n] = c;
				bytes[n++] = 0;
			}
			bytes[i] += spec[t].bytes;
		}
		for (size_t i = 0; i < n; i++)
			fprintf(categories, "%u,%d,%s,%zu\n", n_kernels, rules,
				names[i], bytes[i]);
	}
}

static void launch(const void *func, const char *name, unsigned us,
		   const int *tensors, size_t n)
{
	void *args[4] = {NULL, NULL, NULL, NULL};
	const void *ptrs[4];
	for (size_t i = 0; i < n; i++)
		args[i] = &ptr[tensors[i]], ptrs[i] = ptr[tensors[i]];
	note_categories();
	wl_launch(truth, func, name, args, 0, (uint64_t)us * US, ptrs, n);
	n_kernels++;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mem_categories TRUTH_DIR\n");
		return 2;
	}
	const size_t sizes[4] = {sizeof(void *), sizeof(void *), sizeof(void *),
				 sizeof(void *)};
	simgpu_define_kernel(&k_fc1_fwd, "fc1_fwd", 3, sizes);
	simgpu_define_kernel(&k_fc2_fwd, "fc2_fwd", 3, sizes);
	simgpu_define_kernel(&k_loss, "loss", 1, sizes);
	simgpu_define_kernel(&k_busy, "busy", 1, sizes);
	simgpu_define_kernel(&k_fc2_bwd, "fc2_bwd", 3, sizes);
	simgpu_define_kernel(&k_fc1_bwd, "fc1_bwd", 4, sizes);
	simgpu_define_kernel(&k_sgd, "sgd", 2, sizes);

	truth = truth_new();
	char path[4096];
	if ((mkdir(argv[1], 0777) != 0 && errno != EEXIST) ||
	    snprintf(path, sizeof(path), "%s/categories_truth.csv", argv[1]) >=
		    (int)sizeof(path) ||
	    !(categories = fopen(path, "w"))) {
		fprintf(stderr, "mem_categories: cannot write into %s\n", argv[1]);
		return 1;
	}
	fputs("index,rules,category,bytes\n", categories);

	alloc(W1);
	alloc(W2);
	alloc(X);
	alloc(A1);
	alloc(A2);
	launch(&k_fc1_fwd, "fc1_fwd", 20, (const int[]){X, W1, A1}, 3);
	launch(&k_fc2_fwd, "fc2_fwd", 20, (const int[]){A1, W2, A2}, 3);
	launch(&k_loss, "loss", 100, (const int[]){A2}, 1);
	/* launches are asynchronous: S must not exist yet when loss starts */
	WL_CHECK(cudaDeviceSynchronize());
	alloc(S);
	for (int i = 0; i < 3; i++)
		launch(&k_busy, "busy", 100, (const int[]){S}, 1);
	release(S);
	launch(&k_fc2_bwd, "fc2_bwd", 20, (const int[]){A2, W2, A1}, 3);
	release(A2);
	alloc(G1);
	launch(&k_fc1_bwd, "fc1_bwd", 30, (const int[]){A1, W1, X, G1}, 4);
	release(A1);
	launch(&k_sgd, "sgd", 10, (const int[]){W1, G1}, 2);
	WL_CHECK(cudaDeviceSynchronize());
	release(G1);
	release(W1);
	release(W2);
	release(X);
	if (fclose(categories) != 0) {
		fprintf(stderr, "mem_categories: cannot write %s\n", path);
		return 1;
	}
	wl_write_truth(truth, argv[1]);
	truth_delete(truth);
	printf("mem_categories: %u kernels\n", n_kernels);
	return 0;
}
