/*
 * Board power sampling: a background thread that reads each GPU's power
 * draw and energy counter through NVML (libnvidia-ml.so.1, loaded at run
 * time) every DNNTRACE_POWER_MS milliseconds and writes them as
 * dnntrace_gpu:power events. Unset, empty or 0: off (dnntrace record sets
 * it, 10 by default). No NVML: one warning line, no thread.
 *
 * Must never change what the program sees: no signal reaches the thread,
 * it is never inherited by a forked child (a fork waits for a sample in
 * progress, so the child inherits no NVML or LTTng lock the sampler held),
 * and it is stopped and joined (bounded) at exit, and when the process
 * dies of a signal or _exit.
 */
#ifndef DNNTRACE_NVML_SAMPLER_H
#define DNNTRACE_NVML_SAMPLER_H

#include <stdbool.h>

/* Loads NVML and starts the thread; once, from the tracer's start. */
void nvml_sampler_start(void);

/* Takes a last sample and joins the thread (at exit). Later calls do nothing. */
void nvml_sampler_stop(void);

/*
 * The same, for a process about to die without exit() (crash_flush.c): no
 * sample may be half written when it does. Leaves NVML open.
 */
void nvml_sampler_halt(void);

/* Whether the thread was started and not yet stopped. */
bool nvml_sampler_running(void);

/* In a forked child: the thread is not there; never touch it. */
void nvml_sampler_forget(void);

#endif
