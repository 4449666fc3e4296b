/*
 * Writes G10's five output files for one analyzed group, byte-compatible in
 * format with G10's tensor_liveness_analysis (see analysis/DECISIONS.md).
 * Must never compute analysis results: it prints what group_build.c and window.c decided.
 */
#ifndef DNNTRACE_ANALYSIS_G10_WRITER_H
#define DNNTRACE_ANALYSIS_G10_WRITER_H

#include "analysis/derive/group.h"

#define DT_G10_KERNELS 1   /* kernels.config, by far the largest file */
#define DT_G10_TENSORS 2   /* tensors.config, liveness_analysis.config */
#define DT_G10_LOGS 4      /* NAME_TensorPeriodLog.py, NAME_NNMemConsumptionLog.py */
#define DT_G10_ALL 7

/* Writes the files selected by `which` (threads may write disjoint sets
 * at once). Returns 0, or -1 with errno set when a file cannot be
 * written. */
int dt_write_g10_files(const struct dt_group *g, const char *dir,
		const char *name, int which);

#endif
