/*
 * Unit tests of the pass's own outputs, with values worked out by hand:
 * the timeline's JSON string escaper (quotes, backslashes, control
 * characters, invalid UTF-8), the GPU time breakdown of a hand-made group
 * (busy, idle split, stream overlap, launch delay, gpu_time.csv) and the
 * T1..T5 overheads of hand-made NVTX ranges and calls (overheads.csv).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model/api_names.h"
#include "analysis/derive/gpu_time.h"
#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/derive/overheads.h"
#include "analysis/report/gpu_time_report.h"
#include "analysis/report/overheads_csv.h"
#include "analysis/report/timeline_json.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static const char *escaped(const char *s)
{
	static char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	CHECK(f != NULL);
	dt_json_put_string(f, s);
	CHECK(fclose(f) == 0);
	return buf;
}

static void test_escaper(void)
{
	CHECK_EQ_STR(escaped("plain"), "\"plain\"");
	CHECK_EQ_STR(escaped(NULL), "\"\"");
	CHECK_EQ_STR(escaped("a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_EQ_STR(escaped("\n\t\r\b\f\x01\x1f"), "\"\\n\\t\\r\\b\\f\\u0001\\u001f\"");
	CHECK_EQ_STR(escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
			"\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	CHECK_EQ_STR(escaped("x\xffy"), "\"x\\ufffdy\"");
	/* overlong '/', a UTF-16 surrogate, a truncated sequence at the end */
	CHECK_EQ_STR(escaped("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
	CHECK_EQ_STR(escaped("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_EQ_STR(escaped("ok\xe2\x82"), "\"ok\\ufffd\\ufffd\"");
	CHECK_EQ_STR(escaped("\x7f"), "\"\x7f\"");
}

static void add_kernel(struct dt_group *g, uint32_t stream, uint64_t start,
		uint64_t end, uint64_t call_ns, uint8_t source, const char *name,
		const char *op)
{
	struct dt_kernel k = {.start = start, .end = end,
		.duration_ns = end - start, .stream = stream, .name = name,
		.op = op, .call_ns = call_ns, .source = source, .api = 0,
		.n_gpu_kernels = 1};
	dt_group_add_kernel(g, &k, NULL, 0);
}

static void test_gpu_time(const char *dir)
{
	struct dt_group g;
	dt_group_init(&g, 1, 0);
	add_kernel(&g, 1, 1000, 3000, 500, DT_SOURCE_LAUNCH, "k_a", "op1");
	add_kernel(&g, 2, 2000, 5000, 1800, DT_SOURCE_LAUNCH, "k_b", "op1");
	/* idle 5000-9000: the host until its call returned at 7000 */
	add_kernel(&g, 1, 9000, 10000, 7000, DT_SOURCE_LAUNCH, "k_a", NULL);
	add_kernel(&g, 1, 10000, 10500, 9500, DT_SOURCE_LAUNCH, "k_c", "op2");
	/* idle 10500-11000, its call returned before: other work */
	add_kernel(&g, 3, 11000, 12000, 10200, DT_SOURCE_LIBRARY, "lib_k", NULL);
	dt_group_analyze(&g, 0, g.n_kernels);

	struct dt_gpu_time t;
	dt_gpu_time_compute(&g, &t);
	CHECK(t.valid);
	CHECK_EQ_INT(t.span_ns, 11000);
	CHECK_EQ_INT(t.busy_ns, 6500);
	CHECK_EQ_INT(t.idle_ns, 4500);
	CHECK_EQ_INT(t.idle_host_ns, 2000);
	CHECK_EQ_INT(t.idle_other_ns, 2500);
	CHECK_EQ_INT(t.overlap_ns, 1000);
	CHECK_EQ_INT(t.n_delays, 4);          /* library kernels have no launch */
	CHECK_EQ_INT(t.delay_max_ns, 2000);
	CHECK(t.delay_mean_ns == 800.0);

	CHECK(dt_gpu_time_write_csv(&g, dir) == 0);
	char path[4096], expected[2048];
	snprintf(path, sizeof(path), "%s/gpu_time.csv", dir);
	const char *lib = dt_lib_api_name(0);
	snprintf(expected, sizeof(expected),
		"kind,name,count,device_us,share\n"
		"op,op1,2,5.000,0.769231\n"
		"op,%s,1,1.000,0.153846\n"
		"op,op2,1,0.500,0.076923\n"
		/* equal device times: by name */
		"kernel,k_a,2,3.000,0.461538\n"
		"kernel,k_b,1,3.000,0.461538\n"
		"kernel,lib_k,1,1.000,0.153846\n"
		"kernel,k_c,1,0.500,0.076923\n", lib);
	CHECK_EQ_STR(slurp(path), expected);

	/* op granularity and missing kernel times: no breakdown */
	g.granularity = DT_GRANULARITY_OP;
	dt_gpu_time_compute(&g, &t);
	CHECK(!t.valid);
	g.granularity = DT_GRANULARITY_KERNEL;
	g.kernel_times_missing = true;
	dt_gpu_time_compute(&g, &t);
	CHECK(!t.valid);
	dt_group_free(&g);
}

static void call_api(struct dt_overheads *o, struct dt_model *m,
		enum dt_event_kind kind, int api, uint64_t start, uint64_t ts)
{
	struct dt_event e = {.kind = kind, .vpid = 1, .vtid = 10, .ts = ts,
		.start_ns = start, .api = api, .result = 0, .tensor = -1,
		.src_tensor = -1};
	dt_overheads_on_event(o, m, &e);
}

static void call(struct dt_overheads *o, struct dt_model *m, enum dt_event_kind kind,
		uint64_t start, uint64_t ts)
{
	call_api(o, m, kind, 0, start, ts);
}

static void test_overheads(const char *dir)
{
	struct dt_model m;
	dt_model_init(&m);
	struct dt_overheads *o = dt_overheads_new();

	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = 1, .vtid = 10, .ts = 1000, .domain = "",
			.name = "A"});
	call(o, &m, DT_EVENT_LAUNCH, 1500, 1600);
	call(o, &m, DT_EVENT_LAUNCH, 2000, 2100);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = 1, .vtid = 10, .ts = 3000,
			.domain = ""});        /* A: T2 500, T3 900, T5 400 */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = 1, .vtid = 10, .ts = 4000, .domain = "",
			.name = "B"});  /* a container */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = 1, .vtid = 10, .ts = 4100, .domain = "",
			.name = "C"});
	call(o, &m, DT_EVENT_LIB_CALL, 4200, 4700);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = 1, .vtid = 10, .ts = 5000,
			.domain = ""});        /* C: T2 100, T3 300 */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = 1, .vtid = 10, .ts = 5500, .domain = "",
			.name = "D"});  /* host only, T1 500 */
	/* a synchronous copy is mostly waiting: no launch, D stays host only */
	call_api(o, &m, DT_EVENT_MEMCPY, DNNTRACE_API_cudaMemcpy, 5600, 5900);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = 1, .vtid = 10, .ts = 6000, .domain = ""});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = 1, .vtid = 10, .ts = 7000,
			.domain = ""});        /* B */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = 1, .vtid = 10, .ts = 8000, .domain = "",
			.name = "A"});  /* T1 8000 - 3000 */
	call(o, &m, DT_EVENT_LAUNCH, 8100, 8200);
	/* an async set counts as a launch (the seed's cudaMemcpyAsync) */
	call_api(o, &m, DT_EVENT_MEMSET, DNNTRACE_API_cudaMemsetAsync, 8300, 8400);
	struct dt_event failed = {.kind = DT_EVENT_LAUNCH, .vpid = 1, .vtid = 10,
		.ts = 8600, .start_ns = 8500, .result = 1};
	dt_overheads_on_event(o, &m, &failed);         /* failed: not charged */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = 1, .vtid = 10, .ts = 9000, .domain = ""});
	/* a launch on another thread, in no range, and a range left open */
	struct dt_event other = {.kind = DT_EVENT_LAUNCH, .vpid = 1, .vtid = 11,
		.ts = 9100, .start_ns = 9050};
	dt_overheads_on_event(o, &m, &other);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = 1, .vtid = 10, .ts = 9500, .domain = "",
			.name = "open"});
	dt_overheads_finish(o, &m);

	CHECK(dt_overheads_write(o, 1, dir) == 0);
	char path[4096], expected[2048];
	snprintf(path, sizeof(path), "%s/overheads.csv", dir);
	snprintf(expected, sizeof(expected),
		"op,count,t1_mean_us,t1_std_us,t2_mean_us,t2_std_us,t3_mean_us,"
		"t3_std_us,t4_mean_us,t4_std_us,t5_mean_us,t5_std_us\n"
		"A,2,5.000,0.000,0.300,0.200,0.750,0.150,0.100,0.000,0.250,0.150\n"
		"%s,1,,,,,,,0.500,0.000,,\n"
		"C,1,,,0.100,0.000,0.300,0.000,0.500,0.000,0.000,0.000\n"
		"D,1,0.500,0.000,,,,,,,0.500,0.000\n", dt_lib_api_name(0));
	CHECK_EQ_STR(slurp(path), expected);
	/* another process: the header only */
	CHECK(dt_overheads_write(o, 2, dir) == 0);
	CHECK_EQ_STR(slurp(path), "op,count,t1_mean_us,t1_std_us,t2_mean_us,"
			"t2_std_us,t3_mean_us,t3_std_us,t4_mean_us,t4_std_us,"
			"t5_mean_us,t5_std_us\n");
	dt_overheads_free(o);
	dt_model_free(&m);
}

int main(void)
{
	char dir[] = "/tmp/dnntrace-test-timeline.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	test_escaper();
	test_gpu_time(dir);
	test_overheads(dir);
	char path[4096];
	snprintf(path, sizeof(path), "%s/gpu_time.csv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/overheads.csv", dir);
	unlink(path);
	rmdir(dir);
	puts("test_analysis_timeline: ok");
	return 0;
}
