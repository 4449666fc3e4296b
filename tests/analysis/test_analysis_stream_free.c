/*
 * Unit tests of stream-ordered allocs and frees (cudaMallocAsync,
 * cudaFreeAsync...) on hand-made event sequences: when the memory is taken
 * and goes back (the stream's point, from kernels and copies whose call
 * came before the alloc or free), the binding of
 * host stream pointers to CUPTI streams (and a pointer reused by a new
 * stream), frees that stay at their call (synchronous, unbound stream, no
 * CUPTI), and what that changes in memory.csv's live bytes and in global.
 * Every expected value is worked out by hand in the comments. Must never
 * compare against output produced by the code under test.
 */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/derive/stream_order.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

#define P 7
#define MALLOC_ASYNC DNNTRACE_API_cudaMallocAsync
#define FREE_ASYNC DNNTRACE_API_cudaFreeAsync
#define LAUNCH DNNTRACE_API_cudaLaunchKernel
#define STREAM_A 0xa0      /* host cudaStream_t values */
#define STREAM_B 0xb0
#define STREAM_C 0xc0      /* never launched on */

/*
 * Device 0, tensors (cudaMallocAsync, bytes, host times):
 *   id bytes alloc     ready  free call               release (see below)
 *   0  100   A @10     10     -                       never
 *   1  200   A @11     11     -                       never
 *   2  400   A @12     12     cudaFreeAsync(A) @40    2700
 *   3  800   A @13     13     cudaFree @41 (sync)     41
 *   4  1600  A @14     14     cudaFreeAsync(C) @42    42 (C unbound)
 *   5  3200  A @15     15     cudaFreeAsync(B) @43    1195
 *   6  6400  B @55     1195   cudaFreeAsync(A) @70    3400 (A rebound)
 * The allocs at 10..15 come before any launch: nothing binds A yet.
 * Host calls, then GPU records (CUPTI stream ids 5, 9, 11):
 *   call 1 @20 launch k_a on A (t0, t2)   GPU stream 5  1000..1500
 *   call 5 @25 launch k_d on B (t5)       GPU stream 9  1100..1200
 *   call 2 @30 launch k_b on A (t2, t1)   GPU stream 5  1600..2500
 *   call 4 @35 memcpy into t1 on A        GPU stream 5  2500..2700
 *   call 3 @50 launch k_c on A (t1)       GPU stream 5  2800..3000
 *   call 7 @57 launch k_f on B (t6)       GPU stream 9  1195..1300
 *   (A is destroyed; a new stream gets the same pointer)
 *   call 6 @60 launch k_e on A (t6)       GPU stream 11 3100..3400
 * t2: A was bound to stream 5 at 40 (call 2 @30); work on 5 called before
 * 40: k_a, k_b, the copy; latest end 2700 (k_c, called @50, not counted).
 * t5: B bound to 9 (call 5); k_d ends 1200, but k_f, enqueued after the
 * free, starts at 1195 (GPU times that overlap by a few ns): the stream
 * point is never after the next work's start, 1195. t6's alloc on B @55
 * likewise: 1195. t6's free: at 70 A is bound to 11
 * (call 6 @60 is the latest binding), k_e ends 3400 (stream 5's 3000 would
 * be the wrong stream).
 */
static void feed(struct dt_model *m, bool with_gpu_records)
{
	const int64_t sizes[] = {100, 200, 400, 800, 1600, 3200};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = P, .cupti_ok = with_gpu_records, .name = "ok"});
	for (int i = 0; i < 6; i++)
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
				.vpid = P, .ts = 10 + (uint64_t)i,
				.api = MALLOC_ASYNC,
				.mem_kind = DNNTRACE_MEM_STREAM_ORDERED,
				.device = 0, .stream = 0,
				.ptr = 0x1000 * (uint64_t)(i + 1),
				.bytes = (uint64_t)sizes[i], .tensor = i,
				.result = 0});
	int64_t a[] = {0, 2}, b[] = {2, 1}, c[] = {1}, d[] = {5}, e[] = {6};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 0, .ts = 20, .call_id = 1,
			.api = LAUNCH, .name = "k_a", .stream = STREAM_A,
			.tensors = a, .n_tensors = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 0, .ts = 25, .call_id = 5,
			.api = LAUNCH, .name = "k_d", .stream = STREAM_B,
			.tensors = d, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 0, .ts = 30, .call_id = 2,
			.api = LAUNCH, .name = "k_b", .stream = STREAM_A,
			.tensors = b, .n_tensors = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_MEMCPY,
			.vpid = P, .ts = 35, .call_id = 4,
			.api = DNNTRACE_API_cudaMemcpyAsync, .tensor = 1,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE, .vpid = P,
			.ts = 40, .api = FREE_ASYNC, .stream = STREAM_A,
			.tensor = 2, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE, .vpid = P,
			.ts = 41, .api = DNNTRACE_API_cudaFree, .stream = 0,
			.tensor = 3, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE, .vpid = P,
			.ts = 42, .api = FREE_ASYNC, .stream = STREAM_C,
			.tensor = 4, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE, .vpid = P,
			.ts = 43, .api = FREE_ASYNC, .stream = STREAM_B,
			.tensor = 5, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE, .vpid = P,
			.ts = 44, .api = FREE_ASYNC, .stream = STREAM_B,
			.tensor = 5, .result = 0}); /* double: ignored */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 0, .ts = 50, .call_id = 3,
			.api = LAUNCH, .name = "k_c", .stream = STREAM_A,
			.tensors = c, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 55, .api = MALLOC_ASYNC,
			.mem_kind = DNNTRACE_MEM_STREAM_ORDERED, .device = 0,
			.stream = STREAM_B, .ptr = 0x7000, .bytes = 6400,
			.tensor = 6, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 0, .ts = 57, .call_id = 7,
			.api = LAUNCH, .name = "k_f", .stream = STREAM_B,
			.tensors = e, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = P, .vtid = 0, .ts = 60, .call_id = 6,
			.api = LAUNCH, .name = "k_e", .stream = STREAM_A,
			.tensors = e, .n_tensors = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE, .vpid = P,
			.ts = 70, .api = FREE_ASYNC, .stream = STREAM_A,
			.tensor = 6, .result = 0});
	if (!with_gpu_records)
		return;
	/* CUPTI delivers records late, out of order */
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 13, .gpu_device = 0,
			.gpu_stream = 11, .gpu_start = 3100, .gpu_end = 3400,
			.name = "k_e"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 12, .gpu_device = 0,
			.gpu_stream = 5, .gpu_start = 2800, .gpu_end = 3000,
			.name = "k_c"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_MEMCPY,
			.vpid = P, .correlation_id = 14, .gpu_device = 0,
			.gpu_stream = 5, .gpu_start = 2500, .gpu_end = 2700});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 16, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 1195, .gpu_end = 1300,
			.name = "k_f"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 11, .gpu_device = 0,
			.gpu_stream = 5, .gpu_start = 1600, .gpu_end = 2500,
			.name = "k_b"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 15, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 1100, .gpu_end = 1200,
			.name = "k_d"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = P, .correlation_id = 10, .gpu_device = 0,
			.gpu_stream = 5, .gpu_start = 1000, .gpu_end = 1500,
			.name = "k_a"});
	const uint32_t correlations[] = {10, 11, 12, 13, 14, 15, 16};
	const uint64_t calls[] = {1, 2, 3, 6, 4, 5, 7};
	for (int i = 0; i < 7; i++)
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
				.vpid = P, .correlation_id = correlations[i],
				.call_id = calls[i]});
}

static void test_release_times(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m, true);
	const struct dt_process *p = dt_model_find_process(&m, P);
	CHECK(p != NULL);
	CHECK_EQ_INT(p->n_stream_calls, 11);  /* 7 allocs; frees of t2 t4 t5 t6 */
	struct dt_stream_points *points = dt_stream_points(p);
	CHECK(points != NULL);
	const uint64_t ready[] = {0, 0, 0, 0, 0, 0, 1195};
	const uint64_t release[] = {0, 0, 2700, 0, 0, 1195, 3400};
	for (size_t i = 0; i < p->n_tensors; i++) {
		CHECK_EQ_INT(points[i].ready_ns, ready[p->tensors[i].id]);
		CHECK_EQ_INT(points[i].release_ns, release[p->tensors[i].id]);
	}
	free(points);
	dt_model_free(&m);
}

/*
 * The group, full window [1000, 3400], kernels by GPU start:
 * k_a 1000, k_d 1100, k_f 1195, k_b 1600, k_c 2800, k_e 3100. Live at a
 * kernel's start = bytes ready (<= start) and not released (> start): t3
 * (41) and t4 (42) are gone before any kernel;
 *   k_a, k_d: t0+t1+t2+t5 = 100+200+400+3200 = 3900
 *   k_f, k_b: t5 released, t6 ready at 1195: 100+200+400+6400 = 7100
 *   k_c: t2 released at 2700: 6700;  k_e: t6 released only at 3400: 6700.
 * (Counted at the calls, k_a would see 300 bytes, less than its own t0+t2;
 * allocs at their calls and frees at the stream would give k_a 10300, more
 * than the program ever held at once, 6700 from @55; points at the
 * previous work's end, unclamped, would leave k_f without its own t6.)
 * Peak 7100 at k_f (index 2), the first of the tie.
 * Global (ready before 1000, released at or after 3400): t0 and t1; t2
 * and t6 (ready 1195) are local; t3 and t4 are neither touched nor alive
 * in the window.
 */
static void test_group_memory_and_global(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m, true);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	CHECK_EQ_INT(g->n_kernels, 6);
	dt_group_analyze(g, 0, g->n_kernels);
	const uint64_t live[] = {3900, 3900, 7100, 7100, 6700, 6700};
	const uint64_t starts[] = {1000, 1100, 1195, 1600, 2800, 3100};
	for (size_t k = 0; k < 6; k++) {
		CHECK_EQ_INT(g->kernels[k].start, starts[k]);
		CHECK_EQ_INT(g->live_bytes[k], live[k]);
	}
	CHECK_EQ_INT(g->peak_bytes, 7100);
	CHECK_EQ_INT(g->peak_kernel, 2);
	const bool global[] = {true, true, false, false, false, false, false};
	const bool in_g10[] = {true, true, true, false, false, true, true};
	CHECK_EQ_INT(g->n_tensors, 7);
	for (size_t t = 0; t < 7; t++) {
		CHECK_EQ_INT(g->tensors[t].id, (int64_t)t);
		CHECK_EQ_INT(g->results[t].global, global[t]);
		CHECK_EQ_INT(g->results[t].in_g10, in_g10[t]);
	}
	/* the calls' host times are kept as such (tensors.csv, --range) */
	CHECK_EQ_INT(g->tensors[2].free_ns, 40);
	CHECK_EQ_INT(g->tensors[6].alloc_ns, 55);
	CHECK_EQ_INT(dt_tensor_ready_ns(&g->tensors[6]), 1195);
	CHECK_EQ_INT(dt_tensor_release_ns(&g->tensors[2]), 2700);
	CHECK_EQ_INT(dt_tensor_release_ns(&g->tensors[3]), 41);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
}

/* Without GPU records nothing binds a stream: every call keeps its time. */
static void test_without_cupti(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed(&m, false);
	const struct dt_process *p = dt_model_find_process(&m, P);
	struct dt_stream_points *points = dt_stream_points(p);
	CHECK(points != NULL);
	for (size_t i = 0; i < p->n_tensors; i++) {
		CHECK_EQ_INT(points[i].ready_ns, 0);
		CHECK_EQ_INT(points[i].release_ns, 0);
	}
	free(points);
	dt_model_free(&m);
}

/* A process with no stream-ordered alloc or free has nothing to place. */
static void test_no_stream_frees(void)
{
	struct dt_model m;
	dt_model_init(&m);
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 1, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x1000, .bytes = 64, .tensor = 0,
			.result = 0});
	dt_model_on_event(&m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = P, .ts = 2, .api = DNNTRACE_API_cudaFree,
			.stream = 0, .tensor = 0, .result = 0});
	CHECK(dt_stream_points(dt_model_find_process(&m, P)) == NULL);
	dt_model_free(&m);
}

int main(void)
{
	test_release_times();
	test_group_memory_and_global();
	test_without_cupti();
	test_no_stream_frees();
	printf("test_analysis_stream_free: ok\n");
	return 0;
}
