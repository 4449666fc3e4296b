/*
 * The NVML declarations the simulated libnvidia-ml.so.1 defines, written
 * from NVIDIA's NVML API reference: nvml.h is not part of the CUDA toolkit
 * installed here (it ships with the driver's development files), so this
 * stands in for it as the toolkit headers do for the other simulated
 * libraries. simgpu's own copy: the tracer has its own
 * (interceptors/core/nvml_api.h), and simgpu must never include a tracer
 * header. Names, types, values and prototypes must stay exactly NVML's;
 * it must never declare anything NVML does not have.
 */
#ifndef SIMGPU_NVML_API_H
#define SIMGPU_NVML_API_H

typedef enum nvmlReturn_enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_UNINITIALIZED = 1,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NO_PERMISSION = 4,
	NVML_ERROR_ALREADY_INITIALIZED = 5,
	NVML_ERROR_NOT_FOUND = 6,
	NVML_ERROR_DRIVER_NOT_LOADED = 9,
	NVML_ERROR_GPU_IS_LOST = 15,
	NVML_ERROR_UNKNOWN = 999,
} nvmlReturn_t;

typedef struct nvmlDevice_st *nvmlDevice_t;

nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
const char *nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
/* Board power draw in milliwatts. */
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power);
/* Energy in millijoules since the driver was last reloaded (Volta and newer). */
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device,
		unsigned long long *energy);

#endif
