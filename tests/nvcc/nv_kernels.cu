// nv_kernels: an ordinary CUDA C++ program, compiled by nvcc, as users write
// them: <<<>>> launches with pointer and struct parameters, templates (long
// mangled names), a kernel without parameters, __device__ and __constant__
// variables reached with cudaMemcpyToSymbol / FromSymbol /
// cudaGetSymbolAddress, two streams ordered by events. It checks what the
// runtime says about its kernels (cudaFuncGetName, cudaFuncGetParamInfo)
// against what the C++ ABI lays out (sizeof/offsetof: known by
// construction) and writes its ground truth (tests/workloads/truth.h):
// kernel order, durations (set through simgpu_next_kernel_ns), and which
// tensors each kernel's parameters point into.
//
//   nv_kernels TRUTH_DIR
//
// Its stdout must not depend on whether it is traced.
#include <cstddef>
#include <cstring>

#include "tests/nvcc/nv_common.h"

enum { N = 4096 };

struct Pair {
	const float *src;
	float *dst;
	int n;
	float scale;
};

template <typename T, int K> struct Tile {
	T v[K];
};

__device__ float d_bias[4];
__device__ int d_counter = 7;
__constant__ float c_coeffs[3] = {1.5f, 2.5f, 3.5f};

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

__global__ void apply_pair(Pair p, char repeat)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (int r = 0; r < repeat; r++)
		if (i < p.n)
			p.dst[i] = p.src[i] * p.scale * c_coeffs[r % 3];
}

template <typename T, int K>
__global__ void scale_tiles(T *data, Tile<T, K> tile, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n)
		data[i] *= tile.v[i % K];
}

__global__ void use_bias(float *out, const float *bias, int n)
{
	int i = threadIdx.x;
	if (i < n)
		out[i] += bias[i % 4] + d_counter;
}

__global__ void no_params()
{
	d_counter += 1;
}

static struct truth *truth;

// The parameter layout the runtime reports must be the C++ ABI's.
static void check_params(const void *func, const char *what, const size_t *offsets,
			 const size_t *sizes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t offset = 0, size = 0;
		NV_CHECK(cudaFuncGetParamInfo(func, i, &offset, &size));
		if (offset != offsets[i] || size != sizes[i]) {
			fprintf(stderr, "nv_kernels: %s parameter %zu at %zu+%zu, the ABI "
				"says %zu+%zu\n", what, i, offset, size, offsets[i], sizes[i]);
			exit(1);
		}
	}
	size_t offset, size;
	if (cudaFuncGetParamInfo(func, n, &offset, &size) == cudaSuccess) {
		fprintf(stderr, "nv_kernels: %s has more than %zu parameters\n", what, n);
		exit(1);
	}
	(void)cudaGetLastError();
	printf("%s: %zu parameters as laid out by the ABI\n", what, n);
}

static void print_name(const void *func)
{
	const char *name = NULL;
	NV_CHECK(cudaFuncGetName(&name, func));
	printf("kernel %s\n", name);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: nv_kernels TRUTH_DIR\n");
		return 2;
	}
	truth = truth_new();
	truth_exact_roles(truth);

	print_name((const void *)vadd);
	print_name((const void *)apply_pair);
	print_name((const void *)scale_tiles<float, 4>);
	print_name((const void *)scale_tiles<double, 2>);
	print_name((const void *)no_params);
	{
		const size_t off[] = {0, 8, 16, 24}, sz[] = {8, 8, 8, 4};
		check_params((const void *)vadd, "vadd", off, sz, 4);
	}
	{
		const size_t off[] = {0, sizeof(Pair)}, sz[] = {sizeof(Pair), 1};
		check_params((const void *)apply_pair, "apply_pair", off, sz, 2);
	}
	{
		typedef Tile<double, 2> T2;
		const size_t off[] = {0, 8, 8 + sizeof(T2)}, sz[] = {8, sizeof(T2), 8};
		check_params((const void *)scale_tiles<double, 2>, "scale_tiles<double,2>",
			     off, sz, 3);
	}
	check_params((const void *)no_params, "no_params", NULL, NULL, 0);

	// Variables: initial values come from the program's device code.
	int counter = 0;
	NV_CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof(counter)));
	float coeffs[3];
	NV_CHECK(cudaMemcpyFromSymbol(coeffs, c_coeffs, sizeof(coeffs)));
	printf("d_counter=%d c_coeffs=%g %g %g\n", counter, coeffs[0], coeffs[1], coeffs[2]);
	const float bias[4] = {0.25f, 0.5f, 0.75f, 1.0f};
	NV_CHECK(cudaMemcpyToSymbol(d_bias, bias, sizeof(bias)));
	float back[4] = {0};
	NV_CHECK(cudaMemcpyFromSymbol(back, d_bias, sizeof(back)));
	printf("d_bias round trip %s\n", memcmp(bias, back, sizeof(bias)) ? "differs" : "equal");
	size_t bias_size = 0;
	NV_CHECK(cudaGetSymbolSize(&bias_size, d_bias));
	float *bias_ptr = NULL; // module memory: no allocation, no tensor
	NV_CHECK(cudaGetSymbolAddress((void **)&bias_ptr, d_bias));
	if (cudaMemcpyToSymbol(d_bias, bias, sizeof(bias), 4) != cudaErrorInvalidValue) {
		fprintf(stderr, "nv_kernels: a copy past d_bias's end succeeded\n");
		return 1;
	}
	(void)cudaGetLastError();
	printf("d_bias: %zu bytes\n", bias_size);

	float *host = (float *)calloc(N, sizeof(float));
	for (int i = 0; i < N; i++)
		host[i] = (float)i;
	float *a = nv_alloc<float>(truth, N, "a", 1);
	float *b = nv_alloc<float>(truth, N, "b", 1);
	float *c = nv_alloc<float>(truth, N, "c", 1);
	float *d = nv_alloc<float>(truth, N, "d", 1);
	double *t = nv_alloc<double>(truth, N, "t", 1);
	nv_upload(truth, a, host, N * sizeof(float));
	nv_upload(truth, b, host, N * sizeof(float));

	cudaStream_t s1, s2;
	NV_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	NV_CHECK(cudaStreamCreateWithPriority(&s2, cudaStreamNonBlocking, -1));
	int priority = 0;
	NV_CHECK(cudaStreamGetPriority(s2, &priority));
	printf("stream priority %d\n", priority);
	cudaEvent_t e1, e2, start, stop;
	NV_CHECK(cudaEventCreate(&e1));
	NV_CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));
	NV_CHECK(cudaEventCreate(&start));
	NV_CHECK(cudaEventCreate(&stop));

	// Durations >= 100 us, all different: order and sums are unambiguous.
	NV_CHECK(cudaEventRecord(start, s1));
	nv_next_kernel_ns(101000);
	vadd<<<N / 256, 256, 0, s1>>>(a, b, c, N);
	NV_CHECK(cudaGetLastError());
	const void *k1[] = {a, b, c};
	nv_kernel(truth, "_Z4vaddPKfS0_Pfi", k1, 3, 101000);

	NV_CHECK(cudaEventRecord(e1, s1));
	NV_CHECK(cudaStreamWaitEvent(s2, e1, 0));
	Pair pair = {c, d, N, 2.0f};
	nv_next_kernel_ns(102000);
	apply_pair<<<N / 128, 128, 0, s2>>>(pair, 3);
	const void *k2[] = {c, d};
	nv_kernel(truth, "_Z10apply_pair4Pairc", k2, 2, 102000);
	NV_CHECK(cudaEventRecord(e2, s2));
	NV_CHECK(cudaStreamWaitEvent(s1, e2, 0));

	float *tmp = nv_alloc<float>(truth, N, "tmp", 0);
	Tile<float, 4> tile4 = {{1, 2, 3, 4}};
	nv_next_kernel_ns(103000);
	scale_tiles<float, 4><<<N / 64, 64, 0, s1>>>(tmp, tile4, N);
	const void *k3[] = {tmp};
	nv_kernel(truth, "_Z11scale_tilesIfLi4EEvPT_4TileIS0_XT0_EEx", k3, 1, 103000);

	Tile<double, 2> tile2 = {{0.5, 1.5}};
	nv_next_kernel_ns(104000);
	scale_tiles<double, 2><<<dim3(N / 32, 1, 1), dim3(32, 1, 1), 0, s1>>>(t, tile2, N);
	const void *k4[] = {t};
	nv_kernel(truth, "_Z11scale_tilesIdLi2EEvPT_4TileIS0_XT0_EEx", k4, 1, 104000);
	nv_free(truth, tmp);

	nv_next_kernel_ns(105000);
	use_bias<<<1, 32, 0, s1>>>(d, bias_ptr, 4);
	const void *k5[] = {d};
	nv_kernel(truth, "_Z8use_biasPfPKfi", k5, 1, 105000);

	nv_next_kernel_ns(106000);
	no_params<<<1, 1, 0, s1>>>();
	nv_kernel(truth, "_Z9no_paramsv", NULL, 0, 106000);
	NV_CHECK(cudaEventRecord(stop, s1));
	NV_CHECK(cudaEventSynchronize(stop));
	float ms = 0;
	NV_CHECK(cudaEventElapsedTime(&ms, start, stop));
	printf("6 kernels on 2 streams: %s\n", ms > 0 ? "timed" : "untimed");
	NV_CHECK(cudaDeviceSynchronize());

	nv_free(truth, a);
	nv_free(truth, b);
	nv_free(truth, c);
	nv_free(truth, d);
	nv_free(truth, t);
	NV_CHECK(cudaEventDestroy(e1));
	NV_CHECK(cudaEventDestroy(e2));
	NV_CHECK(cudaEventDestroy(start));
	NV_CHECK(cudaEventDestroy(stop));
	NV_CHECK(cudaStreamDestroy(s1));
	NV_CHECK(cudaStreamDestroy(s2));
	nv_write_truth(truth, argv[1]);
	truth_delete(truth);
	free(host);
	return 0;
}
