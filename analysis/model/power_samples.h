/*
 * NVML power samples in the event model (power_samples.c).
 * Must never interpret them: derive/energy.c attributes energy.
 */
#ifndef DNNTRACE_ANALYSIS_MODEL_POWER_SAMPLES_H
#define DNNTRACE_ANALYSIS_MODEL_POWER_SAMPLES_H

#include "analysis/model/event.h"
#include "analysis/model/model.h"

/* dnntrace_gpu:power (dt_model_on_event hands it here): a sample with
 * neither value is dropped. */
void dt_model_on_power_event(struct dt_model *m, const struct dt_event *e);

#endif
