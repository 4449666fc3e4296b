/*
 * Unit tests of the analysis core on hand-made event sequences (no trace,
 * no babeltrace2): kernel order and links, the first-write refinement, G10
 * Birth/Death, periods (never read, looped, wrap to 0, the j < u rule, a
 * period at the very end), estimated times, --kernels windows, memory and
 * its peak, several processes, the no-CUPTI fallback, and the exact text of
 * the G10 files. Every expected value is worked out by hand in the comments
 * from the rules in /work/shared/notes/g10-semantics.md. Must never compare
 * against output produced by the code under test.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report/csv_writer.h"
#include "analysis/report/g10_writer.h"
#include "analysis/derive/group.h"
#include "analysis/model/api_names.h"
#include "analysis/model/model.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

#define CALL_MALLOC DNNTRACE_API_cudaMalloc
#define LAUNCH DNNTRACE_API_cudaLaunchKernel

/*
 * Process 100, device 0. Six tensors:
 *   id bytes alloc  write   free   uses (kernel: roles)
 *   0  1000  10     cpy@20  -      k0 RW, k3 RW        global
 *   1  2000  11     -       5000   k0 W (first, unwritten), k1 RW   global
 *   2  300   2500   -       3500   k2 W (first, unwritten)  local, never read
 *   3  50    1500   -       4500   k1 W (first), k3 RW      local
 *   4  64    13     set@14  -      k2 RW, k3 RW        global
 *   5  10    15     cpy@16  -      k1 RW               global
 * Kernels k0..k3 start 1000,2000,3000,4000 and last 100,200,300,400 ns;
 * they arrive out of order, correlations after kernel records.
 */
static void feed_main_process(struct dt_model *m)
{
	const int64_t vpid = 100;
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = vpid, .cupti_ok = 1, .name = "ok"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 10, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 1000, .tensor = 0,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 11, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 2000, .tensor = 1,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 12, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 1 << 30, .tensor = -1,
			.result = 2});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 13, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 64, .tensor = 4,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMSET,
			.vpid = vpid, .ts = 14, .call_id = 902, .tensor = 4,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 15, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_STREAM_ORDERED, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 10, .tensor = 5,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMCPY,
			.vpid = vpid, .ts = 16, .call_id = 903,
			.api = DNNTRACE_API_cudaMemcpyAsync, .tensor = 5,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 17,
			.api = DNNTRACE_API_cudaMallocHost,
			.mem_kind = DNNTRACE_MEM_PINNED_HOST, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 4096, .tensor = -1,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMCPY,
			.vpid = vpid, .ts = 20, .call_id = 904,
			.api = DNNTRACE_API_cudaMemcpy, .tensor = 0,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMCPY,
			.vpid = vpid, .ts = 21, .call_id = 905,
			.api = DNNTRACE_API_cudaMemcpy, .tensor = 1,
			.result = 700}); /* failed: not a write */
	/* a prefetch moves pages and writes nothing: tensor 1 stays unwritten */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMCPY,
			.vpid = vpid, .ts = 22, .call_id = 906,
			.api = DNNTRACE_API_cudaMemPrefetchAsync, .tensor = 1,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_TAG,
			.vpid = vpid, .tensor = 0, .name = "first_name"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_TAG,
			.vpid = vpid, .tensor = 0,
			.name = "weights"});    /* the last tag wins */
	int64_t l1[] = {0, 1}, l2[] = {1, 3, 5}, l3[] = {2, 4}, l4[] = {0, 3, 4};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 100, .call_id = 1,
			.api = LAUNCH, .name = "k_a", .stream = 7, .tensors = l1,
			.n_tensors = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 1500, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 50, .tensor = 3,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 110, .call_id = 2,
			.api = LAUNCH, .name = "k_b", .stream = 7, .tensors = l2,
			.n_tensors = 3, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 2500, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 300, .tensor = 2,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 120, .call_id = 3,
			.api = LAUNCH, .name = "k_c", .stream = 7, .tensors = l3,
			.n_tensors = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 130, .call_id = 4,
			.api = LAUNCH, .name = "k_d", .stream = 7, .tensors = l4,
			.n_tensors = 3, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = vpid, .ts = 3500, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = vpid, .ts = 4500, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 3, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = vpid, .ts = 5000, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = vpid, .ts = 5001, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 1,
			.result = 0});     /* double free: ignored */
	/* late GPU records, out of order */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 14, .gpu_device = 0,
			.gpu_stream = 7, .gpu_start = 4000, .gpu_end = 4400,
			.name = "k_d"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 12, .gpu_device = 0,
			.gpu_stream = 7, .gpu_start = 2000, .gpu_end = 2200,
			.name = "k_b"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = 14, .call_id = 4});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 11, .gpu_device = 0,
			.gpu_stream = 7, .gpu_start = 1000, .gpu_end = 1100,
			.name = "k_a"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 13, .gpu_device = 0,
			.gpu_stream = 7, .gpu_start = 3000, .gpu_end = 3300,
			.name = "k_c"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = 11, .call_id = 1});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = 12, .call_id = 2});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = 13, .call_id = 3});
}

static void test_full_window(struct dt_group *g)
{
	dt_group_analyze(g, 0, g->n_kernels);
	CHECK_EQ_INT(g->n_kernels, 4);
	/* order by GPU start, names and APIs from the linked launches */
	CHECK_EQ_STR(g->kernels[0].name, "k_a");
	CHECK_EQ_STR(g->kernels[3].name, "k_d");
	CHECK_EQ_INT(g->kernels[2].api, LAUNCH);
	CHECK_EQ_INT(g->stats.failed_allocs, 1);
	CHECK_EQ_INT(g->stats.pinned_bytes, 4096);
	CHECK_EQ_INT(g->n_tensors, 6);   /* pinned and failed are not tensors */
	CHECK_EQ_STR(g->tensors[0].name, "weights");

	/* first-write refinement */
	const uint8_t RW = DT_ROLE_READ | DT_ROLE_WRITE, W = DT_ROLE_WRITE;
	CHECK_EQ_INT(roles_in(g, 0, 0), RW);   /* memcpy'd before */
	CHECK_EQ_INT(roles_in(g, 0, 1), W);    /* failed memcpy only */
	CHECK_EQ_INT(roles_in(g, 1, 1), RW);   /* touched by k0 before */
	CHECK_EQ_INT(roles_in(g, 1, 3), W);
	CHECK_EQ_INT(roles_in(g, 1, 5), RW);
	CHECK_EQ_INT(roles_in(g, 2, 2), W);
	CHECK_EQ_INT(roles_in(g, 2, 4), RW);   /* memset before */
	CHECK_EQ_INT(roles_in(g, 3, 3), RW);

	/* global: allocated before 1000, not freed before 4400 */
	CHECK(result_of(g, 0)->global);
	CHECK(result_of(g, 1)->global);
	CHECK(!result_of(g, 2)->global);
	CHECK(!result_of(g, 3)->global);
	CHECK(result_of(g, 4)->global);
	CHECK(result_of(g, 5)->global);

	/* never read: Birth 2, Death -1, no periods */
	CHECK_EQ_INT(result_of(g, 2)->birth, 2);
	CHECK_EQ_INT(result_of(g, 2)->death, -1);
	CHECK_EQ_INT(result_of(g, 2)->n_periods, 0);
	/* local read last at k3: Birth 1, Death 4; idle in k2, ends at the
	 * very last kernel: T3 - T2 = 600 - 300 */
	CHECK_EQ_INT(result_of(g, 3)->birth, 1);
	CHECK_EQ_INT(result_of(g, 3)->death, 4);
	CHECK_EQ_INT(result_of(g, 3)->n_periods, 1);
	check_period(g, 3, 0, 2, 3, 0, 300);
	/* prefix T = 0,100,300,600,1000 */
	/* t0 uses {0,3}: gap 1..3 = T3-T1 = 500; last use N-1 and k0 uses
	 * it: no wrap period */
	CHECK_EQ_INT(result_of(g, 0)->n_periods, 1);
	check_period(g, 0, 0, 1, 3, 0, 500);
	/* t1 uses {0,1}: looped 2--0 = (T4-T2) + T0 = 700 */
	CHECK_EQ_INT(result_of(g, 1)->n_periods, 1);
	check_period(g, 1, 0, 2, 0, 1, 700);
	/* t4 uses {2,3}: last use N-1, k0 unused: wraps to 0, 0--2, not
	 * looped, T2 - T0 = 300 */
	CHECK_EQ_INT(result_of(g, 4)->n_periods, 1);
	check_period(g, 4, 0, 0, 2, 0, 300);
	/* t5 single use at 1: j < u rule leaves exactly 2--1, looped,
	 * (T4-T2) + T1 = 800 */
	CHECK_EQ_INT(result_of(g, 5)->n_periods, 1);
	check_period(g, 5, 0, 2, 1, 1, 800);

	/* live at start: k0 t0,t1,t4,t5 = 3074; k1 +t3 = 3124; k2 +t2 =
	 * 3424; k3 t2 freed at 3500 = 3124 */
	CHECK_EQ_INT(g->live_bytes[0], 3074);
	CHECK_EQ_INT(g->live_bytes[1], 3124);
	CHECK_EQ_INT(g->live_bytes[2], 3424);
	CHECK_EQ_INT(g->live_bytes[3], 3124);
	CHECK_EQ_INT(g->peak_kernel, 2);
	CHECK_EQ_INT(g->peak_bytes, 3424);
	CHECK_EQ_INT(g->active_bytes[0], 3000);
	CHECK_EQ_INT(g->active_bytes[1], 2060);
	CHECK_EQ_INT(g->active_bytes[2], 364);
	CHECK_EQ_INT(g->active_bytes[3], 1114);
	/* idle byte-seconds: t1 2000 B x 700 ns = 1.4e-3 */
	CHECK(result_of(g, 1)->idle_byte_seconds > 1.3999e-3 &&
	      result_of(g, 1)->idle_byte_seconds < 1.4001e-3);

	char dir[] = "/tmp/dnntrace-test-XXXXXX";
	CHECK(mkdtemp(dir));
	CHECK_EQ_INT(dt_write_g10_files(g, dir, "unit",
			DT_G10_ALL), 0);
	CHECK_EQ_INT(dt_write_csv_files(g, dir), 0);
	CHECK_EQ_STR(read_text(dir, "unit_NNMemConsumptionLog.py"),
		"active = [3000,2060,364,1114,]\n"
		"active_breakdown = [(3000,0,0),(0,2010,50),(0,64,300),(0,1064,50),]\n"
		"total = [3074,3124,3424,3124,]\n"
		"global_weight = 3074\n"
		"input_size = 1000\n");
	CHECK_EQ_STR(read_text(dir, "unit_TensorPeriodLog.py"),
		"sd_size = [1000, 2000, 50, 64, 10, ]\n"
		"sd_time = [0.5, 0.7, 0.3, 0.3, 0.8, ]\n"
		"# 1 2 2 0 2 ");
	CHECK_EQ_STR(read_text(dir, "tensors.config"),
		"tensor0, Name: weights, Is global?: 1: Size in byte: 1000, \n"
		"tensor1, Name: t1, Is global?: 1: Size in byte: 2000, \n"
		"tensor2, Name: t2, Is global?: 0: Size in byte: 300, \n"
		"tensor3, Name: t3, Is global?: 0: Size in byte: 50, \n"
		"tensor4, Name: t4, Is global?: 1: Size in byte: 64, \n"
		"tensor5, Name: t5, Is global?: 1: Size in byte: 10, \n");
	const char *kernels = read_text(dir, "kernels.config");
	CHECK(strstr(kernels,
		"Kernel ID: 1, Name: k_b(t1, t3, t5)\n"
		"Input Tensors:\n"
		"tensor1, Name: t1, Is global?: 1: Size in byte: 2000, \n"
		"tensor5, Name: t5, Is global?: 1: Size in byte: 10, \n"
		"Output Tensors:\n"
		"tensor1, Name: t1, Is global?: 1: Size in byte: 2000, \n"
		"tensor3, Name: t3, Is global?: 0: Size in byte: 50, \n"
		"tensor5, Name: t5, Is global?: 1: Size in byte: 10, \n"
		"____________________________________________________________________\n"
		"Kernel ID: 2,"));
	const char *liveness = read_text(dir, "liveness_analysis.config");
	CHECK(strstr(liveness,
		"_____________________________________________________________________________\n"
		"tensor3, Name: t3, Is global?: 0: Size in byte: 50, \n"
		"Liveness: Birth: 1, Death: 4.\n"
		"_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
		"tensor3, Name: t3, Is global?: 0: Size in byte: 50, \n"
		"Inactive Periods:\n"
		"Period 0: 2--------3\n"
		"Estimated Time:0.3us\n"
		"_____________________________________________________________________________\n"));
	CHECK(strstr(liveness,
		"tensor1, Name: t1, Is global?: 1: Size in byte: 2000, \n"
		"This tensor is Global!\n"));
	CHECK(strstr(read_text(dir, "periods.csv"),
		"tensor,period,start,end,estimated_us,looped\n"
		"0,0,1,3,0.500,0\n1,0,2,0,0.700,1\n3,0,2,3,0.300,0\n"));
	CHECK_EQ_STR(read_text(dir, "memory.csv"),
		"index,live_bytes,active_bytes\n0,3074,3000\n1,3124,2060\n"
		"2,3424,364\n3,3124,1114\n");
	CHECK(strstr(read_text(dir, "kernels.csv"),
		"1,0,7,2000,2200,200,k_b,cudaLaunchKernel,1 5,1 3 5,1 3 5,\n"));
	CHECK(strstr(read_text(dir, "tensors.csv"),
		"2,t2,300,0,device,2500,3500,2,2,0,other,inferred,,0x0\n"
		"3,t3,50,0,device,1500,4500,1,3,0,activation,inferred,,0x0\n"));
	/* inferred categories (window of 4 kernels, mid 2): weights global,
	 * read at k0 and k3: parameter; t1 global, read at k1 only; t4
	 * global, read at k2 and k3 only: other; t3 born at k1 < 2, last
	 * read k3 >= 2: activation; t2 never read: other */
	CHECK(strstr(read_text(dir, "tensors.csv"),
		"0,weights,1000,0,device,10,,0,3,1,parameter,inferred,,0x0\n"
		"1,t1,2000,0,device,11,5000,0,1,1,other,inferred,,0x0\n"));
	CHECK(strstr(read_text(dir, "tensors.csv"),
		"4,t4,64,0,device,13,,2,3,1,other,inferred,,0x0\n"
		"5,t5,10,0,stream_ordered,15,,1,1,1,other,inferred,,0x0\n"));
	char command[256];
	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	CHECK_EQ_INT(system(command), 0);
}

/*
 * --kernels 1:2: kernels k1 (2000-2200) and k2 (3000-3300), renumbered 0
 * and 1; T = 0,200,500. Global now: allocated before 2000 and not freed
 * before 3300: t0, t1, t3 (alloc 1500, free 4500), t4, t5; t2 is local.
 */
static void test_window(struct dt_group *g)
{
	dt_group_analyze(g, 1, 2);
	CHECK_EQ_INT(g->win_count, 2);
	CHECK(result_of(g, 3)->global);
	CHECK(!result_of(g, 2)->global);
	/* t0 is untouched in the window but alive: in the files, no periods */
	CHECK(result_of(g, 0)->in_g10);
	CHECK_EQ_INT(result_of(g, 0)->n_periods, 0);
	CHECK_EQ_INT(result_of(g, 0)->first_use, -1);
	/* single use at 0 of 2 kernels: looped 1--0 = (T2-T1) + T0 = 300 */
	check_period(g, 1, 0, 1, 0, 1, 300);
	check_period(g, 3, 0, 1, 0, 1, 300);
	check_period(g, 5, 0, 1, 0, 1, 300);
	/* use at N-1 only: 0--1, T1 - T0 = 200 */
	check_period(g, 4, 0, 0, 1, 0, 200);
	CHECK_EQ_INT(result_of(g, 2)->birth, 1);
	CHECK_EQ_INT(result_of(g, 2)->death, -1);
	CHECK_EQ_INT(g->live_bytes[0], 3124);
	CHECK_EQ_INT(g->peak_kernel, 1);
	/* globals t0,t1,t3,t4,t5 = 3124; t2 local at window kernel 1 */
	CHECK_EQ_INT(g->g10_total_bytes[0], 3124);
	CHECK_EQ_INT(g->g10_total_bytes[1], 3424);

	/* a window before t2 exists and after the others' frees: t2 left out */
	dt_group_analyze(g, 0, 1);
	CHECK(!result_of(g, 2)->in_g10);
	CHECK_EQ_INT(result_of(g, 1)->n_periods, 0);   /* single kernel */
}

/* A second process on device 1, and a third with CUPTI unavailable. */
static void feed_other_processes(struct dt_model *m)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 200, .ts = 50, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 1,
			.stream = 0, .ptr = 0, .bytes = 128, .tensor = 0,
			.result = 0});
	int64_t t[] = {0};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 200, .vtid = 0, .ts = 60, .call_id = 9,
			.api = LAUNCH, .name = "other", .stream = 0,
			.tensors = t, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = 200, .correlation_id = 1, .call_id = 9});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = 200, .correlation_id = 1, .gpu_device = 1,
			.gpu_stream = 3, .gpu_start = 70, .gpu_end = 80,
			.name = "other"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_RECORDS_DROPPED,
			.vpid = 200, .count = 5});

	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = 300, .cupti_ok = 0,
			.name = "CUPTI_ERROR_NOT_INITIALIZED"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 300, .ts = 10, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 8, .tensor = 0,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 300, .vtid = 0, .ts = 30, .call_id = 2,
			.api = LAUNCH, .name = "second", .stream = 0,
			.tensors = t, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 300, .vtid = 0, .ts = 20, .call_id = 1,
			.api = LAUNCH, .name = "first", .stream = 0,
			.tensors = t, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 300, .vtid = 0, .ts = 40, .call_id = 3,
			.api = LAUNCH, .name = "failed", .stream = 0,
			.tensors = t, .n_tensors = 1, .result = 1});
}

static void test_groups(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed_main_process(&m);
	feed_other_processes(&m);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_DISCARDED,
			.count_known = true, .count = 2});
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(groups[0].vpid, 100);
	CHECK_EQ_INT(groups[1].vpid, 200);
	CHECK_EQ_INT(groups[1].device, 1);
	CHECK_EQ_INT(groups[1].n_kernels, 1);
	CHECK_EQ_INT(groups[1].events_lost, 7);      /* 2 discarded + 5 dropped */
	CHECK_EQ_INT(groups[0].events_lost, 2);
	test_full_window(&groups[0]);
	test_window(&groups[0]);

	struct dt_group *g = &groups[2];
	CHECK(g->kernel_times_missing);
	CHECK_EQ_STR(g->cupti_message, "CUPTI_ERROR_NOT_INITIALIZED");
	CHECK_EQ_INT(g->n_kernels, 2);               /* failed launch left out */
	CHECK_EQ_STR(g->kernels[0].name, "first");   /* call order */
	CHECK_EQ_INT(g->kernels[0].end - g->kernels[0].start, 0);
	dt_group_analyze(g, 0, 2);
	/* t0 allocated at 10 before the first launch at 20: global, used at
	 * 0 (W, unwritten) and 1; no period (no gap, k0 uses it) */
	CHECK(g->results[0].global);
	CHECK_EQ_INT(g->results[0].n_periods, 0);
	CHECK_EQ_INT(g->touches[g->kernels[0].touches_at].roles, DT_ROLE_WRITE);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
}

/* Process 1's launch of kernel "k" (call 1) at ts with tensors, linked to
 * its GPU kernel on device 0, stream 0, from 10 to 20 ns. */
static void feed_one_kernel(struct dt_model *m, uint64_t ts, const int64_t *tensors,
		uint32_t n_tensors)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 1, .vtid = 0, .ts = ts, .call_id = 1,
			.api = LAUNCH, .name = "k", .stream = 0, .tensors = tensors,
			.n_tensors = n_tensors, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = 1, .correlation_id = 1, .call_id = 1});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = 1, .correlation_id = 1, .gpu_device = 0,
			.gpu_stream = 0, .gpu_start = 10, .gpu_end = 20,
			.name = "k"});
}

/* Managed memory can be written by the host without any event: its first
 * use keeps the read role. */
static void test_managed_first_use(void)
{
	struct dt_model m;
	dt_model_init(&m);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 1, .ts = 1,
			.api = DNNTRACE_API_cudaMallocManaged,
			.mem_kind = DNNTRACE_MEM_MANAGED, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 16, .tensor = 0,
			.result = 0});
	int64_t t[] = {0};
	feed_one_kernel(&m, 2, t, 1);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(groups[0].touches[0].roles, DT_ROLE_READ | DT_ROLE_WRITE);
	dt_group_free(&groups[0]);
	free(groups);
	dt_model_free(&m);
}

/* A tensor's kind past this reader's (259 would wrap to 3, stream
 * ordered, in the record's byte) stays unknown; a memset's time, kept
 * apart from the tensor (dt_process_first_write), makes a later
 * kernel's unknown-role use read+write and an earlier one's write. */
static void test_kind_and_first_write(void)
{
	struct dt_model m;
	dt_model_init(&m);
	for (int64_t id = 0; id < 3; id++)
		dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
				.vpid = 1, .ts = 1, .api = DNNTRACE_API_cudaMalloc,
				.mem_kind = id == 2 ? 259 : DNNTRACE_MEM_DEVICE,
				.device = 0, .ptr = 0x1000 * (uint64_t)(id + 1),
				.bytes = 16, .tensor = id, .result = 0});
	struct dt_process *p = &m.processes[0];
	CHECK_EQ_INT(dt_process_find_tensor(p, 2)->kind, DT_TENSOR_KIND_UNKNOWN);
	CHECK_EQ_INT(dt_process_find_tensor(p, 0)->kind, DNNTRACE_MEM_DEVICE);
	/* tensor 0 set at 5, before its kernel (GPU 10-20); tensor 1 at 30 */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_MEMSET,
			.vpid = 1, .ts = 5, .api = DNNTRACE_API_cudaMemset,
			.tensor = 0, .bytes = 16, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_MEMSET,
			.vpid = 1, .ts = 30, .api = DNNTRACE_API_cudaMemset,
			.tensor = 1, .bytes = 16, .result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_MEMSET,
			.vpid = 1, .ts = 40, .api = DNNTRACE_API_cudaMemset,
			.tensor = 0, .bytes = 16, .result = 0});
	CHECK_EQ_INT(dt_process_first_write(p, 0), 5);
	CHECK_EQ_INT(dt_process_first_write(p, 1), 30);
	CHECK_EQ_INT(dt_process_first_write(p, 2), DT_NO_TIME);
	CHECK_EQ_INT(dt_process_first_write(p, 99), DT_NO_TIME);
	int64_t t[] = {0, 1};
	feed_one_kernel(&m, 8, t, 2);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(groups[0].n_kernels, 1);
	CHECK_EQ_INT(groups[0].kernels[0].n_touches, 2);
	for (uint32_t i = 0; i < 2; i++) {
		const struct dt_touch *touch = &groups[0].touches[i];
		CHECK_EQ_INT(touch->roles, groups[0].tensors[touch->tensor].id == 0 ?
				DT_ROLE_READ | DT_ROLE_WRITE : DT_ROLE_WRITE);
	}
	dt_group_free(&groups[0]);
	free(groups);
	dt_model_free(&m);
}

/* Allocations that failed or name device -1 never make a group of their
 * own: they are counted by the group of their device, else by the
 * process's first group; a process with nothing else gets one group. */
static void test_failed_alloc_groups(void)
{
	struct dt_model m;
	dt_model_init(&m);
	int64_t t[] = {0};
	/* process 1: one tensor on device 0, failures on -1, 3 and 0 */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 1, .ts = 1, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 16, .tensor = 0,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 1, .ts = 2, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = -1,
			.stream = 0, .ptr = 0, .bytes = 1 << 30, .tensor = -1,
			.result = 2});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 1, .ts = 3, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 3,
			.stream = 0, .ptr = 0, .bytes = 1 << 30, .tensor = -1,
			.result = 2});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 1, .ts = 4, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0, .bytes = 1 << 30, .tensor = -1,
			.result = 2});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 1, .ts = 5, .api = DNNTRACE_API_cudaMallocHost,
			.mem_kind = DNNTRACE_MEM_PINNED_HOST, .device = -1,
			.stream = 0, .ptr = 0, .bytes = 4096, .tensor = -1,
			.result = 0});
	feed_one_kernel(&m, 6, t, 1);
	/* process 2: tensors on devices 1 and 2; a device -1 failure goes to
	 * the first group, a device 2 failure to device 2 */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 2, .ts = 1, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 2,
			.stream = 0, .ptr = 0, .bytes = 16, .tensor = 0,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 2, .ts = 2, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 1,
			.stream = 0, .ptr = 0, .bytes = 16, .tensor = 1,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 2, .ts = 3, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = -1,
			.stream = 0, .ptr = 0, .bytes = 99, .tensor = -1,
			.result = 2});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 2, .ts = 4, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 2,
			.stream = 0, .ptr = 0, .bytes = 99, .tensor = -1,
			.result = 2});
	/* process 3: only a failure on device -1 */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 3, .ts = 1, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = -1,
			.stream = 0, .ptr = 0, .bytes = 99, .tensor = -1,
			.result = 2});
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_INT(groups[0].vpid, 1);
	CHECK_EQ_INT(groups[0].device, 0);
	CHECK_EQ_INT(groups[0].stats.failed_allocs, 3);
	CHECK_EQ_INT(groups[0].stats.pinned_allocs, 1);
	CHECK_EQ_INT(groups[0].stats.pinned_bytes, 4096);
	CHECK_EQ_INT(groups[0].n_tensors, 1);
	CHECK_EQ_INT(groups[0].n_kernels, 1);
	CHECK_EQ_INT(groups[1].vpid, 2);
	CHECK_EQ_INT(groups[1].device, 1);
	CHECK_EQ_INT(groups[1].stats.failed_allocs, 1);
	CHECK_EQ_INT(groups[2].device, 2);
	CHECK_EQ_INT(groups[2].stats.failed_allocs, 1);
	CHECK_EQ_INT(groups[3].vpid, 3);
	CHECK_EQ_INT(groups[3].device, 0);
	CHECK_EQ_INT(groups[3].stats.failed_allocs, 1);
	CHECK_EQ_INT(groups[3].n_tensors, 0);
	CHECK_EQ_INT(groups[3].n_kernels, 0);
	/* an empty group analyzes and sorts nothing (UBSan: no NULL qsort) */
	dt_group_analyze(&groups[3], 0, 0);
	CHECK_EQ_INT(groups[3].peak_bytes, 0);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
}

/* The integer %g of estimated times must print exactly what printf does. */
static void test_us_format(void)
{
	static const uint64_t edges[] = {0, 1, 9, 10, 999, 1000, 1001, 99999,
		999999, 1000000, 1234565, 1234575, 9999995, 99999949, 99999950,
		999999500, 999999499, 1000000000, 123456789012ULL, 11699600,
		155066000, 17455400, UINT64_MAX / 3};
	char expected[64], got[32];
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		snprintf(expected, sizeof(expected), "%g", (double)edges[i] / 1000.0);
		CHECK_EQ_STR(dt_format_us_g(edges[i], got), expected);
	}
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < 300000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t ns = x % 10000000000ULL >> (x % 30);
		snprintf(expected, sizeof(expected), "%g", (double)ns / 1000.0);
		CHECK_EQ_STR(dt_format_us_g(ns, got), expected);
	}
}

/* The report's number formatting (util.h) must print exactly what printf
 * does, at every digit count and at the ends of the ranges. */
static void test_number_format(void)
{
	char expected[64], got[32];
	uint64_t power = 1;
	for (int digits = 1; digits <= 20; digits++) {
		/* 10^k - 1, 10^k and 10^k + 1 at every count */
		for (uint64_t v = power - (power > 1); v <= power + 1; v++) {
			snprintf(expected, sizeof(expected), "%" PRIu64, v);
			*dt_fmt_u64(got, v) = '\0';
			CHECK_EQ_STR(got, expected);
		}
		if (digits < 20)
			power *= 10;
	}
	static const int64_t signed_values[] = {0, -1, 9, -10, INT64_MAX,
		INT64_MIN, -1234567890123LL};
	for (size_t i = 0; i < sizeof(signed_values) / sizeof(signed_values[0]); i++) {
		snprintf(expected, sizeof(expected), "%" PRId64, signed_values[i]);
		*dt_fmt_i64(got, signed_values[i]) = '\0';
		CHECK_EQ_STR(got, expected);
	}
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < 300000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t v = x >> (x % 64);
		snprintf(expected, sizeof(expected), "%" PRIu64, v);
		*dt_fmt_u64(got, v) = '\0';
		CHECK_EQ_STR(got, expected);
		snprintf(expected, sizeof(expected), "%" PRIu64 ".%03u", v / 1000,
				(unsigned)(v % 1000));
		*dt_fmt_us3(got, v) = '\0';
		CHECK_EQ_STR(got, expected);
	}
	*dt_fmt_u64(got, UINT64_MAX) = '\0';
	CHECK_EQ_STR(got, "18446744073709551615");
}

/* The call predicates come from the catalogue's kinds: CUDA's own
 * meaning of each entry point is the truth here. */
static void test_call_predicates(void)
{
	CHECK(dt_api_is_graph_launch(DNNTRACE_API_cudaGraphLaunch));
	CHECK(dt_api_is_graph_launch(DNNTRACE_API_cudaGraphLaunch_ptsz));
	CHECK(dt_api_is_graph_launch(DNNTRACE_API_cuGraphLaunch));
	CHECK(dt_api_is_graph_launch(DNNTRACE_API_cuGraphLaunch_ptsz));
	CHECK(!dt_api_is_graph_launch(DNNTRACE_API_cudaLaunchKernel));
	CHECK(!dt_api_is_graph_launch(DNNTRACE_API_cuLaunchKernel));
	CHECK(dt_api_is_prefetch(DNNTRACE_API_cudaMemPrefetchAsync));
	CHECK(dt_api_is_prefetch(DNNTRACE_API_cudaMemPrefetchAsync_ptsz));
	CHECK(!dt_api_is_prefetch(DNNTRACE_API_cudaMemcpyAsync));
	CHECK(dt_api_is_async_copy(DNNTRACE_API_cudaMemcpyAsync));
	CHECK(dt_api_is_async_copy(DNNTRACE_API_cudaMemcpyPeerAsync));
	CHECK(dt_api_is_async_copy(DNNTRACE_API_cuMemsetD8Async_ptsz));
	CHECK(dt_api_is_async_copy(DNNTRACE_API_cudaMemPrefetchAsync));
	CHECK(!dt_api_is_async_copy(DNNTRACE_API_cudaMemcpy));
	CHECK(!dt_api_is_async_copy(DNNTRACE_API_cuMemsetD32_v2));
	CHECK(!dt_api_is_async_copy(DNNTRACE_API_cudaLaunchKernel));
	CHECK(dt_api_is_host_register(DNNTRACE_API_cudaHostRegister));
	CHECK(dt_api_is_host_register(DNNTRACE_API_cuMemHostRegister_v2));
	CHECK(!dt_api_is_host_register(DNNTRACE_API_cudaHostAlloc));
	CHECK(!dt_api_is_host_register(DNNTRACE_API_cudaHostUnregister));
	CHECK(dt_api_is_host_unregister(DNNTRACE_API_cudaHostUnregister));
	CHECK(dt_api_is_host_unregister(DNNTRACE_API_cuMemHostUnregister));
	CHECK(!dt_api_is_host_unregister(DNNTRACE_API_cudaFreeHost));
	/* an id from a newer tracer is none of them */
	CHECK(!dt_api_is_host_register(DNNTRACE_API_COUNT + 7));
	CHECK(!dt_api_is_host_unregister(-1));
	CHECK(!dt_api_is_graph_launch(DNNTRACE_API_COUNT + 7));
	CHECK(!dt_api_is_prefetch(-1));
	CHECK(!dt_api_is_async_copy(DNNTRACE_API_COUNT + 7));
}

/* One pinned host memory event of process 9 (device -1, as the tracer writes them). */
static void pinned_event(struct dt_model *m, enum dt_event_kind kind, int api,
		uint64_t bytes, int result)
{
	dt_model_on_event(m, &(struct dt_event){.kind = kind, .vpid = 9, .ts = 1,
			.api = api, .mem_kind = DNNTRACE_MEM_PINNED_HOST, .device = -1,
			.ptr = result == 0 && kind == DT_EVENT_ALLOC ? 0x1000 : 0,
			.bytes = bytes, .tensor = -1, .result = result});
}

/*
 * Memory a program pins itself: a successful registration is pinned host
 * memory (cudaMallocHost's 1024 + 4096 + 8192 = 13312 bytes in 3) and
 * registered memory (4096 + 8192 in 2); a refused one is a failed
 * allocation and no memory; a successful unregistration is counted (1),
 * a refused one and cudaFreeHost are not. All on device -1: reported by
 * the process's one group (device 1, its tensor's).
 */
static void test_host_registration(void)
{
	struct dt_model m;
	dt_model_init(&m);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = 9, .ts = 1, .api = CALL_MALLOC,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 1,
			.ptr = 0x2000, .bytes = 16, .tensor = 0, .result = 0});
	pinned_event(&m, DT_EVENT_ALLOC, DNNTRACE_API_cudaMallocHost, 1024, 0);
	pinned_event(&m, DT_EVENT_ALLOC, DNNTRACE_API_cudaHostRegister, 4096, 0);
	pinned_event(&m, DT_EVENT_ALLOC, DNNTRACE_API_cuMemHostRegister_v2, 8192, 0);
	pinned_event(&m, DT_EVENT_ALLOC, DNNTRACE_API_cudaHostRegister, 65536, 1);
	pinned_event(&m, DT_EVENT_FREE, DNNTRACE_API_cudaHostUnregister, 0, 0);
	pinned_event(&m, DT_EVENT_FREE, DNNTRACE_API_cuMemHostUnregister, 0, 713);
	pinned_event(&m, DT_EVENT_FREE, DNNTRACE_API_cudaFreeHost, 0, 0);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(groups[0].device, 1);
	CHECK_EQ_INT(groups[0].stats.pinned_allocs, 3);
	CHECK_EQ_INT(groups[0].stats.pinned_bytes, 13312);
	CHECK_EQ_INT(groups[0].stats.registered_allocs, 2);
	CHECK_EQ_INT(groups[0].stats.registered_bytes, 12288);
	CHECK_EQ_INT(groups[0].stats.unregistrations, 1);
	CHECK_EQ_INT(groups[0].stats.failed_allocs, 1);
	CHECK_EQ_INT(groups[0].n_tensors, 1);   /* registered memory is no tensor */
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
}

/* Format 2's function events (model.h): the first event for an id names
 * it; id 0 is the unknown name ""; a launch read before its function event
 * is named once the trace is read; one whose event never came keeps "". */
static void test_function_names(void)
{
	struct dt_model m;
	dt_model_init(&m);
	int64_t none[1] = {0};
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FUNCTION,
			.vpid = 7, .id = 1, .name = "k_first"});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FUNCTION,
			.vpid = 7, .id = 1, .name = "k_duplicate"});
	CHECK_EQ_STR(dt_model_function_name(&m, 7, 1), "k_first");
	CHECK_EQ_STR(dt_model_function_name(&m, 7, 0), "");
	CHECK(dt_model_function_name(&m, 7, 2) == NULL);
	CHECK(dt_model_function_name(&m, 8, 1) == NULL);   /* ids are per process */
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 7, .vtid = 7, .ts = 10, .call_id = 1, .api = 19,
			.name = "", .name_later = true, .name_id = 2,
			.stream = 0, .tensors = none, .n_tensors = 0,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = 7, .vtid = 7, .ts = 11, .call_id = 2, .api = 19,
			.name = "", .name_later = true, .name_id = 3,
			.stream = 0, .tensors = none, .n_tensors = 0,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FUNCTION,
			.vpid = 7, .id = 2, .name = "k_late"});
	dt_model_resolve_function_names(&m);
	const struct dt_process *p = dt_model_find_process(&m, 7);
	CHECK_EQ_STR(p->launches[0].name, "k_late");
	CHECK_EQ_STR(p->launches[1].name, "");
	CHECK_EQ_INT(p->trace_format, 1);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = 7, .cupti_ok = 1, .has_format = true, .format = 2});
	CHECK_EQ_INT(p->trace_format, 2);
	dt_model_free(&m);
}

/* Impossible GPU records are left out and counted by fault (model.h):
 * end before start, a time at 0, a duplicate of a kept record. Records
 * that only share a correlation id (a graph launch's kernels), or a copy
 * and a set with the same times, are not duplicates; nor is a 0-length
 * kernel impossible. */
static bool gpu_record(struct dt_model *m, enum dt_event_kind kind,
		uint32_t correlation, uint32_t device, uint64_t start, uint64_t end)
{
	return dt_model_on_event(m, &(struct dt_event){.kind = kind, .vpid = 1,
			.correlation_id = correlation, .gpu_device = device,
			.gpu_stream = 7, .gpu_start = start, .gpu_end = end,
			.name = "k"});
}

static void test_impossible_gpu_records(void)
{
	struct dt_model m;
	dt_model_init(&m);
	const enum dt_event_kind K = DT_EVENT_GPU_KERNEL, C = DT_EVENT_GPU_MEMCPY,
		S = DT_EVENT_GPU_MEMSET;
	CHECK(gpu_record(&m, K, 1, 0, 100, 200));
	CHECK(gpu_record(&m, K, 1, 0, 300, 400));    /* same graph launch */
	CHECK(gpu_record(&m, K, 2, 0, 500, 500));    /* 0 ns long: possible */
	CHECK(gpu_record(&m, C, 3, 0, 600, 700));
	CHECK(gpu_record(&m, S, 3, 0, 600, 700));    /* a set, not the copy */
	CHECK(gpu_record(&m, K, 1, 1, 100, 200));    /* another device */
	CHECK(!gpu_record(&m, K, 4, 0, 900, 800));   /* end before start */
	CHECK(!gpu_record(&m, S, 5, 0, 900, 1));     /* end before start */
	CHECK(!gpu_record(&m, K, 6, 0, 0, 800));     /* zero time */
	CHECK(!gpu_record(&m, C, 7, 0, 900, 0));     /* zero time (end < start too) */
	CHECK(!gpu_record(&m, K, 1, 0, 100, 200));   /* duplicate, 9 records on */
	CHECK(!gpu_record(&m, C, 3, 0, 600, 700));   /* duplicate copy */
	CHECK(!gpu_record(&m, K, 1, 1, 100, 200));   /* duplicate on device 1 */
	CHECK(gpu_record(&m, K, 8, 0, 1000, 1100));
	const struct dt_process *p = dt_model_find_process(&m, 1);
	CHECK_EQ_INT(p->n_kernels, 5);
	CHECK_EQ_INT(p->n_gpu_copies, 2);
	for (size_t i = 0; i < p->n_kernels; i++)
		CHECK(p->kernels[i].end >= p->kernels[i].start &&
				p->kernels[i].start > 0);
	uint64_t faults[2][DT_GPU_FAULTS] = {{0}};
	for (size_t i = 0; i < p->n_devices; i++) {
		CHECK(p->devices[i].device == 0 || p->devices[i].device == 1);
		for (int f = 0; f < DT_GPU_FAULTS; f++)
			faults[p->devices[i].device][f] +=
				p->devices[i].damaged_gpu_records[f];
	}
	CHECK_EQ_INT(faults[0][DT_GPU_FAULT_END_BEFORE_START], 2);
	CHECK_EQ_INT(faults[0][DT_GPU_FAULT_ZERO_TIME], 2);
	CHECK_EQ_INT(faults[0][DT_GPU_FAULT_DUPLICATE], 2);
	CHECK_EQ_INT(faults[1][DT_GPU_FAULT_END_BEFORE_START], 0);
	CHECK_EQ_INT(faults[1][DT_GPU_FAULT_ZERO_TIME], 0);
	CHECK_EQ_INT(faults[1][DT_GPU_FAULT_DUPLICATE], 1);
	dt_model_free(&m);
}

int main(void)
{
	test_function_names();
	test_call_predicates();
	test_us_format();
	test_number_format();
	test_groups();
	test_managed_first_use();
	test_kind_and_first_write();
	test_failed_alloc_groups();
	test_host_registration();
	test_impossible_gpu_records();
	puts("analysis model tests passed");
	return 0;
}
