/*
 * vmm_segments_plugin: the CUDA side of the PyTorch-style workload whose
 * allocator uses the driver's virtual memory management like PyTorch's
 * expandable segments (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,
 * c10/cuda/CUDACachingAllocator.cpp ExpandableSegment): one large virtual
 * range reserved with cuMemAddressReserve; physical memory created with
 * cuMemCreate, mapped into the range with cuMemMap and made accessible
 * with cuMemSetAccess; given back with cuMemUnmap + cuMemRelease. Each
 * mapped range is one tensor (where PyTorch would map 2 MiB pages and carve
 * tensors out of them, this allocator maps exactly one range per tensor, so
 * the trace's tensors are the program's). Freed ranges are reused first-fit,
 * so a later tensor is mapped where an earlier one was.
 *
 * Loaded by plugin_host (built as vmm_segments) with dlopen RTLD_LOCAL, as
 * Python imports torch; linked to libcudart.so.13 like libtorch_cuda; reaches
 * the driver as c10/cuda/driver_api.cpp does, through
 * cudaGetDriverEntryPointByVersion. Kernels are PyTorch's: cudaLaunchKernel
 * with the tensors inside a struct parameter, one stream, so kernel order is
 * launch order by construction. The ground truth (truth.h) is written as the
 * program goes; tensor bytes are the mapped sizes.
 *
 * Must never print anything that depends on being traced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

#define STRINGIFY(x) #x
#define SYMBOL_NAME(x) STRINGIFY(x)
#define FUNCTION(name) __typeof__(&name) name

/* The driver functions PyTorch's DriverAPI table holds for expandable segments. */
static struct {
	FUNCTION(cuMemAddressReserve);
	FUNCTION(cuMemCreate);
	FUNCTION(cuMemRelease);
	FUNCTION(cuMemMap);
	FUNCTION(cuMemUnmap);
	FUNCTION(cuMemSetAccess);
	FUNCTION(cuMemGetAllocationGranularity);
	FUNCTION(cuGetErrorName);
} driver;

/* The version PyTorch asks for these (CUDA 12.0 introduced none later). */
enum { DRIVER_API_VERSION = 12000 };

static void *driver_symbol(const char *name)
{
	void *function = NULL;
	enum cudaDriverEntryPointQueryResult status;
	cudaError_t result = cudaGetDriverEntryPointByVersion(name, &function, DRIVER_API_VERSION,
							      cudaEnableDefault, &status);
	if (result != cudaSuccess || status != cudaDriverEntryPointSuccess || !function) {
		fprintf(stderr, "vmm_segments: no driver entry point %s (%d, %d)\n", name,
			(int)result, (int)status);
		exit(1);
	}
	return function;
}

/* By the name without version suffix, as PyTorch's table asks. */
#define LOOKUP(name) (*(void **)&driver.name = driver_symbol(#name))

static void check(CUresult result, const char *call, int line)
{
	if (result == CUDA_SUCCESS)
		return;
	const char *name = "unknown";
	driver.cuGetErrorName(result, &name);
	fprintf(stderr, "vmm_segments_plugin.c:%d: %s failed: %s (%d)\n", line, call, name, (int)result);
	exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

/* ---- the allocator: one reserved range, one mapping per tensor --------------- */

enum { MAX_MAPPINGS = 64 };

struct mapping {
	size_t offset, size;  /* within the reserved range; size 0: slot unused */
	CUmemGenericAllocationHandle handle;
};

static struct {
	CUdeviceptr base;
	size_t reserved, granularity;
	CUmemAllocationProp prop;
	struct mapping mappings[MAX_MAPPINGS];
} segment;

static void segment_open(size_t reserve_bytes)
{
	segment.prop = (CUmemAllocationProp){
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
	};
	CHECK(driver.cuMemGetAllocationGranularity(&segment.granularity, &segment.prop,
						   CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	segment.reserved = (reserve_bytes + segment.granularity - 1) /
			   segment.granularity * segment.granularity;
	CHECK(driver.cuMemAddressReserve(&segment.base, segment.reserved, 0, 0, 0));
}

static int overlaps(size_t offset, size_t size)
{
	for (int i = 0; i < MAX_MAPPINGS; i++) {
		const struct mapping *m = &segment.mappings[i];
		if (m->size && offset < m->offset + m->size && m->offset < offset + size)
			return 1;
	}
	return 0;
}

/* Maps bytes (rounded up to the granularity) at the lowest free offset. */
static void *segment_map(size_t bytes, size_t *mapped)
{
	size_t size = (bytes + segment.granularity - 1) / segment.granularity * segment.granularity;
	size_t offset = 0;
	while (offset + size <= segment.reserved && overlaps(offset, size))
		offset += segment.granularity;
	struct mapping *slot = NULL;
	for (int i = 0; i < MAX_MAPPINGS && !slot; i++)
		if (!segment.mappings[i].size)
			slot = &segment.mappings[i];
	if (offset + size > segment.reserved || !slot) {
		fprintf(stderr, "vmm_segments: reserved range full\n");
		exit(1);
	}
	CUdeviceptr ptr = segment.base + offset;
	CHECK(driver.cuMemCreate(&slot->handle, size, &segment.prop, 0));
	CHECK(driver.cuMemMap(ptr, size, 0, slot->handle, 0));
	CUmemAccessDesc access = {
		.location = segment.prop.location,
		.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	};
	CHECK(driver.cuMemSetAccess(ptr, size, &access, 1));
	slot->offset = offset;
	slot->size = size;
	*mapped = size;
	return (void *)(uintptr_t)ptr;
}

static void segment_unmap(void *ptr)
{
	size_t offset = (size_t)((uintptr_t)ptr - segment.base);
	for (int i = 0; i < MAX_MAPPINGS; i++) {
		struct mapping *m = &segment.mappings[i];
		if (m->size && m->offset == offset) {
			CHECK(driver.cuMemUnmap(segment.base + offset, m->size));
			CHECK(driver.cuMemRelease(m->handle));
			m->size = 0;
			return;
		}
	}
	fprintf(stderr, "vmm_segments: unmap of %p, which is not mapped\n", ptr);
	exit(1);
}

/* ---- the workload ----------------------------------------------------------- */

enum { BATCH = 64, IN = 1024, HIDDEN = 2048, OUT = 256, ITERATIONS = 3 };

/* TensorIterator-like operand block: the tensors sit inside the struct. */
struct operands {
	void *data[4];
	int64_t numel;
	int32_t n_operands;
};

enum vmm_kernel { LINEAR, GELU, LOSS, LINEAR_BACKWARD, GELU_BACKWARD, ADAM_STEP, N_VMM_KERNELS };

static const char *const kernel_names[N_VMM_KERNELS] = {
	"vmm_linear", "vmm_gelu", "vmm_loss", "vmm_linear_backward",
	"vmm_gelu_backward", "vmm_adam_step",
};

static const char kernel_handles[N_VMM_KERNELS];

static struct truth *truth;
static cudaStream_t stream;
static unsigned launches;

static void *tensor(size_t bytes, const char *name, int iteration, int global)
{
	char label[64];
	if (iteration < 0)
		snprintf(label, sizeof(label), "%s", name);
	else
		snprintf(label, sizeof(label), "%s.%d", name, iteration);
	size_t mapped;
	void *ptr = segment_map(bytes, &mapped);
	truth_alloc(truth, ptr, mapped, label, global);
	wl_tag(ptr, label);
	return ptr;
}

static void release(void *ptr)
{
	/* PyTorch synchronises before unmapping: the stream may still use it. */
	WL_CHECK(cudaStreamSynchronize(stream));
	segment_unmap(ptr);
	truth_free(truth, ptr);
}

static void launch(enum vmm_kernel kernel, void *a, void *b, void *c, void *d)
{
	struct operands ops;
	memset(&ops, 0, sizeof(ops));
	void *given[4] = {a, b, c, d};
	for (int i = 0; i < 4 && given[i]; i++)
		ops.data[ops.n_operands++] = given[i];
	ops.numel = BATCH * HIDDEN;
	void *args[1] = {&ops};
	uint64_t duration_ns = 100000 + 1000 * (uint64_t)(launches * 11 % 29);
	launches++;
	wl_launch(truth, &kernel_handles[kernel], kernel_names[kernel], args, stream,
		  duration_ns, (const void *const *)ops.data, (size_t)ops.n_operands);
}

int workload_main(const char *truth_dir)
{
	WL_CHECK(cudaSetDevice(0));
	WL_CHECK(cudaFree(NULL)); /* creates the context, as PyTorch's lazy init does */
	LOOKUP(cuMemAddressReserve);
	LOOKUP(cuMemCreate);
	LOOKUP(cuMemRelease);
	LOOKUP(cuMemMap);
	LOOKUP(cuMemUnmap);
	LOOKUP(cuMemSetAccess);
	LOOKUP(cuMemGetAllocationGranularity);
	LOOKUP(cuGetErrorName);
	for (int k = 0; k < N_VMM_KERNELS; k++) {
		size_t sizes[1] = {sizeof(struct operands)};
		simgpu_define_kernel(&kernel_handles[k], kernel_names[k], 1, sizes);
	}
	WL_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	truth = truth_new();
	segment_open((size_t)256 << 20);

	/* Parameters and optimizer state: mapped first, never unmapped. */
	void *w1 = tensor(IN * HIDDEN * sizeof(float), "fc1.weight", -1, 1);
	void *w2 = tensor(HIDDEN * OUT * sizeof(float), "fc2.weight", -1, 1);
	void *m1 = tensor(IN * HIDDEN * sizeof(float), "fc1.weight.exp_avg", -1, 1);
	void *m2 = tensor(HIDDEN * OUT * sizeof(float), "fc2.weight.exp_avg", -1, 1);

	float *host_input = calloc(BATCH * IN, sizeof(float));
	if (!host_input) {
		fprintf(stderr, "vmm_segments: out of memory\n");
		return 1;
	}
	for (int it = 0; it < ITERATIONS; it++) {
		void *x = tensor(BATCH * IN * sizeof(float), "input", it, 0);
		WL_CHECK(cudaMemcpyAsync(x, host_input, BATCH * IN * sizeof(float),
					 cudaMemcpyHostToDevice, stream));
		truth_host_write(truth, x);
		void *h = tensor(BATCH * HIDDEN * sizeof(float), "fc1.out", it, 0);
		launch(LINEAR, x, w1, h, NULL);
		void *g = tensor(BATCH * HIDDEN * sizeof(float), "gelu.out", it, 0);
		launch(GELU, h, g, NULL, NULL);
		void *y = tensor(BATCH * OUT * sizeof(float), "fc2.out", it, 0);
		launch(LINEAR, g, w2, y, NULL);
		void *dy = tensor(BATCH * OUT * sizeof(float), "fc2.out.grad", it, 0);
		/* The loss reads the second half of y through a view (interior pointer). */
		launch(LOSS, (char *)y + BATCH * OUT * sizeof(float) / 2, dy, NULL, NULL);
		release(y);

		void *dw2 = tensor(HIDDEN * OUT * sizeof(float), "fc2.weight.grad", it, 0);
		void *dg = tensor(BATCH * HIDDEN * sizeof(float), "gelu.out.grad", it, 0);
		launch(LINEAR_BACKWARD, dy, g, dw2, NULL);
		launch(LINEAR_BACKWARD, dy, w2, dg, NULL);
		release(dy);
		release(g);
		void *dh = tensor(BATCH * HIDDEN * sizeof(float), "fc1.out.grad", it, 0);
		launch(GELU_BACKWARD, dg, h, dh, NULL);
		release(dg);
		release(h);
		void *dw1 = tensor(IN * HIDDEN * sizeof(float), "fc1.weight.grad", it, 0);
		launch(LINEAR_BACKWARD, dh, x, dw1, NULL);
		release(dh);
		release(x);

		launch(ADAM_STEP, w1, dw1, m1, NULL);
		launch(ADAM_STEP, w2, dw2, m2, NULL);
		release(dw1);
		release(dw2);
		printf("vmm_segments: iteration %d done\n", it);
	}
	WL_CHECK(cudaStreamSynchronize(stream));
	printf("vmm_segments: %d iterations, %u kernels\n", ITERATIONS, launches);

	int written = truth_write(truth, truth_dir);
	/* Like PyTorch, parameters stay mapped (and the range reserved) until exit. */
	WL_CHECK(cudaStreamDestroy(stream));
	truth_delete(truth);
	free(host_input);
	return written == 0 ? 0 : 1;
}
