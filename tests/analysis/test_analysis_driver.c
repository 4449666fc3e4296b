/*
 * Unit tests of the analyzer on the driver-API trace additions, with
 * hand-made event sequences (no trace): a name for every api value; VMM
 * memory (a cuMemMap range is a tensor of kind vmm_mapped, cuMemCreate is
 * counted like pinned host memory, reserved ranges are ignored); a
 * cuLaunchKernel carries its tensors like cudaLaunchKernel; the kernels of
 * a graph launch carry its api, no tensors, and make one op with
 * --granularity op; a graph launch's GPU copy places a stream-ordered free.
 * Expected values are worked out by hand in the comments. Must never
 * compare against output produced by the code under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/model/api_names.h"
#include "analysis/report/csv_writer.h"
#include "analysis/derive/group.h"
#include "analysis/model/model.h"
#include "analysis/report/summary.h"
#include "analysis/derive/group_build.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"
#include "tracepoints/dnntrace_enums.h"

#define MiB2 2097152

static void test_api_names(void)
{
	/* values from tracepoints/README.md */
	CHECK_EQ_STR(dt_launch_api_name(0), "cudaMalloc");
	CHECK_EQ_STR(dt_launch_api_name(35), "__cudaLaunchKernel_ptsz");
	CHECK_EQ_STR(dt_launch_api_name(36), "cuMemAlloc_v2");
	CHECK_EQ_STR(dt_launch_api_name(43), "cuMemFree_v2");
	CHECK_EQ_STR(dt_launch_api_name(50), "cuMemMap");
	CHECK_EQ_STR(dt_launch_api_name(51), "cuMemUnmap");
	CHECK_EQ_STR(dt_launch_api_name(83), "cuLaunchKernel");
	CHECK_EQ_STR(dt_launch_api_name(89), "cuGraphLaunch");
	CHECK_EQ_STR(dt_launch_api_name(91), "cudaGraphLaunch");
	CHECK_EQ_STR(dt_launch_api_name(92), "cudaGraphLaunch_ptsz");
	/* every value named, no name twice; unknown values: "" */
	for (int a = 0; a < DNNTRACE_API_COUNT; a++) {
		CHECK(dt_launch_api_name(a)[0] != '\0');
		for (int b = 0; b < a; b++)
			CHECK(strcmp(dt_launch_api_name(a), dt_launch_api_name(b)) != 0);
	}
	CHECK_EQ_STR(dt_launch_api_name(DNNTRACE_API_COUNT), "");
	CHECK_EQ_STR(dt_launch_api_name(-1), "");
}

/*
 * Process 7, device 0, host stream 5 = CUPTI stream 9:
 *   ts 10 cuMemAddressReserve 8 MiB (vmm_reserved, no tensor)
 *   ts 11 cuMemCreate 2 MiB (vmm_physical, no tensor)
 *   ts 12 cuMemMap 2 MiB -> tensor 0 (vmm_mapped)
 *   ts 13 cuMemAlloc_v2 512 -> tensor 1 (device)
 *   ts 20 cuLaunchKernel call 1 "drv_k" tensors {0, 1}: GPU 1000-1100
 *   ts 30 cudaGraphLaunch call 2: kernels g_a 2000-2100, g_b 2200-2250,
 *         g_c 2300-2400 and a copy 2500-2600, all correlation 102
 *   ts 35 cuMemFreeAsync tensor 1 on stream 5
 *   ts 40 cuGraphLaunch_ptsz call 3: no GPU record seen
 *   ts 50 cudaGraphLaunch call 4: failed
 *   ts 60 cuMemUnmap tensor 0
 */
static void feed_driver_process(struct dt_model *m)
{
	const int64_t vpid = 7;
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_STATUS,
			.vpid = vpid, .cupti_ok = 1, .name = "ok"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 10,
			.api = DNNTRACE_API_cuMemAddressReserve,
			.mem_kind = DNNTRACE_MEM_VMM_RESERVED, .device = 0,
			.stream = 0, .ptr = 0x700000000000ULL, .bytes = 4 * MiB2,
			.tensor = -1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 11, .api = DNNTRACE_API_cuMemCreate,
			.mem_kind = DNNTRACE_MEM_VMM_PHYSICAL, .device = 0,
			.stream = 0, .ptr = 1, .bytes = MiB2, .tensor = -1,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 12, .api = DNNTRACE_API_cuMemMap,
			.mem_kind = DNNTRACE_MEM_VMM_MAPPED, .device = 0,
			.stream = 0, .ptr = 0x700000000000ULL, .bytes = MiB2,
			.tensor = 0, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_ALLOC,
			.vpid = vpid, .ts = 13,
			.api = DNNTRACE_API_cuMemAlloc_v2,
			.mem_kind = DNNTRACE_MEM_DEVICE, .device = 0,
			.stream = 0, .ptr = 0x10000, .bytes = 512, .tensor = 1,
			.result = 0});
	int64_t args[] = {0, 1};
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 20, .call_id = 1,
			.api = DNNTRACE_API_cuLaunchKernel, .name = "drv_k",
			.stream = 5, .tensors = args, .n_tensors = 2,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 30, .call_id = 2,
			.api = DNNTRACE_API_cudaGraphLaunch, .stream = 5,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = vpid, .ts = 35,
			.api = DNNTRACE_API_cuMemFreeAsync, .stream = 5,
			.tensor = 1, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 40, .call_id = 3,
			.api = DNNTRACE_API_cuGraphLaunch_ptsz, .stream = 5,
			.result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GRAPH_LAUNCH,
			.vpid = vpid, .vtid = 0, .ts = 50, .call_id = 4,
			.api = DNNTRACE_API_cudaGraphLaunch, .stream = 5,
			.result = 1});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_FREE,
			.vpid = vpid, .ts = 60, .api = DNNTRACE_API_cuMemUnmap,
			.stream = 0, .tensor = 0, .result = 0});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 101, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 1000, .gpu_end = 1100,
			.name = "drv_k"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 102, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 2000, .gpu_end = 2100,
			.name = "g_a"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 102, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 2200, .gpu_end = 2250,
			.name = "g_b"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_KERNEL,
			.vpid = vpid, .correlation_id = 102, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 2300, .gpu_end = 2400,
			.name = "g_c"});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_GPU_MEMCPY,
			.vpid = vpid, .correlation_id = 102, .gpu_device = 0,
			.gpu_stream = 9, .gpu_start = 2500, .gpu_end = 2600});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = 101, .call_id = 1});
	dt_model_on_event(m, &(struct dt_event){.kind = DT_EVENT_EXTERNAL_CORRELATION,
			.vpid = vpid, .correlation_id = 102, .call_id = 2});
}

static char *read_text(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	static char text[8192];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void test_kernel_granularity(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed_driver_process(&m);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_KERNEL, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	dt_group_analyze(g, 0, g->n_kernels);

	/* only the mapped range and the cuMemAlloc_v2 are tensors */
	CHECK_EQ_INT(g->n_tensors, 2);
	CHECK_EQ_INT(g->tensors[0].kind, DNNTRACE_MEM_VMM_MAPPED);
	CHECK_EQ_INT(g->tensors[0].free_ns, 60);
	CHECK_EQ_INT(g->stats.vmm_physical_allocs, 1);
	CHECK_EQ_INT(g->stats.vmm_physical_bytes, MiB2);
	CHECK_EQ_INT(g->stats.pinned_allocs, 0);

	/* the driver launch links like a runtime launch, with its tensors */
	CHECK_EQ_INT(g->n_kernels, 4);
	const struct dt_kernel *k = &g->kernels[0];
	CHECK_EQ_STR(k->name, "drv_k");
	CHECK_EQ_STR(dt_launch_api_name(k->api), "cuLaunchKernel");
	CHECK_EQ_INT(k->n_touches, 2);
	CHECK_EQ_INT(g->tensors[g->touches[k->touches_at].tensor].id, 0);
	CHECK_EQ_INT(g->tensors[g->touches[k->touches_at + 1].tensor].id, 1);
	/* the graph's kernels: its api, its call time; no node says which
	 * tensors they touch (no graph events), so each counts as touching
	 * every tensor live at its start, and the summary counts them */
	const char *graph_names[] = {"g_a", "g_b", "g_c"};
	CHECK_EQ_INT(g->graph_kernels_unknown, 3);
	for (int i = 0; i < 3; i++) {
		k = &g->kernels[1 + i];
		CHECK_EQ_STR(k->name, graph_names[i]);
		CHECK_EQ_INT(k->source, DT_SOURCE_LAUNCH);
		CHECK_EQ_STR(dt_launch_api_name(k->api), "cudaGraphLaunch");
		CHECK_EQ_INT(k->call_ns, 30);
		int live = 0;
		for (size_t t = 0; t < g->n_tensors; t++)
			live += dt_tensor_ready_ns(&g->tensors[t]) <= k->start &&
				dt_tensor_release_ns(&g->tensors[t]) > k->start;
		CHECK(live > 0);
		CHECK_EQ_INT(k->n_touches, live);
	}
	/* the free at 35 on stream 5 (CUPTI 9, bound by drv_k and the graph)
	 * waits for the work called before it there: the graph's copy ends
	 * last, at 2600 */
	CHECK_EQ_INT(dt_tensor_release_ns(&g->tensors[1]), 2600);

	char dir[] = "/tmp/dt_driver_test_XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	CHECK_EQ_INT(dt_write_csv_files(g, dir), 0);
	const char *kernels = read_text(dir, "kernels.csv");
	CHECK(strstr(kernels, ",drv_k,cuLaunchKernel,") != NULL);
	CHECK(strstr(kernels, ",g_b,cudaGraphLaunch,") != NULL);
	const char *tensors = read_text(dir, "tensors.csv");
	CHECK(strstr(tensors, "\n0,t0,2097152,0,vmm_mapped,12,60,") != NULL);
	CHECK(strstr(tensors, "\n1,t1,512,0,device,13,35,") != NULL);
	const char *files[] = {"kernels.csv", "tensors.csv", "periods.csv",
		"memory.csv"};
	char path[512];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);

	char *summary = NULL;
	size_t summary_size = 0;
	FILE *f = open_memstream(&summary, &summary_size);
	CHECK(f != NULL);
	dt_write_summary(f, g, NULL);
	fclose(f);
	CHECK(strstr(summary, "\nphysical VMM memory (cuMemCreate): 2097152 bytes"
				" in 1 allocations\n") != NULL);
	CHECK(strstr(summary, "\npinned host memory: 0 bytes in 0 allocations\n")
			!= NULL);
	free(summary);

	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
}

/*
 * --granularity op: drv_k alone; the graph launch of call 2 one op of its
 * three kernels (2000-2400, duration 100 + 50 + 100 = 250; touching every
 * live tensor, its nodes unknown); call 3, whose
 * kernels were not seen, an op of its own at its call time (40), after the
 * op of call 2 (the closest earlier call with kernels); the failed call 4
 * none.
 */
static void test_op_granularity(void)
{
	struct dt_model m;
	dt_model_init(&m);
	feed_driver_process(&m);
	struct dt_group *groups;
	size_t n = dt_groups_build(&m, DT_GRANULARITY_OP, &groups);
	CHECK_EQ_INT(n, 1);
	struct dt_group *g = &groups[0];
	dt_group_analyze(g, 0, g->n_kernels);
	CHECK_EQ_INT(g->n_kernels, 3);
	const struct dt_kernel *k = &g->kernels[0];
	CHECK_EQ_STR(k->name, "drv_k");
	CHECK_EQ_INT(k->n_gpu_kernels, 1);
	CHECK_EQ_INT(k->n_touches, 2);
	k = &g->kernels[1];
	CHECK_EQ_STR(k->name, "g_a; g_b; g_c");
	CHECK_EQ_STR(dt_launch_api_name(k->api), "cudaGraphLaunch");
	CHECK_EQ_INT(k->n_gpu_kernels, 3);
	CHECK_EQ_INT(k->start, 2000);
	CHECK_EQ_INT(k->end, 2400);
	CHECK_EQ_INT(k->duration_ns, 250);
	/* its kernels' tensors unknown: every tensor live at its start */
	int live = 0;
	for (size_t t = 0; t < g->n_tensors; t++)
		live += dt_tensor_ready_ns(&g->tensors[t]) <= k->start &&
			dt_tensor_release_ns(&g->tensors[t]) > k->start;
	CHECK(live > 0);
	CHECK_EQ_INT(k->n_touches, live);
	k = &g->kernels[2];
	CHECK_EQ_STR(dt_launch_api_name(k->api), "cuGraphLaunch_ptsz");
	CHECK_EQ_INT(k->n_gpu_kernels, 0);
	CHECK_EQ_INT(k->start, 40);
	CHECK_EQ_INT(k->duration_ns, 0);
	CHECK_EQ_INT(k->n_touches, 0);
	for (size_t i = 0; i < n; i++)
		dt_group_free(&groups[i]);
	free(groups);
	dt_model_free(&m);
}

int main(void)
{
	test_api_names();
	test_kernel_granularity();
	test_op_granularity();
	puts("analysis driver tests passed");
	return 0;
}
