/*
 * overhead_ops: ops whose host overheads and GPU times are known by
 * construction, for overheads.csv, gpu_time.csv, the summary's GPU time
 * section and timeline.json. Three iterations of three NVTX push/pop ops,
 * separated by host sleeps of 20 ms (T1):
 *   op_two       sleep 5 ms (T2), launch k_first (1.1 ms) on stream 1,
 *                sleep 3 ms (T5), launch the weirdly named kernel
 *                (2.3 ms) on stream 1, sleep 4 ms (T3), pop
 *   op "one"     sleep 6 ms (T2), launch k_first (1.1 ms) on stream 2,
 *                sleep 2 ms (T3), pop: one launch, so T5 = 0
 *   host_only    sleep 7 ms, pop: no launch, so T5 = 7 ms
 * Before them, outside every op, one synchronous 1 MiB upload of a.
 * A sleep of X lasts at least X (absolute-deadline sleeps), so every
 * measured overhead is >= its sleep; kernel durations are exact
 * (simgpu_next_kernel_ns) and never overlap (each sleep outlasts the
 * kernel before it), so device times, busy time and overlap (0) are exact.
 * Names hold a quote, a backslash, a tab and a non-ASCII letter, so every
 * writer's escaping is exercised.
 *
 *   overhead_ops TRUTH_DIR   writes into TRUTH_DIR:
 *     ops_truth.csv    op,count,t1_n,t1_ms,t2_ms,t3_ms,t4,t5_ms (sleeps:
 *                      lower bounds; empty: the column must be empty;
 *                      t5_ms 0: exactly 0; t4 "launch": launch calls)
 *     gpu_truth.csv    kind,name,count,device_ns (exact)
 *     gpu_summary.csv  busy_ns,overlap_ns,launches (exact)
 *     kernels.csv      index,name,duration_ns,stream (GPU order; stream
 *                      1 or 2), tensors.csv id,name,bytes and memory.csv
 *                      index,active_bytes: for check_timeline.py
 * Its stdout must not depend on whether it is traced.
 */
#include <errno.h>
#include <nvtx3/nvToolsExt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { ITERATIONS = 3, GAP_MS = 20 };

#define WEIRD_NAME "k_second \"quoted\" back\\slash\ttab \xc3\xa9"
#define OP_ONE "op \"one\""

static const char k_first, k_second;

static void sleep_ms(long ms)
{
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_nsec += (ms % 1000) * 1000000L;
	deadline.tv_sec += ms / 1000 + deadline.tv_nsec / 1000000000L;
	deadline.tv_nsec %= 1000000000L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
		;
}

/* ---- what ran, by construction ----------------------------------------- */

struct kernel_note {
	const char *name;
	uint64_t duration_ns;
	int stream;
	uint64_t active_bytes;
};
static struct kernel_note kernels[16];
static size_t n_kernels;

static void *tensors[3];
static const size_t tensor_bytes[3] = {1 << 20, 2 << 20, 12288};
static const char *const tensor_names[3] = {"a", "b", "c\"tmp\""};

static uint64_t bytes_of(void *const *ptrs, size_t n)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t t = 0; t < 3; t++)
			if (ptrs[i] == tensors[t])
				sum += tensor_bytes[t];
	return sum;
}

static void launch(const void *func, const char *name, cudaStream_t stream, int ordinal,
		   uint64_t duration_ns, void **ptrs, size_t n)
{
	void *params[3];
	for (size_t i = 0; i < n; i++)
		params[i] = &ptrs[i];
	simgpu_next_kernel_ns(duration_ns);
	WL_CHECK(cudaLaunchKernel(func, (dim3){1, 1, 1}, (dim3){32, 1, 1}, params, 0, stream));
	kernels[n_kernels++] = (struct kernel_note){name, duration_ns, ordinal, bytes_of(ptrs, n)};
}

/* ---- writing the truth ------------------------------------------------- */

static FILE *open_truth(const char *dir, const char *file)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void close_truth(FILE *f)
{
	if (fclose(f) != 0) {
		perror("overhead_ops: truth");
		exit(1);
	}
}

static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_truth(const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		perror(dir);
		exit(1);
	}
	FILE *f = open_truth(dir, "ops_truth.csv");
	fprintf(f, "op,count,t1_n,t1_ms,t2_ms,t3_ms,t4,t5_ms\n");
	/* op_two's first instance follows nothing on its level: T1 twice */
	fprintf(f, "op_two,%d,%d,%d,5,4,launch,3\n", ITERATIONS, ITERATIONS - 1, GAP_MS);
	csv_field(f, OP_ONE);
	fprintf(f, ",%d,%d,%d,6,2,launch,0\n", ITERATIONS, ITERATIONS, GAP_MS);
	fprintf(f, "host_only,%d,%d,%d,,,,7\n", ITERATIONS, ITERATIONS, GAP_MS);
	close_truth(f);

	f = open_truth(dir, "gpu_truth.csv");
	fprintf(f, "kind,name,count,device_ns\n");
	fprintf(f, "op,op_two,%d,%d\n", 2 * ITERATIONS, ITERATIONS * (1100000 + 2300000));
	fprintf(f, "op,");
	csv_field(f, OP_ONE);
	fprintf(f, ",%d,%d\n", ITERATIONS, ITERATIONS * 1100000);
	fprintf(f, "kernel,k_first,%d,%d\n", 2 * ITERATIONS, 2 * ITERATIONS * 1100000);
	fprintf(f, "kernel,");
	csv_field(f, WEIRD_NAME);
	fprintf(f, ",%d,%d\n", ITERATIONS, ITERATIONS * 2300000);
	close_truth(f);

	f = open_truth(dir, "gpu_summary.csv");
	fprintf(f, "busy_ns,overlap_ns,launches\n%d,0,%zu\n",
		ITERATIONS * (1100000 + 2300000 + 1100000), n_kernels);
	close_truth(f);

	f = open_truth(dir, "kernels.csv");
	fprintf(f, "index,name,duration_ns,stream\n");
	for (size_t k = 0; k < n_kernels; k++) {
		fprintf(f, "%zu,", k);
		csv_field(f, kernels[k].name);
		fprintf(f, ",%llu,%d\n", (unsigned long long)kernels[k].duration_ns,
			kernels[k].stream);
	}
	close_truth(f);

	f = open_truth(dir, "memory.csv");
	fprintf(f, "index,active_bytes\n");
	for (size_t k = 0; k < n_kernels; k++)
		fprintf(f, "%zu,%llu\n", k, (unsigned long long)kernels[k].active_bytes);
	close_truth(f);

	f = open_truth(dir, "tensors.csv");
	fprintf(f, "id,name,bytes\n");
	for (size_t t = 0; t < 3; t++) {
		fprintf(f, "%zu,", t);
		csv_field(f, tensor_names[t]);
		fprintf(f, ",%zu\n", tensor_bytes[t]);
	}
	close_truth(f);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: overhead_ops TRUTH_DIR\n");
		return 2;
	}
	const size_t sizes[2] = {sizeof(void *), sizeof(void *)};
	simgpu_define_kernel(&k_first, "k_first", 2, sizes);
	simgpu_define_kernel(&k_second, WEIRD_NAME, 2, sizes);
	cudaStream_t s1, s2;
	WL_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	WL_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	for (size_t t = 0; t < 3; t++) {
		WL_CHECK(cudaMalloc(&tensors[t], tensor_bytes[t]));
		wl_tag(tensors[t], tensor_names[t]);
	}
	/* one synchronous upload, outside every op: a host slice that lasts
	 * and an arrow to its GPU copy in the timeline, no overhead row */
	void *host = calloc(1, tensor_bytes[0]);
	if (!host) {
		fprintf(stderr, "overhead_ops: out of memory\n");
		return 1;
	}
	WL_CHECK(cudaMemcpy(tensors[0], host, tensor_bytes[0], cudaMemcpyHostToDevice));
	free(host);

	for (int it = 0; it < ITERATIONS; it++) {
		nvtxRangePushA("op_two");
		sleep_ms(5);
		void *first_args[2] = {tensors[0], tensors[1]};
		launch(&k_first, "k_first", s1, 1, 1100000, first_args, 2);
		sleep_ms(3);
		void *second_args[2] = {tensors[1], tensors[2]};
		launch(&k_second, WEIRD_NAME, s1, 1, 2300000, second_args, 2);
		sleep_ms(4);
		nvtxRangePop();
		sleep_ms(GAP_MS);

		nvtxRangePushA(OP_ONE);
		sleep_ms(6);
		void *one_args[1] = {tensors[0]};
		launch(&k_first, "k_first", s2, 2, 1100000, one_args, 1);
		sleep_ms(2);
		nvtxRangePop();
		sleep_ms(GAP_MS);

		nvtxRangePushA("host_only");
		sleep_ms(7);
		nvtxRangePop();
		sleep_ms(GAP_MS);
		WL_CHECK(cudaDeviceSynchronize());
	}
	for (size_t t = 0; t < 3; t++)
		WL_CHECK(cudaFree(tensors[t]));
	WL_CHECK(cudaStreamDestroy(s1));
	WL_CHECK(cudaStreamDestroy(s2));
	write_truth(argv[1]);
	printf("overhead_ops: %d iterations, %zu kernels\n", ITERATIONS, n_kernels);
	return 0;
}
