/*
 * Error state of the simulated runtime: each thread's last error
 * (cudaGetLastError resets it, cudaPeekAtLastError does not), the sticky
 * error of a broken device (kept by the driver, returned by every later
 * call, never cleared), and the names and descriptions of error codes.
 * Names come from the installed driver_types.h (generated table); it must
 * never invent a code that header lacks.
 */
#include "simgpu/cudart/cudart_internal.h"

#include <stddef.h>

struct code_name {
	int value;
	const char *name;
};

static const struct code_name error_names[] = {
#include "cuda_error_names.h"
};

/* Descriptions as the real runtime words them, for the codes the sim returns. */
static const struct code_name error_descriptions[] = {
	{ cudaSuccess, "no error" },
	{ cudaErrorInvalidValue, "invalid argument" },
	{ cudaErrorMemoryAllocation, "out of memory" },
	{ cudaErrorInitializationError, "initialization error" },
	{ cudaErrorInvalidConfiguration, "invalid configuration argument" },
	{ cudaErrorInvalidPitchValue, "invalid pitch argument" },
	{ cudaErrorInvalidDevicePointer, "invalid device pointer" },
	{ cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy" },
	{ cudaErrorInsufficientDriver,
	  "CUDA driver version is insufficient for CUDA runtime version" },
	{ cudaErrorInvalidDeviceFunction, "invalid device function" },
	{ cudaErrorNoDevice, "no CUDA-capable device is detected" },
	{ cudaErrorInvalidDevice, "invalid device ordinal" },
	{ cudaErrorInvalidResourceHandle, "invalid resource handle" },
	{ cudaErrorNotReady, "device not ready" },
	{ cudaErrorIllegalAddress, "an illegal memory access was encountered" },
	{ cudaErrorLaunchOutOfResources, "too many resources requested for launch" },
	{ cudaErrorLaunchFailure, "unspecified launch failure" },
	{ cudaErrorNotSupported, "operation not supported" },
	{ cudaErrorUnknown, "unknown error" },
};

static _Thread_local cudaError_t last_error = cudaSuccess;

static cudaError_t current_sticky_error(void)
{
	return cudart_init() == cudaSuccess ? (cudaError_t)cudart_priv.sticky_error()
					    : cudaSuccess;
}

cudaError_t sim_return(cudaError_t err)
{
	if (err != cudaSuccess)
		last_error = err;
	return err;
}

cudaError_t cudaGetLastError(void)
{
	cudaError_t sticky = current_sticky_error();
	if (sticky != cudaSuccess)
		return sticky;
	cudaError_t err = last_error;
	last_error = cudaSuccess;
	return err;
}

cudaError_t cudaPeekAtLastError(void)
{
	cudaError_t sticky = current_sticky_error();
	return sticky != cudaSuccess ? sticky : last_error;
}

static const char *lookup(const struct code_name *table, size_t n, int value)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].value == value)
			return table[i].name;
	return NULL;
}

const char *cudaGetErrorName(cudaError_t error)
{
	const char *name = lookup(error_names,
				  sizeof(error_names) / sizeof(error_names[0]),
				  (int)error);
	return name ? name : "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error)
{
	const char *text = lookup(error_descriptions,
				  sizeof(error_descriptions) /
					  sizeof(error_descriptions[0]),
				  (int)error);
	if (text)
		return text;
	/* Codes the sim never returns: the name is the honest description. */
	text = lookup(error_names, sizeof(error_names) / sizeof(error_names[0]),
		      (int)error);
	return text ? text : "unrecognized error code";
}
