/*
 * The private contract between the simulated libcudart (.so.13 / .so.12)
 * and the simulated driver libcuda.so.1, beyond the public driver API that
 * cudart reaches through cuGetProcAddress. Not for programs: only the
 * simulated runtime (cudart_*.c) and driver (core_*.c and the driver directory) use it.
 * cudart looks these names up with dlsym on its libcuda handle; the real
 * driver has none of them, so the simulated runtime refuses to start on it.
 * It must never carry a device operation the public driver API has: those
 * go through the driver entry points, where a tracer can see them.
 */
#ifndef SIMGPU_DRIVER_PRIVATE_H
#define SIMGPU_DRIVER_PRIVATE_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "simgpu/core/simgpu_cupti_hook.h"

#define SIMGPU_DRIVER_PRIVATE_VERSION 2

/*
 * One runtime API call in progress on this thread, on the runtime's stack:
 * the driver calls made inside it are reported to CUPTI together with it
 * (one report, both cbids, one correlation id), when the frame ends.
 */
struct simgpu_runtime_frame {
	int runtime_cbid;      /* CUPTI_RUNTIME_TRACE_CBID_* */
	int submits_work;      /* launch, copy, set: no report without work */
	uint64_t start_ns;     /* 0: no API record wanted (so far) */
	int reported;          /* a driver call left its report in work */
	struct simgpu_work work;
	struct simgpu_runtime_frame *outer;
};

struct simgpu_driver_private {
	unsigned int version;
	void (*runtime_begin)(struct simgpu_runtime_frame *frame,
			      int runtime_cbid, int submits_work);
	/* Ends the frame, reports it with the runtime's result; returns it. */
	int (*runtime_end)(struct simgpu_runtime_frame *frame, int result);
	/* The sticky error of a faulted device (a cudaError_t), or 0. */
	int (*sticky_error)(void);
	/* CUfunction of a declared host function or kernel handle, or NULL;
	 * handles_only: host functions are not accepted. */
	CUfunction (*function_of)(const void *func, int handles_only);
	/* CUkernel (= cudaKernel_t) of a declared host function, or NULL. */
	CUkernel (*kernel_of)(const void *host_func);
	/* cudaPointerGetAttributes' answer for p (never fails). */
	void (*pointer_attributes)(const void *p,
				   struct cudaPointerAttributes *out);
	/* cudaDeviceReset: frees all device memory, streams and events. */
	void (*device_reset)(void);
	/* The driver's simgpu.h functions, which the runtime exports too. */
	void (*define_kernel)(const void *func, const char *name,
			      size_t nparams, const size_t *param_sizes);
	void (*next_kernel_ns)(unsigned long long ns);
	void (*default_next_kernel_ns)(unsigned long long ns);
	void (*fail_next_kernel)(int cuda_error);
	void (*next_kernel_power_mw)(unsigned int mw);
	/* The driver's cuGetProcAddress_v2, for cudaGetDriverEntryPoint*. */
	CUresult (*get_proc_address)(const char *symbol, void **pfn,
				     int cuda_version, cuuint64_t flags,
				     CUdriverProcAddressQueryResult *status);
	/*
	 * A program's device code (__cudaRegisterFatBinary): the fatbin at
	 * image becomes a module; never fails but for host memory (a bad image
	 * gives a module whose kernels fail to launch). CUresult.
	 */
	int (*module_load)(const void *image, void **module);
	/* Its load result (a CUresult). */
	int (*module_status)(void *module);
	/* __cudaRegisterFunction / Var: host-side keys bound to the module's
	 * kernel / variable of that name. cudaError_t. */
	int (*register_function)(void *module, const void *host,
				 const char *device_name);
	int (*register_var)(void *module, const void *host,
			    const char *device_name, size_t size, int managed,
			    void **dev);
	/* A registered variable by its host key (cudaErrorInvalidSymbol). */
	int (*symbol_lookup)(const void *host, void **dev, size_t *size);
};

/* Exported by the simulated libcuda.so.1: fills *out, 0 on success. */
#define SIMGPU_DRIVER_PRIVATE_SYMBOL "simgpu_internal_driver_private"
typedef int (*simgpu_driver_private_fn)(unsigned int version,
					struct simgpu_driver_private *out);

#endif
