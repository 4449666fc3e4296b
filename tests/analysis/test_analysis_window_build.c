/*
 * Unit test of a window's group built narrowed (dt_groups_build_for):
 * with --kernels A:B or --range NAME:N, a group holds the kernel records
 * and touches of its window only, at the full order's indices
 * (kernels_from), and every result equals that of the same window of
 * the whole group (dt_groups_build). The workload is made by hand: one
 * tensor, allocated first, then 50 launches each passing it (roles
 * unknown), kernel k running at 1000 + 10 k; launches 30..34 inside the
 * only NVTX range "step". By construction the first kernel cannot read
 * the tensor (nothing wrote it before): WRITE only; every later one READ
 * and WRITE, including a window's first kernel. Must never compare
 * against output produced by the code under test alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derive/group.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"
#include "analysis/model/model.h"
#include "analysis/request.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

enum { P = 7, T = 1, N = 50, RANGE_FROM = 30, RANGE_TO = 34 };

static void make_model(struct dt_model *m)
{
	dt_model_init(m);
	int64_t tensor[1] = {1};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = P, .ts = 10, .api = DNNTRACE_API_cudaMalloc,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x1000, .bytes = 4096, .tensor = 1,
			.result = 0});
	for (uint64_t k = 0; k < N; k++) {
		uint64_t ts = 100 + 10 * k;
		if (k == RANGE_FROM)
			dt_model_on_event(m, &(struct dt_event){
					.kind = DT_EVENT_NVTX_PUSH, .vpid = P,
					.vtid = T, .ts = ts - 1, .domain = "",
					.name = "step"});
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
				.vpid = P, .vtid = T, .ts = ts, .call_id = k + 1,
				.api = DNNTRACE_API_cudaLaunchKernel, .name = "k",
				.stream = 0, .tensors = tensor, .n_tensors = 1,
				.result = 0});
		if (k == RANGE_TO)
			dt_model_on_event(m, &(struct dt_event){
					.kind = DT_EVENT_NVTX_POP, .vpid = P,
					.vtid = T, .ts = ts + 1, .domain = ""});
	}
	for (uint64_t k = 0; k < N; k++) {
		dt_model_on_event(m, &(struct dt_event){
				.kind = DT_EVENT_EXTERNAL_CORRELATION, .vpid = P,
				.correlation_id = (uint32_t)(k + 1), .call_id = k + 1});
		dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
				.vpid = P, .correlation_id = (uint32_t)(k + 1),
				.gpu_device = 0, .gpu_stream = 1,
				.gpu_start = 1000 + 10 * k, .gpu_end = 1005 + 10 * k,
				.name = "k"});
	}
}

/* The window req asks, built narrowed, against the same window of the
 * whole group: held kernels first..first+count-1 only, same results. */
static void check_window(const struct dt_request *req, size_t first,
		size_t count)
{
	struct dt_model m;
	make_model(&m);
	struct dt_group *whole, *narrow;
	CHECK_EQ_INT(dt_groups_build(&m, req->granularity, &whole), 1);
	CHECK_EQ_INT(dt_groups_build_for(&m, req, &narrow), 1);
	struct dt_group *w = &whole[0], *g = &narrow[0];
	CHECK_EQ_INT(w->n_kernels_held, N);
	CHECK_EQ_INT(w->n_touches, N);
	CHECK_EQ_INT(g->n_kernels, N);          /* the summary's "of N" */
	CHECK_EQ_INT(g->kernels_from, first);
	CHECK_EQ_INT(g->n_kernels_held, count);
	CHECK_EQ_INT(g->n_touches, count);
	for (size_t k = 0; k < count; k++) {
		CHECK_EQ_INT(g->kernels[k].start, 1000 + 10 * (first + k));
		CHECK_EQ_INT(g->touches[g->kernels[k].touches_at].roles,
				first + k == 0 ? DT_ROLE_WRITE :
				DT_ROLE_READ | DT_ROLE_WRITE);
	}
	char *error;
	CHECK_EQ_INT(dt_groups_analyze_request(req, &m, whole, 1, &error), 0);
	CHECK_EQ_INT(dt_groups_analyze_request(req, &m, narrow, 1, &error), 0);
	CHECK_EQ_INT(w->win_first, first);
	CHECK_EQ_INT(g->win_first, 0);
	CHECK_EQ_INT(g->kernels_from + g->win_first, first);
	CHECK_EQ_INT(g->win_count, count);
	CHECK_EQ_INT(w->win_count, count);
	CHECK(memcmp(w->results, g->results, sizeof(*g->results)) == 0);
	CHECK(memcmp(w->live_bytes, g->live_bytes, count * sizeof(uint64_t)) == 0);
	CHECK_EQ_INT(g->peak_bytes, 4096);
	dt_group_free(w);
	dt_group_free(g);
	free(whole);
	free(narrow);
	dt_model_free(&m);
}

int main(void)
{
	struct dt_request req = {.granularity = DT_GRANULARITY_KERNEL,
		.has_window = true};
	const size_t windows[][2] = {{0, 9}, {20, 24}, {45, 49}};
	for (size_t i = 0; i < 3; i++) {
		req.window_first = windows[i][0];
		req.window_last = windows[i][1];
		check_window(&req, windows[i][0], windows[i][1] - windows[i][0] + 1);
		req.granularity = DT_GRANULARITY_OP;   /* one kernel per op here */
		check_window(&req, windows[i][0], windows[i][1] - windows[i][0] + 1);
		req.granularity = DT_GRANULARITY_KERNEL;
	}
	struct dt_request range = {.granularity = DT_GRANULARITY_KERNEL,
		.range_name = "step", .range_occurrence = 1};
	check_window(&range, RANGE_FROM, RANGE_TO - RANGE_FROM + 1);
	range.granularity = DT_GRANULARITY_OP;
	check_window(&range, RANGE_FROM, RANGE_TO - RANGE_FROM + 1);
	puts("windows built narrowed: all checks passed");
	return 0;
}
