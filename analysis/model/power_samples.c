/*
 * NVML power samples in the event model (model.h): dnntrace_gpu:power
 * events kept per process, as they come. Must never interpret them:
 * energy.c attributes energy.
 */
#include "analysis/model/model.h"

void dt_model_on_power(struct dt_model *m, int64_t vpid, uint32_t device,
		uint64_t sample_ns, uint32_t read_ns, uint32_t power_mw,
		bool power_ok, uint64_t energy_mj, bool energy_ok)
{
	if (!power_ok && !energy_ok)
		return;
	struct dt_process *p = dt_model_process(m, vpid);
	*DT_PUSH_SLOT(p->power_samples, p->n_power_samples,
			p->cap_power_samples) = (struct dt_power_sample){
		.ns = sample_ns + read_ns / 2, .half_read_ns = (read_ns + 1) / 2,
		.energy_mj = energy_mj,
		.device = device, .power_mw = power_mw,
		.power_ok = power_ok, .energy_ok = energy_ok};
}
