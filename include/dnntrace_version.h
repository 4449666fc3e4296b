/*
 * The one place dnntrace's version is written: the analyzer prints it
 * (--version, summary.txt, timeline.json), the tracer stamps it into the
 * trace, and scripts/dnntrace asks the analyzer for it. Must never be
 * duplicated anywhere else: bump it here only.
 */
#ifndef DNNTRACE_VERSION_H
#define DNNTRACE_VERSION_H

#define DNNTRACE_VERSION "0.20.0"

#endif
