/*
 * simgpu device memory: capacity and cudaMemGetInfo, 256-byte aligned
 * deterministic addresses, out-of-memory behaviour, cudaFree rules, data
 * round trips through copies and sets (1D and 2D), managed, pinned and
 * stream-ordered memory, pointer attributes, and that a device address is not
 * readable by the host. Ground truth: the byte counts and patterns it writes.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "simgpu/tests/simgpu_test.h"

#define CAPACITY (1u << 20)
#define DEVICE_BASE 0x200000000000ULL

static void check_capacity_and_alignment(void)
{
	size_t free_b, total_b;
	CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
	CHECK_EQ_U64(total_b, CAPACITY);
	CHECK_EQ_U64(free_b, CAPACITY);

	void *a, *b;
	CHECK_CUDA(cudaMalloc(&a, 1000));
	CHECK_CUDA(cudaMalloc(&b, 1));
	CHECK_EQ_U64((uintptr_t)a, DEVICE_BASE);          /* deterministic */
	CHECK_EQ_U64((uintptr_t)b, DEVICE_BASE + 1024);   /* 1000 -> 1024 */
	CHECK_EQ_U64((uintptr_t)b % 256, 0);
	CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
	CHECK_EQ_U64(free_b, CAPACITY - 1024 - 256);

	void *zero = (void *)0x1;
	CHECK_CUDA(cudaMalloc(&zero, 0));
	CHECK(zero == NULL);

	void *untouched = (void *)0x1234;
	CHECK_CUDA_IS(cudaMalloc(&untouched, CAPACITY + 1), cudaErrorMemoryAllocation);
	CHECK(untouched == (void *)0x1234);
	CHECK_CUDA_IS(cudaGetLastError(), cudaErrorMemoryAllocation);
	CHECK_CUDA(cudaGetLastError()); /* reset by the read */

	CHECK_CUDA(cudaFree(a));
	CHECK_CUDA(cudaFree(b));
	CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
	CHECK_EQ_U64(free_b, CAPACITY);

	/* Exactly CAPACITY/256 blocks of 256 bytes fit, then no more. */
	static void *blocks[CAPACITY / 256];
	for (size_t i = 0; i < CAPACITY / 256; i++) {
		CHECK_CUDA(cudaMalloc(&blocks[i], 200));
		CHECK_EQ_U64((uintptr_t)blocks[i], DEVICE_BASE + 256 * i);
	}
	void *extra = NULL;
	CHECK_CUDA_IS(cudaMalloc(&extra, 1), cudaErrorMemoryAllocation);
	CHECK(extra == NULL);
	/* A freed hole is reused first-fit. */
	CHECK_CUDA(cudaFree(blocks[7]));
	CHECK_CUDA(cudaMalloc(&extra, 256));
	CHECK(extra == blocks[7]);
	for (size_t i = 0; i < CAPACITY / 256; i++)
		CHECK_CUDA(cudaFree(blocks[i]));
}

static void check_free_rules(void)
{
	CHECK_CUDA(cudaFree(NULL));
	void *p;
	CHECK_CUDA(cudaMalloc(&p, 512));
	CHECK_CUDA_IS(cudaFree((char *)p + 256), cudaErrorInvalidValue);
	int host;
	CHECK_CUDA_IS(cudaFree(&host), cudaErrorInvalidValue);
	CHECK_CUDA(cudaFree(p));
	CHECK_CUDA_IS(cudaFree(p), cudaErrorInvalidValue); /* double free */
	cudaGetLastError();
}

static void check_round_trips(void)
{
	enum { N = 4096 };
	static unsigned char in[N], out[N];
	for (int i = 0; i < N; i++)
		in[i] = (unsigned char)(i * 7 + 3);
	unsigned char *d1, *d2;
	CHECK_CUDA(cudaMalloc((void **)&d1, N));
	CHECK_CUDA(cudaMalloc((void **)&d2, N));
	CHECK_CUDA(cudaMemcpy(d1, in, N, cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemcpy(d2, d1, N, cudaMemcpyDeviceToDevice));
	memset(out, 0, N);
	CHECK_CUDA(cudaMemcpy(out, d2, N, cudaMemcpyDeviceToHost));
	CHECK(memcmp(in, out, N) == 0);

	/* cudaMemcpyDefault infers directions from the addresses. */
	CHECK_CUDA(cudaMemset(d1 + 100, 0xab, 50));
	CHECK_CUDA(cudaMemcpy(out, d1, N, cudaMemcpyDefault));
	for (int i = 0; i < N; i++)
		CHECK(out[i] == (i >= 100 && i < 150 ? 0xab : in[i]));

	/* 2D: 8 rows of 16 bytes from a 32-byte pitch into a 64-byte pitch. */
	CHECK_CUDA(cudaMemset(d2, 0, N));
	CHECK_CUDA(cudaMemcpy2D(d2, 64, in, 32, 16, 8, cudaMemcpyHostToDevice));
	CHECK_CUDA(cudaMemset2D(d2 + 16, 64, 0x5a, 4, 8));
	CHECK_CUDA(cudaMemcpy(out, d2, N, cudaMemcpyDeviceToHost));
	for (int row = 0; row < 8; row++)
		for (int col = 0; col < 64; col++) {
			unsigned char want = col < 16 ? in[row * 32 + col]
					     : col < 20 ? 0x5a : 0;
			CHECK(out[row * 64 + col] == want);
		}
	CHECK(out[8 * 64] == 0);

	/* Bounds and directions are checked before any byte moves. */
	CHECK_CUDA_IS(cudaMemcpy(d1, in, N + 1, cudaMemcpyHostToDevice),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemcpy(d1, d2, 16, cudaMemcpyHostToDevice),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemcpy(out, in, 16, cudaMemcpyDeviceToHost),
		      cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemcpy(d1, in, 16, (enum cudaMemcpyKind)7),
		      cudaErrorInvalidMemcpyDirection);
	CHECK_CUDA_IS(cudaMemcpy2D(d2, 8, in, 32, 16, 2, cudaMemcpyHostToDevice),
		      cudaErrorInvalidPitchValue);
	CHECK_CUDA_IS(cudaMemset(out, 0, 16), cudaErrorInvalidValue);
	CHECK_CUDA(cudaMemcpy(d1, in, 0, cudaMemcpyHostToDevice)); /* no-op */
	cudaGetLastError();
	CHECK_CUDA(cudaFree(d1));
	CHECK_CUDA(cudaFree(d2));
}

static void check_device_memory_is_not_host_readable(void)
{
	void *p;
	CHECK_CUDA(cudaMalloc(&p, 256));
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		freopen("/dev/null", "w", stderr); /* ASan reports the SEGV */
		volatile unsigned char *bad = p;
		(void)*bad;
		_exit(0);
	}
	int status;
	CHECK(waitpid(child, &status, 0) == child);
	/* Killed by SIGSEGV; under ASan its handler exits 1 instead. */
	CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) ||
	      (WIFEXITED(status) && WEXITSTATUS(status) == 1));
	CHECK_CUDA(cudaFree(p));
}

static void check_managed_pinned_and_attributes(void)
{
	unsigned char *m;
	CHECK_CUDA(cudaMallocManaged((void **)&m, 3000, cudaMemAttachGlobal));
	CHECK_EQ_U64((uintptr_t)m % 256, 0);
	for (int i = 0; i < 3000; i++)
		m[i] = (unsigned char)(255 - i % 256); /* host writes directly */
	unsigned char back[3000];
	CHECK_CUDA(cudaMemcpy(back, m, 3000, cudaMemcpyDeviceToHost));
	CHECK(memcmp(back, m, 3000) == 0);
	CHECK_CUDA(cudaMemset(m, 1, 10));
	CHECK(m[0] == 1 && m[9] == 1 && m[10] == (unsigned char)(255 - 10));
	void *none = (void *)0x1;
	CHECK_CUDA_IS(cudaMallocManaged(&none, 0, cudaMemAttachGlobal),
		      cudaErrorInvalidValue);

	unsigned char *pinned;
	CHECK_CUDA(cudaMallocHost((void **)&pinned, 100));
	pinned[99] = 42;
	void *d;
	CHECK_CUDA(cudaMalloc(&d, 100));
	CHECK_CUDA(cudaMemcpy(d, pinned, 100, cudaMemcpyHostToDevice));

	struct cudaPointerAttributes a;
	CHECK_CUDA(cudaPointerGetAttributes(&a, d));
	CHECK(a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == d);
	CHECK_CUDA(cudaPointerGetAttributes(&a, m + 5));
	CHECK(a.type == cudaMemoryTypeManaged && a.hostPointer == m + 5);
	CHECK_CUDA(cudaPointerGetAttributes(&a, pinned));
	CHECK(a.type == cudaMemoryTypeHost && a.hostPointer == pinned);
	CHECK_CUDA(cudaPointerGetAttributes(&a, back));
	CHECK(a.type == cudaMemoryTypeUnregistered);

	CHECK_CUDA_IS(cudaFreeHost(back), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaFree(pinned), cudaErrorInvalidValue);
	CHECK_CUDA(cudaFreeHost(pinned));
	CHECK_CUDA(cudaFreeHost(NULL));
	CHECK_CUDA(cudaFree(m));
	CHECK_CUDA(cudaFree(d));
	void *h;
	CHECK_CUDA_IS(cudaHostAlloc(&h, 10, 0x100), cudaErrorInvalidValue);
	CHECK_CUDA(cudaHostAlloc(&h, 10, cudaHostAllocMapped));
	CHECK_CUDA(cudaFreeHost(h));
	cudaGetLastError();
}

static void check_pitched_and_stream_ordered(void)
{
	void *p;
	size_t pitch;
	CHECK_CUDA(cudaMallocPitch(&p, &pitch, 700, 3));
	CHECK_EQ_U64(pitch, 1024);
	CHECK_CUDA(cudaFree(p));
	struct cudaPitchedPtr pp;
	CHECK_CUDA(cudaMalloc3D(&pp, (struct cudaExtent){ .width = 10, .height = 4, .depth = 2 }));
	CHECK(pp.pitch == 512 && pp.xsize == 10 && pp.ysize == 4);
	CHECK_CUDA(cudaFree(pp.ptr));

	cudaStream_t s;
	CHECK_CUDA(cudaStreamCreate(&s));
	void *a;
	CHECK_CUDA(cudaMallocAsync(&a, 1000, s));
	CHECK_EQ_U64((uintptr_t)a, DEVICE_BASE);
	cudaMemPool_t pool, def;
	CHECK_CUDA(cudaDeviceGetDefaultMemPool(&def, 0));
	struct cudaMemPoolProps props;
	memset(&props, 0, sizeof(props));
	props.allocType = cudaMemAllocationTypePinned;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
	void *b;
	CHECK_CUDA(cudaMallocFromPoolAsync(&b, 10, pool, s));
	CHECK_EQ_U64((uintptr_t)b, DEVICE_BASE + 1024);
	CHECK_CUDA(cudaFreeAsync(a, s));
	CHECK_CUDA(cudaFreeAsync(b, s));
	CHECK_CUDA_IS(cudaFreeAsync(b, s), cudaErrorInvalidValue);
	CHECK_CUDA_IS(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
	CHECK_CUDA(cudaMemPoolDestroy(pool));
	CHECK_CUDA_IS(cudaMallocFromPoolAsync(&b, 10, pool, s), cudaErrorInvalidValue);
	CHECK_CUDA(cudaStreamDestroy(s));
	CHECK_CUDA_IS(cudaMallocAsync(&a, 10, s), cudaErrorInvalidResourceHandle);
	cudaGetLastError();
	size_t free_b, total_b;
	CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
	CHECK_EQ_U64(free_b, total_b);
}

int main(void)
{
	simgpu_test_setup();
	setenv("SIMGPU_MEM_BYTES", "1M", 1);
	check_capacity_and_alignment();
	check_free_rules();
	check_round_trips();
	check_device_memory_is_not_host_readable();
	check_managed_pinned_and_attributes();
	check_pitched_and_stream_ordered();
	return 0;
}
