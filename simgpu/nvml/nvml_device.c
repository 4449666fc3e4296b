/*
 * The simulated libnvidia-ml.so.1: the handful of NVML functions dnntrace
 * uses (nvml_api.h beside it has their exact prototypes), answering for
 * simgpu's one device from the power model in the simulated driver
 * (core_power.c, reached through simgpu_power_private.h). Power and energy
 * are read at the moment of the call; the energy counter is the model's
 * exact integral. SIMGPU_NVML_ENERGY=0 makes the device one without an
 * energy counter (as before Volta: NVML_ERROR_NOT_SUPPORTED).
 * Must never change anything on the simulated device.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/nvml/nvml_api.h"
#include "simgpu/core/simgpu_power_private.h"
#include "simgpu/core/simgpu_open_driver.h"

struct nvmlDevice_st {
	unsigned int index;
};

static struct nvmlDevice_st the_device = { 0 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int init_count;       /* nvmlInit minus nvmlShutdown calls */
static simgpu_power_read_fn power_read;


nvmlReturn_t nvmlInit_v2(void)
{
	nvmlReturn_t rc = NVML_SUCCESS;
	pthread_mutex_lock(&lock);
	if (!power_read) {
		void *driver = simgpu_open_driver();
		power_read = driver ? (simgpu_power_read_fn)dlsym(driver,
				SIMGPU_POWER_READ_SYMBOL) : NULL;
	}
	uint64_t now;
	unsigned int mw;
	unsigned long long mj;
	/* The first read starts the model's bookkeeping of kernels. */
	if (!power_read ||
	    power_read(SIMGPU_POWER_PRIVATE_VERSION, &now, &mw, &mj) != 0) {
		power_read = NULL;
		rc = NVML_ERROR_DRIVER_NOT_LOADED;
	} else {
		init_count++;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

nvmlReturn_t nvmlShutdown(void)
{
	nvmlReturn_t rc = NVML_SUCCESS;
	pthread_mutex_lock(&lock);
	if (init_count == 0)
		rc = NVML_ERROR_UNINITIALIZED;
	else
		init_count--;
	pthread_mutex_unlock(&lock);
	return rc;
}

static int initialized(void)
{
	pthread_mutex_lock(&lock);
	int yes = init_count > 0;
	pthread_mutex_unlock(&lock);
	return yes;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
	switch (result) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
	case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
	case NVML_ERROR_ALREADY_INITIALIZED: return "Already Initialized";
	case NVML_ERROR_NOT_FOUND: return "Not Found";
	case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
	case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
	default: return "Unknown Error";
	}
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (!deviceCount)
		return NVML_ERROR_INVALID_ARGUMENT;
	*deviceCount = 1;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (index != 0 || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	*device = &the_device;
	return NVML_SUCCESS;
}

static nvmlReturn_t read_board(nvmlDevice_t device, unsigned int *mw,
			       unsigned long long *mj)
{
	if (!initialized())
		return NVML_ERROR_UNINITIALIZED;
	if (device != &the_device)
		return NVML_ERROR_INVALID_ARGUMENT;
	uint64_t now;
	power_read(SIMGPU_POWER_PRIVATE_VERSION, &now, mw, mj);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power)
{
	unsigned long long mj;
	if (!power)
		return NVML_ERROR_INVALID_ARGUMENT;
	return read_board(device, power, &mj);
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device,
		unsigned long long *energy)
{
	const char *has = getenv("SIMGPU_NVML_ENERGY");
	unsigned int mw;
	if (!energy)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (has && strcmp(has, "0") == 0)
		return initialized() ? NVML_ERROR_NOT_SUPPORTED :
			NVML_ERROR_UNINITIALIZED;
	return read_board(device, &mw, energy);
}
