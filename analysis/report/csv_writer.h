/*
 * Writes the CSV tables of one analyzed group: kernels.csv, tensors.csv,
 * periods.csv, memory.csv (header row, RFC 4180 quoting, tensor id lists
 * separated by spaces). Must never compute analysis results.
 */
#ifndef DNNTRACE_ANALYSIS_CSV_WRITER_H
#define DNNTRACE_ANALYSIS_CSV_WRITER_H

#include "analysis/derive/group.h"
#include "analysis/report/out_buffer.h"

/* Returns 0, or -1 with errno set when a file cannot be written. */
int dt_write_csv_files(const struct dt_group *g, const char *dir);

/* One CSV field, quoted when it holds a comma, quote, CR or LF. */
void dt_csv_field(struct dt_out *f, const char *s);

#endif
