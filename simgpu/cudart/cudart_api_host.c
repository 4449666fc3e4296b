/*
 * Host memory and host work in the simulated runtime: cudaHostRegister /
 * Unregister (the driver's cuMemHostRegister_v2 / cuMemHostUnregister),
 * cudaHostGetDevicePointer, and host functions on a stream
 * (cudaLaunchHostFunc through the driver's cuLaunchHostFunc, which a
 * capturing stream turns into a host node; cudaStreamAddCallback).
 * Simulated pinned memory is ordinary host memory, and with unified
 * addressing its device pointer is its host address. Host functions run in
 * the calling thread once the stream's earlier work has completed (a real
 * runtime runs them later, on a thread of its own, without blocking the
 * caller): the order the program sees is the same; it must never run one
 * before that work has ended.
 */
#include "simgpu/cudart/cudart_internal.h"

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	ENTER();
	if (flags & ~(unsigned int)(cudaHostRegisterPortable | cudaHostRegisterMapped |
				    cudaHostRegisterIoMemory | cudaHostRegisterReadOnly))
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(cudart_drv.mem_host_register(ptr, size, flags)));
}

cudaError_t cudaHostUnregister(void *ptr)
{
	ENTER();
	return sim_return(cudart_error(cudart_drv.mem_host_unregister(ptr)));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
	ENTER();
	if (!pDevice || !pHost || flags != 0)
		return sim_return(cudaErrorInvalidValue);
	*pDevice = pHost;
	return cudaSuccess;
}

static cudaError_t after_stream(cudaStream_t stream, int per_thread)
{
	CUresult r = cudart_driver_for(per_thread)->stream_synchronize(stream);
	return cudart_error(r);
}

static cudaError_t launch_host_func(cudaStream_t stream, cudaHostFn_t fn,
				    void *userData, int per_thread)
{
	ENTER();
	if (!fn)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(cudart_error(
		cudart_driver_for(per_thread)->launch_host_func(stream, fn,
								 userData)));
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	RUNTIME_CALL(RT_CBID(cudaLaunchHostFunc_v10000), 0,
		     launch_host_func(stream, fn, userData, 0));
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	RUNTIME_CALL(RT_CBID(cudaLaunchHostFunc_ptsz_v10000), 0,
		     launch_host_func(stream, fn, userData, 1));
}

/* flags must be 0 (cuda_runtime_api.h); the callback gets the stream's status. */
static cudaError_t add_callback(cudaStream_t stream, cudaStreamCallback_t callback,
				void *userData, unsigned int flags, int per_thread)
{
	ENTER();
	if (!callback || flags != 0)
		return sim_return(cudaErrorInvalidValue);
	cudaError_t err = after_stream(stream, per_thread);
	if (err == cudaErrorInvalidResourceHandle)
		return sim_return(err);
	callback(stream, err, userData);
	return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
				  void *userData, unsigned int flags)
{
	return add_callback(stream, callback, userData, flags, 0);
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
				       void *userData, unsigned int flags)
{
	return add_callback(stream, callback, userData, flags, 1);
}
