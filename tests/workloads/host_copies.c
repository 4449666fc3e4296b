/*
 * host_copies: copies between the device and host memory of every kind a
 * program pins or not, so the timeline's copy names (Kineto's, from each
 * end's memory kind) can be checked against what the program knows it
 * did. In order, each a synchronous cudaMemcpy of 4096 bytes:
 *   HtoD from malloc'd memory (pageable), then DtoH back into it;
 *   the same buffer after cudaHostRegister (pinned), both ways;
 *   the same buffer after cudaHostUnregister (pageable again), HtoD;
 *   cudaMallocHost memory (pinned), both ways;
 *   cudaHostAlloc memory (pinned), HtoD;
 *   device to device.
 *
 *   host_copies TRUTH_DIR   writes TRUTH_DIR/copies.txt: one line per copy,
 *                           in program order (= GPU order: one stream,
 *                           synchronous copies), its Kineto name
 *
 * Its stdout must not depend on whether it is traced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>

#include "tests/workloads/workload.h"

enum { BYTES = 4096, MAX_COPIES = 16 };

static const char *names[MAX_COPIES];
static size_t n_copies;

static void copy(void *dst, const void *src, enum cudaMemcpyKind kind,
		 const char *kineto_name)
{
	if (n_copies == MAX_COPIES) {
		fprintf(stderr, "host_copies: too many copies\n");
		exit(1);
	}
	WL_CHECK(cudaMemcpy(dst, src, BYTES, kind));
	names[n_copies++] = kineto_name;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: host_copies TRUTH_DIR\n");
		return 2;
	}
	void *device, *device2, *pinned, *host_alloc;
	char *pageable = malloc(BYTES);
	if (!pageable) {
		fprintf(stderr, "host_copies: out of memory\n");
		return 1;
	}
	memset(pageable, 7, BYTES);
	WL_CHECK(cudaMalloc(&device, BYTES));
	WL_CHECK(cudaMalloc(&device2, BYTES));

	copy(device, pageable, cudaMemcpyHostToDevice, "Memcpy HtoD (Pageable -> Device)");
	copy(pageable, device, cudaMemcpyDeviceToHost, "Memcpy DtoH (Device -> Pageable)");
	WL_CHECK(cudaHostRegister(pageable, BYTES, cudaHostRegisterDefault));
	copy(device, pageable, cudaMemcpyHostToDevice, "Memcpy HtoD (Pinned -> Device)");
	copy(pageable, device, cudaMemcpyDeviceToHost, "Memcpy DtoH (Device -> Pinned)");
	WL_CHECK(cudaHostUnregister(pageable));
	copy(device, pageable, cudaMemcpyHostToDevice, "Memcpy HtoD (Pageable -> Device)");

	WL_CHECK(cudaMallocHost(&pinned, BYTES));
	memset(pinned, 9, BYTES);
	copy(device, pinned, cudaMemcpyHostToDevice, "Memcpy HtoD (Pinned -> Device)");
	copy(pinned, device, cudaMemcpyDeviceToHost, "Memcpy DtoH (Device -> Pinned)");
	WL_CHECK(cudaHostAlloc(&host_alloc, BYTES, cudaHostAllocDefault));
	memset(host_alloc, 3, BYTES);
	copy(device, host_alloc, cudaMemcpyHostToDevice, "Memcpy HtoD (Pinned -> Device)");
	copy(device2, device, cudaMemcpyDeviceToDevice, "Memcpy DtoD (Device -> Device)");

	char path[4096];
	if (mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/copies.txt", argv[1]);
	FILE *out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	for (size_t i = 0; i < n_copies; i++)
		fprintf(out, "%s\n", names[i]);
	if (fclose(out) != 0) {
		perror(path);
		return 1;
	}
	printf("host_copies: %zu copies, last byte %d\n", n_copies, ((unsigned char *)pinned)[0]);
	WL_CHECK(cudaFreeHost(host_alloc));
	WL_CHECK(cudaFreeHost(pinned));
	WL_CHECK(cudaFree(device2));
	WL_CHECK(cudaFree(device));
	free(pageable);
	return 0;
}
