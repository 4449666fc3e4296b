/*
 * Benchmarks (c) and the trace generator of (d), printed as ns per iteration.
 *   bench_launch launch N      cudaLaunchKernel of a kernel whose single 300-byte
 *                              parameter block holds 4 tensor pointers
 *   bench_launch launch_long N the same launch of a kernel with a realistic
 *                              400-byte templated C++ name (PyTorch's names are
 *                              200-600 bytes)
 *   bench_launch tracepoint N  one bare bench_ref:event tracepoint (the yardstick)
 *   bench_launch mixed N       cudaMalloc + that launch + cudaFree per iteration,
 *                              5 trace events each: a realistic trace for (d)
 * Runs on simgpu (kernels are declared with simgpu_define_kernel). Never part
 * of the test suite.
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_clock.h"
#include "simgpu/simgpu.h"

#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "bench/bench_tp.h"

/*
 * A 300-byte parameter block like TensorIterator's: sizes first, then four
 * tensor pointers at 8-byte-aligned offsets, then other data.
 */
#define PARAM_BYTES 300
#define TENSOR_OFFSET 32
static _Alignas(8) unsigned char params[PARAM_BYTES];

static void *tensor_slot(int t)
{
	void *p;
	memcpy(&p, params + TENSOR_OFFSET + 8 * t, sizeof p);
	return p;
}

static void set_tensor_slot(int t, void *p)
{
	memcpy(params + TENSOR_OFFSET + 8 * t, &p, sizeof p);
}

static char bench_kernel; /* its address is the kernel's host handle */
static char bench_kernel_long_name;

/* What cudaFuncGetName gives for one of PyTorch's elementwise kernels. */
static const char long_kernel_name[] =
	"void at::native::vectorized_elementwise_kernel<4, "
	"at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
	"c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, "
	"std::array<char*, 3ul> >(int64_t, "
	"at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
	"c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, "
	"std::array<char*, 3ul>, memory::LoadWithCast<2>, "
	"memory::StoreWithCast<1>)";
_Static_assert(sizeof(long_kernel_name) == 400 + 1, "the benchmark's name is 400 bytes");
static cudaStream_t stream;

static void check(cudaError_t err, const char *what)
{
	if (err != cudaSuccess) {
		fprintf(stderr, "bench_launch: %s failed: %s\n", what, cudaGetErrorString(err));
		exit(1);
	}
}

static void launch_kernel(const void *kernel)
{
	void *args[1] = { params };
	dim3 grid = { 128, 1, 1 }, block = { 256, 1, 1 };
	check(cudaLaunchKernel(kernel, grid, block, args, 0, stream), "cudaLaunchKernel");
}

static void launch_once(void)
{
	launch_kernel(&bench_kernel);
}

static void launches(long n)
{
	for (long i = 0; i < n; i++)
		launch_once();
	check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

static void long_name_launches(long n)
{
	for (long i = 0; i < n; i++)
		launch_kernel(&bench_kernel_long_name);
	check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

static void tracepoints(long n)
{
	for (long i = 0; i < n; i++)
		lttng_ust_tracepoint(bench_ref, event, (uint64_t)i, 1, 2, 3);
}

static void mixed(long n)
{
	for (long i = 0; i < n; i++) {
		void *scratch = NULL;
		check(cudaMalloc(&scratch, 4096), "cudaMalloc");
		set_tensor_slot(3, scratch);
		launch_once();
		check(cudaFree(tensor_slot(3)), "cudaFree");
	}
	check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

int main(int argc, char **argv)
{
	void (*body)(long) = NULL;
	if (argc == 3 && strcmp(argv[1], "launch") == 0)
		body = launches;
	else if (argc == 3 && strcmp(argv[1], "launch_long") == 0)
		body = long_name_launches;
	else if (argc == 3 && strcmp(argv[1], "tracepoint") == 0)
		body = tracepoints;
	else if (argc == 3 && strcmp(argv[1], "mixed") == 0)
		body = mixed;
	long n = argc == 3 ? atol(argv[2]) : 0;
	if (!body || n <= 0) {
		fprintf(stderr, "usage: bench_launch launch|launch_long|tracepoint|mixed ITERATIONS\n");
		return 1;
	}
	size_t param_sizes[1] = { PARAM_BYTES };
	simgpu_define_kernel(&bench_kernel, "bench_kernel", 1, param_sizes);
	simgpu_define_kernel(&bench_kernel_long_name, long_kernel_name, 1, param_sizes);
	check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
	for (int t = 0; t < 4; t++) {
		void *tensor = NULL;
		check(cudaMalloc(&tensor, 1 << 16), "cudaMalloc");
		set_tensor_slot(t, tensor);
	}
	if (body == mixed) { /* one iteration, as printed: no warm-up rounds */
		uint64_t t0 = bench_now_ns();
		mixed(n);
		printf("%.1f\n", (double)(bench_now_ns() - t0) / (double)n);
		return 0;
	}
	body(n / 10 + 1);
	printf("%.1f\n", bench_best_ns(body, n, 5));
	return 0;
}
