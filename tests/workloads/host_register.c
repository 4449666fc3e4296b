/*
 * host_register: a program that pins its own host buffers, as PyTorch's
 * cudart().cudaHostRegister, data loaders and NCCL staging do, so the
 * summary's pinned host memory and the memory report can be checked
 * against what it knows by construction. In order:
 *   one device tensor (DEVICE_BYTES), and cudaMallocHost memory (HOST_ALLOC_BYTES);
 *   buffer A (A_BYTES) registered with cudaHostRegister, buffer B (B_BYTES)
 *   with the driver's cuMemHostRegister (version 6050: cuMemHostRegister_v2)
 *   reached through cudaGetDriverEntryPointByVersion, as libraries reach it;
 *   a copy from A and one from B into the tensor, a kernel on it, a copy
 *   back into B;
 *   A unregistered (cudaHostUnregister); B stays registered to the end;
 *   refused calls, each checked to fail: cudaHostRegister of buffer C with a
 *   flag no CUDA defines, cuMemHostRegister of B again (already registered),
 *   cudaHostUnregister of A again and cuMemHostUnregister of C (neither
 *   registered);
 *   the cudaMallocHost memory freed, then the tensor.
 * Registered memory is the program's: no tensor, no device memory.
 *
 *   host_register TRUTH_DIR   writes the ground truth (truth.h) and
 *                             pinned.csv: one row per call that pins or
 *                             unpins host memory, in program order:
 *                             api,call,bytes,result,buffer (call alloc,
 *                             free, register or unregister; bytes 0 for a
 *                             free or unregister; buffer A, B, C or
 *                             host_alloc, as copies.csv names them)
 *                             copies.csv: buffer,direction of each copy
 *                             between host buffers and the tensor, in order
 *
 * Its stdout must not depend on whether it is traced.
 */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum {
	DEVICE_BYTES = 64 * 1024,
	HOST_ALLOC_BYTES = 8192,
	A_BYTES = 12288,
	B_BYTES = 20480,
	C_BYTES = 4096,
	PAGE = 4096,
	MAX_ROWS = 16,
};

/* A flag bit no CUDA version defines for registration (cuda.h: 0x01 to 0x08). */
#define UNDEFINED_REGISTER_FLAG 0x80u

struct pinned_row {
	const char *api, *call, *buffer;
	size_t bytes;
	int result;
};
static struct pinned_row rows[MAX_ROWS];
static size_t n_rows;

struct copy_row {
	const char *buffer, *direction;
};
static struct copy_row copies[MAX_ROWS];
static size_t n_copies;

static void note(const char *api, const char *call, const char *buffer, size_t bytes,
		 int result)
{
	if (n_rows == MAX_ROWS) {
		fprintf(stderr, "host_register: too many rows\n");
		exit(1);
	}
	rows[n_rows++] = (struct pinned_row){api, call, buffer, bytes, result};
}

static void *page_buffer(size_t bytes, int fill)
{
	void *p = aligned_alloc(PAGE, bytes);
	if (!p) {
		fprintf(stderr, "host_register: out of memory\n");
		exit(1);
	}
	memset(p, fill, bytes);
	return p;
}

/* A driver function as libraries get it: through the runtime's entry-point query. */
static void *driver_function(const char *symbol, unsigned int version)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
	WL_CHECK(cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault,
						  &status));
	if (!fn || status != cudaDriverEntryPointSuccess) {
		fprintf(stderr, "host_register: no driver entry point %s (status %d)\n", symbol,
			(int)status);
		exit(1);
	}
	return fn;
}

static void expect_failure(const char *what, int result)
{
	if (result == 0) {
		fprintf(stderr, "host_register: %s succeeded; it must be refused\n", what);
		exit(1);
	}
	/* Reset the last-error state, as a program handling the failure does. */
	(void)cudaGetLastError();
}

static void copy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
		 const char *buffer)
{
	WL_CHECK(cudaMemcpy(dst, src, bytes, kind));
	copies[n_copies++] = (struct copy_row){
		buffer, kind == cudaMemcpyHostToDevice ? "HtoD" : "DtoH"};
}

static int write_files(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/pinned.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "api,call,bytes,result,buffer\n");
	for (size_t i = 0; i < n_rows; i++)
		fprintf(f, "%s,%s,%zu,%d,%s\n", rows[i].api, rows[i].call, rows[i].bytes,
			rows[i].result, rows[i].buffer);
	if (fclose(f) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/copies.csv", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "buffer,direction\n");
	for (size_t i = 0; i < n_copies; i++)
		fprintf(f, "%s,%s\n", copies[i].buffer, copies[i].direction);
	return fclose(f);
}

static const char scale_kernel;
static unsigned char *still_registered;

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: host_register TRUTH_DIR\n");
		return 2;
	}
	struct truth *truth = truth_new();
	truth_exact_roles(truth);
	size_t sizes[1] = {sizeof(void *)};
	simgpu_define_kernel(&scale_kernel, "host_register_scale", 1, sizes);
	PFN_cuMemHostRegister_v6050 register_driver =
		(PFN_cuMemHostRegister_v6050)driver_function("cuMemHostRegister", 6050);
	PFN_cuMemHostUnregister_v4000 unregister_driver =
		(PFN_cuMemHostUnregister_v4000)driver_function("cuMemHostUnregister", 4000);

	void *device = wl_alloc(truth, DEVICE_BYTES, "staging_target", 1);
	void *host_alloc = NULL;
	WL_CHECK(cudaMallocHost(&host_alloc, HOST_ALLOC_BYTES));
	note("cudaMallocHost", "alloc", "host_alloc", HOST_ALLOC_BYTES, 0);
	unsigned char *a = page_buffer(A_BYTES, 1), *b = page_buffer(B_BYTES, 2),
		      *c = page_buffer(C_BYTES, 3);

	WL_CHECK(cudaHostRegister(a, A_BYTES, cudaHostRegisterDefault));
	note("cudaHostRegister", "register", "A", A_BYTES, 0);
	CUresult r = register_driver(b, B_BYTES, 0);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "host_register: cuMemHostRegister(B) failed (%d)\n", (int)r);
		return 1;
	}
	note("cuMemHostRegister_v2", "register", "B", B_BYTES, 0);

	copy(device, a, A_BYTES, cudaMemcpyHostToDevice, "A");
	truth_host_write(truth, device);
	copy((unsigned char *)device + A_BYTES, b, B_BYTES, cudaMemcpyHostToDevice, "B");
	truth_host_write(truth, device);
	void *args[1] = {&device};
	const void *ptrs[1] = {device};
	wl_launch(truth, &scale_kernel, "host_register_scale", args, 0, 250000, ptrs, 1);
	copy(b, device, B_BYTES, cudaMemcpyDeviceToHost, "B");

	WL_CHECK(cudaHostUnregister(a));
	note("cudaHostUnregister", "unregister", "A", 0, 0);

	cudaError_t refused = cudaHostRegister(c, C_BYTES, UNDEFINED_REGISTER_FLAG);
	expect_failure("cudaHostRegister with an undefined flag", (int)refused);
	note("cudaHostRegister", "register", "C", C_BYTES, (int)refused);
	r = register_driver(b, B_BYTES, 0);
	expect_failure("cuMemHostRegister of registered memory", (int)r);
	note("cuMemHostRegister_v2", "register", "B", B_BYTES, (int)r);
	refused = cudaHostUnregister(a);
	expect_failure("cudaHostUnregister of unregistered memory", (int)refused);
	note("cudaHostUnregister", "unregister", "A", 0, (int)refused);
	r = unregister_driver(c);
	expect_failure("cuMemHostUnregister of memory never registered", (int)r);
	note("cuMemHostUnregister", "unregister", "C", 0, (int)r);

	WL_CHECK(cudaFreeHost(host_alloc));
	note("cudaFreeHost", "free", "host_alloc", 0, 0);
	WL_CHECK(cudaDeviceSynchronize());
	wl_free(truth, device);
	wl_write_truth(truth, argv[1]);
	if (write_files(argv[1]) != 0) {
		fprintf(stderr, "host_register: cannot write %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	truth_delete(truth);
	printf("host_register: %zu pinning calls, %zu copies, B[0] = %d\n", n_rows, n_copies,
	       b[0]);
	/* B stays registered (and allocated, still_registered): the process's
	 * exit unpins it, as for programs that never unregister. */
	still_registered = b;
	free(c);
	free(a);
	return 0;
}
