/*
 * The index of a report with several (process, device) groups, as a
 * torchrun/DDP recording gives (report_index.h): where each group's report
 * is, and a table across them with totals, at the head of OUT/summary.txt
 * (and stdout) and as OUT/index.csv. Must never compute anything a group's
 * own analysis has not: it only lists and adds up.
 */
#include "analysis/report/report_index.h"
#include "analysis/derive/group_build.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dt_group_subdir(const struct dt_group *g, char *buf, size_t size)
{
	int n = snprintf(buf, size, "pid%" PRId64 "-dev%" PRId32, g->vpid,
			g->device);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* GPU records of the group left out as impossible, every fault. */
static uint64_t damaged_records(const struct dt_group *g)
{
	uint64_t n = 0;
	for (int k = 0; k < DT_GPU_FAULTS; k++)
		n += g->stats.damaged_gpu_records[k];
	return n;
}

/* The analyzed window's peak: 0 when the group ran no kernel. */
static uint64_t group_peak(const struct dt_group *g)
{
	return g->win_count > 0 ? g->peak_bytes : 0;
}

static size_t count_processes(const struct dt_group *groups, size_t n)
{
	size_t processes = 0;
	/* groups come in process order (dt_groups_build) */
	for (size_t i = 0; i < n; i++)
		processes += i == 0 || groups[i].vpid != groups[i - 1].vpid;
	return processes;
}

void dt_write_report_index(FILE *f, const struct dt_group *groups, size_t n)
{
	fprintf(f, "processes: %zu, process/device reports: %zu\n",
			count_processes(groups, n), n);
	fprintf(f, "%-10s %-6s %-10s %-10s %-14s %-8s %-11s %-8s %s\n", "pid",
			"device", "kernels", "tensors", "peak_bytes", "failed",
			"events_lost", "damaged", "report");
	uint64_t kernels = 0, tensors = 0, peak_sum = 0, peak_max = 0;
	uint64_t failed = 0, lost = 0, damaged = 0;
	bool lost_unknown = false;
	for (size_t i = 0; i < n; i++) {
		const struct dt_group *g = &groups[i];
		char sub[64];
		if (dt_group_subdir(g, sub, sizeof(sub)) != 0)
			snprintf(sub, sizeof(sub), "?");
		fprintf(f, "%-10" PRId64 " %-6" PRId32 " %-10zu %-10zu %-14" PRIu64
				" %-8" PRIu64 " %-11" PRIu64 " %-8" PRIu64 " %s/\n",
				g->vpid, g->device, g->win_count, g->n_tensors,
				group_peak(g), g->stats.failed_allocs,
				g->events_lost, damaged_records(g), sub);
		kernels += g->win_count;
		tensors += g->n_tensors;
		peak_sum += group_peak(g);
		if (group_peak(g) > peak_max)
			peak_max = group_peak(g);
		failed += g->stats.failed_allocs;
		lost += g->events_lost;
		lost_unknown |= g->events_lost_unknown;
		damaged += damaged_records(g);
	}
	fprintf(f, "%-10s %-6s %-10" PRIu64 " %-10" PRIu64 " %-14" PRIu64
			" %-8" PRIu64 " %-11" PRIu64 " %" PRIu64 "\n", "total", "",
			kernels, tensors, peak_sum, failed, lost, damaged);
	fprintf(f, "largest peak of one device: %" PRIu64 " bytes; sum of the "
			"peaks: %" PRIu64 " bytes\n", peak_max, peak_sum);
	if (lost > 0 || lost_unknown)
		fputs("analysis incomplete: events were lost (see the reports "
				"below)\n", f);
	if (damaged > 0)
		fputs("analysis incomplete: damaged GPU records were left out "
				"(see the reports below)\n", f);
}

int dt_write_index_csv(const char *out_dir, const struct dt_group *groups,
		size_t n)
{
	char path[PATH_MAX];
	int len = snprintf(path, sizeof(path), "%s/index.csv", out_dir);
	if (len < 0 || (size_t)len >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("pid,device,kernels,tensors,peak_bytes,failed_allocs,"
			"events_lost,damaged_gpu_records,report\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct dt_group *g = &groups[i];
		char sub[64];
		if (dt_group_subdir(g, sub, sizeof(sub)) != 0)
			snprintf(sub, sizeof(sub), "?");
		fprintf(f, "%" PRId64 ",%" PRId32 ",%zu,%zu,%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%s\n", g->vpid, g->device,
				g->win_count, g->n_tensors, group_peak(g),
				g->stats.failed_allocs, g->events_lost,
				damaged_records(g), sub);
	}
	return fclose(f) == 0 ? 0 : -1;
}
