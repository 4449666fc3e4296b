/*
 * mlp_train: a two-layer MLP training loop on the simulated GPU, calling CUDA
 * the way PyTorch does with PYTORCH_NO_CUDA_MEMORY_CACHING=1: one cudaMalloc
 * per tensor, freed as soon as its last user is launched; weights allocated up
 * front (global); each batch copied in with cudaMemcpyAsync on a side stream;
 * element-wise kernels get their tensors inside one struct parameter (like
 * TensorIterator); weight gradients computed on the side stream, joined with
 * events. Kernel order is fixed by construction: every cross-stream step waits
 * on an event, so the GPU start order is the launch order below.
 *
 *   mlp_train TRUTH_DIR     writes the ground truth (truth.h) into TRUTH_DIR
 *
 * Its stdout must not depend on whether it is traced. It must never read
 * device memory back into anything it prints (the simulated GPU computes
 * nothing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { BATCH = 64, IN = 256, HIDDEN = 512, OUT = 16, ITERATIONS = 3 };

/* TensorIterator-like operand block: the tensors sit inside the struct. */
struct operands {
	void *data[4];
	int64_t numel;
	int32_t n_operands;
};

enum mlp_kernel {
	LINEAR_FWD, RELU_FWD, MSE_LOSS, MSE_LOSS_BWD, LINEAR_BWD_WEIGHT,
	BIAS_BWD, LINEAR_BWD_INPUT, RELU_BWD, SGD_UPDATE, N_MLP_KERNELS
};

static const char *const kernel_names[N_MLP_KERNELS] = {
	"mlp_linear_fwd", "mlp_relu_fwd", "mlp_mse_loss", "mlp_mse_loss_bwd",
	"mlp_linear_bwd_weight", "mlp_bias_bwd", "mlp_linear_bwd_input",
	"mlp_relu_bwd", "mlp_sgd_update",
};

/* Host-side kernel handles: only their addresses matter. */
static const char kernel_handles[N_MLP_KERNELS];

static struct truth *truth;
static unsigned launches;

static void define_kernels(void)
{
	size_t sizes[2] = {sizeof(struct operands), sizeof(float)};
	for (int k = 0; k < N_MLP_KERNELS; k++)
		simgpu_define_kernel(&kernel_handles[k], kernel_names[k],
				     k == SGD_UPDATE ? 2 : 1, sizes);
}

/* Launches kernel on stream with its operands (NULL-terminated, up to 4). */
static void launch(enum mlp_kernel kernel, cudaStream_t stream, void *a,
		   void *b, void *c, void *d)
{
	struct operands ops;
	memset(&ops, 0, sizeof(ops)); /* no stale bytes in the padding */
	void *given[4] = {a, b, c, d};
	for (int i = 0; i < 4 && given[i]; i++)
		ops.data[ops.n_operands++] = given[i];
	ops.numel = BATCH * HIDDEN;
	float learning_rate = 0.01f;
	void *args[2] = {&ops, &learning_rate};
	/* >= 100 us each, all different, so order and sums are unambiguous. */
	uint64_t duration_ns = 100000 + 1000 * (uint64_t)(launches * 7 % 23);
	launches++;
	wl_launch(truth, &kernel_handles[kernel], kernel_names[kernel], args, stream,
		  duration_ns, (const void *const *)ops.data, (size_t)ops.n_operands);
}

static void *tensor(size_t elements, const char *name, int iteration)
{
	char label[64];
	snprintf(label, sizeof(label), "%s.%d", name, iteration);
	return wl_alloc(truth, elements * sizeof(float), label, 0);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mlp_train TRUTH_DIR\n");
		return 2;
	}
	truth = truth_new();
	define_kernels();

	cudaStream_t main_stream, side_stream;
	cudaEvent_t batch_ready, grad_output_ready, weight_grads_ready;
	WL_CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
	WL_CHECK(cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking));
	WL_CHECK(cudaEventCreateWithFlags(&batch_ready, cudaEventDisableTiming));
	WL_CHECK(cudaEventCreateWithFlags(&grad_output_ready, cudaEventDisableTiming));
	WL_CHECK(cudaEventCreateWithFlags(&weight_grads_ready, cudaEventDisableTiming));

	/* Parameters: exist before the first iteration and outlive the last. */
	void *w1 = wl_alloc(truth, IN * HIDDEN * sizeof(float), "fc1.weight", 1);
	void *b1 = wl_alloc(truth, HIDDEN * sizeof(float), "fc1.bias", 1);
	void *w2 = wl_alloc(truth, HIDDEN * OUT * sizeof(float), "fc2.weight", 1);
	void *b2 = wl_alloc(truth, OUT * sizeof(float), "fc2.bias", 1);

	float *host_inputs = calloc(BATCH * IN, sizeof(float));
	float *host_labels = calloc(BATCH * OUT, sizeof(float));
	float host_loss = 0;
	if (!host_inputs || !host_labels) {
		fprintf(stderr, "mlp_train: out of memory\n");
		return 1;
	}
	WL_CHECK(cudaMemcpy(w1, host_inputs, HIDDEN * sizeof(float), cudaMemcpyHostToDevice));

	for (int it = 0; it < ITERATIONS; it++) {
		/* The batch arrives on the side stream; compute waits for it. */
		void *x = tensor(BATCH * IN, "input", it);
		void *y = tensor(BATCH * OUT, "labels", it);
		WL_CHECK(cudaMemcpyAsync(x, host_inputs, BATCH * IN * sizeof(float),
					 cudaMemcpyHostToDevice, side_stream));
		WL_CHECK(cudaMemcpyAsync(y, host_labels, BATCH * OUT * sizeof(float),
					 cudaMemcpyHostToDevice, side_stream));
		WL_CHECK(cudaEventRecord(batch_ready, side_stream));
		WL_CHECK(cudaStreamWaitEvent(main_stream, batch_ready, 0));

		/* Forward and loss. */
		void *h1 = tensor(BATCH * HIDDEN, "fc1.out", it);
		launch(LINEAR_FWD, main_stream, x, w1, b1, h1);
		void *a1 = tensor(BATCH * HIDDEN, "relu.out", it);
		launch(RELU_FWD, main_stream, h1, a1, NULL, NULL);
		void *out = tensor(BATCH * OUT, "fc2.out", it);
		launch(LINEAR_FWD, main_stream, a1, w2, b2, out);
		void *loss = tensor(1, "loss", it);
		launch(MSE_LOSS, main_stream, out, y, loss, NULL);
		void *grad_out = tensor(BATCH * OUT, "fc2.out.grad", it);
		launch(MSE_LOSS_BWD, main_stream, out, y, grad_out, NULL);
		wl_free(truth, out);
		wl_free(truth, y);

		/* fc2's weight gradients on the side stream, joined back. */
		WL_CHECK(cudaEventRecord(grad_output_ready, main_stream));
		WL_CHECK(cudaStreamWaitEvent(side_stream, grad_output_ready, 0));
		void *grad_w2 = wl_alloc(truth, HIDDEN * OUT * sizeof(float), "fc2.weight.grad", 0);
		launch(LINEAR_BWD_WEIGHT, side_stream, a1, grad_out, grad_w2, NULL);
		void *grad_b2 = wl_alloc(truth, OUT * sizeof(float), "fc2.bias.grad", 0);
		launch(BIAS_BWD, side_stream, grad_out, grad_b2, NULL, NULL);
		WL_CHECK(cudaEventRecord(weight_grads_ready, side_stream));
		WL_CHECK(cudaStreamWaitEvent(main_stream, weight_grads_ready, 0));
		wl_free(truth, a1);

		/* Back through fc2 and the ReLU to fc1. */
		void *grad_a1 = tensor(BATCH * HIDDEN, "relu.out.grad", it);
		launch(LINEAR_BWD_INPUT, main_stream, grad_out, w2, grad_a1, NULL);
		wl_free(truth, grad_out);
		void *grad_h1 = tensor(BATCH * HIDDEN, "fc1.out.grad", it);
		launch(RELU_BWD, main_stream, grad_a1, h1, grad_h1, NULL);
		wl_free(truth, grad_a1);
		wl_free(truth, h1);
		void *grad_w1 = wl_alloc(truth, IN * HIDDEN * sizeof(float), "fc1.weight.grad", 0);
		launch(LINEAR_BWD_WEIGHT, main_stream, x, grad_h1, grad_w1, NULL);
		void *grad_b1 = wl_alloc(truth, HIDDEN * sizeof(float), "fc1.bias.grad", 0);
		launch(BIAS_BWD, main_stream, grad_h1, grad_b1, NULL, NULL);
		wl_free(truth, grad_h1);
		wl_free(truth, x);

		/* SGD step. */
		launch(SGD_UPDATE, main_stream, w1, grad_w1, NULL, NULL);
		launch(SGD_UPDATE, main_stream, b1, grad_b1, NULL, NULL);
		launch(SGD_UPDATE, main_stream, w2, grad_w2, NULL, NULL);
		launch(SGD_UPDATE, main_stream, b2, grad_b2, NULL, NULL);
		wl_free(truth, grad_w1);
		wl_free(truth, grad_b1);
		wl_free(truth, grad_w2);
		wl_free(truth, grad_b2);

		/* loss.item(): copy back on the compute stream and wait for it. */
		WL_CHECK(cudaMemcpyAsync(&host_loss, loss, sizeof(float),
					 cudaMemcpyDeviceToHost, main_stream));
		WL_CHECK(cudaStreamSynchronize(main_stream));
		wl_free(truth, loss);
		printf("mlp_train: iteration %d done\n", it);
	}
	WL_CHECK(cudaDeviceSynchronize());
	printf("mlp_train: %d iterations, %u kernels\n", ITERATIONS, launches);

	/* Like PyTorch, the parameters stay allocated until the process exits. */
	wl_write_truth(truth, argv[1]);
	WL_CHECK(cudaStreamDestroy(main_stream));
	WL_CHECK(cudaStreamDestroy(side_stream));
	free(host_inputs);
	free(host_labels);
	truth_delete(truth);
	return 0;
}
