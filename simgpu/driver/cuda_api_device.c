/*
 * The simulated driver's setup, device and context entry points: cuInit,
 * versions, the devices and their attributes, the primary contexts, error
 * names (the core's table), and the private table
 * the simulated runtime asks for (simgpu_driver_private.h). SIMGPU_DEVICE_COUNT
 * devices (default 1), one primary context each; they share one memory and
 * one timeline: extra ordinals exist so that a process driving one of them
 * (a DDP rank after cudaSetDevice(rank)) sees and reports that ordinal.
 * Memory calls do not require a current context (a difference from a real
 * driver, see README.md). It must never touch device memory or the timeline.
 */
#include "simgpu/driver/driver_internal.h"
#include "simgpu/driver/h100_attributes.h"
#include "simgpu/simgpu.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CUctx_st {
	uint32_t magic;
	int device;
};
#define CTX_MAGIC 0x43545854U /* "CTXT" */
static struct CUctx_st primary_contexts[SIM_MAX_DEVICES];
static _Atomic int primary_retains[SIM_MAX_DEVICES];
static _Thread_local CUcontext current_context;

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;
static int device_count = 1;

/* SIMGPU_DEVICE_COUNT: a bad value is one line on stderr and exit 2, as for
 * the other SIMGPU_* settings. */
static void devices_init(void)
{
	const char *text = getenv("SIMGPU_DEVICE_COUNT");
	if (text && *text) {
		char *end;
		long n = strtol(text, &end, 10);
		if (*end != '\0' || n < 1 || n > SIM_MAX_DEVICES) {
			fprintf(stderr, "simgpu: SIMGPU_DEVICE_COUNT='%s' is not "
				"a count from 1 to %d\n", text, SIM_MAX_DEVICES);
			exit(2);
		}
		device_count = (int)n;
	}
	for (int i = 0; i < SIM_MAX_DEVICES; i++)
		primary_contexts[i] = (struct CUctx_st){ CTX_MAGIC, i };
}

int sim_device_count(void)
{
	pthread_once(&devices_once, devices_init);
	return device_count;
}

static CUcontext primary_context_of(const struct CUctx_st *ctx)
{
	for (int i = 0; i < sim_device_count(); i++)
		if (ctx == &primary_contexts[i])
			return &primary_contexts[i];
	return NULL;
}

/* The core asks which device the calling thread is on (allocations and
 * records carry it) through this, installed at load: contexts are ours. */
static int current_context_device(void)
{
	return current_context ? current_context->device : 0;
}

__attribute__((constructor)) static void answer_the_core(void)
{
	sim_set_current_device_query(current_context_device);
}

CUresult cuInit(unsigned int Flags)
{
	if (Flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	sim_init();
	sim_mark_driver_initialized();
	return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return CUDA_ERROR_INVALID_VALUE;
	*driverVersion = SIM_DRIVER_VERSION;
	return CUDA_SUCCESS;
}

static CUresult check_device(CUdevice dev)
{
	return dev >= 0 && dev < sim_device_count() ? CUDA_SUCCESS
						      : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	DRIVER_ENTER();
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (check_device(ordinal) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	DRIVER_ENTER();
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = sim_device_count();
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	DRIVER_ENTER();
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (check_device(dev) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_DEVICE;
	snprintf(name, (size_t)len, "simgpu simulated device");
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	DRIVER_ENTER();
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (check_device(dev) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&sim_lock);
	*bytes = sim_mem_capacity();
	pthread_mutex_unlock(&sim_lock);
	return CUDA_SUCCESS;
}

/* The H100 of h100_attributes.h (cudaGetDeviceProperties reads it too). */
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	DRIVER_ENTER();
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	if (check_device(dev) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_DEVICE;
	if ((int)attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX)
		return CUDA_ERROR_INVALID_VALUE; /* not an attribute of cuda.h */
	int v;
	switch (attrib) {
#define SIM_ATTRIBUTE_CASE(attribute, value) case attribute: v = (value); break;
	SIM_H100_ATTRIBUTES(SIM_ATTRIBUTE_CASE)
#undef SIM_ATTRIBUTE_CASE
	default:
		v = 0; /* attributes the simulated device does not model */
	}
	*pi = v;
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	DRIVER_ENTER();
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (check_device(dev) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_DEVICE;
	atomic_fetch_add(&primary_retains[dev], 1);
	*pctx = &primary_contexts[dev];
	return CUDA_SUCCESS;
}

/* Releasing more often than retained: CUDA_ERROR_INVALID_CONTEXT (assumed). */
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	DRIVER_ENTER();
	if (check_device(dev) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_DEVICE;
	int n = atomic_load(&primary_retains[dev]);
	while (n > 0 && !atomic_compare_exchange_weak(&primary_retains[dev], &n, n - 1))
		;
	return n > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	DRIVER_ENTER();
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = current_context;
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	DRIVER_ENTER();
	if (ctx && !primary_context_of(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	current_context = ctx;
	return CUDA_SUCCESS;
}

/*
 * The simulated device has one context: cuCtxCreate retains the primary
 * context and makes it current (assumed enough for programs that create
 * one context per device, as the driver-API samples do; a real driver
 * gives a distinct context). Its parameters and flags are accepted.
 */
CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
			unsigned int flags, CUdevice dev)
{
	(void)ctxCreateParams, (void)flags;
	DRIVER_ENTER();
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = cuDevicePrimaryCtxRetain(pctx, dev);
	if (r == CUDA_SUCCESS)
		current_context = *pctx;
	return r;
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	DRIVER_ENTER();
	CUcontext primary = primary_context_of(ctx);
	if (!primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	CUresult r = cuDevicePrimaryCtxRelease_v2(primary->device);
	if (r == CUDA_SUCCESS && current_context == ctx &&
	    atomic_load(&primary_retains[primary->device]) == 0)
		current_context = NULL;
	return r;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
	DRIVER_ENTER();
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!current_context)
		return CUDA_ERROR_INVALID_CONTEXT;
	*device = current_context->device;
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_device_synchronize());
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = sim_cu_result_name(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The simulated driver has no prose of its own: the name describes. */
CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	return cuGetErrorName(error, pStr);
}

/* ---- the simulated runtime's private table ---- */

static int private_sticky_error(void)
{
	return (int)sim_enter();
}

static void private_device_reset(void)
{
	sim_device_reset();
}

static int private_module_load(const void *image, void **module)
{
	struct sim_module *m = NULL;
	CUresult r = sim_module_load(image, 1, &m);
	*module = m;
	return (int)r;
}

static int private_module_status(void *module)
{
	struct sim_module *m = sim_module_lookup(module);
	return (int)(m ? sim_module_status(m) : CUDA_ERROR_INVALID_HANDLE);
}

static int private_register_function(void *module, const void *host,
				     const char *device_name)
{
	struct sim_module *m = sim_module_lookup(module);
	return (int)(m ? sim_module_register_function(m, host, device_name)
		       : cudaErrorInvalidResourceHandle);
}

static int private_register_var(void *module, const void *host,
				const char *device_name, size_t size,
				int managed, void **dev)
{
	struct sim_module *m = sim_module_lookup(module);
	return (int)(m ? sim_module_register_var(m, host, device_name, size,
						 managed, dev)
		       : cudaErrorInvalidResourceHandle);
}

static int private_symbol_lookup(const void *host, void **dev, size_t *size)
{
	return (int)sim_symbol_lookup(host, dev, size);
}

int simgpu_internal_driver_private(unsigned int version,
				   struct simgpu_driver_private *out);
int simgpu_internal_driver_private(unsigned int version,
				   struct simgpu_driver_private *out)
{
	if (version != SIMGPU_DRIVER_PRIVATE_VERSION || !out)
		return -1;
	*out = (struct simgpu_driver_private){
		.version = SIMGPU_DRIVER_PRIVATE_VERSION,
		.runtime_begin = sim_runtime_begin,
		.runtime_end = sim_runtime_end,
		.sticky_error = private_sticky_error,
		.function_of = sim_function_of,
		.kernel_of = sim_kernel_of,
		.pointer_attributes = sim_pointer_attributes,
		.device_reset = private_device_reset,
		.define_kernel = simgpu_define_kernel,
		.next_kernel_ns = simgpu_next_kernel_ns,
		.default_next_kernel_ns = simgpu_default_next_kernel_ns,
		.fail_next_kernel = simgpu_fail_next_kernel,
		.next_kernel_power_mw = simgpu_next_kernel_power_mw,
		.get_proc_address = cuGetProcAddress_v2,
		.module_load = private_module_load,
		.module_status = private_module_status,
		.register_function = private_register_function,
		.register_var = private_register_var,
		.symbol_lookup = private_symbol_lookup,
	};
	return 0;
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	DRIVER_ENTER();
	if (ctx && !primary_context_of(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	return sim_cu_result(sim_device_synchronize());
}

CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
	DRIVER_ENTER();
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (ctx && !primary_context_of(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!ctx && !current_context)
		return CUDA_ERROR_INVALID_CONTEXT;
	*device = ctx ? ctx->device : current_context->device;
	return CUDA_SUCCESS;
}
