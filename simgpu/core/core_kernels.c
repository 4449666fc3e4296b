/*
 * Simulated kernels, in the simulated driver (libcuda.so.1): the registry
 * behind simgpu_define_kernel (name and parameter layout of each host-side
 * handle), the device-side handles each declared kernel gets (a CUkernel,
 * which cudart hands out as its cudaKernel_t, and a CUfunction), and the
 * launch every runtime and driver launch entry point comes down to:
 * validated, then placed on the timeline with a duration from
 * simgpu_next_kernel_ns or the cost model. Kernels compute nothing; this
 * file must never read or write the memory their arguments point to.
 */
#include "simgpu/core/sim_internal.h"
#include "simgpu/simgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cost model (README.md): fixed part plus a part per thread block. */
#define KERNEL_BASE_NS 2000ULL
#define KERNEL_NS_PER_BLOCK 10ULL

/*
 * A CUkernel (= cudaKernel_t) and a CUfunction point into their kernel's
 * registry entry: device-side handles distinct from the host function
 * address, as on a real GPU, so a caller that confused them would fail.
 * Only addresses found in kernels_by_handle are ever dereferenced.
 */
struct CUkern_st {
	uint32_t magic;
};
struct CUfunc_st {
	uint32_t magic;
};
#define SIM_KERNEL_MAGIC 0x4b45524eU /* "KERN" */
#define SIM_FUNCTION_MAGIC 0x46554e43U /* "FUNC" */

struct kernel {
	const void *func;
	const char *name;   /* interned: never freed, CUPTI records point here */
	size_t nparams;
	size_t *offsets;
	size_t *sizes;
	cudaError_t load_error; /* its module failed to load: every launch fails */
	struct kernel *next;
	struct kernel *next_declared;
	struct CUkern_st handle;           /* what cudaGetKernel returns */
	struct CUfunc_st function;         /* its CUfunction */
	struct kernel *next_by_handle;
	struct kernel *next_by_function;
};

#define KERNEL_BUCKETS 1024
static struct kernel *kernels[KERNEL_BUCKETS];
static struct kernel *kernels_by_handle[KERNEL_BUCKETS];
static struct kernel *kernels_by_function[KERNEL_BUCKETS];
/* Declaration order, for the simulated module's lookup by name. */
static struct kernel *first_declared, **last_declared = &first_declared;

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

/* The kernel whose CUfunction is handle. Caller holds sim_lock. */
static struct kernel *find_by_function(const void *handle)
{
	for (struct kernel *k = kernels_by_function[bucket_of(handle)]; k;
	     k = k->next_by_function)
		if ((const void *)&k->function == handle)
			return k;
	return NULL;
}

/*
 * What a launch accepts: a CUfunction, a CUkernel (cuda.h: cuLaunchKernel
 * takes either) or, for the runtime's sake, a declared host function.
 * Caller holds sim_lock.
 */
static struct kernel *find_kernel(const void *func)
{
	struct kernel *k = find_by_function(func);
	if (!k)
		k = find_by_handle(func);
	return k ? k : find_by_func(func);
}

size_t sim_param_alignment(size_t size)
{
	size_t align = 8;
	while (align > 1 && size % align != 0)
		align /= 2;
	return align;
}

/*
 * Defines (or redefines) the kernel of key: a host function, or NULL for a
 * kernel only a module knows (then its own entry is its key, which no host
 * function can equal). Returns its CUfunction, or NULL (out of memory).
 */
CUfunction sim_define_kernel_layout(const void *key, const char *name,
				    size_t nparams, const size_t *offsets,
				    const size_t *sizes, cudaError_t load_error)
{
	struct kernel *k = calloc(1, sizeof(*k));
	char *interned = strdup(name);
	size_t *offs = calloc(nparams ? nparams : 1, sizeof(size_t));
	size_t *szs = calloc(nparams ? nparams : 1, sizeof(size_t));
	if (!k || !interned || !offs || !szs) {
		fprintf(stderr, "simgpu: out of host memory defining %s\n", name);
		free(k), free(interned), free(offs), free(szs);
		return NULL;
	}
	if (nparams) {
		memcpy(offs, offsets, nparams * sizeof(size_t));
		memcpy(szs, sizes, nparams * sizeof(size_t));
	}
	*k = (struct kernel){ .func = key ? key : (const void *)k,
			      .name = interned, .nparams = nparams,
			      .offsets = offs, .sizes = szs,
			      .load_error = load_error };
	sim_init();
	pthread_mutex_lock(&sim_lock);
	struct kernel *old = key ? find_by_func(key) : NULL;
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
		old->load_error = k->load_error;
		free(k);
		k = old;
	} else {
		size_t b = bucket_of(k->func);
		k->next = kernels[b];
		kernels[b] = k;
		k->handle.magic = SIM_KERNEL_MAGIC;
		b = bucket_of(&k->handle);
		k->next_by_handle = kernels_by_handle[b];
		kernels_by_handle[b] = k;
		k->function.magic = SIM_FUNCTION_MAGIC;
		b = bucket_of(&k->function);
		k->next_by_function = kernels_by_function[b];
		kernels_by_function[b] = k;
		if (key) { /* module-only kernels are found through their module */
			*last_declared = k;
			last_declared = &k->next_declared;
		}
	}
	pthread_mutex_unlock(&sim_lock);
	return &k->function;
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
	size_t *offsets = calloc(nparams ? nparams : 1, sizeof(size_t));
	if (!offsets) {
		fprintf(stderr, "simgpu: out of host memory defining %s\n", name);
		return;
	}
	size_t offset = 0;
	for (size_t i = 0; i < nparams; i++) {
		size_t align = sim_param_alignment(param_sizes[i]);
		offset = (offset + align - 1) / align * align;
		offsets[i] = offset;
		offset += param_sizes[i];
	}
	sim_define_kernel_layout(func, name, nparams, offsets, param_sizes,
				 cudaSuccess);
	free(offsets);
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

/* ---- handles (cuKernelGetFunction, cuModuleGetFunction, cudart) ---- */

CUfunction sim_function_of(const void *func_or_handle, int handles_only)
{
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_by_function(func_or_handle);
	if (!k)
		k = find_by_handle(func_or_handle);
	if (!k && !handles_only)
		k = find_by_func(func_or_handle);
	pthread_mutex_unlock(&sim_lock);
	return k ? &k->function : NULL;
}

CUkernel sim_kernel_of(const void *host_func)
{
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_by_func(host_func);
	pthread_mutex_unlock(&sim_lock);
	return k ? &k->handle : NULL;
}

CUfunction sim_function_named(const char *name)
{
	struct kernel *found = NULL;
	pthread_mutex_lock(&sim_lock);
	for (struct kernel *k = first_declared; k && !found; k = k->next_declared)
		if (strcmp(k->name, name) == 0)
			found = k;
	pthread_mutex_unlock(&sim_lock);
	return found ? &found->function : NULL;
}

cudaError_t sim_function_name(const void *handle, const char **name)
{
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_kernel(handle);
	if (k)
		*name = k->name;
	pthread_mutex_unlock(&sim_lock);
	return k ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t sim_function_param(const void *handle, size_t index,
			       size_t *offset, size_t *size)
{
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	struct kernel *k = find_kernel(handle);
	if (!k)
		err = cudaErrorInvalidDeviceFunction;
	else if (k->load_error != cudaSuccess)
		err = k->load_error;
	else if (!offset || !size || index >= k->nparams)
		err = cudaErrorInvalidValue;
	else {
		*offset = k->offsets[index];
		*size = k->sizes[index];
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

size_t sim_kernel_layout_locked(const void *handle, const size_t **offsets,
				const size_t **sizes)
{
	struct kernel *k = find_kernel(handle);
	if (!k || k->load_error != cudaSuccess)
		return 0;
	*offsets = k->offsets;
	*sizes = k->sizes;
	return k->nparams;
}

static uint64_t cost_model_ns(dim3 grid)
{
	uint64_t blocks = (uint64_t)grid.x * grid.y;
	/* Saturate instead of overflowing for absurd (but legal) grids. */
	if (grid.z && blocks > UINT64_MAX / KERNEL_NS_PER_BLOCK / grid.z)
		return UINT64_MAX / 4;
	return KERNEL_BASE_NS + KERNEL_NS_PER_BLOCK * blocks * grid.z;
}

cudaError_t sim_kernel_check(const void *func, dim3 grid, dim3 block,
			     size_t shared_mem, int has_args, const char **name)
{
	struct kernel *k = find_kernel(func);
	if (!k)
		return cudaErrorInvalidDeviceFunction;
	if (k->load_error != cudaSuccess)
		return k->load_error;
	cudaError_t err = sim_check_launch_geometry(grid, block, shared_mem);
	if (err != cudaSuccess)
		return err;
	if (k->nparams && !has_args)
		return cudaErrorInvalidValue;
	if (name)
		*name = k->name;
	return cudaSuccess;
}

uint64_t sim_kernel_duration_ns(dim3 grid)
{
	uint64_t duration = next_kernel_ns_set ? next_kernel_ns
					       : cost_model_ns(grid);
	next_kernel_ns_set = 0;
	return duration;
}

cudaError_t sim_launch(const void *func, dim3 grid, dim3 block, void **args,
		       size_t shared_mem, cudaStream_t stream,
		       int per_thread_default, int cbid)
{
	uint64_t api_start = sim_now_ns();
	cudaError_t err = sim_enter();
	if (err != cudaSuccess)
		return err;
	struct simgpu_work work = {
		.kind = SIMGPU_WORK_KERNEL,
		.context_id = 1,
		.api_start_ns = api_start,
		.driver_cbid = cbid,
		.grid = { grid.x, grid.y, grid.z },
		.block = { block.x, block.y, block.z },
		.dynamic_shared_mem = shared_mem,
	};
	pthread_mutex_lock(&sim_lock);
	const char *name = NULL;
	struct CUstream_st *s = NULL;
	err = sim_kernel_check(func, grid, block, shared_mem, args != NULL, &name);
	if (err == cudaSuccess && !(s = sim_stream_resolve(stream, per_thread_default)))
		err = cudaErrorInvalidResourceHandle;
	if (err == cudaSuccess && sim_graph_capture_launch(s, func, grid, block,
							    shared_mem, args)) {
		/* A capturing stream records the launch as a node instead. */
		pthread_mutex_unlock(&sim_lock);
		return cudaSuccess;
	}
	struct sim_instant end = { 0, 0 };
	if (err == cudaSuccess) {
		uint64_t duration = sim_kernel_duration_ns(grid);
		end = sim_timeline_schedule(s, duration, &work.start_ns, &work.end_ns);
		sim_power_record_kernel(work.start_ns, work.end_ns);
		work.stream_id = s->cupti_id;
		work.name = name;
		work.correlation_id = sim_next_correlation_id();
	}
	pthread_mutex_unlock(&sim_lock);
	if (err != cudaSuccess)
		return err;
	if (next_kernel_error) {
		sim_arm_sticky_error((cudaError_t)next_kernel_error, end);
		next_kernel_error = 0;
	}
	sim_report_work(&work);
	return cudaSuccess;
}

