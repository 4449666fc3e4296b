/*
 * simgpu: the simulated GPU's own interface, exported by the simulated
 * libcudart.so.13 (simgpu). A stable interface: workloads and outside
 * tests use it to give kernels names, parameter layouts and exact durations.
 * The real CUDA runtime has none of these symbols; programs that must also
 * run on a real GPU should reach them with dlsym and skip them when absent.
 */
#ifndef SIMGPU_H
#define SIMGPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Declares a kernel: the host-side function handle a program passes to
 * cudaLaunchKernel, its name (what cudaFuncGetName and the CUPTI kernel record
 * report) and the size of each parameter in order (cudaFuncGetParamInfo gives
 * offsets as the CUDA ABI lays them out: each parameter aligned to its size,
 * capped at 8, and at least 1). Redefining a handle replaces its definition.
 * Launching an undeclared handle fails with cudaErrorInvalidDeviceFunction.
 */
void simgpu_define_kernel(const void *func, const char *name, size_t nparams,
			  const size_t *param_sizes);

/*
 * Sets the exact simulated duration, in ns, of the calling thread's next
 * launched kernel (applies once). Without it, the cost model in
 * simgpu/README.md decides.
 */
void simgpu_next_kernel_ns(unsigned long long ns);

/*
 * For the simulated libraries (cuBLAS, cuDNN), which set each kernel's
 * duration from its FLOPs and bytes: sets the duration of the calling
 * thread's next launched kernel like simgpu_next_kernel_ns, unless the
 * program already set one with simgpu_next_kernel_ns (that one wins).
 */
void simgpu_default_next_kernel_ns(unsigned long long ns);

/*
 * Makes the calling thread's next launched kernel fault: the launch itself
 * succeeds, and once that kernel has completed (SIMGPU_TIME_SCALE=0: at
 * once) every CUDA call returns cuda_error (a cudaError_t, e.g.
 * cudaErrorIllegalAddress = 700), sticky for the rest of the process, as
 * after a real device fault. 0 cancels a request not yet used.
 */
void simgpu_fail_next_kernel(int cuda_error);

/*
 * Sets the power, in mW, that the calling thread's next launched kernel
 * draws on top of the board's idle power while it runs (applies once;
 * default SIMGPU_KERNEL_POWER_MW, 100 W). Read back through the simulated
 * NVML (libnvidia-ml.so.1): the power model is in simgpu/README.md.
 */
void simgpu_next_kernel_power_mw(unsigned int mw);

#ifdef __cplusplus
}
#endif

#endif
