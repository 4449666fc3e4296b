/*
 * What the core knows of the driver API layer above it, without calling
 * it: whether cuInit has run (the driver marks it), the calling thread's
 * device (contexts belong to the driver, which installs the question's
 * answer at load), and the core's statuses as CUresult, with their names.
 * The core and the driver both use these. It must never call a driver or
 * runtime entry point (cu*, cuda*): the core sits below them
 * (simgpu/tests/test_layering.sh checks every core object for that).
 */
#include "simgpu/core/sim_internal.h"

#include <stdatomic.h>
#include <stddef.h>

static _Atomic int driver_initialized;
static int (*_Atomic current_device_query)(void);

void sim_mark_driver_initialized(void)
{
	atomic_store(&driver_initialized, 1);
}

int sim_driver_initialized(void)
{
	return atomic_load_explicit(&driver_initialized, memory_order_relaxed);
}

void sim_set_current_device_query(int (*query)(void))
{
	atomic_store(&current_device_query, query);
}

int sim_current_device(void)
{
	int (*query)(void) = atomic_load_explicit(&current_device_query,
						  memory_order_relaxed);
	return query ? query() : 0;
}

CUresult sim_cu_result(cudaError_t err)
{
	switch (err) {
	case cudaErrorInvalidConfiguration:
	case cudaErrorInvalidPitchValue:
	case cudaErrorInvalidMemcpyDirection:
	case cudaErrorInvalidDevicePointer:
		return CUDA_ERROR_INVALID_VALUE;
	case cudaErrorInvalidDeviceFunction:
		return CUDA_ERROR_INVALID_HANDLE;
	default:
		/* The other codes the core uses have the same value in both
		 * enums (1, 2, 3, 101, 400, 600, 700, 719, ...). */
		return (CUresult)err;
	}
}

struct code_name {
	int value;
	const char *name;
};
static const struct code_name result_names[] = {
#include "cuda_result_names.h"
};

const char *sim_cu_result_name(CUresult result)
{
	for (size_t i = 0; i < sizeof(result_names) / sizeof(result_names[0]); i++)
		if (result_names[i].value == (int)result)
			return result_names[i].name;
	return NULL;
}
