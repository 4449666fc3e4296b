/*
 * Energy per kernel and per op from NVML power samples (dnntrace_gpu:power)
 * of one (process, device), over a window of GPU time. Two methods, as the
 * samples allow (analysis/DECISIONS.md, "Energy"):
 *  - energy counter (every sample has one): each interval between two
 *    samples has an exact energy (the counter's delta); time is cut into
 *    runs, stretches with one set of running kernels; an interval inside
 *    one run gives that run its energy, an interval across runs is split
 *    among its pieces in proportion to length times each run's own power
 *    (measured over the intervals wholly inside it, else the interval's
 *    mean); a run's energy is shared equally among its kernels;
 *  - power only: per kernel name, the mean of the power samples read
 *    while one of its kernels ran (each divided by the number of kernels
 *    running; a sample whose read spans a kernel start or end is left
 *    out; a kernel no sample fell in takes the nearest one), values
 *    outside 3 sigma dropped (the ml-operator-profiling rule), times its
 *    total GPU time; per op, the same for each (op, kernel name) pair,
 *    summed.
 * Must never print or write files: energy_report.c does.
 */
#ifndef DNNTRACE_ANALYSIS_ENERGY_H
#define DNNTRACE_ANALYSIS_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/model/model.h"

enum dt_energy_kind { DT_ENERGY_KERNEL = 0, DT_ENERGY_OP };

/* One row of energy.csv: a kernel name or an op name. */
struct dt_energy_row {
	enum dt_energy_kind kind;
	const char *name;
	uint64_t count;            /* kernels, or host calls whose kernels ran in the op */
	uint64_t time_ns;          /* summed GPU time of its kernels */
	double energy_mj;
	double mean_power_w;       /* energy / time; 0 when time is 0 */
	size_t samples;            /* power-only method: samples kept */
	size_t outliers;           /* power-only method: samples dropped */
};

enum dt_energy_method {
	DT_ENERGY_NONE = 0,        /* no usable samples for this device */
	DT_ENERGY_COUNTER,
	DT_ENERGY_POWER,
};

struct dt_energy {
	enum dt_energy_method method;
	size_t n_samples;          /* samples of this device */
	uint64_t first_ns, last_ns;/* first and last sample */
	double total_mj;           /* the board between first and last sample */
	double kernels_mj;         /* attributed to the window's kernels */
	uint64_t kernels_ns;       /* their summed GPU time */
	double outside_op_mj;      /* kernels with no op */
	size_t outliers;           /* power-only: samples dropped, all rows */
	struct dt_energy_row *rows;/* kernels then ops, each by energy, descending */
	size_t n_rows;
};

/* Kernels of device whose GPU start lies in [from_ns, to_ns]. */
void dt_energy_compute(const struct dt_process *p, int32_t device,
		uint64_t from_ns, uint64_t to_ns, struct dt_energy *e);
void dt_energy_free(struct dt_energy *e);

struct dt_group;
/* Energy over an analyzed group's window: its kernels' GPU time, from the
 * first start to the last end, on its device; none without kernel times
 * (or without its process in m). */
void dt_energy_of_group(const struct dt_model *m, const struct dt_group *g,
		struct dt_energy *e);

#endif
