/*
 * The private contract between the simulated driver libcuda.so.1
 * (core_power.c, which knows the kernels on the device timeline) and the
 * simulated libnvidia-ml.so.1 (simgpu/nvml), which looks the symbol
 * up with dlsym. The real driver has no such symbol, so the simulated NVML
 * refuses to start on it. Not for programs.
 */
#ifndef SIMGPU_POWER_PRIVATE_H
#define SIMGPU_POWER_PRIVATE_H

#include <stdint.h>

#define SIMGPU_POWER_PRIVATE_VERSION 1

/*
 * The board at the moment of the call (CLOCK_MONOTONIC now_ns): power in
 * mW and the energy counter in mJ (the exact integral of the power model,
 * rounded down). The first call starts the model's bookkeeping: kernels
 * scheduled before it are not in it. Returns 0, or -1 on a version mismatch.
 */
#define SIMGPU_POWER_READ_SYMBOL "simgpu_internal_power_read"
typedef int (*simgpu_power_read_fn)(unsigned int version, uint64_t *now_ns,
				    unsigned int *power_mw,
				    unsigned long long *energy_mj);

#endif
