/*
 * Simulated kernels: the registry behind simgpu_define_kernel (name and
 * parameter layout of each host-side handle), the cudaKernel_t handles of
 * cudaGetKernel / __cudaGetKernel, cudaFuncGetName, cudaFuncGetParamInfo,
 * and kernel launches (cudaLaunchKernel*, and nvcc 13's __cudaLaunchKernel*):
 * validated as the real runtime validates them, then placed on the timeline
 * with a duration from simgpu_next_kernel_ns or the cost model. Kernels
 * compute nothing; this file must never read or write the memory their
 * arguments point to.
 */
#include "tests/simgpu/sim_internal.h"
#include "tests/simgpu/simgpu.h"

#include <cupti_runtime_cbid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cost model (README.md): fixed part plus a part per thread block. */
#define KERNEL_BASE_NS 2000ULL
#define KERNEL_NS_PER_BLOCK 10ULL
/* Launch limits of the simulated device (cudaGetDeviceProperties agrees). */
#define MAX_BLOCK_THREADS 1024U
#define MAX_BLOCK_X 1024U
#define MAX_BLOCK_Y 1024U
#define MAX_BLOCK_Z 64U
#define MAX_GRID_X 2147483647U
#define MAX_GRID_YZ 65535U
#define MAX_SHARED_MEM_OPTIN (227U * 1024U)

/*
 * A cudaKernel_t points to the one embedded in its kernel's registry entry:
 * a device-side handle distinct from the host function address, as on a
 * real GPU (there a CUkernel), so a caller that confused the two would fail.
 * Only addresses found in kernels_by_handle are ever dereferenced.
 */
struct CUkern_st {
	uint32_t magic;
};
#define SIM_KERNEL_MAGIC 0x4b45524eU /* "KERN" */

struct kernel {
	const void *func;
	const char *name;   /* interned: never freed, CUPTI records point here */
	size_t nparams;
	size_t *offsets;
	size_t *sizes;
	struct kernel *next;
	struct CUkern_st handle;           /* what cudaGetKernel returns */
	struct kernel *next_by_handle;
};

#define KERNEL_BUCKETS 1024
static struct kernel *kernels[KERNEL_BUCKETS];
static struct kernel *kernels_by_handle[KERNEL_BUCKETS];

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

/* Names replaced by a redefinition: kept, since records may point to them. */
struct retired_name {
	const char *name;
	struct retired_name *next;
};
static struct retired_name *retired_names;

static _Thread_local unsigned long long next_kernel_ns;
static _Thread_local int next_kernel_ns_set;
static _Thread_local int next_kernel_error;

static size_t bucket_of(const void *func)
{
	uintptr_t h = (uintptr_t)func;
	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 40) % KERNEL_BUCKETS;
}

/* The kernel declared for host function func. Caller holds sim_lock. */
static struct kernel *find_by_func(const void *func)
{
	for (struct kernel *k = kernels[bucket_of(func)]; k; k = k->next)
		if (k->func == func)
			return k;
	return NULL;
}

/* The kernel whose cudaKernel_t is handle. Caller holds sim_lock. */
static struct kernel *find_by_handle(const void *handle)
{
	for (struct kernel *k = kernels_by_handle[bucket_of(handle)]; k;
	     k = k->next_by_handle)
		if ((const void *)&k->handle == handle)
			return k;
	return NULL;
}

/*
 * What the cudaFunc* and cudaLaunchKernel* entry points accept: a host
 * function, or a cudaKernel_t cast to void * (cuda_runtime_api.h,
 * \note_cudaKernel_t). Caller holds sim_lock.
 */
static struct kernel *find_kernel(const void *func)
{
	struct kernel *k = find_by_func(func);
	return k ? k : find_by_handle(func);
}

size_t sim_param_alignment(size_t size)
{
	size_t align = 8;
	while (align > 1 && size % align != 0)
		align /= 2;
	return align;
}

void simgpu_define_kernel(const void *func, const char *name, size_t nparams,
			  const size_t *param_sizes)
{
	if (!func || !name || (nparams && !param_sizes)) {
		fprintf(stderr, "simgpu: simgpu_define_kernel needs a handle, a "
			"name and the parameter sizes; ignored\n");
		return;
	}
	for (size_t i = 0; i < nparams; i++) {
		if (param_sizes[i] == 0) {
			fprintf(stderr, "simgpu: simgpu_define_kernel(%s): "
				"parameter %zu has size 0; ignored\n", name, i);
			return;
		}
	}
	struct kernel *k = calloc(1, sizeof(*k));
	char *interned = strdup(name);
	size_t *offsets = calloc(nparams ? nparams : 1, sizeof(size_t));
	size_t *sizes = calloc(nparams ? nparams : 1, sizeof(size_t));
	if (!k || !interned || !offsets || !sizes) {
		fprintf(stderr, "simgpu: out of host memory defining %s\n", name);
		free(k), free(interned), free(offsets), free(sizes);
		return;
	}
	size_t offset = 0;
	for (size_t i = 0; i < nparams; i++) {
		size_t align = sim_param_alignment(param_sizes[i]);
		offset = (offset + align - 1) / align * align;
		offsets[i] = offset;
		sizes[i] = param_sizes[i];
		offset += param_sizes[i];
	}
	*k = (struct kernel){ .func = func, .name = interned,
			      .nparams = nparams, .offsets = offsets,
			      .sizes = sizes };
	sim_init();
	pthread_mutex_lock(&sim_lock);
	struct kernel *old = find_by_func(func);
	if (old) {
		/* Keep the old name alive: records may still point to it. */
		free(old->offsets), free(old->sizes);
		struct retired_name *r = malloc(sizeof(*r));
		if (r) {
			r->name = old->name;
			r->next = retired_names;
			retired_names = r;
		}
		old->name = k->name;
		old->nparams = k->nparams;
		old->offsets = k->offsets;
		old->sizes = k->sizes;
		free(k);
	} else {
		size_t b = bucket_of(func);
		k->next = kernels[b];
		kernels[b] = k;
		k->handle.magic = SIM_KERNEL_MAGIC;
		b = bucket_of(&k->handle);
		k->next_by_handle = kernels_by_handle[b];
		kernels_by_handle[b] = k;
	}
	pthread_mutex_unlock(&sim_lock);
}

void simgpu_next_kernel_ns(unsigned long long ns)
{
	next_kernel_ns = ns;
	next_kernel_ns_set = 1;
}

void simgpu_default_next_kernel_ns(unsigned long long ns)
{
	if (!next_kernel_ns_set)
		simgpu_next_kernel_ns(ns);
}

void simgpu_fail_next_kernel(int cuda_error)
{
	next_kernel_error = cuda_error;
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return sim_return(err);
	if (!name)
		return sim_return(cudaErrorInvalidValue);
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_kernel(func);
	if (k)
		*name = k->name;
	pthread_mutex_unlock(&sim_lock);
	return sim_return(k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex,
				 size_t *paramOffset, size_t *paramSize)
{
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return sim_return(err);
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_kernel(func);
	if (!k)
		err = cudaErrorInvalidDeviceFunction;
	else if (!paramOffset || !paramSize || paramIndex >= k->nparams)
		err = cudaErrorInvalidValue; /* header: CUDA_ERROR_INVALID_VALUE */
	else {
		*paramOffset = k->offsets[paramIndex];
		*paramSize = k->sizes[paramIndex];
	}
	pthread_mutex_unlock(&sim_lock);
	return sim_return(err);
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
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return sim_return(err);
	if (!kernel)
		return sim_return(cudaErrorInvalidValue);
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_by_func(func);
	if (k)
		*kernel = &k->handle;
	pthread_mutex_unlock(&sim_lock);
	return sim_return(k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
	return get_kernel(kernelPtr, entryFuncAddr);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
	return get_kernel(kernel, func);
}

static cudaError_t check_geometry(dim3 grid, dim3 block, size_t shared_mem)
{
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
		return cudaErrorInvalidConfiguration;
	if (block.x > MAX_BLOCK_X || block.y > MAX_BLOCK_Y ||
	    block.z > MAX_BLOCK_Z ||
	    (uint64_t)block.x * block.y * block.z > MAX_BLOCK_THREADS)
		return cudaErrorInvalidConfiguration;
	if (grid.x > MAX_GRID_X || grid.y > MAX_GRID_YZ || grid.z > MAX_GRID_YZ)
		return cudaErrorInvalidConfiguration;
	/* Assumed, not tested on a GPU: too much dynamic shared memory is
	 * reported as an invalid value. */
	if (shared_mem > MAX_SHARED_MEM_OPTIN)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static uint64_t cost_model_ns(dim3 grid)
{
	uint64_t blocks = (uint64_t)grid.x * grid.y;
	/* Saturate instead of overflowing for absurd (but legal) grids. */
	if (grid.z && blocks > UINT64_MAX / KERNEL_NS_PER_BLOCK / grid.z)
		return UINT64_MAX / 4;
	return KERNEL_BASE_NS + KERNEL_NS_PER_BLOCK * blocks * grid.z;
}

cudaError_t sim_launch(const void *func, dim3 grid, dim3 block, void **args,
		       size_t shared_mem, cudaStream_t stream,
		       int per_thread_default, int cbid)
{
	uint64_t api_start = sim_now_ns();
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return sim_return(err);
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_KERNEL,
		.context_id = 1,
		.api_start_ns = api_start,
		.api_cbid = cbid,
		.grid = { grid.x, grid.y, grid.z },
		.block = { block.x, block.y, block.z },
		.dynamic_shared_mem = shared_mem,
	};
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_kernel(func);
	struct CUstream_st *s = NULL;
	if (!k)
		err = cudaErrorInvalidDeviceFunction;
	else if ((err = check_geometry(grid, block, shared_mem)) != cudaSuccess)
		;
	else if (k->nparams && !args)
		err = cudaErrorInvalidValue;
	else if (!(s = sim_stream_resolve(stream, per_thread_default)))
		err = cudaErrorInvalidResourceHandle;
	if (err == cudaSuccess) {
		uint64_t duration = next_kernel_ns_set ? next_kernel_ns
						       : cost_model_ns(grid);
		next_kernel_ns_set = 0;
		sim_timeline_schedule(s, duration, &work.start_ns, &work.end_ns);
		work.stream_id = s->cupti_id;
		work.name = k->name;
		work.correlation_id = sim_next_correlation_id();
	}
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess)
		return sim_return(err);
	if (next_kernel_error) {
		sim_arm_sticky_error((cudaError_t)next_kernel_error, work.end_ns);
		next_kernel_error = 0;
	}
	sim_report_work(&work);
	return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem, cudaStream_t stream)
{
	return sim_launch(func, gridDim, blockDim, args, sharedMem, stream, 0,
			  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args, size_t sharedMem,
				  cudaStream_t stream)
{
	return sim_launch(func, gridDim, blockDim, args, sharedMem, stream, 1,
			  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000);
}

static cudaError_t launch_ex(const cudaLaunchConfig_t *config,
			     const void *func, void **args, int per_thread,
			     int cbid)
{
	if (!config || (config->numAttrs && !config->attrs)) {
		cudaError_t sticky = sim_enter();
		return sim_return(sticky != cudaSuccess ? sticky
							: cudaErrorInvalidValue);
	}
	return sim_launch(func, config->gridDim, config->blockDim, args,
			  config->dynamicSmemBytes, config->stream, per_thread,
			  cbid);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args)
{
	return launch_ex(config, func, args, 0,
			 CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
				     const void *func, void **args)
{
	return launch_ex(config, func, args, 1,
			 CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060);
}

/*
 * nvcc 13's launch path: like cudaLaunchKernel[_ptsz] on the kernel the
 * handle stands for. Assumed, not tested on a GPU: anything but a
 * cudaKernel_t (a host function address, say) is
 * cudaErrorInvalidDeviceFunction.
 */
static cudaError_t launch_handle(cudaKernel_t kernel, dim3 grid, dim3 block,
				 void **args, size_t shared_mem,
				 cudaStream_t stream, int per_thread, int cbid)
{
	pthread_mutex_lock(&sim_lock);
	int known = find_by_handle(kernel) != NULL;
	pthread_mutex_unlock(&sim_lock);
	if (!known) {
		cudaError_t sticky = sim_enter();
		return sim_return(sticky != cudaSuccess
					  ? sticky
					  : cudaErrorInvalidDeviceFunction);
	}
	return sim_launch((const void *)kernel, grid, block, args, shared_mem,
			  stream, per_thread, cbid);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream)
{
	return launch_handle(kernel, gridDim, blockDim, args, sharedMem, stream,
			     0, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream)
{
	return launch_handle(kernel, gridDim, blockDim, args, sharedMem, stream,
			     1,
			     CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000);
}
