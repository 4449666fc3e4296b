/*
 * Energy attribution (analysis/derive/energy.c) on hand-made traces whose power is
 * known exactly: P(t) = idle + the power of each kernel running at t, the
 * energy counter its integral (integer mJ by construction: W x ms). Checks
 * every row against the integral worked out below, for the counter method
 * (exact: every run outlasts two sampling periods), the power-only method
 * with one glitch sample the 3-sigma filter must drop, two overlapping
 * kernels sharing the power, no samples at all, and energy.csv's text.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/derive/energy.h"
#include "analysis/model/model.h"
#include "analysis/report/energy_report.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

#define MS 1000000ULL
#define P 7           /* the process */

struct kernel_spec {
	const char *name;
	uint64_t start_ms, end_ms;
	unsigned watts;              /* on top of idle */
	uint32_t stream;
};

/* Exact board energy in mJ from 0 to t (ms) of idle_w + kernels. */
static double energy_at(const struct kernel_spec *k, size_t n, unsigned idle_w,
		double t_ms)
{
	double e = idle_w * t_ms;
	for (size_t i = 0; i < n; i++) {
		double a = (double)k[i].start_ms, b = (double)k[i].end_ms;
		if (t_ms > a)
			e += k[i].watts * ((t_ms < b ? t_ms : b) - a);
	}
	return e;
}

static double power_at(const struct kernel_spec *k, size_t n, unsigned idle_w,
		double t_ms)
{
	double w = idle_w;
	for (size_t i = 0; i < n; i++)
		if (t_ms >= (double)k[i].start_ms && t_ms < (double)k[i].end_ms)
			w += k[i].watts;
	return w;
}

/* Samples at 5, 15, 25, ... ms up to last_ms: never on a kernel boundary. */
/* Added to every sample and kernel time of a scenario that starts at 0 ms:
 * a GPU record at time 0 is impossible and left out (model.h). */
static uint64_t base_ns;

static void add_samples(struct dt_model *m, const struct kernel_spec *k,
		size_t n, unsigned idle_w, uint64_t last_ms, bool counter)
{
	for (uint64_t t = 5; t <= last_ms; t += 10) {
		double e = energy_at(k, n, idle_w, (double)t);
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_POWER,
				.vpid = P, .gpu_device = 0, .sample_ns = base_ns + t * MS,
				.read_ns = 0,
				.power_mw = (uint32_t)(power_at(k, n, idle_w, (double)t) * 1000),
				.power_ok = true,
				.energy_mj = counter ? 1000000 + (uint64_t)e : 0,
				.energy_ok = counter});
	}
}

static const struct dt_energy_row *row(const struct dt_energy *e,
		enum dt_energy_kind kind, const char *name)
{
	for (size_t i = 0; i < e->n_rows; i++)
		if (e->rows[i].kind == kind && strcmp(e->rows[i].name, name) == 0)
			return &e->rows[i];
	fprintf(stderr, "no %s row %s\n", kind ? "op" : "kernel", name);
	exit(1);
}

#define CHECK_NEAR(actual, expected) do { \
	double a_ = (actual), e_ = (expected); \
	if (!(fabs(a_ - e_) <= 1e-6 * fabs(e_) + 1e-6)) { \
		fprintf(stderr, "%s:%d: %s is %.9f, expected %.9f\n", \
			__FILE__, __LINE__, #actual, a_, e_); exit(1); } } while (0)

/*
 * idle 50 W. kA [100,160) +200 W, launched inside NVTX range "opX";
 * kB [160,200) +100 W, from a cudnnConvolutionForward call (that call is
 * its op, though it runs inside "opX" too: the innermost op);
 * kA again [230,300) +200 W, outside any op. Idle 200-230.
 */
static const struct kernel_spec serial[] = {
	{"kA", 100, 160, 200, 1},
	{"kB", 160, 200, 100, 1},
	{"kA", 230, 300, 200, 1},
};

static void build_serial(struct dt_model *m, bool counter, bool glitch)
{
	int64_t none[1] = {0};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = 1, .ts = 1, .domain = "<default>",
			.name = "opX"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 1, .ts = 2, .call_id = 1,
			.api = DNNTRACE_API_cudaLaunchKernel, .name = "kA",
			.stream = 0, .tensors = none, .n_tensors = 0,
			.result = 0});
	struct dt_event call = {.kind = DT_EVENT_LIB_CALL, .vpid = P, .ts = 3, .vtid = 1, .call_id = 2,
		.api = DNNTRACE_LIB_cudnnConvolutionForward};
	dt_model_on_event(m, &call);
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = 1, .ts = 4, .domain = "<default>"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 1, .ts = 5, .call_id = 3,
			.api = DNNTRACE_API_cudaLaunchKernel, .name = "kA",
			.stream = 0, .tensors = none, .n_tensors = 0,
			.result = 0});
	for (uint32_t c = 1; c <= 3; c++) {
		const struct kernel_spec *k = &serial[c - 1];
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
				.vpid = P, .correlation_id = 100 + c,
				.call_id = c});
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
				.vpid = P, .correlation_id = 100 + c,
				.gpu_device = 0, .gpu_stream = k->stream,
				.gpu_start = k->start_ms * MS,
				.gpu_end = k->end_ms * MS, .name = k->name});
	}
	add_samples(m, serial, 3, 50, 395, counter);
	if (glitch)  /* one wild reading inside the second kA */
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_POWER,
				.vpid = P, .gpu_device = 0,
				.sample_ns = 262 * MS, .read_ns = 0,
				.power_mw = 5000000, .power_ok = true,
				.energy_mj = 0, .energy_ok = false});
}

static void check_serial(const struct dt_energy *e)
{
	/* kA: 250 W x (60 + 70) ms; kB: 150 W x 40 ms */
	CHECK_EQ_INT(e->n_rows, 4);
	const struct dt_energy_row *ka = row(e, DT_ENERGY_KERNEL, "kA");
	CHECK_EQ_INT(ka->count, 2);
	CHECK_EQ_INT(ka->time_ns, 130 * MS);
	CHECK_NEAR(ka->energy_mj, 32500);
	CHECK_NEAR(ka->mean_power_w, 250);
	const struct dt_energy_row *kb = row(e, DT_ENERGY_KERNEL, "kB");
	CHECK_EQ_INT(kb->count, 1);
	CHECK_NEAR(kb->energy_mj, 6000);
	const struct dt_energy_row *opx = row(e, DT_ENERGY_OP, "opX");
	CHECK_EQ_INT(opx->count, 1);
	CHECK_EQ_INT(opx->time_ns, 60 * MS);
	CHECK_NEAR(opx->energy_mj, 15000);
	const struct dt_energy_row *conv = row(e, DT_ENERGY_OP,
			"cudnnConvolutionForward");
	CHECK_EQ_INT(conv->count, 1);
	CHECK_NEAR(conv->energy_mj, 6000);
	CHECK_NEAR(e->kernels_mj, 38500);
	CHECK_NEAR(e->outside_op_mj, 17500);
	CHECK_EQ_INT(e->kernels_ns, 170 * MS);
	/* rows: kernels first, each kind by energy */
	CHECK_EQ_STR(e->rows[0].name, "kA");
	CHECK_EQ_STR(e->rows[1].name, "kB");
	CHECK_EQ_STR(e->rows[2].name, "opX");
}

static void test_counter(void)
{
	struct dt_model m;
	dt_model_init(&m);
	build_serial(&m, true, false);
	struct dt_energy e;
	dt_energy_compute(dt_model_find_process(&m, P), 0, 0, UINT64_MAX, &e);
	CHECK_EQ_INT(e.method, DT_ENERGY_COUNTER);
	CHECK_EQ_INT(e.n_samples, 40);
	check_serial(&e);
	CHECK_NEAR(e.total_mj, energy_at(serial, 3, 50, 395) -
			energy_at(serial, 3, 50, 5));

	/* energy.csv, as the plot script reads it */
	char dir[] = "/tmp/dnntrace-energy-test.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	CHECK(dt_energy_write_csv(&e, dir) == 0);
	char path[64], text[512] = {0};
	snprintf(path, sizeof(path), "%s/energy.csv", dir);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	CHECK(fread(text, 1, sizeof(text) - 1, f) > 0);
	fclose(f);
	CHECK_EQ_STR(text, "kind,name,count,time_us,energy_mj,mean_power_w\n"
			"kernel,kA,2,130000.000,32500.000,250.000\n"
			"kernel,kB,1,40000.000,6000.000,150.000\n"
			"op,opX,1,60000.000,15000.000,250.000\n"
			"op,cudnnConvolutionForward,1,40000.000,6000.000,150.000\n");
	unlink(path);
	rmdir(dir);

	/* a window holding only the second kA: its 70 ms, 17500 mJ */
	dt_energy_free(&e);
	dt_energy_compute(dt_model_find_process(&m, P), 0, 230 * MS, 300 * MS, &e);
	CHECK_EQ_INT(e.n_rows, 1);
	CHECK_NEAR(row(&e, DT_ENERGY_KERNEL, "kA")->energy_mj, 17500);
	dt_energy_free(&e);
	/* another device has no samples */
	dt_energy_compute(dt_model_find_process(&m, P), 1, 0, UINT64_MAX, &e);
	CHECK_EQ_INT(e.method, DT_ENERGY_NONE);
	CHECK_EQ_INT(e.n_rows, 0);
	dt_energy_free(&e);
	dt_model_free(&m);
}

static void test_power_three_sigma(void)
{
	struct dt_model m;
	dt_model_init(&m);
	build_serial(&m, false, true);
	struct dt_energy e;
	dt_energy_compute(dt_model_find_process(&m, P), 0, 0, UINT64_MAX, &e);
	CHECK_EQ_INT(e.method, DT_ENERGY_POWER);
	/* kA's 13 samples of 250 W and the 5000 W glitch: z = sqrt(13) > 3 */
	CHECK_EQ_INT(e.outliers, 1);
	const struct dt_energy_row *ka = row(&e, DT_ENERGY_KERNEL, "kA");
	CHECK_EQ_INT(ka->samples, 13);
	CHECK_EQ_INT(ka->outliers, 1);
	/* kB's 4 samples of 150 W (0.1 is not exact in binary): all kept */
	CHECK_EQ_INT(row(&e, DT_ENERGY_KERNEL, "kB")->samples, 4);
	CHECK_EQ_INT(row(&e, DT_ENERGY_KERNEL, "kB")->outliers, 0);
	check_serial(&e);
	dt_energy_free(&e);
	dt_model_free(&m);
}

/*
 * Two streams: k1 [0,100) and k2 [50,150), +100 W each, idle 0 W. While
 * both run (200 W) each gets half: 100 W x 50 + 100 W x 50 = 10000 mJ.
 */
static void test_overlap_shares(void)
{
	static const struct kernel_spec both[] = {
		{"k1", 0, 100, 100, 1},
		{"k2", 50, 150, 100, 2},
	};
	base_ns = 1000 * MS;   /* k1's start is not at 0 on the clock */
	for (int counter = 1; counter >= 0; counter--) {
		struct dt_model m;
		dt_model_init(&m);
		for (uint32_t c = 0; c < 2; c++)
			dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
					.vpid = P, .correlation_id = c + 1,
					.gpu_device = 0,
					.gpu_stream = both[c].stream,
					.gpu_start = base_ns + both[c].start_ms * MS,
					.gpu_end = base_ns + both[c].end_ms * MS,
					.name = both[c].name});
		add_samples(&m, both, 2, 0, 195, counter);
		struct dt_energy e;
		dt_energy_compute(dt_model_find_process(&m, P), 0, 0, UINT64_MAX, &e);
		CHECK_EQ_INT(e.method, counter ? DT_ENERGY_COUNTER : DT_ENERGY_POWER);
		CHECK_NEAR(row(&e, DT_ENERGY_KERNEL, "k1")->energy_mj, 10000);
		CHECK_NEAR(row(&e, DT_ENERGY_KERNEL, "k2")->energy_mj, 10000);
		CHECK_NEAR(e.outside_op_mj, 20000);   /* no op: unlinked */
		dt_energy_free(&e);
		dt_model_free(&m);
	}
	base_ns = 0;
}

/* Kernels that reach past two samples' span are given more energy than the
 * board's total between those samples (the "112.8% of the
 * board's"): the summary never prints a share above 100 %, it says why. */
static void test_share_never_above_100(void)
{
	struct dt_energy e = {.method = DT_ENERGY_POWER, .n_samples = 2,
		.first_ns = 0, .last_ns = 1000000, .total_mj = 1.0,
		.kernels_mj = 1.128, .kernels_ns = 900000};
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	dt_energy_write_summary(f, &e);
	fclose(f);
	CHECK(strstr(text, "%") == NULL);
	CHECK(strstr(text, "energy in kernels: 0.001 J (more than the board's 0.001 J "
			"between its first and last sample: 2 power samples are too "
			"few to split it)") != NULL);
	free(text);
	e.kernels_mj = 0.5;
	f = open_memstream(&text, &size);
	dt_energy_write_summary(f, &e);
	fclose(f);
	CHECK(strstr(text, "energy in kernels: 0.001 J (50.0% of the board's)") != NULL);
	free(text);
}

int main(void)
{
	test_share_never_above_100();
	test_counter();
	test_power_three_sigma();
	test_overlap_shares();
	return 0;
}
