// nv_multi: a program of two translation units (nv_multi_main.cu and
// nv_multi_lib.cu, no -rdc), each with its own fatbin and registration
// constructor; both define a kernel named fill (this one extern, the other
// static), which must stay two kernels. Writes its ground truth.
//
//   nv_multi TRUTH_DIR
#include "tests/nvcc/nv_multi.h"

__global__ void fill(float *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = 1.0f;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_multi TRUTH_DIR\n");
		return 2;
	}
	enum { N = 2048 };
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	float *x = nv_alloc<float>(truth, N, "x", 1);
	float *y = nv_alloc<float>(truth, N, "y", 1);
	nv_next_kernel_ns(200000);
	fill<<<N / 256, 256>>>(x, N);
	const void *k[] = {x};
	nv_kernel(truth, "_Z4fillPfi", k, 1, 200000);
	lib_step(truth, x, y, N);
	NV_CHECK(cudaDeviceSynchronize());
	const char *name = NULL;
	NV_CHECK(cudaFuncGetName(&name, (const void *)fill));
	printf("this unit's fill is %s; 3 kernels from 2 translation units\n", name);
	nv_free(truth, x);
	nv_free(truth, y);
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	return 0;
}
