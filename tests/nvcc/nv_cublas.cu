// nv_cublas: cuBLAS called from a .cu file between <<<>>> launches: an
// SGEMM (column-major C = A B) then a kernel on its result. The GEMM is one
// library call with its kernel (simgpu/cublas/README.md names it) and
// the tensors it reads and writes; both durations are set by the program.
//
//   nv_cublas TRUTH_DIR
#include <cublas_v2.h>

#include "tests/nvcc/nv_common.h"

__global__ void relu(float *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && p[i] < 0)
		p[i] = 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_cublas TRUTH_DIR\n");
		return 2;
	}
	enum { M = 64, K = 32, NC = 16 };
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	cublasHandle_t handle;
	if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "nv_cublas: cublasCreate failed\n");
		return 1;
	}
	float *a = nv_alloc<float>(truth, M * K, "A", 1);
	float *b = nv_alloc<float>(truth, K * NC, "B", 1);
	float *c = nv_alloc<float>(truth, M * NC, "C", 1);
	static float host[M * K];
	nv_upload(truth, a, host, sizeof(float) * M * K);
	nv_upload(truth, b, host, sizeof(float) * K * NC);

	const float one = 1, zero = 0;
	nv_next_kernel_ns(401000);
	if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, NC, K, &one, a, M, b, K, &zero,
			c, M) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "nv_cublas: cublasSgemm failed\n");
		return 1;
	}
	const char *gemm_kernel = "ampere_sgemm_128x64_nn";
	const uint64_t gemm_ns = 401000;
	const struct truth_arg args[] = {
		{a, TRUTH_READ, "f32[64, 32]"}, {b, TRUTH_READ, "f32[32, 16]"},
		{c, TRUTH_WRITE, "f32[64, 16]"},
	};
	truth_library_call(truth, "cublasSgemm_v2", &gemm_kernel, &gemm_ns, 1, args, 3);

	nv_next_kernel_ns(402000);
	relu<<<(M * NC) / 256, 256>>>(c, M * NC);
	const void *k[] = {c};
	nv_kernel(truth, "_Z4reluPfi", k, 1, 402000);
	NV_CHECK(cudaDeviceSynchronize());
	printf("sgemm %dx%dx%d then relu\n", M, NC, K);
	cublasDestroy(handle);
	nv_free(truth, a);
	nv_free(truth, b);
	nv_free(truth, c);
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
