/*
 * The simulated driver's execution entry points: kernel launches
 * (cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel, each with
 * its _ptsz twin), function and kernel handles (cuFuncGetName,
 * cuFuncGetParamInfo, cuKernelGetFunction, the one simulated module of
 * cuModuleLoadData / cuModuleGetFunction), streams and events. Kernels are
 * those declared with simgpu_define_kernel; this file must never read the
 * memory kernel parameters point to.
 */
#include "simgpu/driver/driver_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- launches ---- */

static CUresult launch(CUfunction f, unsigned int gx, unsigned int gy,
		       unsigned int gz, unsigned int bx, unsigned int by,
		       unsigned int bz, unsigned int shared_mem,
		       CUstream stream, void **params, void **extra, int ptsz,
		       int cbid)
{
	DRIVER_ENTER();
	/* Parameters come either as an array or packed in extra, not both. */
	if (params && extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(f, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	void **args = params ? params : extra;
	dim3 grid = { gx, gy, gz }, block = { bx, by, bz };
	return sim_cu_result(sim_launch(f, grid, block, args, shared_mem, stream,
					ptsz, cbid));
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
			unsigned int gridDimY, unsigned int gridDimZ,
			unsigned int blockDimX, unsigned int blockDimY,
			unsigned int blockDimZ, unsigned int sharedMemBytes,
			CUstream hStream, void **kernelParams, void **extra)
{
	return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		      blockDimZ, sharedMemBytes, hStream, kernelParams, extra, 0,
		      CBID(cuLaunchKernel));
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX,
			     unsigned int gridDimY, unsigned int gridDimZ,
			     unsigned int blockDimX, unsigned int blockDimY,
			     unsigned int blockDimZ, unsigned int sharedMemBytes,
			     CUstream hStream, void **kernelParams, void **extra)
{
	return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		      blockDimZ, sharedMemBytes, hStream, kernelParams, extra, 1,
		      CBID(cuLaunchKernel_ptsz));
}

/* Launch attributes are accepted and ignored (no clusters, priorities). */
static CUresult launch_ex(const CUlaunchConfig *config, CUfunction f,
			  void **params, void **extra, int ptsz, int cbid)
{
	if (!config || (config->numAttrs && !config->attrs))
		return sim_driver_initialized() ? CUDA_ERROR_INVALID_VALUE
						: CUDA_ERROR_NOT_INITIALIZED;
	return launch(f, config->gridDimX, config->gridDimY, config->gridDimZ,
		      config->blockDimX, config->blockDimY, config->blockDimZ,
		      config->sharedMemBytes, config->hStream, params, extra,
		      ptsz, cbid);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
			  void **kernelParams, void **extra)
{
	return launch_ex(config, f, kernelParams, extra, 0, CBID(cuLaunchKernelEx));
}

CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
			       void **kernelParams, void **extra)
{
	return launch_ex(config, f, kernelParams, extra, 1,
			 CBID(cuLaunchKernelEx_ptsz));
}

/* Co-residency of all blocks is not checked (one simulated launch). */
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
				   unsigned int gridDimY, unsigned int gridDimZ,
				   unsigned int blockDimX, unsigned int blockDimY,
				   unsigned int blockDimZ,
				   unsigned int sharedMemBytes, CUstream hStream,
				   void **kernelParams)
{
	return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		      blockDimZ, sharedMemBytes, hStream, kernelParams, NULL, 0,
		      CBID(cuLaunchCooperativeKernel));
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
					unsigned int gridDimY,
					unsigned int gridDimZ,
					unsigned int blockDimX,
					unsigned int blockDimY,
					unsigned int blockDimZ,
					unsigned int sharedMemBytes,
					CUstream hStream, void **kernelParams)
{
	return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
		      blockDimZ, sharedMemBytes, hStream, kernelParams, NULL, 1,
		      CBID(cuLaunchCooperativeKernel_ptsz));
}

/* ---- functions, kernels, the simulated module ---- */

CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
	DRIVER_ENTER();
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(hfunc, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cu_result(sim_function_name(hfunc, name));
}

/* Out of range index or NULL outputs: CUDA_ERROR_INVALID_VALUE (cuda.h). */
CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
			    size_t *paramOffset, size_t *paramSize)
{
	DRIVER_ENTER();
	if (!sim_function_of(func, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cu_result(sim_function_param(func, paramIndex, paramOffset,
						paramSize));
}

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
	DRIVER_ENTER();
	if (!pFunc)
		return CUDA_ERROR_INVALID_VALUE;
	CUfunction f = sim_function_of(kernel, 1);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*pFunc = f;
	return CUDA_SUCCESS;
}

CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
	DRIVER_ENTER();
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!sim_function_of(hfunc, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cu_result(sim_function_name(hfunc, name));
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex,
			      size_t *paramOffset, size_t *paramSize)
{
	DRIVER_ENTER();
	if (!sim_function_of(kernel, 1))
		return CUDA_ERROR_INVALID_HANDLE;
	return sim_cu_result(sim_function_param(kernel, paramIndex, paramOffset,
						paramSize));
}

/*
 * Modules: a fatbin or cubin image (what nvcc and ptxas write) is read by
 * core_fatbin.c and its kernels and globals defined (core_modules.c); a bad
 * one is CUDA_ERROR_INVALID_IMAGE, one with no sm_90 cubin
 * CUDA_ERROR_NO_BINARY_FOR_GPU (PTX is not compiled). The NUL-terminated
 * image "simgpu" is the simulator's built-in module of the kernels
 * declared with simgpu_define_kernel (found by that name, first declared).
 */
struct CUmod_st {
	uint32_t magic;
};
static struct CUmod_st the_module = { 0x4d4f4455U /* "MODU" */ };
static const char builtin_image[] = "simgpu";

static int is_builtin_image(const void *image)
{
	const unsigned char *p = image;
	/* Compare byte by byte: stop at the first difference, read no further. */
	for (size_t i = 0; i < sizeof(builtin_image); i++)
		if (p[i] != (unsigned char)builtin_image[i])
			return 0;
	return 1;
}

static CUresult load_module(CUmodule *module, const void *image)
{
	DRIVER_ENTER();
	if (!module || !image)
		return CUDA_ERROR_INVALID_VALUE;
	if (is_builtin_image(image)) {
		*module = &the_module;
		return CUDA_SUCCESS;
	}
	struct sim_module *m;
	CUresult r = sim_module_load(image, 0, &m);
	if (r == CUDA_SUCCESS)
		*module = (CUmodule)(void *)m;
	return r;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	return load_module(module, image);
}

/* JIT options only concern PTX, which is not compiled: ignored. */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
			    unsigned int numOptions, CUjit_option *options,
			    void **optionValues)
{
	if (numOptions && (!options || !optionValues))
		return CUDA_ERROR_INVALID_VALUE;
	return load_module(module, image);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
	return load_module(module, fatCubin);
}

/* A file holding a cubin or fatbin (as nvcc -cubin / -fatbin write). */
CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
	DRIVER_ENTER();
	if (!module || !fname)
		return CUDA_ERROR_INVALID_VALUE;
	FILE *f = fopen(fname, "rb");
	if (!f)
		return CUDA_ERROR_FILE_NOT_FOUND;
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			unsigned char *nb = realloc(buf, cap + 8);
			if (!nb) {
				free(buf);
				fclose(f);
				return CUDA_ERROR_OUT_OF_MEMORY;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	memset(buf + len, 0, 8); /* the built-in image check reads 7 bytes */
	CUresult r = CUDA_ERROR_INVALID_IMAGE;
	if (len >= 8)
		r = load_module(module, buf);
	free(buf);
	return r;
}

CUresult cuModuleUnload(CUmodule hmod)
{
	DRIVER_ENTER();
	if (hmod == &the_module)
		return CUDA_SUCCESS;
	struct sim_module *m = sim_module_lookup(hmod);
	return m ? sim_module_unload(m) : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	DRIVER_ENTER();
	if (!hfunc || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (hmod != &the_module) {
		struct sim_module *m = sim_module_lookup(hmod);
		return m ? sim_module_function(m, name, hfunc)
			 : CUDA_ERROR_INVALID_HANDLE;
	}
	CUfunction f = sim_function_named(name);
	if (!f)
		return CUDA_ERROR_NOT_FOUND;
	*hfunc = f;
	return CUDA_SUCCESS;
}

/* A module's __device__ / __constant__ variable; either output may be NULL. */
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
			      const char *name)
{
	DRIVER_ENTER();
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	struct sim_module *m = hmod == &the_module ? NULL : sim_module_lookup(hmod);
	if (!m)
		return hmod == &the_module ? CUDA_ERROR_NOT_FOUND
					   : CUDA_ERROR_INVALID_HANDLE;
	void *dev = NULL;
	CUresult r = sim_module_global(m, name, &dev, bytes);
	if (r == CUDA_SUCCESS && dptr)
		*dptr = (CUdeviceptr)(uintptr_t)dev;
	return r;
}

/* ---- streams ---- */

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_stream_create(phStream, Flags, 0));
}

/* Priorities are clamped to [-5, 0], reported, and do not schedule. */
CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
				    int priority)
{
	DRIVER_ENTER();
	if (priority > 0)
		priority = 0;
	if (priority < -5)
		priority = -5;
	return sim_cu_result(sim_stream_create(phStream, flags, priority));
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_stream_destroy(hStream));
}

CUresult cuStreamSynchronize(CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_stream_synchronize(hStream, 0));
}

CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_stream_synchronize(hStream, 1));
}

CUresult cuStreamQuery(CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_stream_query(hStream, 0));
}

CUresult cuStreamQuery_ptsz(CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_stream_query(hStream, 1));
}

static CUresult stream_wait_event(CUstream s, CUevent e, unsigned int flags,
				  int ptsz)
{
	DRIVER_ENTER();
	if (flags & ~(unsigned int)CU_EVENT_WAIT_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	return sim_cu_result(sim_stream_wait_event(s, e, ptsz));
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	return stream_wait_event(hStream, hEvent, Flags, 0);
}

CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent,
				unsigned int Flags)
{
	return stream_wait_event(hStream, hEvent, Flags, 1);
}

static CUresult stream_get_flags(CUstream stream, unsigned int *flags, int ptsz)
{
	DRIVER_ENTER();
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, ptsz);
	if (s)
		*flags = s->flags;
	pthread_mutex_unlock(&sim_lock);
	return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
	return stream_get_flags(hStream, flags, 0);
}

CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags)
{
	return stream_get_flags(hStream, flags, 1);
}

static CUresult stream_get_priority(CUstream stream, int *priority, int ptsz)
{
	DRIVER_ENTER();
	if (!priority)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&sim_lock);
	struct CUstream_st *s = sim_stream_resolve(stream, ptsz);
	if (s)
		*priority = s->priority;
	pthread_mutex_unlock(&sim_lock);
	return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
	return stream_get_priority(hStream, priority, 0);
}

CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
	return stream_get_priority(hStream, priority, 1);
}

/* ---- events ---- */

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_event_create(phEvent, Flags));
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_event_destroy(hEvent));
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_event_record(hEvent, hStream, 0));
}

CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	DRIVER_ENTER();
	return sim_cu_result(sim_event_record(hEvent, hStream, 1));
}

static CUresult event_record_with_flags(CUevent e, CUstream s,
					unsigned int flags, int ptsz)
{
	DRIVER_ENTER();
	if (flags & ~(unsigned int)CU_EVENT_RECORD_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	return sim_cu_result(sim_event_record(e, s, ptsz));
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
				unsigned int flags)
{
	return event_record_with_flags(hEvent, hStream, flags, 0);
}

CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream,
				     unsigned int flags)
{
	return event_record_with_flags(hEvent, hStream, flags, 1);
}

CUresult cuEventSynchronize(CUevent hEvent)
{
	DRIVER_ENTER();
	int recorded;
	struct sim_instant t;
	unsigned int flags;
	cudaError_t err = sim_event_state(hEvent, &recorded, &t, &flags);
	if (err != cudaSuccess)
		return sim_cu_result(err);
	if (recorded)
		sim_wait_device_time(t);
	return sim_cu_result(sim_enter());
}

CUresult cuEventQuery(CUevent hEvent)
{
	DRIVER_ENTER();
	int recorded;
	struct sim_instant t;
	unsigned int flags;
	cudaError_t err = sim_event_state(hEvent, &recorded, &t, &flags);
	if (err != cudaSuccess)
		return sim_cu_result(err);
	return !recorded || sim_device_time_reached(t) ? CUDA_SUCCESS
						       : CUDA_ERROR_NOT_READY;
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart,
			       CUevent hEnd)
{
	DRIVER_ENTER();
	if (!pMilliseconds)
		return CUDA_ERROR_INVALID_VALUE;
	int rec_a, rec_b;
	struct sim_instant t_a, t_b;
	unsigned int flags_a, flags_b;
	cudaError_t err = sim_event_state(hStart, &rec_a, &t_a, &flags_a);
	if (err == cudaSuccess)
		err = sim_event_state(hEnd, &rec_b, &t_b, &flags_b);
	if (err != cudaSuccess)
		return sim_cu_result(err);
	if (!rec_a || !rec_b || ((flags_a | flags_b) & CU_EVENT_DISABLE_TIMING))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!sim_device_time_reached(t_a) || !sim_device_time_reached(t_b))
		return CUDA_ERROR_NOT_READY;
	/* Virtual time: exact, whatever the host's speed (README.md). */
	*pMilliseconds = (float)(((double)t_b.v - (double)t_a.v) / 1e6);
	return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
	return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}
