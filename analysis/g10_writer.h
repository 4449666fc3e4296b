/*
 * Writes G10's five output files for one analyzed group, byte-compatible in
 * format with G10's tensor_liveness_analysis (see analysis/README.md).
 * Must never compute analysis results: it prints what group.c decided.
 */
#ifndef DNNTRACE_ANALYSIS_G10_WRITER_H
#define DNNTRACE_ANALYSIS_G10_WRITER_H

#include "analysis/group.h"

#define DT_G10_KERNELS 1   /* kernels.config, by far the largest file */
#define DT_G10_OTHERS 2    /* the other four files */

/* Writes the files selected by `which`. Returns 0, or -1 with errno set
 * when a file cannot be written. */
int dt_write_g10_files(const struct dt_group *g, const char *dir,
		const char *name, int which);

#endif
