/*
 * Unit tests of library calls in the analysis core, on a hand-made event
 * sequence (no trace): roles (read, write, read-write, workspace, unknown
 * with the first-write refinement, a tensor passed twice), Death = last
 * read + 1 exactly, shapes in kernels.config (the call's own shape of a
 * tensor), the api column, an argument the tracer could not map (id -1)
 * mapped by address among the tensors alive at the call, and
 * --granularity op (kernels of one call merged, a call whose kernels were
 * never seen placed in call order, a failed call left out). Every expected
 * value is worked out by hand in the comments from the rules in
 * /work/shared/notes/g10-semantics.md. Must never compare against output
 * produced by the code under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/csv_writer.h"
#include "analysis/report/g10_writer.h"
#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tests/analysis/group_checks.h"
#include "tracepoints/dnntrace_enums.h"

#define VPID 400
#define R DNNTRACE_ROLE_READ
#define W DNNTRACE_ROLE_WRITE
#define RW DNNTRACE_ROLE_READ_WRITE
#define WS DNNTRACE_ROLE_WORKSPACE
#define UNK DNNTRACE_ROLE_UNKNOWN
#define F32 DNNTRACE_DTYPE_F32

static const uint8_t G10_R = DT_ROLE_READ, G10_W = DT_ROLE_WRITE,
	G10_RW = DT_ROLE_READ | DT_ROLE_WRITE;

/* One argument of a hand-made library call. */
struct arg {
	int64_t tensor;
	uint64_t ptr;
	uint8_t role, dtype, rank;
	int64_t dims[4];
};

static void lib_call(struct dt_model *m, uint64_t ts, uint64_t call_id, int api,
		const struct arg *args, uint32_t n_args, int result)
{
	int64_t tensors[8], dims[32];
	uint64_t ptrs[8];
	uint8_t roles[8], dtypes[8], ranks[8];
	uint32_t n_dims = 0;
	CHECK(n_args <= 8);
	for (uint32_t i = 0; i < n_args; i++) {
		tensors[i] = args[i].tensor;
		ptrs[i] = args[i].ptr;
		roles[i] = args[i].role;
		dtypes[i] = args[i].dtype;
		ranks[i] = args[i].rank;
		for (uint8_t d = 0; d < args[i].rank; d++)
			dims[n_dims++] = args[i].dims[d];
	}
	struct dt_event call = {.kind = DT_EVENT_LIB_CALL, .vpid = VPID, .ts = ts,
		.call_id = call_id, .api = api, .stream = 0x5000, .n_tensors = n_args,
		.tensors = tensors, .ptrs = ptrs, .roles = roles, .dtypes = dtypes,
		.ranks = ranks, .n_dims = n_dims, .dims = dims, .result = result,
	};
	dt_model_on_event(m, &call);
}

static void alloc(struct dt_model *m, uint64_t ts, uint64_t ptr, uint64_t bytes,
		int64_t id)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = VPID, .ts = ts, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = ptr, .bytes = bytes, .tensor = id,
			.result = 0});
}

static void gpu_kernel(struct dt_model *m, uint32_t correlation,
		uint64_t call_id, uint64_t start, uint64_t end, const char *name)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = VPID, .correlation_id = correlation,
			.gpu_device = 0, .gpu_stream = 7, .gpu_start = start,
			.gpu_end = end, .name = name});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = VPID, .correlation_id = correlation,
			.call_id = call_id});
}

/*
 * Process 400, device 0. Tensors (id, base, bytes, alloc, free):
 *   0 x   0x1000  4096  10  -     memcpy'd at 20        global
 *   1 w   0x10000 1024  11  -     never written          global
 *   2 y   0x20000 8192  950 4000                         local (freed early)
 *   3 ws  0x30000 512   800 6000                         global
 *   4 h   0x40000 2048  1800 5500                        local (born late)
 *   5 b   0x50000 4096  15  -                            global
 *   6 s   0x60000 256   4800 -                           local (born late)
 *   7 old 0x50000 8192  1   5     freed before anything, same addresses as 5
 * Calls (host time, call id, kernels [start, end]):
 *   900  1 cudnnConvolutionForward(x R f32[2,3,8,8], w R f32[4,3,3,3],
 *          bias = w+64 R f32[4] (same tensor again), y W f32[2,4,6,6],
 *          ws WORKSPACE shape unknown): conv_a [1000,1100], conv_b [1200,1500]
 *   1900 2 launch relu_kernel(y, h), roles unknown: [2000,2050]
 *   2900 3 cublasSgemm_v2(A = h R f32[16,8], B = 0x50100 id -1 R f32[8,4],
 *          C = y W f32[16,4] (beta 0)): sgemm_128x64_nn [3000,3200]
 *   3900 4 cudnnAddTensor(A = x R, C = y READ_WRITE): no kernel ever seen
 *   4900 5 cudnnBackendExecute(ws UNKNOWN, s UNKNOWN, h READ_WRITE,
 *          0x900000000 id -1 R: no tensor there): backend_k [5000,5010]
 *   4950 6 cudnnAddTensor(x R) failed (status 3), no kernel
 */
static void feed(struct dt_model *m)
{
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = VPID, .cupti_ok = 1, .name = "ok"});
	alloc(m, 1, 0x50000, 8192, 7);
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = VPID, .ts = 5, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 7, .result = 0});
	alloc(m, 10, 0x1000, 4096, 0);
	alloc(m, 11, 0x10000, 1024, 1);
	alloc(m, 15, 0x50000, 4096, 5);
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMCPY,
			.vpid = VPID, .ts = 20, .call_id = 901,
			.api = DNNTRACE_API_cudaMemcpy, .tensor = 0,
			.result = 0});
	alloc(m, 800, 0x30000, 512, 3);
	alloc(m, 950, 0x20000, 8192, 2);
	alloc(m, 1800, 0x40000, 2048, 4);
	alloc(m, 4800, 0x60000, 256, 6);
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = VPID, .ts = 4000, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = VPID, .ts = 5500, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 4, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = VPID, .ts = 6000, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 3, .result = 0});

	const struct arg conv[] = {
		{0, 0x1000, R, F32, 4, {2, 3, 8, 8}},
		{1, 0x10000, R, F32, 4, {4, 3, 3, 3}},
		{1, 0x10040, R, F32, 1, {4}},
		{2, 0x20000, W, F32, 4, {2, 4, 6, 6}},
		{3, 0x30000, WS, DNNTRACE_DTYPE_UNKNOWN, 0, {0}},
	};
	lib_call(m, 900, 1, DNNTRACE_LIB_cudnnConvolutionForward, conv, 5, 0);
	int64_t relu[] = {2, 4};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = VPID, .vtid = 0, .ts = 1900, .call_id = 2,
			.api = DNNTRACE_API_cudaLaunchKernel,
			.name = "relu_kernel", .stream = 7, .tensors = relu,
			.n_tensors = 2, .result = 0});
	const struct arg gemm[] = {
		{4, 0x40000, R, F32, 2, {16, 8}},
		{-1, 0x50100, R, F32, 2, {8, 4}},
		{2, 0x20000, W, F32, 2, {16, 4}},
	};
	lib_call(m, 2900, 3, DNNTRACE_LIB_cublasSgemm_v2, gemm, 3, 0);
	const struct arg add[] = {
		{0, 0x1000, R, F32, 4, {2, 3, 8, 8}},
		{2, 0x20000, RW, F32, 4, {2, 4, 6, 6}},
	};
	lib_call(m, 3900, 4, DNNTRACE_LIB_cudnnAddTensor, add, 2, 0);
	const struct arg backend[] = {
		{3, 0x30000, UNK, DNNTRACE_DTYPE_UNKNOWN, 0, {0}},
		{6, 0x60000, UNK, F32, 1, {64}},
		{4, 0x40000, RW, F32, 2, {16, 8}},
		{-1, 0x900000000ULL, R, F32, 1, {1}},
	};
	lib_call(m, 4900, 5, DNNTRACE_LIB_cudnnBackendExecute, backend, 4, 0);
	lib_call(m, 4950, 6, DNNTRACE_LIB_cudnnAddTensor, add, 1, 3);

	/* CUPTI records arrive late, out of order */
	gpu_kernel(m, 35, 5, 5000, 5010, "backend_k");
	gpu_kernel(m, 32, 1, 1200, 1500, "conv_b");
	gpu_kernel(m, 31, 1, 1000, 1100, "conv_a");
	gpu_kernel(m, 33, 2, 2000, 2050, "relu_kernel");
	gpu_kernel(m, 34, 3, 3000, 3200, "sgemm_128x64_nn");
}

static struct dt_group build(struct dt_model *m, enum dt_granularity granularity)
{
	struct dt_group *groups;
	size_t n = dt_groups_build(m, granularity, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group g = groups[0];
	free(groups);
	return g;
}

#define TL(id, name, global, bytes) \
	"tensor" #id ", Name: " name ", Is global?: " #global ": Size in byte: " #bytes ", "

/*
 * Kernel granularity: K0 conv_a, K1 conv_b, K2 relu, K3 sgemm, K4 backend
 * (the AddTensor call ran no kernel: no index). Durations 100, 300, 50,
 * 200, 10: T = 0, 100, 400, 450, 650, 660. Window [1000, 5010].
 */
static void test_kernel_granularity(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m);
	struct dt_group g = build(&m, DT_GRANULARITY_KERNEL);
	CHECK_EQ_INT(g.n_kernels, 5);
	dt_group_analyze(&g, 0, g.n_kernels);
	CHECK_EQ_STR(g.kernels[1].name, "conv_b");
	CHECK_EQ_INT(g.kernels[1].source, DT_SOURCE_LIBRARY);
	CHECK_EQ_INT(g.kernels[1].api, DNNTRACE_LIB_cudnnConvolutionForward);

	/* known roles taken as they are: w never written, still read */
	CHECK_EQ_INT(roles_in(&g, 0, 1), G10_R);     /* w and bias merged */
	CHECK_EQ_INT(roles_in(&g, 0, 2), G10_W);
	CHECK_EQ_INT(roles_in(&g, 0, 3), G10_W);     /* workspace: written */
	CHECK_EQ_INT(roles_in(&g, 1, 0), G10_R);     /* every kernel of the call */
	CHECK_EQ_INT(roles_in(&g, 1, 3), G10_W);
	/* the launch: unknown roles; y touched before: read and write; h
	 * never written nor touched: write only */
	CHECK_EQ_INT(roles_in(&g, 2, 2), G10_RW);
	CHECK_EQ_INT(roles_in(&g, 2, 4), G10_W);
	/* sgemm: B (id -1, inside tensor 5 alive at 2900, not inside the
	 * freed tensor 7 at the same address) mapped by address */
	CHECK_EQ_INT(roles_in(&g, 3, 5), G10_R);
	CHECK_EQ_INT(roles_in(&g, 3, 7), 0);
	CHECK_EQ_INT(roles_in(&g, 3, 2), G10_W);
	/* backend: unknown roles; ws touched before: RW; s fresh: W */
	CHECK_EQ_INT(roles_in(&g, 4, 3), G10_RW);
	CHECK_EQ_INT(roles_in(&g, 4, 6), G10_W);
	CHECK_EQ_INT(roles_in(&g, 4, 4), G10_RW);
	CHECK_EQ_INT(g.kernels[4].n_touches, 3);     /* 0x900000000: no tensor */

	CHECK(result_of(&g, 0)->global);
	CHECK(result_of(&g, 3)->global);
	CHECK(result_of(&g, 5)->global);
	CHECK(!result_of(&g, 2)->global);
	CHECK(!result_of(&g, 4)->global);
	CHECK(!result_of(&g, 6)->global);
	CHECK(!result_of(&g, 7)->in_g10);            /* dead before the window */
	/* y: W, W, RW, W: last read K2, so Death 3 exactly (as unknown roles
	 * it would have been 4) */
	CHECK_EQ_INT(result_of(&g, 2)->birth, 0);
	CHECK_EQ_INT(result_of(&g, 2)->death, 3);
	CHECK_EQ_INT(result_of(&g, 2)->n_periods, 0);
	/* h: W, R, RW: Birth 2, Death 5 */
	CHECK_EQ_INT(result_of(&g, 4)->birth, 2);
	CHECK_EQ_INT(result_of(&g, 4)->death, 5);
	/* s: written once, never read */
	CHECK_EQ_INT(result_of(&g, 6)->birth, 4);
	CHECK_EQ_INT(result_of(&g, 6)->death, -1);
	CHECK_EQ_INT(result_of(&g, 6)->n_periods, 0);
	/* x, w: used in K0, K1: looped 2--0 = (T5 - T2) + T0 = 260 */
	check_period(&g, 0, 0, 2, 0, 1, 260);
	check_period(&g, 1, 0, 2, 0, 1, 260);
	/* ws: K0, K1, K4: 2--4 = T4 - T2 = 250; last use N-1, K0 uses it */
	CHECK_EQ_INT(result_of(&g, 3)->n_periods, 1);
	check_period(&g, 3, 0, 2, 4, 0, 250);
	/* b: K3 only: 4--3 looped = (T5 - T4) + T3 = 10 + 450 */
	check_period(&g, 5, 0, 4, 3, 1, 460);

	char dir[] = "/tmp/dnntrace-libtest-XXXXXX";
	CHECK(mkdtemp(dir));
	CHECK_EQ_INT(dt_write_g10_files(&g, dir, "lib", DT_G10_ALL), 0);
	CHECK_EQ_INT(dt_write_csv_files(&g, dir), 0);
	CHECK_EQ_STR(read_text(dir, "kernels.csv"),
		"index,device,stream,start_ns,end_ns,duration_ns,name,api,inputs,outputs,touched,op\n"
		"0,0,7,1000,1100,100,conv_a,cudnnConvolutionForward,0 1,2 3,0 1 2 3,\n"
		"1,0,7,1200,1500,300,conv_b,cudnnConvolutionForward,0 1,2 3,0 1 2 3,\n"
		"2,0,7,2000,2050,50,relu_kernel,cudaLaunchKernel,2,2 4,2 4,\n"
		"3,0,7,3000,3200,200,sgemm_128x64_nn,cublasSgemm_v2,4 5,2,4 5 2,\n"
		"4,0,7,5000,5010,10,backend_k,cudnnBackendExecute,3 4,3 6 4,3 6 4,\n");
	const char *rule = "____________________________________________________________________\n";
	char expected[4096];
	snprintf(expected, sizeof(expected),
		"Kernel ID: 0, Name: cudnnConvolutionForward(conv_a)\n"
		"Input Tensors:\n"
		TL(0, "t0", 1, 4096) "Dimensions: f32[2, 3, 8, 8]\n"
		TL(1, "t1", 1, 1024) "Dimensions: f32[4, 3, 3, 3]\n"
		"Output Tensors:\n"
		TL(2, "t2", 0, 8192) "Dimensions: f32[2, 4, 6, 6]\n"
		TL(3, "t3", 1, 512) "\n"
		"%s"
		"Kernel ID: 1, Name: cudnnConvolutionForward(conv_b)\n",
		rule);
	const char *kernels = read_text(dir, "kernels.config");
	CHECK(strncmp(kernels, expected, strlen(expected)) == 0);
	/* the sgemm call's own shape of y, not the convolution's */
	snprintf(expected, sizeof(expected),
		"%s"
		"Kernel ID: 2, Name: relu_kernel(t2, t4)\n"
		"Input Tensors:\n"
		TL(2, "t2", 0, 8192) "\n"
		"Output Tensors:\n"
		TL(2, "t2", 0, 8192) "\n"
		TL(4, "t4", 0, 2048) "\n"
		"%s"
		"Kernel ID: 3, Name: cublasSgemm_v2(sgemm_128x64_nn)\n"
		"Input Tensors:\n"
		TL(4, "t4", 0, 2048) "Dimensions: f32[16, 8]\n"
		TL(5, "t5", 1, 4096) "Dimensions: f32[8, 4]\n"
		"Output Tensors:\n"
		TL(2, "t2", 0, 8192) "Dimensions: f32[16, 4]\n"
		"%s"
		"Kernel ID: 4, Name: cudnnBackendExecute(backend_k)\n",
		rule, rule, rule);
	CHECK(strstr(kernels, expected));
	CHECK(strstr(read_text(dir, "liveness_analysis.config"),
		TL(2, "t2", 0, 8192) "\nLiveness: Birth: 0, Death: 3.\n"));
	remove_dir(dir);
	dt_group_free(&g);
	dt_model_free(&m);
}

/*
 * Op granularity: O0 = call 1 (conv_a + conv_b: start 1000, end 1500,
 * duration 100 + 300 = 400), O1 relu, O2 sgemm, O3 = call 4 (no kernel:
 * host time 3900, duration 0, after the op of call 3, the closest earlier
 * call that ran kernels), O4 backend; the failed call 6 is no op.
 * Durations 400, 50, 200, 0, 10: T = 0, 400, 450, 650, 650, 660.
 */
static void test_op_granularity(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m);
	struct dt_group g = build(&m, DT_GRANULARITY_OP);
	CHECK_EQ_INT(g.n_kernels, 5);
	dt_group_analyze(&g, 0, g.n_kernels);
	CHECK_EQ_INT(g.kernels[0].n_gpu_kernels, 2);
	CHECK_EQ_INT(g.kernels[3].n_gpu_kernels, 0);
	CHECK_EQ_INT(g.kernels[3].api, DNNTRACE_LIB_cudnnAddTensor);

	/* uses of an op: its call's tensors, roles as in kernel order */
	CHECK_EQ_INT(roles_in(&g, 0, 3), G10_W);
	CHECK_EQ_INT(roles_in(&g, 3, 0), G10_R);
	CHECK_EQ_INT(roles_in(&g, 3, 2), G10_RW);
	/* y: W, RW, W, RW: Death = 3 + 1 */
	CHECK_EQ_INT(result_of(&g, 2)->birth, 0);
	CHECK_EQ_INT(result_of(&g, 2)->death, 4);
	/* h: O1 W, O2 R, O4 RW: Birth 1, Death 5, idle in O3: 3--4 = T4 - T3 = 0 */
	CHECK_EQ_INT(result_of(&g, 4)->birth, 1);
	CHECK_EQ_INT(result_of(&g, 4)->death, 5);
	check_period(&g, 4, 0, 3, 4, 0, 0);
	/* x: O0, O3: 1--3 = T3 - T1 = 250; then 4--0 looped = T5 - T4 = 10 */
	CHECK_EQ_INT(result_of(&g, 0)->n_periods, 2);
	check_period(&g, 0, 0, 1, 3, 0, 250);
	check_period(&g, 0, 1, 4, 0, 1, 10);
	/* w: O0 only: 1--0 looped = T5 - T1 = 260 */
	check_period(&g, 1, 0, 1, 0, 1, 260);
	/* ws: O0, O4: 1--4 = T4 - T1 = 250 */
	check_period(&g, 3, 0, 1, 4, 0, 250);
	/* b: O2: 3--2 looped = (T5 - T3) + T2 = 10 + 450 */
	check_period(&g, 5, 0, 3, 2, 1, 460);
	/* live at O3's start (3900): x, w, y, ws, h, b; s comes at 4800 */
	CHECK_EQ_INT(g.live_bytes[3], 4096 + 1024 + 8192 + 512 + 2048 + 4096);

	char dir[] = "/tmp/dnntrace-libtest-XXXXXX";
	CHECK(mkdtemp(dir));
	CHECK_EQ_INT(dt_write_g10_files(&g, dir, "lib", DT_G10_ALL), 0);
	CHECK_EQ_INT(dt_write_csv_files(&g, dir), 0);
	CHECK_EQ_STR(read_text(dir, "kernels.csv"),
		"index,device,stream,start_ns,end_ns,duration_ns,name,api,inputs,outputs,touched,op\n"
		"0,0,7,1000,1500,400,conv_a; conv_b,cudnnConvolutionForward,0 1,2 3,0 1 2 3,\n"
		"1,0,7,2000,2050,50,relu_kernel,cudaLaunchKernel,2,2 4,2 4,\n"
		"2,0,7,3000,3200,200,sgemm_128x64_nn,cublasSgemm_v2,4 5,2,4 5 2,\n"
		"3,0,0,3900,3900,0,,cudnnAddTensor,0 2,2,0 2,\n"
		"4,0,7,5000,5010,10,backend_k,cudnnBackendExecute,3 4,3 6 4,3 6 4,\n");
	const char *kernels = read_text(dir, "kernels.config");
	CHECK(strstr(kernels, "Kernel ID: 0, Name: cudnnConvolutionForward(conv_a; conv_b)\n"));
	CHECK(strstr(kernels,
		"Kernel ID: 3, Name: cudnnAddTensor()\n"
		"Input Tensors:\n"
		TL(0, "t0", 1, 4096) "Dimensions: f32[2, 3, 8, 8]\n"
		TL(2, "t2", 0, 8192) "Dimensions: f32[2, 4, 6, 6]\n"
		"Output Tensors:\n"
		TL(2, "t2", 0, 8192) "Dimensions: f32[2, 4, 6, 6]\n"));
	CHECK_EQ_STR(read_text(dir, "lib_TensorPeriodLog.py"),
		"sd_size = [4096, 4096, 1024, 512, 2048, 4096, ]\n"
		"sd_time = [0.25, 0.01, 0.26, 0.25, 0, 0.46, ]\n"
		"# 1 4 1 1 3 3 ");
	remove_dir(dir);

	/* --kernels 1:3 on ops: O1..O3 renumbered 0..2 */
	dt_group_analyze(&g, 1, 3);
	CHECK_EQ_INT(g.win_count, 3);
	CHECK_EQ_INT(roles_in(&g, 2, 2), G10_RW);    /* O3's y */
	dt_group_free(&g);
	dt_model_free(&m);
}

/* Without CUPTI, every successful launch and library call stands in for
 * one kernel, in call order, at both granularities. */
static void test_fallback(void)
{
	for (int op = 0; op < 2; op++) {
		struct dt_model m;
		dt_model_init(&m);
		dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_STATUS,
				.vpid = VPID, .cupti_ok = 0,
				.name = "CUPTI_ERROR_NOT_INITIALIZED"});
		alloc(&m, 1, 0x1000, 64, 0);
		const struct arg a[] = {{0, 0x1000, R, F32, 1, {16}}};
		lib_call(&m, 30, 3, DNNTRACE_LIB_cudnnAddTensor, a, 1, 0);
		int64_t t[] = {0};
		dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
				.vpid = VPID, .vtid = 0, .ts = 20, .call_id = 2,
				.api = DNNTRACE_API_cudaLaunchKernel,
				.name = "fill", .stream = 0, .tensors = t,
				.n_tensors = 1, .result = 0});
		lib_call(&m, 40, 4, DNNTRACE_LIB_cudnnAddTensor, a, 1, 5);
		struct dt_group g = build(&m, op ? DT_GRANULARITY_OP :
				DT_GRANULARITY_KERNEL);
		CHECK(g.kernel_times_missing);
		CHECK_EQ_INT(g.n_kernels, 2);
		CHECK_EQ_STR(g.kernels[0].name, "fill");
		CHECK_EQ_INT(g.kernels[1].source, DT_SOURCE_LIBRARY);
		dt_group_analyze(&g, 0, 2);
		/* the launch writes the fresh tensor, the call reads it */
		CHECK_EQ_INT(roles_in(&g, 0, 0), G10_W);
		CHECK_EQ_INT(roles_in(&g, 1, 0), G10_R);
		dt_group_free(&g);
		dt_model_free(&m);
	}
}

/* A corrupt event whose ranks run past its dims: those shapes unknown. */
static void test_ranks_past_dims(void)
{
	struct dt_model m;
	dt_model_init(&m);
	int64_t tensors[] = {0, 0}, dims[] = {5, 6, 7};
	uint64_t ptrs[] = {1, 2};
	uint8_t roles[] = {R, W}, dtypes[] = {F32, F32}, ranks[] = {2, 4};
	struct dt_event call = {.kind = DT_EVENT_LIB_CALL, .vpid = 1, .ts = 0,
		.call_id = 1, .api = 0, .n_tensors = 2, .tensors = tensors,
		.ptrs = ptrs, .roles = roles, .dtypes = dtypes, .ranks = ranks,
		.n_dims = 3, .dims = dims,
	};
	dt_model_on_event(&m, &call);
	const struct dt_process *p = &m.processes[0];
	CHECK_EQ_INT(p->lib_args[0].rank, 2);
	CHECK_EQ_INT(p->lib_dims[p->lib_args[0].dims_at + 1], 6);
	CHECK_EQ_INT(p->lib_args[1].rank, 0);
	dt_model_free(&m);
}

int main(void)
{
	test_kernel_granularity();
	test_op_granularity();
	test_fallback();
	test_ranks_past_dims();
	puts("analysis library tests passed");
	return 0;
}
