/*
 * How the simulated runtime reaches its driver, as the real one does:
 * dlopen("libcuda.so.1"), dlsym of cuGetProcAddress_v2 only, and every
 * driver entry point it uses through cuGetProcAddress_v2, once, for the
 * legacy and the per-thread default stream. Then the simulated driver's
 * private table (simgpu_driver_private.h). A driver that is not the
 * simulated one (no private table) is refused: one line on stderr and
 * cudaErrorInsufficientDriver from every call. It must never call a driver
 * entry point it did not get through cuGetProcAddress.
 */
#include "simgpu/cudart/cudart_internal.h"
#include "simgpu/core/simgpu_open_driver.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cudart_driver cudart_drv;
struct cudart_driver cudart_drv_per_thread;
struct simgpu_driver_private cudart_priv;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int loaded; /* the driver's entry points and private table are known */
static cudaError_t init_result = cudaErrorInsufficientDriver;
static CUcontext primary_context;
/* Primary contexts of the other devices, retained at their first
 * cudaSetDevice (device 0's is primary_context). */
static CUcontext device_contexts[64];
static pthread_mutex_t device_contexts_lock = PTHREAD_MUTEX_INITIALIZER;
/* Whether this thread's current context has been seen to (once). */
static _Thread_local int context_bound;


/*
 * The CUDA version to ask a name for: the runtime's own, except for names
 * whose newer variant takes other arguments (cuCtxSynchronize_v2 and
 * cuCtxGetDevice_v2 of CUDA 13 take a context; the runtime calls the
 * older ones).
 */
static int version_for(const char *name)
{
	return strcmp(name, "cuCtxSynchronize") == 0 ||
		       strcmp(name, "cuCtxGetDevice") == 0
		       ? 2000 : SIMGPU_RUNTIME_VERSION;
}

static int resolve(__typeof__(&cuGetProcAddress_v2) get_proc,
		   struct cudart_driver *table, cuuint64_t flags)
{
	CUdriverProcAddressQueryResult status;
#define RESOLVE(field, name, proto)                                          \
	do {                                                                 \
		void *fn_ = NULL;                                            \
		if (get_proc(name, &fn_, version_for(name), flags,           \
			     &status) != CUDA_SUCCESS || !fn_) {             \
			fprintf(stderr, "simgpu: libcudart: the driver has "  \
				"no %s for CUDA %d\n", name,                 \
				SIMGPU_RUNTIME_VERSION);                     \
			return -1;                                           \
		}                                                            \
		table->field = (__typeof__(&proto))fn_;                      \
	} while (0);
	CUDART_DRIVER_ENTRIES(RESOLVE)
#undef RESOLVE
	return 0;
}

static void load_driver(void)
{
	void *handle = simgpu_open_driver();
	if (!handle) {
		fprintf(stderr, "simgpu: libcudart: cannot load libcuda.so.1: %s\n",
			dlerror());
		return;
	}
	__typeof__(&cuGetProcAddress_v2) get_proc =
		(__typeof__(&cuGetProcAddress_v2))dlsym(handle, "cuGetProcAddress_v2");
	simgpu_driver_private_fn get_private =
		(simgpu_driver_private_fn)dlsym(handle, SIMGPU_DRIVER_PRIVATE_SYMBOL);
	if (!get_proc || !get_private ||
	    get_private(SIMGPU_DRIVER_PRIVATE_VERSION, &cudart_priv) != 0) {
		fprintf(stderr, "simgpu: libcudart: the libcuda.so.1 found is "
			"not simgpu's simulated driver\n");
		return;
	}
	if (resolve(get_proc, &cudart_drv, CU_GET_PROC_ADDRESS_LEGACY_STREAM) ||
	    resolve(get_proc, &cudart_drv_per_thread,
		    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
		return;
	loaded = 1;
}

/* cuInit and the primary context: what the runtime's first call does. */
static void init_driver(void)
{
	pthread_once(&load_once, load_driver);
	if (!loaded)
		return;
	CUresult r = cudart_drv.init(0);
	if (r == CUDA_SUCCESS)
		r = cudart_drv.device_primary_ctx_retain(&primary_context, 0);
	init_result = r == CUDA_SUCCESS ? cudaSuccess : cudart_error(r);
}

/*
 * As the real runtime does, the device's primary context becomes the
 * thread's current context at its first runtime call, unless the thread
 * already has one: driver calls the program makes next find it.
 */
static void bind_primary_context(void)
{
	CUcontext current = NULL;
	if (cudart_drv.ctx_get_current(&current) == CUDA_SUCCESS && !current)
		cudart_drv.ctx_set_current(primary_context);
	context_bound = 1;
}

cudaError_t cudart_load(void)
{
	pthread_once(&load_once, load_driver);
	return loaded ? cudaSuccess : cudaErrorInsufficientDriver;
}

cudaError_t cudart_init(void)
{
	pthread_once(&init_once, init_driver);
	return init_result;
}

/*
 * cudaSetDevice: the device's primary context becomes the thread's current
 * one (retained once per process), as the real runtime does.
 */
cudaError_t cudart_check_device(int device)
{
	int count = 0;
	CUresult r = cudart_drv.device_get_count(&count);
	if (r != CUDA_SUCCESS)
		return cudart_error(r);
	return device >= 0 && device < count ? cudaSuccess
					     : cudaErrorInvalidDevice;
}

cudaError_t cudart_set_device(int device)
{
	int count = 0;
	CUresult r = cudart_drv.device_get_count(&count);
	if (r != CUDA_SUCCESS)
		return cudart_error(r);
	if (device < 0 || device >= count ||
	    device >= (int)(sizeof(device_contexts) / sizeof(device_contexts[0])))
		return cudaErrorInvalidDevice;
	pthread_mutex_lock(&device_contexts_lock);
	if (device == 0)
		device_contexts[0] = primary_context;
	if (!device_contexts[device])
		r = cudart_drv.device_primary_ctx_retain(&device_contexts[device],
							 device);
	CUcontext ctx = device_contexts[device];
	pthread_mutex_unlock(&device_contexts_lock);
	if (r == CUDA_SUCCESS)
		r = cudart_drv.ctx_set_current(ctx);
	context_bound = 1;
	return cudart_error(r);
}

cudaError_t cudart_enter(void)
{
	cudaError_t err = cudart_init();
	if (err != cudaSuccess)
		return err;
	if (!context_bound)
		bind_primary_context();
	return (cudaError_t)cudart_priv.sticky_error();
}

/*
 * The codes the simulated driver returns have the same value in both
 * enums (CUDA_ERROR_INVALID_VALUE = cudaErrorInvalidValue = 1, OUT_OF_MEMORY
 * = cudaErrorMemoryAllocation = 2, INVALID_HANDLE = 400 =
 * cudaErrorInvalidResourceHandle, NOT_READY = 600, ILLEGAL_ADDRESS = 700,
 * ...); the runtime-only codes (cudaErrorInvalidConfiguration, ...) are
 * decided by the runtime before it calls the driver.
 */
cudaError_t cudart_error(CUresult result)
{
	switch (result) {
	case CUDA_ERROR_NOT_INITIALIZED:
		return cudaErrorInitializationError;
	case CUDA_ERROR_INVALID_HANDLE:
		return cudaErrorInvalidResourceHandle;
	case CUDA_ERROR_NOT_FOUND:
		return cudaErrorSymbolNotFound;
	default:
		return (cudaError_t)result;
	}
}
