/*
 * energy_kernels: long kernels of known, distinct power on the simulated
 * GPU, for the energy analysis (tests/e2e/test_energy.sh). Run with
 * SIMGPU_TIME_SCALE=1 so that the power sampler sees them run.
 *
 *   energy_kernels TRUTH_DIR   writes TRUTH_DIR/energy_truth.csv
 *                              (kind,name,count,time_us,energy_mj: the
 *                              rows energy.csv must have, from the power
 *                              model of simgpu/README.md)
 *
 * Program, on one stream, kernels back to back (no two ever overlap):
 *   idle 40 ms
 *   push "fwd":  hot 70 ms
 *   push "bwd":  cool 60 ms, warm 50 ms
 *   (no range)   hot 70 ms
 *   push "fwd":  warm 50 ms
 *   idle 40 ms
 * Each kernel draws P_idle + its own power while it runs, alone, so its
 * energy is exactly (P_idle + P) x duration. P_idle is the model's,
 * SIMGPU_IDLE_POWER_MW (the test sets it). Its stdout must not depend on
 * whether it is traced.
 */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

static const char hot_k, cool_k, warm_k;

static const struct kind {
	const void *func;
	const char *name;
	unsigned int power_mw;
	unsigned long long ns;
} kinds[] = {
	{&hot_k, "hot", 250000, 70000000},
	{&cool_k, "cool", 40000, 60000000},
	{&warm_k, "warm", 120000, 50000000},
};
enum { HOT, COOL, WARM, N_KINDS };

struct row {
	const char *name;
	unsigned count;
	unsigned long long ns;
	unsigned long long mw_ns;  /* exact energy, mW x ns */
};
static struct row kernel_rows[N_KINDS], op_rows[2];
static unsigned long long idle_mw = 50000;

static void launch(int kind, int op)
{
	const struct kind *k = &kinds[kind];
	void *param = NULL;
	void *args[1] = {&param};
	simgpu_next_kernel_ns(k->ns);
	simgpu_next_kernel_power_mw(k->power_mw);
	WL_CHECK(cudaLaunchKernel(k->func, (dim3){1, 1, 1}, (dim3){1, 1, 1},
				  args, 0, NULL));
	unsigned long long e = (idle_mw + k->power_mw) * k->ns;
	kernel_rows[kind].name = k->name;
	kernel_rows[kind].count++;
	kernel_rows[kind].ns += k->ns;
	kernel_rows[kind].mw_ns += e;
	if (op >= 0) {
		op_rows[op].ns += k->ns;
		op_rows[op].mw_ns += e;
	}
}

static void idle_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void write_row(FILE *f, const char *kind, const struct row *r)
{
	fprintf(f, "%s,%s,%u,%llu.%03llu,%.3f\n", kind, r->name, r->count,
		r->ns / 1000, r->ns % 1000, (double)r->mw_ns / 1e9);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: energy_kernels TRUTH_DIR\n");
		return 2;
	}
	const char *idle = getenv("SIMGPU_IDLE_POWER_MW");
	if (idle && *idle)
		idle_mw = strtoull(idle, NULL, 10);
	size_t sizes[1] = {sizeof(void *)};
	for (int i = 0; i < N_KINDS; i++)
		simgpu_define_kernel(kinds[i].func, kinds[i].name, 1, sizes);
	op_rows[0] = (struct row){.name = "fwd"};
	op_rows[1] = (struct row){.name = "bwd"};

	void *buffer;
	WL_CHECK(cudaMalloc(&buffer, 256));   /* CUDA (and the tracer) start */
	WL_CHECK(cudaDeviceSynchronize());
	idle_ms(40);
	nvtxRangePushA("fwd");
	launch(HOT, 0);
	op_rows[0].count++;
	nvtxRangePop();
	nvtxRangePushA("bwd");
	launch(COOL, 1);
	launch(WARM, 1);
	op_rows[1].count += 2;  /* two launches: two calls */
	nvtxRangePop();
	launch(HOT, -1);
	nvtxRangePushA("fwd");
	launch(WARM, 0);
	op_rows[0].count++;
	nvtxRangePop();
	WL_CHECK(cudaDeviceSynchronize());
	idle_ms(40);
	WL_CHECK(cudaFree(buffer));

	char path[4096];
	snprintf(path, sizeof(path), "%s/energy_truth.csv", argv[1]);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fputs("kind,name,count,time_us,energy_mj\n", f);
	for (int i = 0; i < N_KINDS; i++)
		write_row(f, "kernel", &kernel_rows[i]);
	for (int i = 0; i < 2; i++)
		write_row(f, "op", &op_rows[i]);
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	printf("energy_kernels: 5 kernels\n");
	return 0;
}
