/*
 * torch_async_alloc: a training loop that allocates as PyTorch does under
 * PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync (what `dnntrace record`
 * sets by default), following c10/cuda/CUDAMallocAsyncAllocator.cpp:
 *  - at the device's first allocation: cudaDeviceGetDefaultMemPool, its
 *    release threshold set to UINT64_MAX and the three reuse flags set
 *    (cudaMemPoolSetAttribute), and a "unifying free stream";
 *  - every tensor a cudaMallocAsync on the current stream, freed with
 *    cudaFreeAsync on its creation stream, or, when it was also used on
 *    other streams (record_stream), on the unifying stream after an event
 *    from the creation stream and from each usage stream
 *    (cudaEventCreateWithFlags / Record / cudaStreamWaitEvent / Destroy);
 *  - the pool hands freed addresses out again: step after step the same
 *    addresses come back for new tensors.
 * As DDP does, weight gradients are all-reduced on a communication stream
 * (a persistent bucket, joined back with events), so they are freed
 * through the unifying stream, at the next step's zero_grad (after the
 * previous step's loss.item() synchronised the device).
 *
 * It is also one DDP rank: with LOCAL_RANK set (as torchrun sets it) it
 * runs cudaSetDevice(LOCAL_RANK) first, and rank r trains 2 + r steps with
 * tensors (r + 1) times the size, so every rank's ground truth differs.
 *
 *   torch_async_alloc TRUTH_DIR     ground truth (truth.h) into TRUTH_DIR
 *
 * Kernel order is launch order by construction: the side streams wait for
 * the compute stream by events and it waits for them. stdout must not
 * depend on being traced, and never shows device memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { MAX_RECORDED = 2 };

enum kernel {
	INIT_PARAMS, EMBED, LINEAR_FWD, RELU_FWD, LOSS_FWD, LOSS_BWD,
	RELU_BWD, LINEAR_BWD_WEIGHT, ALLREDUCE, SGD_UPDATE, N_KERNELS
};
static const char *const kernel_names[N_KERNELS] = {
	"init_params", "embed", "linear_fwd", "relu_fwd", "loss_fwd",
	"loss_bwd", "relu_bwd", "linear_bwd_weight", "nccl_allreduce",
	"sgd_update",
};
static const char kernel_handles[N_KERNELS];

/* What c10's PtrUsage keeps about one allocation. */
struct tensor {
	void *ptr;
	cudaStream_t creation;
	cudaStream_t recorded[MAX_RECORDED];
	int n_recorded;
};

static struct truth *truth;
static cudaStream_t unifying_free_stream;
static int device_initialized;
static unsigned launches;
/* Allocations that got an address some earlier, freed tensor had. */
static unsigned reused_addresses;
static uintptr_t freed[256];
static size_t n_freed;

static void lazy_init_device(int device)
{
	if (device_initialized)
		return;
	cudaMemPool_t pool;
	WL_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
	uint64_t threshold = UINT64_MAX;
	WL_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
					 &threshold));
	int enable = 1;
	WL_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies,
					 &enable));
	WL_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic,
					 &enable));
	WL_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies,
					 &enable));
	threshold = 0;
	WL_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
					 &threshold));
	if (threshold != UINT64_MAX) {
		fprintf(stderr, "torch_async_alloc: release threshold reads back "
			"as %llu\n", (unsigned long long)threshold);
		exit(1);
	}
	WL_CHECK(cudaStreamCreateWithFlags(&unifying_free_stream,
					   cudaStreamNonBlocking));
	device_initialized = 1;
}

static struct tensor alloc_tensor(int device, size_t bytes, const char *name,
				  int step, int global, cudaStream_t stream)
{
	lazy_init_device(device);
	struct tensor t = { .creation = stream };
	WL_CHECK(cudaMallocAsync(&t.ptr, bytes, stream));
	for (size_t i = 0; i < n_freed; i++) {
		if (freed[i] == (uintptr_t)t.ptr) {
			reused_addresses++;
			freed[i] = freed[--n_freed];
			break;
		}
	}
	char label[64];
	if (step >= 0)
		snprintf(label, sizeof(label), "%s.%d", name, step);
	else
		snprintf(label, sizeof(label), "%s", name);
	truth_alloc(truth, t.ptr, bytes, label, global);
	wl_tag(t.ptr, label);
	return t;
}

/* Tensor.record_stream(stream) */
static void record_stream(struct tensor *t, cudaStream_t stream)
{
	if (stream == t->creation)
		return;
	for (int i = 0; i < t->n_recorded; i++)
		if (t->recorded[i] == stream)
			return;
	if (t->n_recorded == MAX_RECORDED) {
		fprintf(stderr, "torch_async_alloc: too many usage streams\n");
		exit(1);
	}
	t->recorded[t->n_recorded++] = stream;
}

/* c10's sync_raw: dependent waits for what dependency has queued. */
static void sync_raw(cudaStream_t dependency, cudaStream_t dependent)
{
	cudaEvent_t event;
	WL_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
	WL_CHECK(cudaEventRecord(event, dependency));
	WL_CHECK(cudaStreamWaitEvent(dependent, event, 0));
	WL_CHECK(cudaEventDestroy(event));
}

/* c10's free_impl. */
static void free_tensor(struct tensor *t)
{
	if (t->n_recorded == 0) {
		WL_CHECK(cudaFreeAsync(t->ptr, t->creation));
	} else {
		sync_raw(t->creation, unifying_free_stream);
		for (int i = 0; i < t->n_recorded; i++)
			sync_raw(t->recorded[i], unifying_free_stream);
		WL_CHECK(cudaFreeAsync(t->ptr, unifying_free_stream));
	}
	truth_free(truth, t->ptr);
	if (n_freed < sizeof(freed) / sizeof(freed[0]))
		freed[n_freed++] = (uintptr_t)t->ptr;
	t->ptr = NULL;
}

static void launch(enum kernel k, cudaStream_t stream, const struct tensor *a,
		   const struct tensor *b, const struct tensor *c)
{
	void *ptrs[3] = {a ? a->ptr : NULL, b ? b->ptr : NULL, c ? c->ptr : NULL};
	size_t n = c ? 3 : b ? 2 : 1;
	void *args[3] = {&ptrs[0], &ptrs[1], &ptrs[2]};
	/* 20-42 us, all different in a row, so order is unambiguous. */
	uint64_t duration_ns = 20000 + 1000 * (uint64_t)(launches * 7 % 23);
	launches++;
	wl_launch(truth, &kernel_handles[k], kernel_names[k], args, stream,
		  duration_ns, (const void *const *)ptrs, n);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: torch_async_alloc TRUTH_DIR\n");
		return 2;
	}
	int rank = 0;
	const char *local_rank = getenv("LOCAL_RANK");
	if (local_rank) {
		char *end;
		long r = strtol(local_rank, &end, 10);
		if (!*local_rank || *end || r < 0 || r > 15) {
			fprintf(stderr, "torch_async_alloc: bad LOCAL_RANK '%s'\n",
				local_rank);
			return 2;
		}
		rank = (int)r;
		WL_CHECK(cudaSetDevice(rank));
	}
	int device = -1;
	WL_CHECK(cudaGetDevice(&device));
	truth = truth_new();
	size_t sizes[3] = {sizeof(void *), sizeof(void *), sizeof(void *)};
	for (int k = 0; k < N_KERNELS; k++)
		simgpu_define_kernel(&kernel_handles[k], kernel_names[k], 3, sizes);

	const size_t scale = (size_t)rank + 1;
	const size_t in_bytes = 64 * 1024 * scale, hidden_bytes = 128 * 1024 * scale;
	const size_t weight_bytes = 256 * 1024 * scale;
	const int steps = 2 + rank;

	cudaStream_t compute, comm;
	WL_CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
	WL_CHECK(cudaStreamCreateWithFlags(&comm, cudaStreamNonBlocking));

	/* The parameters and DDP's gradient bucket live through the run. */
	struct tensor w = alloc_tensor(device, weight_bytes, "fc.weight", -1, 1, compute);
	struct tensor bucket = alloc_tensor(device, weight_bytes, "ddp.bucket", -1, 1, compute);
	launch(INIT_PARAMS, compute, &w, &bucket, NULL);

	struct tensor grad_w = {0};
	float host_loss = 0;
	for (int step = 0; step < steps; step++) {
		/* optimizer.zero_grad(set_to_none=True): last step's gradient
		 * was all-reduced on comm, so it goes through the unifying
		 * stream. */
		if (grad_w.ptr)
			free_tensor(&grad_w);

		struct tensor x = alloc_tensor(device, in_bytes, "input", step, 0, compute);
		launch(EMBED, compute, &x, NULL, NULL);
		struct tensor h = alloc_tensor(device, hidden_bytes, "fc.out", step, 0, compute);
		launch(LINEAR_FWD, compute, &x, &w, &h);
		struct tensor a = alloc_tensor(device, hidden_bytes, "relu.out", step, 0, compute);
		launch(RELU_FWD, compute, &h, &a, NULL);
		struct tensor loss = alloc_tensor(device, 256, "loss", step, 0, compute);
		launch(LOSS_FWD, compute, &a, &loss, NULL);
		struct tensor grad_a = alloc_tensor(device, hidden_bytes, "relu.out.grad", step, 0, compute);
		launch(LOSS_BWD, compute, &a, &loss, &grad_a);
		free_tensor(&a);
		struct tensor grad_h = alloc_tensor(device, hidden_bytes, "fc.out.grad", step, 0, compute);
		launch(RELU_BWD, compute, &grad_a, &h, &grad_h);
		free_tensor(&grad_a);
		free_tensor(&h);
		grad_w = alloc_tensor(device, weight_bytes, "fc.weight.grad", step, 0, compute);
		launch(LINEAR_BWD_WEIGHT, compute, &x, &grad_h, &grad_w);
		free_tensor(&grad_h);
		free_tensor(&x);

		/* DDP: all-reduce on the communication stream, joined back. */
		sync_raw(compute, comm);
		record_stream(&grad_w, comm);
		launch(ALLREDUCE, comm, &grad_w, &bucket, NULL);
		sync_raw(comm, compute);
		launch(SGD_UPDATE, compute, &w, &grad_w, NULL);

		/* loss.item() */
		WL_CHECK(cudaMemcpyAsync(&host_loss, loss.ptr, sizeof(host_loss),
					 cudaMemcpyDeviceToHost, compute));
		WL_CHECK(cudaStreamSynchronize(compute));
		free_tensor(&loss);
		printf("torch_async_alloc: rank %d step %d done\n", rank, step);
	}
	free_tensor(&grad_w);
	WL_CHECK(cudaDeviceSynchronize());
	printf("torch_async_alloc: rank %d device %d, %d steps, %u kernels, "
	       "%u allocations at a reused address\n", rank, device, steps,
	       launches, reused_addresses);
	wl_write_truth(truth, argv[1]);
	WL_CHECK(cudaStreamDestroy(compute));
	WL_CHECK(cudaStreamDestroy(comm));
	WL_CHECK(cudaStreamDestroy(unifying_free_stream));
	truth_delete(truth);
	return 0;
}
