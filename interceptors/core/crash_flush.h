/*
 * Flushes CUPTI's buffered records and stops the power sampler when the
 * process dies without its exit handlers (crash signals, _exit): see
 * crash_flush.c. Must never change how the program's signals or exits
 * behave.
 */
#ifndef DNNTRACE_CRASH_FLUSH_H
#define DNNTRACE_CRASH_FLUSH_H

/*
 * Starts the flush helper and chains the crash signal handlers. Once, after
 * CUPTI and the power sampler started, when either runs.
 */
void crash_flush_start(void);

#endif
