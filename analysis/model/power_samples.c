/*
 * NVML power samples in the event model (model.h): dnntrace_gpu:power
 * events kept per process, as they come. Must never interpret them:
 * energy.c attributes energy.
 */
#include "analysis/model/power_samples.h"

void dt_model_on_power_event(struct dt_model *m, const struct dt_event *e)
{
	if (!e->power_ok && !e->energy_ok)
		return;
	struct dt_process *p = dt_model_process(m, e->vpid);
	*DT_PUSH_SLOT(p->power_samples, p->n_power_samples,
			p->cap_power_samples) = (struct dt_power_sample){
		.ns = e->sample_ns + e->read_ns / 2,
		.half_read_ns = (e->read_ns + 1) / 2,
		.energy_mj = e->energy_mj,
		.device = e->gpu_device, .power_mw = e->power_mw,
		.power_ok = e->power_ok, .energy_ok = e->energy_ok};
}
