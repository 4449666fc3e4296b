// nv_multi_lib: the second translation unit of nv_multi (nv_multi_main.cu):
// its own kernels in its own fatbin, registered by its own constructor, and
// a host function that launches them with <<<>>>.
#include "tests/nvcc/nv_multi.h"

__global__ void lib_axpy(float alpha, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += alpha * x[i];
}

// Same name as a kernel of the other unit, but static: two distinct kernels
// (two host stubs, two modules) whose device symbol is the same _Z4fillPfi
// (LOCAL in this unit's cubin), the name a GPU reports for both.
static __global__ void fill(float *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = 2.0f;
}

void lib_step(struct truth *truth, float *x, float *y, int n)
{
	nv_next_kernel_ns(201000);
	lib_axpy<<<n / 256, 256>>>(0.5f, x, y, n);
	NV_CHECK(cudaGetLastError());
	const void *k1[] = {x, y};
	nv_kernel(truth, "_Z8lib_axpyfPKfPfi", k1, 2, 201000);
	nv_next_kernel_ns(202000);
	fill<<<n / 256, 256>>>(y, n);
	const void *k2[] = {y};
	nv_kernel(truth, "_Z4fillPfi", k2, 1, 202000);
}
