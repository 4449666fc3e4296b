/*
 * The registration ABI nvcc 13 emits (crt/host_runtime.h: each translation
 * unit's constructor calls __cudaRegisterFatBinary with its fatbin wrapper,
 * __cudaRegisterFunction / __cudaRegisterVar per kernel and variable, then
 * __cudaRegisterFatBinaryEnd; <<<>>> pushes and pops its configuration),
 * and the symbol calls that use what was registered (cudaMemcpyToSymbol,
 * cudaGetSymbolAddress, ...). The device code itself is read by the driver
 * (core_fatbin.c, through the private table): this file keeps no module
 * state and must never dereference a fatbin handle or read device code.
 */
#include "simgpu/cudart/cudart_internal.h"
#include "simgpu/core/core_fatbin.h"

#include <stdint.h>
#include <stdio.h>

/* What the generated code calls; crt/host_runtime.h declares them for C++. */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream);

/* fatbinary_section.h's __fatBinC_Wrapper_t. */
struct fatbin_wrapper {
	int magic;
	int version;
	const unsigned long long *data;
	void *filename_or_fatbins;
};

/*
 * A wrapper of version 1 (whole-program) or 2 (-rdc, linked) whose data
 * points at a fatbin. A bad one still gives a handle, as registration
 * cannot fail; the driver then reports the image as bad and the kernels
 * fail to launch. A NULL handle: the runtime could not start (every call
 * says why).
 */
void **__cudaRegisterFatBinary(void *fatCubin)
{
	if (cudart_load() != cudaSuccess)
		return NULL;
	const struct fatbin_wrapper *w = fatCubin;
	const void *image = NULL;
	if (w && (unsigned int)w->magic == SIM_FATBIN_WRAPPER_MAGIC &&
	    (w->version == 1 || w->version == 2))
		image = w->data;
	else
		fprintf(stderr, "simgpu: __cudaRegisterFatBinary: not a fatbin "
			"wrapper (magic 0x%08x expected)\n",
			SIM_FATBIN_WRAPPER_MAGIC);
	void *module = NULL;
	if (cudart_priv.module_load(image, &module) != CUDA_SUCCESS)
		return NULL;
	return (void **)module;
}

/* Loading is eager (at registration): nothing is left to do. */
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
	(void)fatCubinHandle;
}

/*
 * At exit (atexit). Kernels and variables stay registered: a tracer's
 * exit handlers and late CUPTI records may still name them.
 */
void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
	(void)fatCubinHandle;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize)
{
	(void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim;
	(void)gDim, (void)wSize;
	if (!fatCubinHandle)
		return;
	int err = cudart_priv.register_function(fatCubinHandle, hostFun, deviceName);
	if (err != cudaSuccess)
		fprintf(stderr, "simgpu: cannot register kernel %s: %s\n",
			deviceName ? deviceName : "(null)",
			cudaGetErrorName((cudaError_t)err));
}

static void register_var(void **handle, const void *host, const char *name,
			 size_t size, int managed, void **dev)
{
	if (!handle)
		return;
	int err = cudart_priv.register_var(handle, host, name, size, managed, dev);
	if (err != cudaSuccess)
		fprintf(stderr, "simgpu: cannot place device variable %s: %s\n",
			name ? name : "(null)", cudaGetErrorName((cudaError_t)err));
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global)
{
	(void)deviceAddress, (void)ext, (void)constant, (void)global;
	void *dev;
	register_var(fatCubinHandle, hostVar, deviceName, size, 0, &dev);
}

/* The program reaches a __managed__ variable through *hostVarPtrAddress. */
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global)
{
	(void)deviceAddress, (void)ext, (void)constant, (void)global;
	void *dev = NULL;
	register_var(fatCubinHandle, hostVarPtrAddress, deviceName, size, 1, &dev);
	if (dev && hostVarPtrAddress)
		*hostVarPtrAddress = dev;
}

/* Whether the module's device code loaded (used for managed variables). */
char __cudaInitModule(void **fatCubinHandle)
{
	return fatCubinHandle &&
	       cudart_priv.module_status(fatCubinHandle) == CUDA_SUCCESS;
}

/* ---- <<<>>>: the configuration the generated stub pops ---- */

/* Nested: a launch's arguments may themselves launch (host code). */
#define CONFIG_DEPTH 64
struct call_config {
	dim3 grid, block;
	size_t shared_mem;
	cudaStream_t stream;
};
static _Thread_local struct call_config configs[CONFIG_DEPTH];
static _Thread_local unsigned int config_depth;

/* Non-zero makes the generated code skip the launch (assumed: too deep). */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem, struct CUstream_st *stream)
{
	if (config_depth == CONFIG_DEPTH)
		return 1;
	configs[config_depth++] = (struct call_config){ gridDim, blockDim,
							sharedMem, stream };
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream)
{
	if (!config_depth)
		return cudaErrorMissingConfiguration;
	const struct call_config *c = &configs[--config_depth];
	if (gridDim)
		*gridDim = c->grid;
	if (blockDim)
		*blockDim = c->block;
	if (sharedMem)
		*sharedMem = c->shared_mem;
	if (stream)
		*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

/* ---- symbols ---- */

static cudaError_t symbol(const void *sym, void **dev, size_t *size)
{
	return (cudaError_t)cudart_priv.symbol_lookup(sym, dev, size);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym)
{
	ENTER();
	if (!devPtr)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(symbol(sym, devPtr, NULL));
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
	ENTER();
	if (!size)
		return sim_return(cudaErrorInvalidValue);
	return sim_return(symbol(sym, NULL, size));
}

/*
 * to_symbol: host (or device) memory into the variable; else out of it.
 * The direction must agree (cudaErrorInvalidMemcpyDirection otherwise);
 * offset + count beyond the variable is cudaErrorInvalidValue.
 */
static cudaError_t symbol_copy(int to_symbol, void *dst, const void *src,
			       const void *sym, size_t count, size_t offset,
			       enum cudaMemcpyKind kind, cudaStream_t stream,
			       int per_thread, int is_async)
{
	ENTER();
	void *dev;
	size_t size;
	cudaError_t err = symbol(sym, &dev, &size);
	if (err != cudaSuccess)
		return sim_return(err);
	if (offset > size || count > size - offset)
		return sim_return(cudaErrorInvalidValue);
	if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
	    kind != (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
		return sim_return(cudaErrorInvalidMemcpyDirection);
	char *at = (char *)dev + offset;
	return cudart_memcpy_1d(to_symbol ? at : dst, to_symbol ? src : at,
				count, kind, stream, per_thread, is_async);
}

#define SYMBOL_COPY(cbid, ...) RUNTIME_CALL(RT_CBID(cbid), 1, symbol_copy(__VA_ARGS__))

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind)
{
	SYMBOL_COPY(cudaMemcpyToSymbol_v3020, 1, NULL, src, symbol, count,
		    offset, kind, NULL, 0, 0);
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind)
{
	SYMBOL_COPY(cudaMemcpyToSymbol_ptds_v7000, 1, NULL, src, symbol, count,
		    offset, kind, NULL, 1, 0);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind)
{
	SYMBOL_COPY(cudaMemcpyFromSymbol_v3020, 0, dst, NULL, symbol, count,
		    offset, kind, NULL, 0, 0);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind)
{
	SYMBOL_COPY(cudaMemcpyFromSymbol_ptds_v7000, 0, dst, NULL, symbol,
		    count, offset, kind, NULL, 1, 0);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	SYMBOL_COPY(cudaMemcpyToSymbolAsync_v3020, 1, NULL, src, symbol, count,
		    offset, kind, stream, 0, 1);
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
					 size_t count, size_t offset,
					 enum cudaMemcpyKind kind,
					 cudaStream_t stream)
{
	SYMBOL_COPY(cudaMemcpyToSymbolAsync_ptsz_v7000, 1, NULL, src, symbol,
		    count, offset, kind, stream, 1, 1);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream)
{
	SYMBOL_COPY(cudaMemcpyFromSymbolAsync_v3020, 0, dst, NULL, symbol,
		    count, offset, kind, stream, 0, 1);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
					   size_t count, size_t offset,
					   enum cudaMemcpyKind kind,
					   cudaStream_t stream)
{
	SYMBOL_COPY(cudaMemcpyFromSymbolAsync_ptsz_v7000, 0, dst, NULL, symbol,
		    count, offset, kind, stream, 1, 1);
}
