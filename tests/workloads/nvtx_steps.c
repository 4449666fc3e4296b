/*
 * nvtx_steps: three training steps named with NVTX, as PyTorch's emit_nvtx()
 * and a step marker name them. Each step is a start/end range "train_step"
 * (nvtxRangeStartA/nvtxRangeEnd); inside it push/pop ranges name the ops
 * ("aten::linear" with "aten::addmm" nested in it, "aten::relu", ...)
 * around cudaLaunchKernel launches. One launch, between steps 1 and 2, runs
 * outside any range; in step 2 a second thread launches inside its own push
 * range "prefetch" while the main thread holds a push range opened after
 * it (an op of one thread must never name another thread's kernel).
 *
 *   nvtx_steps TRUTH_DIR   writes the ground truth (truth.h) into TRUTH_DIR
 *                          and, by construction, nvtx_kernels.csv
 *                          (index,name,op,step,args: each kernel's innermost
 *                          enclosing range on its launching thread, empty
 *                          when none; its step, 0 outside any; its tensor
 *                          names in parameter order) and nvtx_step2.csv
 *                          (id,global: allocated before step 2 opened and
 *                          not freed before it closed, as G10 would judge a
 *                          window of that step)
 *
 * GPU order is program order: the main thread launches on one stream and
 * waits for it before the second thread launches, which waits for its own
 * stream before the main thread goes on. Its stdout must not depend on
 * whether it is traced; it must never read device memory back into
 * anything it prints.
 */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { MAX_KERNELS = 64, MAX_TENSORS = 64, MAX_ARGS = 4, MAX_OPS = 8, STEPS = 3 };

/* Host-side kernel handles: only their addresses matter. */
static const char zero_grad_k, transpose_k, gemm_k, bias_add_k, relu_k,
	loss_k, backward_k, sgd_k, log_loss_k, prefetch_k, zero_k;

static void define_kernels(void)
{
	const size_t sizes[MAX_ARGS] = {sizeof(void *), sizeof(void *),
					sizeof(void *), sizeof(void *)};
	simgpu_define_kernel(&zero_grad_k, "zero_grad", 1, sizes);
	simgpu_define_kernel(&transpose_k, "transpose", 1, sizes);
	simgpu_define_kernel(&gemm_k, "gemm", 3, sizes);
	simgpu_define_kernel(&bias_add_k, "bias_add", 2, sizes);
	simgpu_define_kernel(&relu_k, "relu", 2, sizes);
	simgpu_define_kernel(&loss_k, "loss", 2, sizes);
	simgpu_define_kernel(&backward_k, "backward", 4, sizes);
	simgpu_define_kernel(&sgd_k, "sgd", 4, sizes);
	simgpu_define_kernel(&log_loss_k, "log_loss", 1, sizes);
	simgpu_define_kernel(&prefetch_k, "prefetch", 1, sizes);
	simgpu_define_kernel(&zero_k, "zero", 1, sizes);
}

static struct truth *truth;

/* ---- what the program did, by construction ------------------------------ */

/* The ops each thread has open (push/pop), innermost last, and the open
 * start/end step: a thread's kernel is named by whichever of its own
 * pushes or the step opened last. */
struct op_stack {
	const char *names[MAX_OPS];
	unsigned opened_at[MAX_OPS];
	int depth;
};

static struct {
	int step;               /* 0: outside every train_step */
	unsigned step_opened_at;
	unsigned clock;         /* counts range openings, orders them */
	int step2_opened, step2_closed;
} program;

struct kernel_note {
	const char *name;
	const char *op;
	int step;
	char args[256];
};
static struct kernel_note kernels[MAX_KERNELS];
static size_t n_kernels;

struct tensor_note {
	const void *ptr;
	const char *name;
	int born_before_step2, freed_before_step2_closed, freed;
};
static struct tensor_note tensors[MAX_TENSORS];
static size_t n_tensors;

/* Kernels and tensors are noted by one thread at a time: the threads take
 * turns (see the file comment), joined by a barrier or pthread_join. */

static void push(struct op_stack *ops, const char *name)
{
	if (ops->depth == MAX_OPS) {
		fprintf(stderr, "nvtx_steps: ops nested too deep\n");
		exit(1);
	}
	ops->names[ops->depth] = name;
	ops->opened_at[ops->depth++] = ++program.clock;
	nvtxRangePushA(name);
}

static void pop(struct op_stack *ops)
{
	ops->depth--;
	nvtxRangePop();
}

static const char *innermost(const struct op_stack *ops)
{
	const char *op = program.step ? "train_step" : "";
	if (ops->depth && (!program.step ||
			   ops->opened_at[ops->depth - 1] > program.step_opened_at))
		op = ops->names[ops->depth - 1];
	return op;
}

static const char *tensor_name(const void *ptr)
{
	for (size_t i = 0; i < n_tensors; i++)
		if (tensors[i].ptr == ptr && !tensors[i].freed)
			return tensors[i].name;
	fprintf(stderr, "nvtx_steps: %p is no live tensor\n", ptr);
	exit(1);
}

static void *alloc(const char *name, int global)
{
	if (n_tensors == MAX_TENSORS) {
		fprintf(stderr, "nvtx_steps: too many tensors\n");
		exit(1);
	}
	void *ptr = wl_alloc(truth, 4096 * (1 + n_tensors), name, global);
	tensors[n_tensors++] = (struct tensor_note){
		.ptr = ptr, .name = name, .born_before_step2 = !program.step2_opened };
	return ptr;
}

static void release(void *ptr)
{
	for (size_t i = 0; i < n_tensors; i++)
		if (tensors[i].ptr == ptr && !tensors[i].freed) {
			tensors[i].freed = 1;
			tensors[i].freed_before_step2_closed = !program.step2_closed;
		}
	wl_free(truth, ptr);
}

/*
 * Launches func on stream with the tensors ptrs as its parameters, for
 * exactly duration_ns, under the ops open on this thread.
 */
static void launch(const struct op_stack *ops, const void *func, const char *name,
		   cudaStream_t stream, uint64_t duration_ns,
		   void *const *ptrs, size_t n_ptrs)
{
	if (n_kernels == MAX_KERNELS) {
		fprintf(stderr, "nvtx_steps: too many kernels\n");
		exit(1);
	}
	void *values[MAX_ARGS];
	void *params[MAX_ARGS];
	struct kernel_note *note = &kernels[n_kernels++];
	*note = (struct kernel_note){ .name = name, .op = innermost(ops),
				      .step = program.step };
	for (size_t i = 0; i < n_ptrs; i++) {
		values[i] = ptrs[i];
		params[i] = &values[i];
		size_t used = strlen(note->args);
		snprintf(note->args + used, sizeof(note->args) - used, "%s%s",
			 i ? ", " : "", tensor_name(ptrs[i]));
	}
	wl_launch(truth, func, name, params, stream, duration_ns,
		  (const void *const *)ptrs, n_ptrs);
}

/* ---- the program ---------------------------------------------------------- */

static struct op_stack main_ops;
static cudaStream_t main_stream;
static void *weight, *bias, *input, *momentum_carry, *late_carry;
static pthread_barrier_t turn;
static uint64_t next_ns = 100000;

/* Durations all different and >= 100 us: order and sums are unambiguous. */
static uint64_t duration(void)
{
	return next_ns += 1000;
}

/* The second thread: its own push range around its own launch, made while
 * the main thread holds a push opened after this one. */
static void *prefetch_thread(void *unused)
{
	(void)unused;
	struct op_stack ops = {0};
	cudaStream_t stream;
	WL_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	push(&ops, "prefetch");
	pthread_barrier_wait(&turn);   /* main pushes "aten::zero_" */
	pthread_barrier_wait(&turn);
	launch(&ops, &prefetch_k, "prefetch", stream, duration(), &input, 1);
	WL_CHECK(cudaStreamSynchronize(stream));
	pop(&ops);
	WL_CHECK(cudaStreamDestroy(stream));
	return NULL;
}

static void train_step(int step)
{
	nvtxRangeId_t range = nvtxRangeStartA("train_step");
	program.step = step;
	program.step_opened_at = ++program.clock;
	if (step == 2)
		program.step2_opened = 1;

	void *grad = alloc("grad", 0);
	launch(&main_ops, &zero_grad_k, "zero_grad", main_stream, duration(), &grad, 1);

	void *hidden = alloc("hidden", 0);
	push(&main_ops, "aten::linear");
	launch(&main_ops, &transpose_k, "transpose", main_stream, duration(), &weight, 1);
	push(&main_ops, "aten::addmm");
	void *gemm_args[3] = {input, weight, hidden};
	launch(&main_ops, &gemm_k, "gemm", main_stream, duration(), gemm_args, 3);
	pop(&main_ops);
	void *bias_args[2] = {hidden, bias};
	launch(&main_ops, &bias_add_k, "bias_add", main_stream, duration(), bias_args, 2);
	pop(&main_ops);

	void *activation = alloc("activation", 0);
	push(&main_ops, "aten::relu");
	void *relu_args[2] = {hidden, activation};
	launch(&main_ops, &relu_k, "relu", main_stream, duration(), relu_args, 2);
	pop(&main_ops);

	if (step == 2) {
		/* Prefetch on another thread while this one zeroes a buffer. */
		WL_CHECK(cudaStreamSynchronize(main_stream));
		pthread_t worker;
		if (pthread_create(&worker, NULL, prefetch_thread, NULL) != 0) {
			fprintf(stderr, "nvtx_steps: cannot start a thread\n");
			exit(1);
		}
		pthread_barrier_wait(&turn);
		push(&main_ops, "aten::zero_");
		pthread_barrier_wait(&turn);
		pthread_join(worker, NULL);
		launch(&main_ops, &zero_k, "zero", main_stream, duration(), &activation, 1);
		pop(&main_ops);
	}

	push(&main_ops, "aten::mse_loss");
	void *loss_args[2] = {activation, grad};
	launch(&main_ops, &loss_k, "loss", main_stream, duration(), loss_args, 2);
	pop(&main_ops);

	push(&main_ops, "autograd::backward");
	void *backward_args[4] = {grad, activation, hidden, weight};
	launch(&main_ops, &backward_k, "backward", main_stream, duration(), backward_args, 4);
	pop(&main_ops);
	WL_CHECK(cudaStreamSynchronize(main_stream));
	release(activation);
	release(hidden);

	/* Optimizer state born lazily in step 1 and dropped in step 3 is
	 * global to step 2; one born in step 2 and dropped in step 3 is not,
	 * nor is step 1's leftover freed during step 2. */
	if (step == 1) {
		momentum_carry = alloc("momentum", 0);
		late_carry = alloc("stale_state", 0);
	}
	if (step == 2) {
		release(late_carry);
		late_carry = alloc("step2_state", 0);
	}
	push(&main_ops, "optimizer.step");
	void *sgd_args[4] = {weight, grad, momentum_carry, late_carry};
	launch(&main_ops, &sgd_k, "sgd", main_stream, duration(), sgd_args, 4);
	pop(&main_ops);
	WL_CHECK(cudaStreamSynchronize(main_stream));
	if (step == 3) {
		release(late_carry);
		release(momentum_carry);
	}
	release(grad);

	nvtxRangeEnd(range);
	program.step = 0;
	if (step == 2)
		program.step2_closed = 1;
}

static void write_notes(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/nvtx_kernels.csv", dir);
	FILE *out = fopen(path, "w");
	if (!out) {
		perror(path);
		exit(1);
	}
	fprintf(out, "index,name,op,step,args\n");
	for (size_t k = 0; k < n_kernels; k++)
		fprintf(out, "%zu,%s,%s,%d,\"%s\"\n", k, kernels[k].name, kernels[k].op,
			kernels[k].step, kernels[k].args);
	if (fclose(out) != 0) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/nvtx_step2.csv", dir);
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		exit(1);
	}
	fprintf(out, "id,name,global\n");
	for (size_t i = 0; i < n_tensors; i++)
		fprintf(out, "%zu,%s,%d\n", i, tensors[i].name,
			tensors[i].born_before_step2 && !tensors[i].freed_before_step2_closed);
	if (fclose(out) != 0) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nvtx_steps TRUTH_DIR\n");
		return 2;
	}
	truth = truth_new();
	define_kernels();
	pthread_barrier_init(&turn, NULL, 2);
	WL_CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));

	/* Alive from before the first kernel to after the last: global. */
	weight = alloc("weight", 1);
	bias = alloc("bias", 1);
	input = alloc("input", 1);

	train_step(1);
	launch(&main_ops, &log_loss_k, "log_loss", main_stream, duration(), &weight, 1);
	WL_CHECK(cudaStreamSynchronize(main_stream));
	train_step(2);
	train_step(3);
	printf("nvtx_steps: %d steps, %zu kernels, %zu tensors\n", STEPS, n_kernels, n_tensors);

	release(input);
	release(bias);
	release(weight);
	wl_write_truth(truth, argv[1]);
	write_notes(argv[1]);
	WL_CHECK(cudaStreamDestroy(main_stream));
	pthread_barrier_destroy(&turn);
	truth_delete(truth);
	return 0;
}
