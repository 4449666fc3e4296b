/*
 * The simulated runtime's kernel entry points: launches (cudaLaunchKernel,
 * cudaLaunchKernelExC, nvcc 13's __cudaLaunchKernel, each with its _ptsz
 * twin) through the driver's cuLaunchKernel / cuLaunchKernelEx, kernel
 * handles (cudaGetKernel, __cudaGetKernel, cudaGetFuncBySymbol), kernel
 * names and parameter layouts (through cuFuncGetName / cuFuncGetParamInfo),
 * cudaGetDriverEntryPoint[ByVersion], and the simgpu.h functions, which
 * forward to the driver's registry. Kernels are declared with
 * simgpu_define_kernel; this file must never dereference a kernel handle.
 */
#include "simgpu/cudart/cudart_internal.h"
#include "simgpu/simgpu.h"

/*
 * Prototypes of the entry points nvcc 13's generated launch code calls
 * (crt/device_functions.h declares them for C++ only), as there.
 */
extern cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func);
extern cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
				      dim3 blockDim, void **args,
				      size_t sharedMem, cudaStream_t stream);
extern cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
					   dim3 blockDim, void **args,
					   size_t sharedMem,
					   cudaStream_t stream);

/* ---- simgpu.h: the registry lives in the driver ---- */

void simgpu_define_kernel(const void *func, const char *name, size_t nparams,
			  const size_t *param_sizes)
{
	if (cudart_load() == cudaSuccess)
		cudart_priv.define_kernel(func, name, nparams, param_sizes);
}

void simgpu_next_kernel_ns(unsigned long long ns)
{
	if (cudart_load() == cudaSuccess)
		cudart_priv.next_kernel_ns(ns);
}

void simgpu_default_next_kernel_ns(unsigned long long ns)
{
	if (cudart_load() == cudaSuccess)
		cudart_priv.default_next_kernel_ns(ns);
}

void simgpu_next_kernel_power_mw(unsigned int mw)
{
	if (cudart_load() == cudaSuccess)
		cudart_priv.next_kernel_power_mw(mw);
}

void simgpu_fail_next_kernel(int cuda_error)
{
	if (cudart_load() == cudaSuccess)
		cudart_priv.fail_next_kernel(cuda_error);
}

/* ---- names and parameters ---- */

/*
 * What the cudaFunc* and cudaLaunchKernel* entry points accept: a host
 * function, or a cudaKernel_t cast to void * (cuda_runtime_api.h,
 * \note_cudaKernel_t).
 */
cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	ENTER();
	if (!name)
		return sim_return(cudaErrorInvalidValue);
	CUfunction f = cudart_priv.function_of(func, 0);
	if (!f)
		return sim_return(cudaErrorInvalidDeviceFunction);
	return sim_return(cudart_error(cudart_drv.func_get_name(name, f)));
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex,
				 size_t *paramOffset, size_t *paramSize)
{
	ENTER();
	CUfunction f = cudart_priv.function_of(func, 0);
	if (!f)
		return sim_return(cudaErrorInvalidDeviceFunction);
	/* header: CUDA_ERROR_INVALID_VALUE for a bad index or output */
	return sim_return(cudart_error(cudart_drv.func_get_param_info(
		f, paramIndex, paramOffset, paramSize)));
}

/*
 * The cudaKernel_t of host function func. nvcc 13's generated code calls
 * __cudaGetKernel once per kernel and launches through the handle. Assumed,
 * not tested on a GPU: an undeclared func is cudaErrorInvalidDeviceFunction
 * and leaves *kernel untouched; only host functions are looked up (a
 * handle passed as func is undeclared).
 */
static cudaError_t get_kernel(cudaKernel_t *kernel, const void *func)
{
	ENTER();
	if (!kernel)
		return sim_return(cudaErrorInvalidValue);
	CUkernel k = cudart_priv.kernel_of(func);
	if (!k)
		return sim_return(cudaErrorInvalidDeviceFunction);
	*kernel = k;
	return cudaSuccess;
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
	return get_kernel(kernelPtr, entryFuncAddr);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
	return get_kernel(kernel, func);
}

/* The driver's CUfunction for a declared host function (or kernel handle). */
cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr,
				const void *symbolPtr)
{
	ENTER();
	if (!functionPtr)
		return sim_return(cudaErrorInvalidValue);
	CUfunction f = cudart_priv.function_of(symbolPtr, 0);
	if (!f)
		return sim_return(cudaErrorInvalidDeviceFunction);
	*functionPtr = f;
	return cudaSuccess;
}

/* ---- launches ---- */

cudaError_t cudart_launch(const void *func, int handles_only, dim3 grid,
			  dim3 block, void **args, size_t shared_mem,
			  cudaStream_t stream, int per_thread)
{
	ENTER();
	CUfunction f = cudart_priv.function_of(func, handles_only);
	if (!f)
		return sim_return(cudaErrorInvalidDeviceFunction);
	cudaError_t err = sim_check_launch_geometry(grid, block, shared_mem);
	if (err != cudaSuccess)
		return sim_return(err);
	CUresult r = cudart_driver_for(per_thread)->launch_kernel(
		f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
		(unsigned int)shared_mem, stream, args, NULL);
	return sim_return(cudart_error(r));
}

#define LAUNCH(cbid, ...) RUNTIME_CALL(RT_CBID(cbid), 1, cudart_launch(__VA_ARGS__))

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem, cudaStream_t stream)
{
	LAUNCH(cudaLaunchKernel_v7000, func, 0, gridDim, blockDim, args,
	       sharedMem, stream, 0);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args, size_t sharedMem,
				  cudaStream_t stream)
{
	LAUNCH(cudaLaunchKernel_ptsz_v7000, func, 0, gridDim, blockDim, args,
	       sharedMem, stream, 1);
}

/*
 * Through cuLaunchKernelEx. Launch attributes are checked for presence and
 * not passed on: the simulated device models none of them.
 */
static cudaError_t launch_ex(const cudaLaunchConfig_t *config,
			     const void *func, void **args, int per_thread)
{
	ENTER();
	if (!config || (config->numAttrs && !config->attrs))
		return sim_return(cudaErrorInvalidValue);
	CUfunction f = cudart_priv.function_of(func, 0);
	if (!f)
		return sim_return(cudaErrorInvalidDeviceFunction);
	cudaError_t err = sim_check_launch_geometry(config->gridDim,
						    config->blockDim,
						    config->dynamicSmemBytes);
	if (err != cudaSuccess)
		return sim_return(err);
	CUlaunchConfig c = {
		.gridDimX = config->gridDim.x, .gridDimY = config->gridDim.y,
		.gridDimZ = config->gridDim.z, .blockDimX = config->blockDim.x,
		.blockDimY = config->blockDim.y, .blockDimZ = config->blockDim.z,
		.sharedMemBytes = (unsigned int)config->dynamicSmemBytes,
		.hStream = config->stream,
	};
	return sim_return(cudart_error(
		cudart_driver_for(per_thread)->launch_kernel_ex(&c, f, args, NULL)));
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args)
{
	RUNTIME_CALL(RT_CBID(cudaLaunchKernelExC_v11060), 1,
		     launch_ex(config, func, args, 0));
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
				     const void *func, void **args)
{
	RUNTIME_CALL(RT_CBID(cudaLaunchKernelExC_ptsz_v11060), 1,
		     launch_ex(config, func, args, 1));
}

/*
 * nvcc 13's launch path: like cudaLaunchKernel[_ptsz] on the kernel the
 * handle stands for. Assumed, not tested on a GPU: anything but a
 * cudaKernel_t (a host function address, say) is
 * cudaErrorInvalidDeviceFunction.
 */
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream)
{
	LAUNCH(__cudaLaunchKernel_v13000, (const void *)kernel, 1, gridDim,
	       blockDim, args, sharedMem, stream, 0);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream)
{
	LAUNCH(__cudaLaunchKernel_ptsz_v13000, (const void *)kernel, 1,
	       gridDim, blockDim, args, sharedMem, stream, 1);
}

/* ---- driver entry points for the program ---- */

/*
 * The driver's cuGetProcAddress_v2 answer, as the header says the runtime
 * gives it: cudaSuccess with *funcPtr NULL when the symbol is not there
 * (driverStatus says why). Flag and status values are the driver's.
 */
static cudaError_t driver_entry_point(const char *symbol, void **funcPtr,
				      int version, unsigned long long flags,
				      enum cudaDriverEntryPointQueryResult *status)
{
	ENTER();
	if (!symbol || !funcPtr)
		return sim_return(cudaErrorInvalidValue);
	CUdriverProcAddressQueryResult driver_status;
	CUresult r = cudart_priv.get_proc_address(symbol, funcPtr, version,
						  flags, &driver_status);
	if (status)
		*status = (enum cudaDriverEntryPointQueryResult)driver_status;
	if (r == CUDA_ERROR_NOT_FOUND)
		return cudaSuccess;
	return sim_return(cudart_error(r));
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
				    unsigned long long flags,
				    enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return driver_entry_point(symbol, funcPtr, SIMGPU_RUNTIME_VERSION, flags,
				  driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
					     unsigned int cudaVersion,
					     unsigned long long flags,
					     enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return driver_entry_point(symbol, funcPtr, (int)cudaVersion, flags,
				  driverStatus);
}
