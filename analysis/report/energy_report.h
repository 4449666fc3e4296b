/*
 * Energy written (energy_report.c): energy.csv and the summary's energy
 * lines, from derive/energy.h. Must never attribute energy.
 */
#ifndef DNNTRACE_ANALYSIS_REPORT_ENERGY_REPORT_H
#define DNNTRACE_ANALYSIS_REPORT_ENERGY_REPORT_H

#include <stdio.h>

#include "analysis/derive/energy.h"

/* energy.csv: kind,name,count,time_us,energy_mj,mean_power_w (header
 * only when there are no samples). 0, or -1 with errno. */
int dt_energy_write_csv(const struct dt_energy *e, const char *dir);
/* The summary section: method, totals, top ops. */
void dt_energy_write_summary(FILE *f, const struct dt_energy *e);

#endif
