/*
 * cuStreamAttachMemAsync: which streams may touch a managed allocation.
 * The simulated device shares one memory with the host and runs nothing
 * concurrently with it, so attaching changes no behaviour: the call checks
 * its arguments as cuda.h states them and orders nothing. Never touches
 * memory contents.
 */
#include "simgpu/driver/driver_internal.h"

/* dptr: inside a managed allocation (cuMemAllocManaged or a __managed__
   variable: this device reports no pageable memory access); length 0 or,
   from the allocation's start, its whole size (cuda.h); flags exactly one
   of GLOBAL, HOST, SINGLE, and SINGLE not on the NULL stream. Else
   CUDA_ERROR_INVALID_VALUE (assumed: cuda.h lists no code for these); a
   dead stream: CUDA_ERROR_INVALID_HANDLE. */
static CUresult attach(CUstream hStream, CUdeviceptr dptr, size_t length,
		       unsigned int flags, int ptsz)
{
	DRIVER_ENTER();
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
	    flags != CU_MEM_ATTACH_SINGLE)
		return CUDA_ERROR_INVALID_VALUE;
	/* "It is illegal to attach singly to the NULL stream" (cuda.h). */
	if (flags == CU_MEM_ATTACH_SINGLE && hStream == NULL)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = CUDA_SUCCESS;
	pthread_mutex_lock(&sim_lock);
	if (!sim_stream_resolve(hStream, ptsz)) {
		r = CUDA_ERROR_INVALID_HANDLE;
	} else {
		const struct sim_alloc *a = sim_mem_find(DPTR(dptr));
		if (!a || a->kind != SIM_MEM_MANAGED)
			r = CUDA_ERROR_INVALID_VALUE;
		else if (length != 0 &&
			 (DPTR(dptr) != sim_mem_base(a) || length != a->requested))
			r = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&sim_lock);
	return r;
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
				unsigned int flags)
{
	DRIVER_API_CALL(cuStreamAttachMemAsync, attach(hStream, dptr, length, flags, 0));
}

CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
				     unsigned int flags)
{
	DRIVER_API_CALL(cuStreamAttachMemAsync_ptsz, attach(hStream, dptr, length, flags, 1));
}
