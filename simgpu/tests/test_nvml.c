/*
 * The simulated libnvidia-ml.so.1 and the power model behind it
 * (simgpu/README.md, "Power"): NVML's answers and errors, power =
 * idle + the kernels running, on one stream and two overlapping ones, and
 * the energy counter = the exact integral between two reads (read with the
 * driver's private reader, which also says when it read). Kernels of 10 s
 * at SIMGPU_TIME_SCALE=0: they run, never waited for, across every read.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simgpu/nvml/nvml_api.h"
#include "simgpu/simgpu.h"
#include "simgpu/core/simgpu_power_private.h"
#include "simgpu/tests/simgpu_test.h"

static const char kernel;
#define LONG_NS 10000000000ULL

static void launch(unsigned int mw, cudaStream_t s)
{
	simgpu_next_kernel_ns(LONG_NS);
	simgpu_next_kernel_power_mw(mw);
	CHECK_CUDA(cudaLaunchKernel(&kernel, D3(1, 1, 1), D3(1, 1, 1), NULL, 0, s));
}

int main(void)
{
	simgpu_test_setup();
	setenv("SIMGPU_IDLE_POWER_MW", "40000", 1);
	simgpu_define_kernel(&kernel, "k", 0, NULL);

	nvmlDevice_t dev;
	unsigned int count = 0, mw = 0;
	unsigned long long e1, e2;
	CHECK(nvmlDeviceGetCount_v2(&count) == NVML_ERROR_UNINITIALIZED);
	CHECK(nvmlShutdown() == NVML_ERROR_UNINITIALIZED);
	/* a kernel before nvmlInit is not in the model (README) */
	launch(500000, NULL);
	CHECK(nvmlInit_v2() == NVML_SUCCESS);
	CHECK(nvmlDeviceGetCount_v2(&count) == NVML_SUCCESS && count == 1);
	CHECK(nvmlDeviceGetHandleByIndex_v2(1, &dev) == NVML_ERROR_INVALID_ARGUMENT);
	CHECK(nvmlDeviceGetHandleByIndex_v2(0, &dev) == NVML_SUCCESS);
	CHECK(nvmlDeviceGetPowerUsage(dev, NULL) == NVML_ERROR_INVALID_ARGUMENT);
	CHECK(nvmlDeviceGetPowerUsage(dev, &mw) == NVML_SUCCESS);
	CHECK_EQ_U64(mw, 40000);
	CHECK(nvmlDeviceGetTotalEnergyConsumption(dev, &e1) == NVML_SUCCESS);
	CHECK(e1 >= 1000000000ULL);  /* "since the driver loaded" */
	CHECK(strcmp(nvmlErrorString(NVML_ERROR_NOT_SUPPORTED), "Not Supported") == 0);

	simgpu_power_read_fn read = (simgpu_power_read_fn)dlsym(RTLD_DEFAULT,
			SIMGPU_POWER_READ_SYMBOL);
	CHECK(read != NULL);
	CHECK(read(SIMGPU_POWER_PRIVATE_VERSION + 1, NULL, NULL, NULL) == -1);
	uint64_t t1, t2;
	unsigned int p1, p2;

	/* Non-blocking streams start at once, beside the legacy stream's
	 * kernel launched before nvmlInit (which must not count: +500 W). */
	cudaStream_t a, b;
	CHECK_CUDA(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
	CHECK_CUDA(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
	launch(120000, a);
	CHECK(read(SIMGPU_POWER_PRIVATE_VERSION, &t1, &p1, &e1) == 0);
	CHECK_EQ_U64(p1, 40000 + 120000);
	CHECK(read(SIMGPU_POWER_PRIVATE_VERSION, &t2, &p2, &e2) == 0);
	/* exact integral of 160 W over [t1, t2], each end floored to mJ */
	long long want = (long long)(160000ULL * (t2 - t1) / 1000000000ULL);
	CHECK((long long)(e2 - e1) >= want - 1 && (long long)(e2 - e1) <= want + 1);

	/* a second stream overlaps: both draw */
	launch(70000, b);
	CHECK(read(SIMGPU_POWER_PRIVATE_VERSION, &t1, &p1, &e1) == 0);
	CHECK_EQ_U64(p1, 40000 + 120000 + 70000);
	CHECK(nvmlDeviceGetPowerUsage(dev, &mw) == NVML_SUCCESS);
	CHECK_EQ_U64(mw, 230000);
	struct timespec pause = {0, 20000000};
	nanosleep(&pause, NULL);
	CHECK(read(SIMGPU_POWER_PRIVATE_VERSION, &t2, &p2, &e2) == 0);
	CHECK(t2 - t1 >= 20000000);
	want = (long long)(230000ULL * (t2 - t1) / 1000000000ULL);
	CHECK((long long)(e2 - e1) >= want - 1 && (long long)(e2 - e1) <= want + 1);

	/* a board without an energy counter */
	setenv("SIMGPU_NVML_ENERGY", "0", 1);
	CHECK(nvmlDeviceGetTotalEnergyConsumption(dev, &e1) == NVML_ERROR_NOT_SUPPORTED);
	unsetenv("SIMGPU_NVML_ENERGY");
	CHECK(nvmlShutdown() == NVML_SUCCESS);
	CHECK(nvmlDeviceGetPowerUsage(dev, &mw) == NVML_ERROR_UNINITIALIZED);
	return 0;
}
