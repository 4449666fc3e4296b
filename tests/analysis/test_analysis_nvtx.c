/*
 * Unit tests of NVTX ops, --range windows and tensor categories on
 * hand-made event sequences (no trace): nested push/pop ranges on two
 * threads and two domains, start/end ranges opened on one thread and ended
 * on another, the op of launches and library calls, kernels.csv's op column
 * and kernels.config's Name, the N-th occurrence of a range and the window
 * of kernels launched inside it (any thread), globals of that window, and
 * categories from tag prefixes, from a WORKSPACE role and inferred from
 * lifetimes (edge cases at the window's middle). Every expected value is
 * worked out by hand in the comments. Must never compare against output
 * produced by the code under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derive/category.h"
#include "analysis/report/csv_writer.h"
#include "analysis/report/g10_writer.h"
#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/model/nvtx_ranges.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

#define LAUNCH DNNTRACE_API_cudaLaunchKernel
enum { A = 11, B = 22 };   /* two threads (vtid) */

static void launch_at(struct dt_model *m, int64_t vpid, int64_t vtid,
		uint64_t ts, uint64_t call_id, const char *name)
{
	int64_t none[1] = {0};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = vpid, .vtid = vtid, .ts = ts, .call_id = call_id,
			.api = LAUNCH, .name = name, .stream = 0,
			.tensors = none, .n_tensors = 0, .result = 0});
}

/* The GPU kernel of call c: correlation c, start 1000 + 100 c, 10 ns. */
static void gpu_kernel_of(struct dt_model *m, int64_t vpid, uint32_t c,
		const char *name)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = c, .call_id = c});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = c, .gpu_device = 0,
			.gpu_stream = 1, .gpu_start = 1000 + 100 * (uint64_t)c,
			.gpu_end = 1010 + 100 * (uint64_t)c, .name = name});
}

/*
 * Process 1. Thread A pushes "step" then "aten::conv" (default domain
 * ""), later "inner2" in domain D2; thread B pushes "loader" in D2. B opens
 * a start/end range "iter" (id 7) that A ends. Expected op per call:
 *   ts  thread call  open ranges (start)                       op
 *   30  A      1     step@10 aten::conv@20                     aten::conv
 *   40  B      2     (A's do not count)                        none
 *   55  A      3     step@10 aten::conv@20 inner2@50 (D2)      inner2
 *   57  B      4     loader@45 (D2)                            loader
 *   65  A      5     step@10 inner2@50 (pop "" at 60 closed conv) inner2
 *   75  A      6     step@10 (pop D2 at 70 closed inner2)      step
 *   85  A      7     step@10, iter@80 (process-wide)           iter
 *   95  A      8     step@10 iter@80 aten::add@90              aten::add
 *   110 A      9     step@10 (add popped 100, iter ended 105 by A) step
 *   115 B      10    loader@45: a library call                 loader
 *   125 B      11    (wrong-domain pop ignored, D2 pop at 120)  none
 *   143 A      12    x@140 (y@141 ended at 142)                x
 *   146 A      13    z@144 (x ended at 145, in the middle)      z
 *   148 A      14    nothing open (step popped at 130)         none
 */
static void feed_ops(struct dt_model *m)
{
	const int64_t P = 1;
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = P, .cupti_ok = 1, .name = "ok"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = A, .ts = 10, .domain = "",
			.name = "step"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = A, .ts = 20, .domain = "",
			.name = "aten::conv"});
	launch_at(m, P, A, 30, 1, "conv_k");
	launch_at(m, P, B, 40, 2, "b_k");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = B, .ts = 45, .domain = "D2",
			.name = "loader"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = A, .ts = 50, .domain = "D2",
			.name = "inner2"});
	launch_at(m, P, A, 55, 3, "k3");
	launch_at(m, P, B, 57, 4, "k4");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 60, .domain = ""});
	launch_at(m, P, A, 65, 5, "k5");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 70, .domain = "D2"});
	launch_at(m, P, A, 75, 6, "k6");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_START,
			.vpid = P, .vtid = B, .ts = 80, .id = 7, .domain = "",
			.name = "iter"});
	launch_at(m, P, A, 85, 7, "k7");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = A, .ts = 90, .domain = "",
			.name = "aten::add"});
	launch_at(m, P, A, 95, 8, "k8");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 100, .domain = ""});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_END,
			.vpid = P, .ts = 105, .id = 7});
	launch_at(m, P, A, 110, 9, "k9");
	struct dt_event call = {.kind = DT_EVENT_LIB_CALL, .vpid = P, .ts = 115, .vtid = B, .call_id = 10,
		.api = DNNTRACE_LIB_cublasSgemm_v2, .n_tensors = 0, .result = 0};
	dt_model_on_event(m, &call);
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = B, .ts = 118,
			.domain = "no such domain"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = B, .ts = 120, .domain = "D2"});
	launch_at(m, P, B, 125, 11, "k11");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 130, .domain = ""});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 131,
			.domain = ""});          /* nothing open */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_END,
			.vpid = P, .ts = 132,
			.id = 99});             /* unknown id */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_START,
			.vpid = P, .vtid = A, .ts = 140, .id = 1, .domain = "",
			.name = "x"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_START,
			.vpid = P, .vtid = A, .ts = 141, .id = 2, .domain = "",
			.name = "y"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_END,
			.vpid = P, .ts = 142, .id = 2});
	launch_at(m, P, A, 143, 12, "k12");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_START,
			.vpid = P, .vtid = A, .ts = 144, .id = 3, .domain = "",
			.name = "z"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_END,
			.vpid = P, .ts = 145, .id = 1});
	launch_at(m, P, A, 146, 13, "k13");
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_NVTX_END,
			.vpid = P, .ts = 147, .id = 3});
	launch_at(m, P, A, 148, 14, "k14");
	const char *names[] = {NULL, "conv_k", "b_k", "k3", "k4", "k5", "k6",
		"k7", "k8", "k9", "sgemm", "k11", "k12", "k13", "k14"};
	for (uint32_t c = 1; c <= 14; c++)
		gpu_kernel_of(m, P, c, names[c]);
	/* a kernel nothing links to, between calls 7 and 8: no op */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 500, .gpu_device = 0,
			.gpu_stream = 1, .gpu_start = 1750, .gpu_end = 1760,
			.name = "unlinked"});
}

static void test_ops(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed_ops(&m);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	CHECK_EQ_INT(g->n_kernels, 15);
	/* kernel order = call order; the unlinked one at 1750 is index 7 */
	const char *expected[] = {"aten::conv", NULL, "inner2", "loader",
		"inner2", "step", "iter", NULL, "aten::add", "step", "loader",
		NULL, "x", "z", NULL};
	for (size_t k = 0; k < 15; k++) {
		if (expected[k])
			CHECK_EQ_STR(g->kernels[k].op, expected[k]);
		else if (g->kernels[k].op)
			CHECK_EQ_STR(g->kernels[k].op, "(none)");
	}
	CHECK_EQ_STR(g->kernels[7].name, "unlinked");
	CHECK_EQ_INT(g->kernels[7].call_ns, DT_NO_TIME);
	CHECK_EQ_INT(g->kernels[8].call_ns, 95);

	dt_group_analyze(g, 0, g->n_kernels);
	char dir[] = "/tmp/dnntrace-nvtxtest-XXXXXX";
	CHECK(mkdtemp(dir));
	CHECK_EQ_INT(dt_write_g10_files(g, dir, "n", DT_G10_ALL), 0);
	CHECK_EQ_INT(dt_write_csv_files(g, dir), 0);
	const char *csv = read_text(dir, "kernels.csv");
	CHECK(strncmp(csv, "index,device,stream,start_ns,end_ns,duration_ns,"
			"name,api,inputs,outputs,touched,op\n", 83) == 0);
	CHECK(strstr(csv, "\n0,0,1,1100,1110,10,conv_k,cudaLaunchKernel,,,,aten::conv\n"));
	CHECK(strstr(csv, "\n1,0,1,1200,1210,10,b_k,cudaLaunchKernel,,,,\n"));
	CHECK(strstr(csv, "\n7,0,1,1750,1760,10,unlinked,,,,,\n"));
	CHECK(strstr(csv, "\n10,0,1,2000,2010,10,sgemm,cublasSgemm_v2,,,,loader\n"));
	const char *config = read_text(dir, "kernels.config");
	/* the op, then what the kernel printed without one as its argument */
	CHECK(strstr(config, "Kernel ID: 0, Name: aten::conv(conv_k())\n"));
	CHECK(strstr(config, "Kernel ID: 1, Name: b_k()\n"));
	CHECK(strstr(config, "Kernel ID: 10, Name: loader(cublasSgemm_v2(sgemm))\n"));
	remove_dir(dir);

	/* op granularity: one op per call, each with its call's op */
	struct dt_group *ops;
	n = dt_groups_build(&m, DT_GRANULARITY_OP, &ops);
	CHECK_EQ_INT(ops[0].n_kernels, 15);
	CHECK_EQ_STR(ops[0].kernels[8].op, "aten::add");
	CHECK_EQ_INT(ops[0].kernels[8].call_ns, 95);
	dt_group_free(&ops[0]);
	free(ops);

	/* occurrences: "step" once (A, 10..130); "iter" by id (80..105) */
	const struct dt_process *p = dt_model_find_process(&m, 1);
	size_t count;
	const struct dt_range *r = dt_process_find_range(p, "step", 0, &count);
	CHECK(r);
	CHECK_EQ_INT(count, 1);
	CHECK_EQ_INT(r->start_ns, 10);
	CHECK_EQ_INT(r->end_ns, 130);
	CHECK(!dt_process_find_range(p, "step", 1, NULL));
	r = dt_process_find_range(p, "iter", 0, NULL);
	CHECK(r && r->by_id && r->vtid == B);
	CHECK_EQ_INT(r->start_ns, 80);
	CHECK_EQ_INT(r->end_ns, 105);
	dt_process_find_range(p, "nothing", 0, &count);
	CHECK_EQ_INT(count, 0);
	/* "iter" [80,105] holds calls 7 (85) and 8 (95): kernels 6 and 8,
	 * with the unlinked kernel 7 between them kept (contiguous) */
	size_t first, n_window;
	CHECK(dt_group_range_window(g, r->start_ns, r->end_ns, &first, &n_window));
	CHECK_EQ_INT(first, 6);
	CHECK_EQ_INT(n_window, 3);
	/* a range no call falls in */
	CHECK(!dt_group_range_window(g, 131, 139, &first, &n_window));
	dt_group_free(g);
	free(groups);
	dt_model_free(&m);
}

/*
 * Two "step" ranges (thread A, push/pop) and tensors around them:
 *   w  id 0: allocated at 1, never freed, used by c1 c3 c5
 *   a  id 1: allocated 11, freed 60: step 1 only
 *   b  id 2: allocated 101 (inside step 2), freed 150
 *   c  id 3: allocated 125 (after step 2's first kernel started), freed 145
 *   d  id 4: allocated 80 (between the steps), freed 160 (after step 2)
 * calls (host ts -> GPU start..end):
 *   step 1 [10, 61]:  c1 12 (w, a) -> 20..30    c2 13 (a) -> 40..50
 *   step 2 [100,151]: c3 102 (w, b) -> 110..120 c4 126 (c) -> 130..140
 *                     thread B: c6 127 (b, d) -> 135..138
 *   no range:         c5 200 (w) -> 210..220
 * Kernel order: c1 c2 c3 c4 c6 c5. --range step:2 -> kernels 2..4 (c6 is
 * another thread's launch inside the step's time: it counts). Global in
 * a range's window = alive across the range [100, 151] (host times): w
 * (alloc 1, never freed) and d (alloc 80, freed 160) are global; b and c,
 * born inside the step, are local (b would be global by the kernels'
 * times: allocated before the first kernel started at 110, freed after
 * the last ended at 140); a (freed at 60) is not in the files.
 */
static void test_range_window(void)
{
	const int64_t P = 2;
	struct dt_model m;
	dt_model_init(&m);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = P, .cupti_ok = 1, .name = "ok"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 1, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x1000, .bytes = 100, .tensor = 0,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = A, .ts = 10, .domain = "",
			.name = "step"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 11, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x2000, .bytes = 200, .tensor = 1,
			.result = 0});
	int64_t wa[] = {0, 1}, a[] = {1}, wb[] = {0, 2}, c[] = {3},
		w[] = {0}, bd[] = {2, 4};
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = A, .ts = 12, .call_id = 1,
			.api = LAUNCH, .name = "c1", .stream = 0, .tensors = wa,
			.n_tensors = 2, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = A, .ts = 13, .call_id = 2,
			.api = LAUNCH, .name = "c2", .stream = 0, .tensors = a,
			.n_tensors = 1, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = P, .ts = 60, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 1, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 61, .domain = ""});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 80, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x5000, .bytes = 500, .tensor = 4,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_PUSH,
			.vpid = P, .vtid = A, .ts = 100, .domain = "",
			.name = "step"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 101, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x3000, .bytes = 300, .tensor = 2,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = A, .ts = 102, .call_id = 3,
			.api = LAUNCH, .name = "c3", .stream = 0, .tensors = wb,
			.n_tensors = 2, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 125, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x4000, .bytes = 400, .tensor = 3,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = A, .ts = 126, .call_id = 4,
			.api = LAUNCH, .name = "c4", .stream = 0, .tensors = c,
			.n_tensors = 1, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = B, .ts = 127, .call_id = 6,
			.api = LAUNCH, .name = "c6", .stream = 0, .tensors = bd,
			.n_tensors = 2, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = P, .ts = 145, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 3, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = P, .ts = 150, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 2, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_NVTX_POP,
			.vpid = P, .vtid = A, .ts = 151, .domain = ""});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = P, .ts = 160, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 4, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = A, .ts = 200, .call_id = 5,
			.api = LAUNCH, .name = "c5", .stream = 0, .tensors = w,
			.n_tensors = 1, .result = 0});
	const uint64_t gpu[][3] = {{1, 20, 30}, {2, 40, 50}, {3, 110, 120},
		{4, 130, 140}, {6, 135, 138}, {5, 210, 220}};
	for (size_t i = 0; i < 6; i++) {
		dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
				.vpid = P, .correlation_id = (uint32_t)gpu[i][0],
				.call_id = gpu[i][0]});
		dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
				.vpid = P, .correlation_id = (uint32_t)gpu[i][0],
				.gpu_device = 0, .gpu_stream = 1,
				.gpu_start = gpu[i][1], .gpu_end = gpu[i][2],
				.name = "k"});
	}
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	const struct dt_process *p = dt_model_find_process(&m, P);
	size_t count;
	const struct dt_range *r = dt_process_find_range(p, "step", 1, &count);
	CHECK_EQ_INT(count, 2);
	CHECK(r && r->start_ns == 100 && r->end_ns == 151);
	size_t first, n_window;
	CHECK(dt_group_range_window(g, r->start_ns, r->end_ns, &first, &n_window));
	CHECK_EQ_INT(first, 2);
	CHECK_EQ_INT(n_window, 3);
	CHECK(dt_group_analyze_range(g, r->start_ns, r->end_ns));
	CHECK_EQ_INT(g->win_first, 2);
	CHECK_EQ_INT(g->win_count, 3);
	CHECK(result_of(g, 0)->global);
	CHECK(result_of(g, 4)->global);
	CHECK(!result_of(g, 2)->global);
	CHECK(!result_of(g, 3)->global);
	CHECK(!result_of(g, 1)->in_g10);
	/* b: written first by c3 (window kernel 0), read by c6 (2) */
	CHECK_EQ_INT(result_of(g, 2)->birth, 0);
	CHECK_EQ_INT(result_of(g, 2)->death, 3);
	/* c: local, written first at window kernel 1 (c4), never read */
	CHECK_EQ_INT(result_of(g, 3)->birth, 1);
	CHECK_EQ_INT(result_of(g, 3)->death, -1);
	/* the same kernels as a plain window: globals by the kernels' times */
	dt_group_analyze(g, 2, 3);
	CHECK(result_of(g, 2)->global);
	CHECK(!result_of(g, 3)->global);
	/* the first step: kernels 0..1 */
	r = dt_process_find_range(p, "step", 0, NULL);
	CHECK(dt_group_range_window(g, r->start_ns, r->end_ns, &first, &n_window));
	CHECK_EQ_INT(first, 0);
	CHECK_EQ_INT(n_window, 2);
	CHECK(!dt_process_find_range(p, "step", 2, NULL));
	/* a range no call falls in: nothing analyzed */
	CHECK(!dt_group_analyze_range(g, 62, 99));
	dt_group_free(g);
	free(groups);
	dt_model_free(&m);
}

/* Tag prefixes, the last tag winning, a WORKSPACE role, and a tag beating
 * that role, through the model (library calls give the roles). */
static void test_explicit_categories(void)
{
	const int64_t P = 3;
	struct dt_model m;
	dt_model_init(&m);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = P, .cupti_ok = 1, .name = "ok"});
	for (int64_t id = 0; id < 8; id++)
		dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
				.vpid = P, .ts = 1 + (uint64_t)id,
				.api = DNNTRACE_API_cudaMalloc,
				.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
				.stream = 0, .ptr = 0x1000 * (uint64_t)(id + 1),
				.bytes = 64, .tensor = id, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 0, .name = "param:fc.weight"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 1, .name = "grad:fc.weight"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 2, .name = "optim:fc.weight.exp_avg"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 3, .name = "act:layer1.0.conv1"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 4, .name = "act:early"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 4,
			.name = "grad:late"});        /* the last tag wins */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 5, .name = "params:not_a_prefix"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_TAG, .vpid = P,
			.tensor = 7, .name = "param:also_workspace"});
	/* tensors 6 and 7 are a call's WORKSPACE; 5 is read */
	const int64_t tensors[] = {5, 6, 7};
	const uint64_t ptrs[] = {0x6000, 0x7000, 0x8000};
	const uint8_t roles[] = {DNNTRACE_ROLE_READ, DNNTRACE_ROLE_WORKSPACE,
		DNNTRACE_ROLE_WORKSPACE};
	const uint8_t zeros[] = {0, 0, 0};
	struct dt_event call = {.kind = DT_EVENT_LIB_CALL, .vpid = P, .ts = 20, .call_id = 1,
		.api = DNNTRACE_LIB_cudnnConvolutionForward, .n_tensors = 3,
		.tensors = tensors, .ptrs = ptrs, .roles = roles, .dtypes = zeros,
		.ranks = zeros, .n_dims = 0, .dims = NULL, .result = 0};
	dt_model_on_event(&m, &call);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = P, .correlation_id = 1, .call_id = 1});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 1, .gpu_device = 0,
			.gpu_stream = 1, .gpu_start = 100, .gpu_end = 110,
			.name = "conv"});
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	dt_group_analyze(g, 0, g->n_kernels);
	const struct {
		uint8_t category, source;
	} expected[] = {
		{DT_CATEGORY_PARAMETER, DT_CATEGORY_FROM_TAG},
		{DT_CATEGORY_GRADIENT, DT_CATEGORY_FROM_TAG},
		{DT_CATEGORY_OPTIMIZER_STATE, DT_CATEGORY_FROM_TAG},
		{DT_CATEGORY_ACTIVATION, DT_CATEGORY_FROM_TAG},
		{DT_CATEGORY_GRADIENT, DT_CATEGORY_FROM_TAG},
		/* no prefix: inferred; one kernel, so nothing is parameter-
		 * or activation-like */
		{DT_CATEGORY_OTHER, DT_CATEGORY_INFERRED},
		{DT_CATEGORY_WORKSPACE, DT_CATEGORY_FROM_ROLE},
		{DT_CATEGORY_PARAMETER, DT_CATEGORY_FROM_TAG},
	};
	for (int64_t id = 0; id < 8; id++) {
		CHECK_EQ_INT(result_of(g, id)->category, expected[id].category);
		CHECK_EQ_INT(result_of(g, id)->category_source, expected[id].source);
	}
	char dir[] = "/tmp/dnntrace-nvtxtest-XXXXXX";
	CHECK(mkdtemp(dir));
	CHECK_EQ_INT(dt_write_csv_files(g, dir), 0);
	const char *csv = read_text(dir, "tensors.csv");
	CHECK(strncmp(csv, "id,name,bytes,device,kind,alloc_ns,free_ns,first_use,"
			"last_use,global,category,category_source,addr,stream\n",
			106) == 0);
	/* names keep their prefix (param:x and grad:x stay apart) */
	CHECK(strstr(csv, "\n0,param:fc.weight,64,0,device,1,,,,1,parameter,tag,0x1000,0x0\n"));
	CHECK(strstr(csv, "\n2,optim:fc.weight.exp_avg,64,0,device,3,,,,1,optimizer_state,tag,0x3000,0x0\n"));
	CHECK(strstr(csv, "\n3,act:layer1.0.conv1,64,0,device,4,,,,1,activation,tag,0x4000,0x0\n"));
	CHECK(strstr(csv, "\n6,t6,64,0,device,7,,0,0,1,workspace,role,0x7000,0x0\n"));
	CHECK(strstr(csv, "\n5,params:not_a_prefix,64,0,device,6,,0,0,1,other,inferred,0x6000,0x0\n"));
	remove_dir(dir);
	dt_group_free(g);
	free(groups);
	dt_model_free(&m);

	uint8_t category = 99;
	CHECK(!dt_category_of_tag(NULL, &category));
	CHECK(!dt_category_of_tag("param", &category));
	CHECK(!dt_category_of_tag("Param:x", &category));
	CHECK(dt_category_of_tag("act:", &category));
	CHECK_EQ_INT(category, DT_CATEGORY_ACTIVATION);
}

/*
 * Inference on a hand-made window of 6 kernels (mid = 3: k0..k2 before,
 * k3..k5 at or after), known roles, every tensor untagged:
 *   id global uses (kernel roles)       expected
 *   0  yes    k0 R, k4 R                parameter (read before and after)
 *   1  yes    k0 W, k5 R                other (read only after: a gradient)
 *   2  yes    k1 R, k2 R                other (read only before)
 *   3  no     k1 W, k4 R                activation (Birth 1 < 3, Death 5 > 3)
 *   4  no     k1 W, k2 R                other (Death 3 = mid: dies in forward)
 *   5  no     k3 W, k5 R                other (Birth 3 = mid: born in backward)
 *   6  no     k0 W                      other (never read: Death -1)
 *   7  yes    k5 RW                     other
 * A window of 1 kernel (mid 0) infers nothing: tensor 0 read at k0 only
 * has no "before" half.
 */
static void test_inferred_categories(void)
{
	struct dt_group g;
	dt_group_init(&g, 9, 0);
	for (int64_t id = 0; id < 8; id++) {
		bool global = id <= 2 || id == 7;
		struct dt_tensor t = {.id = id, .bytes = 8, .device = 0,
			/* locals are born after the window's first start */
			.alloc_ns = global ? 0 : 1000 + (uint64_t)id,
			.free_ns = DT_NO_TIME,
			.allocated = true};
		dt_group_add_tensor(&g, &t);
	}
	const uint8_t R = DT_ROLE_READ, W = DT_ROLE_WRITE;
	const struct dt_touch k0[] = {{0, R, 0, 0, 0}, {1, W, 0, 0, 0}, {6, W, 0, 0, 0}};
	const struct dt_touch k1[] = {{2, R, 0, 0, 0}, {3, W, 0, 0, 0}, {4, W, 0, 0, 0}};
	const struct dt_touch k2[] = {{2, R, 0, 0, 0}, {4, R, 0, 0, 0}};
	const struct dt_touch k3[] = {{5, W, 0, 0, 0}};
	const struct dt_touch k4[] = {{0, R, 0, 0, 0}, {3, R, 0, 0, 0}};
	const struct dt_touch k5[] = {{1, R, 0, 0, 0}, {5, R, 0, 0, 0}, {7, R | W, 0, 0, 0}};
	const struct dt_touch *touches[] = {k0, k1, k2, k3, k4, k5};
	const uint32_t n_touches[] = {3, 3, 2, 1, 2, 3};
	for (size_t k = 0; k < 6; k++) {
		struct dt_kernel kernel = {.start = 1000 + 1000 * k,
			.end = 1500 + 1000 * k, .duration_ns = 500, .name = "k",
			.call_ns = DT_NO_TIME};
		dt_group_add_kernel(&g, &kernel, touches[k], n_touches[k]);
	}
	dt_group_analyze(&g, 0, 6);
	const uint8_t expected[] = {DT_CATEGORY_PARAMETER, DT_CATEGORY_OTHER,
		DT_CATEGORY_OTHER, DT_CATEGORY_ACTIVATION, DT_CATEGORY_OTHER,
		DT_CATEGORY_OTHER, DT_CATEGORY_OTHER, DT_CATEGORY_OTHER};
	for (int64_t id = 0; id < 8; id++) {
		CHECK_EQ_INT(result_of(&g, id)->global, id <= 2 || id == 7);
		CHECK_EQ_INT(result_of(&g, id)->category, expected[id]);
		CHECK_EQ_INT(result_of(&g, id)->category_source,
				DT_CATEGORY_INFERRED);
	}
	CHECK_EQ_INT(result_of(&g, 3)->death, 5);
	CHECK_EQ_INT(result_of(&g, 4)->death, 3);
	dt_group_analyze(&g, 0, 1);
	CHECK_EQ_INT(result_of(&g, 0)->category, DT_CATEGORY_OTHER);
	CHECK_EQ_STR(dt_category_name(DT_CATEGORY_OPTIMIZER_STATE), "optimizer_state");
	CHECK_EQ_STR(dt_category_source_name(DT_CATEGORY_FROM_ROLE), "role");
	dt_group_free(&g);
}

int main(void)
{
	test_ops();
	test_range_window();
	test_explicit_categories();
	test_inferred_categories();
	puts("nvtx ops, ranges and categories: all checks passed");
	return 0;
}
