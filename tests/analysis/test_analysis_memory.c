/*
 * Unit tests of the memory report (memory_report.h) on a hand-made group:
 * keyword rules (first match, before tags; a rule naming a built-in
 * category shares its row; inferred categories go to Others), Untrackable
 * from device samples (another device's ignored, negative clamped to 0,
 * the sample in effect at a kernel), swap feasibility exactly at its
 * boundary (idle == out and back) the peak with every feasible swap, and
 * a window's analysis after the kernels past its end were let go.
 * Every expected value is worked out by hand in the comments. Must never
 * compare against output produced by the code under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/derive/category.h"
#include "analysis/derive/group.h"
#include "analysis/report/memory_report.h"
#include "analysis/derive/window.h"
#include "tests/analysis/check.h"

/*
 * Four kernels, starts 10000, 20000, 30000, 40000 ns, 1000 ns each, so
 * T = 0, 1000, 2000, 3000, 4000 (cumulative durations).
 *   id name        bytes alloc  free   uses   category (rules below)
 *   0  param:w     1000  0      never  k0 k3  parameter (tag; no rule)
 *   1  act:fc1.x   1000  5000   45000  k0 k3  layer1 (rule fc1 before act)
 *   2  big.tmp     1001  5000   50000  k0 k3  Others (inferred only)
 *   3  (untagged)  4096  25000  35000  k2     Others
 * live: k0 3001, k1 3001, k2 7097, k3 3001 (t3 freed at 35000): peak k2.
 * Periods: 0, 1 and 2 are global (allocated before 10000, not freed
 * before 41000), used at 0 and 3: one period 1--3 each, idle t1 + t2 =
 * 2000 ns; t3 none.
 */
static void build(struct dt_group *g)
{
	static const struct {
		const char *name;
		uint64_t bytes, alloc, free;
	} spec[] = {
		{"param:w", 1000, 0, DT_NO_TIME},
		{"act:fc1.x", 1000, 5000, 45000},
		{"big.tmp", 1001, 5000, 50000},
		{NULL, 4096, 25000, 35000},
	};
	dt_group_init(g, 3, 0);
	for (int64_t id = 0; id < 4; id++) {
		struct dt_tensor t = {.id = id, .name = spec[id].name,
			.bytes = spec[id].bytes, .device = 0,
			.alloc_ns = spec[id].alloc, .free_ns = spec[id].free,
			.allocated = true};
		dt_group_add_tensor(g, &t);
	}
	const uint8_t RW = DT_ROLE_READ | DT_ROLE_WRITE;
	const struct dt_touch k03[] = {{0, RW, 0, 0, 0}, {1, RW, 0, 0, 0}, {2, RW, 0, 0, 0}};
	const struct dt_touch k2[] = {{3, RW, 0, 0, 0}};
	for (size_t k = 0; k < 4; k++) {
		struct dt_kernel kernel = {.start = 10000 * (k + 1),
			.end = 10000 * (k + 1) + 1000, .duration_ns = 1000,
			.name = "k", .call_ns = DT_NO_TIME};
		bool ends = k == 0 || k == 3;
		dt_group_add_kernel(g, &kernel, ends ? k03 : k == 2 ? k2 : NULL,
				ends ? 3 : k == 2 ? 1 : 0);
	}
	dt_group_analyze(g, 0, 4);
}

static size_t row(const struct dt_categories *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return i;
	fprintf(stderr, "no category row %s\n", name);
	exit(1);
}

static void load_rules(struct dt_category_rules *rules, const char *text)
{
	char path[] = "/tmp/dnntrace-rules.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	char err[256];
	bool unreadable;
	int rc = dt_category_rules_load(rules, path, err, sizeof(err), &unreadable);
	unlink(path);
	CHECK_EQ_INT(rc, 0);
}

/* Samples (device 0 unless said): at 4000 100000 in use, tracked t0 =
 * 1000 -> 99000; at 6000 on device 1 (ignored); at 26000 50000, tracked
 * 7097 -> 42903; at 36000 2000, tracked 3001 -> clamped to 0. Max 99000,
 * mean 141903 / 3 = 47301. At the peak k2 (30000): the 26000 sample. */
static const struct dt_mem_sample samples[] = {
	{4000, 0, 100000}, {6000, 1, 5}, {26000, 0, 50000}, {36000, 0, 2000},
};

static void test_categories_and_untrackable(void)
{
	struct dt_group g;
	build(&g);
	CHECK_EQ_INT(g.peak_kernel, 2);
	CHECK_EQ_INT(g.peak_bytes, 7097);
	struct dt_category_rules rules;
	load_rules(&rules, "# keyword category\n\nfc1 layer1\nact act_rule  # later\n"
			"zzz parameter\n");
	struct dt_process p = {.vpid = 3, .mem_samples = (struct dt_mem_sample *)samples,
		.n_mem_samples = 4};
	struct dt_memory_report *r = dt_memory_report_new(&g, &p, &rules, 1.0);
	const struct dt_categories *c = &r->categories;
	/* rows: rule categories in file order, built-ins not named yet, Others */
	const char *names[] = {"layer1", "act_rule", "parameter", "gradient",
		"optimizer_state", "activation", "workspace", "Others"};
	CHECK_EQ_INT(c->n, 8);
	for (size_t i = 0; i < 8; i++)
		CHECK_EQ_STR(c->names[i], names[i]);
	CHECK_EQ_INT(c->at_peak[row(c, "layer1")], 1000);
	CHECK_EQ_INT(c->at_peak[row(c, "act_rule")], 0);
	CHECK_EQ_INT(c->at_peak[row(c, "parameter")], 1000);
	CHECK_EQ_INT(c->at_peak[row(c, "activation")], 0);
	CHECK_EQ_INT(c->at_peak[row(c, "Others")], 1001 + 4096);
	CHECK_EQ_INT(c->max[row(c, "Others")], 5097);
	/* (1001 + 1001 + 5097 + 1001) / 4 */
	CHECK(c->mean[row(c, "Others")] > 2024.99 && c->mean[row(c, "Others")] < 2025.01);
	CHECK_EQ_INT(c->n_samples, 3);
	CHECK_EQ_INT(c->untrackable_max, 99000);
	CHECK(c->untrackable_mean > 47300.99 && c->untrackable_mean < 47301.01);
	CHECK_EQ_INT(c->untrackable_at_peak, 42903);
	CHECK_EQ_INT(c->untrackable_at_kernel[0], 99000);
	CHECK_EQ_INT(c->untrackable_at_kernel[1], 99000);
	CHECK_EQ_INT(c->untrackable_at_kernel[3], 0);
	dt_memory_report_free(r);

	/* no samples: unknown, never 0 */
	r = dt_memory_report_new(&g, NULL, &rules, 1.0);
	CHECK_EQ_INT(r->categories.n_samples, 0);
	CHECK_EQ_INT(r->categories.untrackable_at_kernel[2], -1);
	dt_memory_report_free(r);
	dt_category_rules_free(&rules);
	dt_group_free(&g);
}

/*
 * 1 GB/s: out and back 2000 ns for 1000 bytes == the idle 2000 ns:
 * feasible (t0, t1), 2002 ns for t2's 1001: not. Zero slack: the copy
 * out ends at T[1] + 1000 = 2000 when the copy back must start (T[3] -
 * 1000 = 2000): no kernel sees them gone, the peak stays 7097 at k2.
 * 4 GB/s: one way 250 ns (t2: 250.25): gone from 1250 to 2750, so at k2
 * (T[2] = 2000) only: k2 = 7097 - 3001 = 4096, the new peak (k0, k1, k3
 * keep 3001); at it Others = t3 4096, the rest 0.
 */
static void test_swap(void)
{
	struct dt_group g;
	build(&g);
	struct dt_category_rules none = {0};
	struct dt_memory_report *r = dt_memory_report_new(&g, NULL, &none, 1.0);
	CHECK_EQ_INT(g.n_periods, 3);
	for (size_t q = 0; q < 3; q++) {
		CHECK_EQ_INT(g.periods[q].start, 1);
		CHECK_EQ_INT(g.periods[q].end, 3);
		CHECK_EQ_INT(r->swap.feasible[q], g.tensors[g.periods[q].tensor].bytes == 1000);
		for (size_t k = 0; k < 4; k++)
			CHECK(!dt_swap_absent(&r->swap, &g, q, k));
	}
	CHECK_EQ_INT(r->swap.n_feasible, 2);
	CHECK_EQ_INT(r->swap.peak_bytes, 7097);
	CHECK_EQ_INT(r->swap.peak_kernel, 2);
	dt_memory_report_free(r);

	r = dt_memory_report_new(&g, NULL, &none, 4.0);
	CHECK_EQ_INT(r->swap.n_feasible, 3);
	const uint64_t swapped[] = {3001, 3001, 4096, 3001};
	for (size_t k = 0; k < 4; k++)
		CHECK_EQ_INT(r->swap.live_bytes[k], swapped[k]);
	CHECK_EQ_INT(r->swap.peak_kernel, 2);
	CHECK_EQ_INT(r->swap.peak_bytes, 4096);
	const struct dt_categories *c = &r->categories;
	for (size_t i = 0; i < c->n; i++)
		CHECK_EQ_INT(c->at_swapped_peak[i], strcmp(c->names[i], "Others") == 0 ? 4096 : 0);
	dt_memory_report_free(r);
	dt_group_free(&g);
}

/*
 * Window 0:2 of the group above, the fourth kernel let go first
 * (dt_group_drop_after_window): 4 kernels still counted, 3 held with the
 * 4 touches of k0 and k2 (t0, t1, t2; t3). All of t0, t1, t2 are global
 * (allocated before 10000, not freed before the window's end, 31000);
 * t3 not (allocated at 25000). live: k0 3001, k1 3001, k2 7097: peak k2;
 * t0 used at 0 only in the window.
 */
static void test_window_after_drop(void)
{
	struct dt_group g;
	build(&g);
	g.win_first = 0;
	g.win_count = 3;
	dt_group_drop_after_window(&g);
	CHECK_EQ_INT(g.n_kernels, 4);
	CHECK_EQ_INT(g.cap_kernels, 3);
	CHECK_EQ_INT(g.n_touches, 4);
	CHECK_EQ_INT(g.touches[3].tensor, 3);
	CHECK_EQ_INT(g.kernels[2].start, 30000);
	dt_group_analyze(&g, 0, 3);
	CHECK_EQ_INT(g.win_count, 3);
	const uint64_t live[] = {3001, 3001, 7097};
	for (size_t k = 0; k < 3; k++)
		CHECK_EQ_INT(g.live_bytes[k], live[k]);
	CHECK_EQ_INT(g.peak_kernel, 2);
	CHECK_EQ_INT(g.peak_bytes, 7097);
	for (size_t t = 0; t < 4; t++)
		CHECK_EQ_INT(g.results[t].global, t < 3);
	CHECK_EQ_INT(g.results[0].first_use, 0);
	CHECK_EQ_INT(g.results[0].last_use, 0);
	CHECK_EQ_INT(g.results[3].first_use, 2);
	dt_group_free(&g);

	/* a window reaching the last kernel lets go of nothing */
	build(&g);
	struct dt_kernel *held = g.kernels;
	g.win_first = 2;
	g.win_count = 2;
	dt_group_drop_after_window(&g);
	CHECK(g.kernels == held);
	CHECK_EQ_INT(g.n_touches, 7);
	dt_group_free(&g);
}

static void test_bad_rules(void)
{
	char path[] = "/tmp/dnntrace-rules.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char *text = "fc1 layer1\nonly_one_field\n";
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	struct dt_category_rules rules;
	char err[512];
	bool unreadable = true;
	CHECK_EQ_INT(dt_category_rules_load(&rules, path, err, sizeof(err), &unreadable), -1);
	CHECK(!unreadable);
	char want[600];
	snprintf(want, sizeof(want), "%s:2: expected", path);
	CHECK(strncmp(err, want, strlen(want)) == 0);
	CHECK_EQ_INT(rules.n, 0);
	unlink(path);
	CHECK_EQ_INT(dt_category_rules_load(&rules, path, err, sizeof(err), &unreadable), -1);
	CHECK(unreadable);
}

int main(void)
{
	test_categories_and_untrackable();
	test_swap();
	test_window_after_drop();
	test_bad_rules();
	puts("test_analysis_memory: ok");
	return 0;
}
