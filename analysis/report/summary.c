/*
 * Summary text (summary.h). Plain lines "key: value" so scripts can grep
 * them. Must never compute analysis results beyond ranking.
 */
#include "analysis/report/summary.h"
#include "analysis/decode/record_status.h"

#include "analysis/report/memory_report.h"
#include "analysis/report/memory_snapshot.h"
#include "analysis/report/gpu_time_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decode/damage.h"
#include "analysis/request.h"
#include "dnntrace_version.h"
#include "tracepoints/gpu_records.h"

#define TOP_IDLE 5

/*
 * "gpu records: MODE (what it gives)": the --gpu-records mode the status
 * message names at its end (tracepoints/gpu_records.h). A tracer from
 * before the modes named none and recorded what `full` records now.
 */
static void write_gpu_records(FILE *f, const struct dt_group *g)
{
	const char *message = g->cupti_message;
	const char *mark = message ? strstr(message, DNNTRACE_GPU_RECORDS_MARK) : NULL;

	if (g->cupti_ok < 0)
		return; /* no status event: nothing known */
	if (mark) {
		const char *name = mark + strlen(DNNTRACE_GPU_RECORDS_MARK);
		int mode = dnntrace_gpu_records_lookup(name, strcspn(name, " "));
		if (mode >= 0) {
			fprintf(f, "gpu records: %s (%s)\n", dnntrace_gpu_records_name(mode),
				dnntrace_gpu_records_what(mode));
			return;
		}
		fprintf(f, "gpu records: unknown mode '%.*s'\n", (int)strcspn(name, " "), name);
	} else if (g->cupti_ok) {
		fputs("gpu records: full (recorded before --gpu-records existed)\n", f);
	} else {
		fputs("gpu records: none (CUPTI did not start)\n", f);
	}
}

/* Impossible GPU records the model left out (model.h, dt_gpu_fault): like
 * lost events, the analysis misses what they were, so it is incomplete. */
static void write_damaged_gpu_records(FILE *f, const struct dt_group *g)
{
	const uint64_t *n = g->stats.damaged_gpu_records;
	uint64_t total = 0;
	for (int k = 0; k < DT_GPU_FAULTS; k++)
		total += n[k];
	if (!total)
		return;
	fprintf(f, "damaged GPU records left out: %" PRIu64 " (end before start: %"
			PRIu64 ", zero time: %" PRIu64 ", duplicate: %" PRIu64 ")\n",
			total, n[DT_GPU_FAULT_END_BEFORE_START],
			n[DT_GPU_FAULT_ZERO_TIME], n[DT_GPU_FAULT_DUPLICATE]);
	fputs("analysis incomplete: damaged GPU records were left out\n", f);
}

void dt_write_summary(FILE *f, const struct dt_group *g,
		const struct dt_request *req)
{
	fprintf(f, "process %" PRId64 ", device %" PRId32 "\n", g->vpid, g->device);
	/* one index per kernel, or per op with --granularity op */
	const char *unit = g->granularity == DT_GRANULARITY_OP ? "ops" : "kernels";
	const char *range_name = req ? req->range_name : NULL;
	if (g->window_misfit && range_name)
		fprintf(f, "%s: %zu (--range %s:%zu launched nothing here: all "
				"%s analyzed)\n", unit, g->n_kernels, range_name,
				req->range_occurrence, unit);
	else if (g->window_misfit && req)
		fprintf(f, "%s: %zu (--kernels %zu:%zu out of range: all "
				"%s analyzed)\n", unit, g->n_kernels, req->window_first,
				req->window_last, unit);
	else if (range_name)
		fprintf(f, "%s: %zu (window %zu:%zu of %zu: range %s:%zu)\n",
				unit, g->win_count, g->kernels_from + g->win_first,
				g->kernels_from + g->win_first + g->win_count - 1,
				g->n_kernels,
				range_name, req->range_occurrence);
	else if (g->win_count == g->n_kernels)
		fprintf(f, "%s: %zu\n", unit, g->n_kernels);
	else
		fprintf(f, "%s: %zu (window %zu:%zu of %zu)\n", unit, g->win_count,
				g->kernels_from + g->win_first,
				g->kernels_from + g->win_first + g->win_count - 1,
				g->n_kernels);
	if (g->granularity == DT_GRANULARITY_OP) {
		uint64_t gpu_kernels = 0;
		for (size_t k = 0; k < g->win_count; k++)
			gpu_kernels += g->kernels[g->win_first + k].n_gpu_kernels;
		fprintf(f, "GPU kernels in these ops: %" PRIu64 "\n", gpu_kernels);
	}
	size_t globals = 0, in_files = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		globals += g->results[t].global;
		in_files += g->results[t].in_g10;
	}
	fprintf(f, "tensors: %zu (%zu in the G10 files, %zu global)\n",
			g->n_tensors, in_files, globals);
	if (g->tensors_ended_at_exit)
		fprintf(f, "tensors ended with the process: %" PRIu64 " (%" PRIu64
				" bytes; no call freed them, they end at its last "
				"event)\n", g->tensors_ended_at_exit,
				g->bytes_ended_at_exit);
	fprintf(f, "failed allocations: %" PRIu64 "\n", g->stats.failed_allocs);
	fprintf(f, "pinned host memory: %" PRIu64 " bytes in %" PRIu64
			" allocations\n", g->stats.pinned_bytes,
			g->stats.pinned_allocs);
	/* only programs pinning their own memory; unregistrations name no
	 * memory in the trace, so they are counted, not subtracted */
	if (g->stats.registered_allocs || g->stats.unregistrations)
		fprintf(f, "registered host memory: %" PRIu64 " bytes in %" PRIu64
				" registrations, %" PRIu64 " unregistered (cudaHostRegister, "
				"cuMemHostRegister; part of the pinned host memory)\n",
				g->stats.registered_bytes, g->stats.registered_allocs,
				g->stats.unregistrations);
	if (g->stats.vmm_physical_allocs)   /* only programs using VMM */
		fprintf(f, "physical VMM memory (cuMemCreate): %" PRIu64
				" bytes in %" PRIu64 " allocations\n",
				g->stats.vmm_physical_bytes,
				g->stats.vmm_physical_allocs);
	if (g->win_count > 0)
		fprintf(f, "peak memory: %" PRIu64 " bytes at %s %zu (%s)\n",
				g->peak_bytes, g->granularity == DT_GRANULARITY_OP ?
				"op" : "kernel", g->peak_kernel,
				g->kernels[g->win_first + g->peak_kernel].name);
	else
		fprintf(f, "peak memory: no %s\n", unit);
	if (g->bytes_saturated)
		fputs("inconsistent sizes: traced tensors add up to more than "
				"18446744073709551615 bytes (shown as that)\n", f);
	if (g->kernel_times_missing)
		fprintf(f, "kernel times missing: launches stand in for kernels"
				" (CUPTI: %s)\n", g->cupti_message ?
				g->cupti_message : "no kernel records");
	write_gpu_records(f, g);
	if (g->launches_without_records)
		fprintf(f, "launches without a kernel record: %" PRIu64
				" (captured into a CUDA graph, or their records "
				"were never delivered%s)\n", g->launches_without_records,
				!dt_record_status.present ?
				": the process was killed, or the trace lost them" :
				dt_record_status_killed() ? ": the process was killed" : "");
	if (g->launches_with_damaged_records)
		fprintf(f, "launches whose kernel records were left out as damaged: %"
				PRIu64 "\n", g->launches_with_damaged_records);
	if (g->graph_kernels_unknown)
		fprintf(f, "graph kernels with unknown tensors: %" PRIu64
				" (each counts as touching every live tensor: none "
				"is idle across it)\n", g->graph_kernels_unknown);
	if (g->graph_allocs_unseen)
		fprintf(f, "graph allocations never seen in a launch: %" PRIu64 " (%" PRIu64
				" bytes; if their graphs' launches are among the unknown "
				"ones, their memory is missing from live bytes and the "
				"peak)\n", g->graph_allocs_unseen, g->graph_alloc_bytes_unseen);

	/* top tensors by idle byte-seconds: a partial selection, ties by id */
	size_t top[TOP_IDLE], n_top = 0;
	for (size_t t = 0; t < g->n_tensors; t++) {
		double v = g->results[t].idle_byte_seconds;
		if (v <= 0)
			continue;
		size_t pos = n_top;
		while (pos > 0 && g->results[top[pos - 1]].idle_byte_seconds < v)
			pos--;
		if (pos >= TOP_IDLE)
			continue;
		if (n_top < TOP_IDLE)
			n_top++;
		for (size_t i = n_top - 1; i > pos; i--)
			top[i] = top[i - 1];
		top[pos] = t;
	}
	fprintf(f, "top idle tensors (byte-seconds):%s\n", n_top ? "" : " none");
	for (size_t i = 0; i < n_top; i++) {
		const struct dt_tensor *t = &g->tensors[top[i]];
		char buf[32];
		fprintf(f, "  %s (tensor %" PRId64 ", %" PRIu64 " bytes): %.6g\n",
				dt_tensor_display_name(t, buf, sizeof(buf)), t->id,
				t->bytes, g->results[top[i]].idle_byte_seconds);
	}
	if (g->memory)
		dt_memory_report_summary(f, g->memory, g);
	/* no request (unit tests): the snapshot as written by default */
	size_t kept = req ? req->snapshot_events : DT_DEFAULT_SNAPSHOT_EVENTS;
	size_t snapshot_events = dt_memory_snapshot_events(g);
	if (kept && snapshot_events > kept)
		fprintf(f, "memory snapshot: the last %zu of %zu allocator events "
				"(--snapshot-events N; 0: all)\n",
				kept, snapshot_events);
	dt_gpu_time_write_summary(f, g);
	write_damaged_gpu_records(f, g);
	if (g->events_lost > 0 || g->events_lost_unknown) {
		fprintf(f, "events lost: %" PRIu64 "%s\n", g->events_lost,
				g->events_lost_unknown ? " (and an unknown number more)" : "");
		fputs("analysis incomplete: events were lost\n", f);
	}
	dt_record_status_write_summary(f);
	dt_damage_write_summary(f);
}

void dt_write_summary_version(FILE *f)
{
	fputs("report by dnntrace-analyze " DNNTRACE_VERSION "\n", f);
}
