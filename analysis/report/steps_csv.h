/*
 * steps.csv (steps_csv.c): one row per training step of a group
 * (derive/steps.h). Must never compute: derive/steps.c does.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_STEPS_CSV_H
#define DNNTRACE_ANALYSIS_REPORT_STEPS_CSV_H

#include "analysis/derive/steps.h"

/* dir/steps.csv: its header alone when s is NULL or has no step. 0, or -1
 * with errno set. */
int dt_steps_write_csv(const struct dt_steps *s, const char *dir);

#endif
