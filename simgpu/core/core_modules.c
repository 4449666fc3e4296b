/*
 * Modules of the simulated driver: device code a program brings, read by
 * core_fatbin.c. Two ways in, as on a real driver: a program's own
 * registration (the runtime's __cudaRegisterFatBinary / Function / Var,
 * through the private table) and cuModuleLoadData & co. Kernels become
 * entries of the kernel registry (core_kernels.c) with the name and exact
 * parameter layout the cubin declares; device variables get device memory
 * initialised from the cubin. Device code is never executed. Module
 * handles are looked up in the live list before they are dereferenced.
 */
#include "simgpu/core/core_fatbin.h"
#include "simgpu/core/sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_MODULE_MAGIC 0x4d4f444cU /* "MODL" */

struct module_var {
	const void *host;    /* the program's shadow variable; NULL: module global */
	struct sim_module *module;
	char *name;
	void *dev;
	size_t size;
	struct module_var *next;
};

struct sim_module {
	uint32_t magic;
	int for_runtime;
	CUresult status;      /* a runtime module's load result */
	struct sim_fatbin_module desc;
	CUfunction *functions; /* cuModuleLoadData modules: one per kernel */
	struct sim_module *next;
};

/* Guarded by sim_lock. */
static struct sim_module *modules;
static struct module_var *vars;

struct sim_module *sim_module_lookup(const void *handle)
{
	struct sim_module *found = NULL;
	pthread_mutex_lock(&sim_lock);
	for (struct sim_module *m = modules; m && !found; m = m->next)
		if ((const void *)m == handle)
			found = m;
	pthread_mutex_unlock(&sim_lock);
	return found;
}

CUresult sim_module_status(struct sim_module *m)
{
	return m->status;
}

/* Device memory for a variable, filled from init (or zeros). Holds sim_lock. */
static cudaError_t place_var(struct sim_module *m, const void *host,
			     const char *name, size_t size, int managed,
			     const struct sim_fatbin_var *v, void **dev)
{
	struct module_var *mv = calloc(1, sizeof(*mv));
	char *n = strdup(name);
	if (!mv || !n) {
		free(mv), free(n);
		return cudaErrorMemoryAllocation;
	}
	void *p = NULL;
	cudaError_t err = sim_mem_alloc(size ? size : 1,
					managed ? SIM_MEM_MANAGED : SIM_MEM_DEVICE,
					NULL, &p);
	if (err != cudaSuccess) {
		free(mv), free(n);
		return err;
	}
	unsigned char *view = sim_mem_view(p);
	memset(view, 0, size);
	if (v && v->init)
		memcpy(view, v->init, v->size < size ? v->size : size);
	*mv = (struct module_var){ .host = host, .module = m, .name = n,
				   .dev = p, .size = size, .next = vars };
	vars = mv;
	*dev = p;
	return cudaSuccess;
}

/* A driver module's kernels and globals, defined at load. */
static CUresult define_all(struct sim_module *m)
{
	m->functions = calloc(m->desc.nkernels ? m->desc.nkernels : 1,
			      sizeof(CUfunction));
	if (!m->functions)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (size_t i = 0; i < m->desc.nkernels; i++) {
		const struct sim_fatbin_kernel *k = &m->desc.kernels[i];
		m->functions[i] = sim_define_kernel_layout(NULL, k->name, k->nparams,
							   k->offsets, k->sizes,
							   cudaSuccess);
		if (!m->functions[i])
			return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cudaError_t err = cudaSuccess;
	pthread_mutex_lock(&sim_lock);
	for (size_t i = 0; i < m->desc.nvars && err == cudaSuccess; i++) {
		const struct sim_fatbin_var *v = &m->desc.vars[i];
		void *dev;
		err = place_var(m, NULL, v->name, v->size, 0, v, &dev);
	}
	pthread_mutex_unlock(&sim_lock);
	return err == cudaSuccess ? CUDA_SUCCESS : sim_cu_result(err);
}

CUresult sim_module_load(const void *image, int for_runtime,
			 struct sim_module **out)
{
	char why[200];
	struct sim_module *m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->magic = SIM_MODULE_MAGIC;
	m->for_runtime = for_runtime;
	CUresult r = sim_fatbin_parse(image, SIZE_MAX, &m->desc, why, sizeof(why));
	if (r != CUDA_SUCCESS) {
		if (!for_runtime) {
			free(m);
			return r;
		}
		/* As a real runtime, registration goes on; launches fail. */
		if (r == CUDA_ERROR_INVALID_VALUE) /* no image at all */
			r = CUDA_ERROR_INVALID_IMAGE;
		const char *name = sim_cu_result_name(r);
		if (!name)
			name = "?";
		fprintf(stderr, "simgpu: cannot load this program's device code "
			"(%s): %s\n", name, why);
		m->status = r;
	} else if (!for_runtime && (r = define_all(m)) != CUDA_SUCCESS) {
		sim_fatbin_free(&m->desc);
		free(m->functions);
		free(m);
		return r;
	}
	sim_init();
	pthread_mutex_lock(&sim_lock);
	m->next = modules;
	modules = m;
	pthread_mutex_unlock(&sim_lock);
	*out = m;
	return CUDA_SUCCESS;
}

/*
 * Kernels stay defined (CUPTI records and a tracer's cache may still name
 * them); a driver module's globals are freed.
 */
CUresult sim_module_unload(struct sim_module *m)
{
	pthread_mutex_lock(&sim_lock);
	struct sim_module **pp = &modules;
	while (*pp && *pp != m)
		pp = &(*pp)->next;
	if (!*pp) {
		pthread_mutex_unlock(&sim_lock);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	*pp = m->next;
	for (struct module_var **vp = &vars; *vp;) {
		struct module_var *v = *vp;
		if (v->module == m) {
			*vp = v->next;
			sim_mem_free(v->dev);
			free(v->name);
			free(v);
		} else {
			vp = &v->next;
		}
	}
	pthread_mutex_unlock(&sim_lock);
	m->magic = 0;
	sim_fatbin_free(&m->desc);
	free(m->functions);
	free(m);
	return CUDA_SUCCESS;
}

cudaError_t sim_module_register_function(struct sim_module *m, const void *host,
					 const char *device_name)
{
	if (!host || !device_name)
		return cudaErrorInvalidValue;
	if (m->status != CUDA_SUCCESS)
		return sim_define_kernel_layout(host, device_name, 0, NULL, NULL,
						(cudaError_t)m->status)
			       ? cudaSuccess : cudaErrorMemoryAllocation;
	const struct sim_fatbin_kernel *k = sim_fatbin_kernel(&m->desc, device_name);
	if (!k) {
		fprintf(stderr, "simgpu: kernel %s is not in this program's "
			"sm_%u cubin\n", device_name, m->desc.arch);
		return sim_define_kernel_layout(host, device_name, 0, NULL, NULL,
						cudaErrorInvalidKernelImage)
			       ? cudaSuccess : cudaErrorMemoryAllocation;
	}
	return sim_define_kernel_layout(host, k->name, k->nparams, k->offsets,
					k->sizes, cudaSuccess)
		       ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t sim_module_register_var(struct sim_module *m, const void *host,
				    const char *device_name, size_t size,
				    int managed, void **dev)
{
	if (!host || !device_name || !dev)
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&sim_lock);
	const struct sim_fatbin_var *v = sim_fatbin_var(&m->desc, device_name);
	cudaError_t err = place_var(m, host, device_name, size, managed, v, dev);
	pthread_mutex_unlock(&sim_lock);
	return err;
}

cudaError_t sim_symbol_lookup(const void *host, void **dev, size_t *size)
{
	cudaError_t err = cudaErrorInvalidSymbol;
	pthread_mutex_lock(&sim_lock);
	for (struct module_var *v = vars; v; v = v->next) {
		if (v->host && v->host == host) {
			if (dev)
				*dev = v->dev;
			if (size)
				*size = v->size;
			err = cudaSuccess;
			break;
		}
	}
	pthread_mutex_unlock(&sim_lock);
	return err;
}

CUresult sim_module_function(struct sim_module *m, const char *name,
			     CUfunction *out)
{
	for (size_t i = 0; i < m->desc.nkernels; i++) {
		if (strcmp(m->desc.kernels[i].name, name) == 0) {
			*out = m->functions[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

CUresult sim_module_global(struct sim_module *m, const char *name,
			   void **dev, size_t *size)
{
	CUresult r = CUDA_ERROR_NOT_FOUND;
	pthread_mutex_lock(&sim_lock);
	for (struct module_var *v = vars; v; v = v->next) {
		if (v->module == m && strcmp(v->name, name) == 0) {
			if (dev)
				*dev = v->dev;
			if (size)
				*size = v->size;
			r = CUDA_SUCCESS;
			break;
		}
	}
	pthread_mutex_unlock(&sim_lock);
	return r;
}
