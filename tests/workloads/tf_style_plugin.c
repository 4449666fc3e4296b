/*
 * tf_style_plugin: the CUDA side of the TensorFlow-style workload, built as a
 * shared object that the host program (plugin_host.c, built as tf_style)
 * dlopen()s RTLD_LOCAL, as Python imports TensorFlow's extension. Like TensorFlow's stream executor
 * (tsl/cuda stubs) it links no CUDA library: it dlopen()s libcudart.so.13
 * and libcuda.so.1 itself, RTLD_LOCAL, and resolves every function with
 * dlsym(handle, exact versioned name). Like TF_GPU_ALLOCATOR=cuda_malloc_async
 * (gpu_cudamallocasync_allocator.cc) every tensor comes from the device's
 * default memory pool with cuMemAllocFromPoolAsync and goes back with
 * cuMemFreeAsync on the compute stream; kernels are launched like XLA's, with
 * cuLaunchKernel and one pointer parameter per buffer.
 *
 * One training step of a two-layer dense network, three times, on one
 * stream: kernel order is launch order by construction. Variables are
 * allocated first and live to the end (global); every other tensor is
 * allocated right before its first kernel and freed right after its last.
 * The ground truth (truth.h) is written as the program goes.
 *
 * Must never print anything that depends on being traced, nor read device
 * memory into its output (the simulated GPU computes nothing).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/truth.h"

#define STRINGIFY(x) #x
/* The symbol a cuda.h name stands for: cuMemcpyHtoDAsync -> "cuMemcpyHtoDAsync_v2". */
#define SYMBOL_NAME(x) STRINGIFY(x)
#define FUNCTION(name) __typeof__(&name) name

/* Everything the plugin calls, resolved by dlsym from its own handles. */
static struct {
	FUNCTION(cuInit);
	FUNCTION(cuDeviceGet);
	FUNCTION(cuDevicePrimaryCtxRetain);
	FUNCTION(cuCtxSetCurrent);
	FUNCTION(cuStreamCreate);
	FUNCTION(cuStreamSynchronize);
	FUNCTION(cuStreamDestroy);
	FUNCTION(cuDeviceGetDefaultMemPool);
	FUNCTION(cuMemAllocFromPoolAsync);
	FUNCTION(cuMemFreeAsync);
	FUNCTION(cuMemcpyHtoDAsync);
	FUNCTION(cuMemcpyDtoHAsync);
	FUNCTION(cuKernelGetFunction);
	FUNCTION(cuLaunchKernel);
	FUNCTION(cuGetErrorName);
	FUNCTION(cudaGetKernel);
	FUNCTION(simgpu_define_kernel);
	FUNCTION(simgpu_next_kernel_ns);
} cu;

static void *resolve(void *library, const char *library_name, const char *symbol)
{
	void *function = dlsym(library, symbol);
	if (!function) {
		fprintf(stderr, "tf_style: %s has no %s\n", library_name, symbol);
		exit(1);
	}
	return function;
}

#define RESOLVE(library, name) \
	(*(void **)&cu.name = resolve(library, #library, SYMBOL_NAME(name)))

static void load_cuda(void)
{
	void *libcudart = dlopen("libcudart.so.13", RTLD_NOW | RTLD_LOCAL);
	void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!libcudart || !libcuda) {
		fprintf(stderr, "tf_style: cannot load CUDA: %s\n", dlerror());
		exit(1);
	}
	RESOLVE(libcuda, cuInit);
	RESOLVE(libcuda, cuDeviceGet);
	RESOLVE(libcuda, cuDevicePrimaryCtxRetain);
	RESOLVE(libcuda, cuCtxSetCurrent);
	RESOLVE(libcuda, cuStreamCreate);
	RESOLVE(libcuda, cuStreamSynchronize);
	RESOLVE(libcuda, cuStreamDestroy);
	RESOLVE(libcuda, cuDeviceGetDefaultMemPool);
	RESOLVE(libcuda, cuMemAllocFromPoolAsync);
	RESOLVE(libcuda, cuMemFreeAsync);
	RESOLVE(libcuda, cuMemcpyHtoDAsync);
	RESOLVE(libcuda, cuMemcpyDtoHAsync);
	RESOLVE(libcuda, cuKernelGetFunction);
	RESOLVE(libcuda, cuLaunchKernel);
	RESOLVE(libcuda, cuGetErrorName);
	RESOLVE(libcudart, cudaGetKernel);
	/* The simulated GPU's own interface (simgpu.h), in its libcudart. */
	RESOLVE(libcudart, simgpu_define_kernel);
	RESOLVE(libcudart, simgpu_next_kernel_ns);
}

static void check(CUresult result, const char *call, int line)
{
	if (result == CUDA_SUCCESS)
		return;
	const char *name = "unknown";
	cu.cuGetErrorName(result, &name);
	fprintf(stderr, "tf_style_plugin.c:%d: %s failed: %s (%d)\n", line, call, name, (int)result);
	exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

/* ---- the workload ----------------------------------------------------------- */

enum { BATCH = 32, IN = 128, HIDDEN = 256, CLASSES = 10, STEPS = 3 };

enum tf_kernel {
	MATMUL, BIAS_ADD, RELU, SOFTMAX_XENT, MATMUL_GRAD_WEIGHT, MATMUL_GRAD_INPUT,
	BIAS_GRAD, RELU_GRAD, APPLY_SGD, N_TF_KERNELS
};

static const char *const kernel_names[N_TF_KERNELS] = {
	"tf_matmul", "tf_bias_add", "tf_relu", "tf_softmax_xent",
	"tf_matmul_grad_weight", "tf_matmul_grad_input", "tf_bias_grad",
	"tf_relu_grad", "tf_apply_sgd",
};

/* Buffers each kernel takes (pointer parameters), then one int64 count. */
static const size_t kernel_buffers[N_TF_KERNELS] = { 3, 2, 2, 4, 3, 3, 2, 3, 2 };

/* Host stand-ins the simulated GPU knows the kernels by; only addresses matter. */
static const char kernel_hosts[N_TF_KERNELS];
static CUfunction functions[N_TF_KERNELS];

static struct truth *truth;
static CUstream stream;
static CUmemoryPool pool;
static unsigned launches;

static void define_kernels(void)
{
	for (int k = 0; k < N_TF_KERNELS; k++) {
		size_t sizes[5] = { 8, 8, 8, 8, 8 }; /* pointers, then an int64 */
		cu.simgpu_define_kernel(&kernel_hosts[k], kernel_names[k],
					kernel_buffers[k] + 1, sizes);
		cudaKernel_t kernel;
		if (cu.cudaGetKernel(&kernel, &kernel_hosts[k]) != cudaSuccess) {
			fprintf(stderr, "tf_style: cudaGetKernel(%s) failed\n", kernel_names[k]);
			exit(1);
		}
		CHECK(cu.cuKernelGetFunction(&functions[k], (CUkernel)kernel));
	}
}

static void tag(CUdeviceptr ptr, const char *name)
{
	typedef void tag_fn(const void *, const char *);
	static tag_fn *dnntrace_tag;
	static int looked_up;
	if (!looked_up) {
		*(void **)&dnntrace_tag = dlsym(RTLD_DEFAULT, "dnntrace_tag");
		looked_up = 1;
	}
	if (dnntrace_tag)
		dnntrace_tag((const void *)(uintptr_t)ptr, name);
}

static CUdeviceptr allocate(size_t elements, const char *name, int step, int global)
{
	char label[64];
	if (global)
		snprintf(label, sizeof(label), "%s", name);
	else
		snprintf(label, sizeof(label), "%s.%d", name, step);
	CUdeviceptr ptr = 0;
	size_t bytes = elements * sizeof(float);
	CHECK(cu.cuMemAllocFromPoolAsync(&ptr, bytes, pool, stream));
	truth_alloc(truth, (const void *)(uintptr_t)ptr, bytes, label, global);
	tag(ptr, label);
	return ptr;
}

static void release(CUdeviceptr ptr)
{
	CHECK(cu.cuMemFreeAsync(ptr, stream));
	truth_free(truth, (const void *)(uintptr_t)ptr);
}

/* Copies host data into a tensor on the stream: a host write the truth knows. */
static void upload(CUdeviceptr ptr, const void *host, size_t bytes)
{
	CHECK(cu.cuMemcpyHtoDAsync(ptr, host, bytes, stream));
	truth_host_write(truth, (const void *)(uintptr_t)ptr);
}

/* Launches kernel with its buffers (as many as kernel_buffers says). */
static void launch(enum tf_kernel kernel, CUdeviceptr a, CUdeviceptr b,
		   CUdeviceptr c, CUdeviceptr d)
{
	CUdeviceptr buffers[4] = { a, b, c, d };
	int64_t count = BATCH * HIDDEN;
	void *params[5];
	const void *tensors[4];
	size_t n = kernel_buffers[kernel];
	for (size_t i = 0; i < n; i++) {
		params[i] = &buffers[i];
		tensors[i] = (const void *)(uintptr_t)buffers[i];
	}
	params[n] = &count;
	/* >= 100 us each, all different, so order and sums are unambiguous. */
	uint64_t duration_ns = 100000 + 1000 * (uint64_t)(launches * 5 % 19);
	launches++;
	cu.simgpu_next_kernel_ns(duration_ns);
	CHECK(cu.cuLaunchKernel(functions[kernel], 4, 1, 1, 128, 1, 1, 0, stream, params, NULL));
	truth_kernel(truth, kernel_names[kernel], tensors, n, duration_ns);
}

static void train_step(int step, CUdeviceptr w1, CUdeviceptr b1, CUdeviceptr w2,
		       CUdeviceptr b2, const float *host_batch, float *host_loss)
{
	CUdeviceptr x = allocate(BATCH * IN, "input", step, 0);
	CUdeviceptr labels = allocate(BATCH * CLASSES, "labels", step, 0);
	upload(x, host_batch, BATCH * IN * sizeof(float));
	upload(labels, host_batch, BATCH * CLASSES * sizeof(float));

	CUdeviceptr h = allocate(BATCH * HIDDEN, "dense1/MatMul", step, 0);
	launch(MATMUL, x, w1, h, 0);
	launch(BIAS_ADD, h, b1, 0, 0);
	CUdeviceptr a = allocate(BATCH * HIDDEN, "dense1/Relu", step, 0);
	launch(RELU, h, a, 0, 0);
	CUdeviceptr logits = allocate(BATCH * CLASSES, "dense2/MatMul", step, 0);
	launch(MATMUL, a, w2, logits, 0);
	launch(BIAS_ADD, logits, b2, 0, 0);
	CUdeviceptr loss = allocate(BATCH, "loss", step, 0);
	CUdeviceptr dlogits = allocate(BATCH * CLASSES, "gradients/dense2/MatMul", step, 0);
	launch(SOFTMAX_XENT, logits, labels, loss, dlogits);
	release(logits);
	release(labels);

	CUdeviceptr dw2 = allocate(HIDDEN * CLASSES, "gradients/dense2/kernel", step, 0);
	launch(MATMUL_GRAD_WEIGHT, a, dlogits, dw2, 0);
	CUdeviceptr db2 = allocate(CLASSES, "gradients/dense2/bias", step, 0);
	launch(BIAS_GRAD, dlogits, db2, 0, 0);
	CUdeviceptr da = allocate(BATCH * HIDDEN, "gradients/dense1/Relu", step, 0);
	launch(MATMUL_GRAD_INPUT, dlogits, w2, da, 0);
	release(dlogits);
	CUdeviceptr dh = allocate(BATCH * HIDDEN, "gradients/dense1/MatMul", step, 0);
	launch(RELU_GRAD, da, a, dh, 0);
	release(da);
	release(a);
	release(h);
	CUdeviceptr dw1 = allocate(IN * HIDDEN, "gradients/dense1/kernel", step, 0);
	launch(MATMUL_GRAD_WEIGHT, x, dh, dw1, 0);
	CUdeviceptr db1 = allocate(HIDDEN, "gradients/dense1/bias", step, 0);
	launch(BIAS_GRAD, dh, db1, 0, 0);
	release(dh);
	release(x);

	launch(APPLY_SGD, w1, dw1, 0, 0);
	launch(APPLY_SGD, b1, db1, 0, 0);
	launch(APPLY_SGD, w2, dw2, 0, 0);
	launch(APPLY_SGD, b2, db2, 0, 0);
	release(dw1);
	release(db1);
	release(dw2);
	release(db2);

	/* The loss goes back to the host, which waits for it (session.run). */
	CHECK(cu.cuMemcpyDtoHAsync(host_loss, loss, BATCH * sizeof(float), stream));
	CHECK(cu.cuStreamSynchronize(stream));
	release(loss);
}

/* Entry point the host program resolves: runs the workload, writes the truth. */
int workload_main(const char *truth_dir)
{
	load_cuda();
	CUdevice device;
	CUcontext context;
	CHECK(cu.cuInit(0));
	CHECK(cu.cuDeviceGet(&device, 0));
	CHECK(cu.cuDevicePrimaryCtxRetain(&context, device));
	CHECK(cu.cuCtxSetCurrent(context));
	CHECK(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
	CHECK(cu.cuDeviceGetDefaultMemPool(&pool, device));
	define_kernels();
	truth = truth_new();

	/* Variables: allocated by the same allocator, alive for the whole run. */
	CUdeviceptr w1 = allocate(IN * HIDDEN, "dense1/kernel", 0, 1);
	CUdeviceptr b1 = allocate(HIDDEN, "dense1/bias", 0, 1);
	CUdeviceptr w2 = allocate(HIDDEN * CLASSES, "dense2/kernel", 0, 1);
	CUdeviceptr b2 = allocate(CLASSES, "dense2/bias", 0, 1);

	float *host_batch = calloc(BATCH * IN, sizeof(float));
	float *host_loss = calloc(BATCH, sizeof(float));
	if (!host_batch || !host_loss) {
		fprintf(stderr, "tf_style: out of memory\n");
		exit(1);
	}
	for (int step = 0; step < STEPS; step++) {
		train_step(step, w1, b1, w2, b2, host_batch, host_loss);
		printf("tf_style: step %d done\n", step);
	}
	printf("tf_style: %d steps, %u kernels\n", STEPS, launches);

	int written = truth_write(truth, truth_dir);
	CHECK(cu.cuStreamDestroy(stream));
	truth_delete(truth);
	free(host_batch);
	free(host_loss);
	return written == 0 ? 0 : 1;
}
