/*
 * event_flood: N cudaMalloc/cudaFree pairs of 4 KiB, nothing else: a known
 * number of traced calls (2N) for the loss-accounting tests (a full disk, a
 * process that never registered with LTTng, --lossy).
 *
 *   event_flood N
 *
 * Its stdout must not depend on whether it is traced. Any CUDA failure:
 * exit 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/workloads/workload.h"

int main(int argc, char **argv)
{
	char *end = NULL;
	long pairs = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || *end != '\0' || pairs < 0) {
		fprintf(stderr, "usage: event_flood N\n");
		return 2;
	}
	for (long i = 0; i < pairs; i++) {
		void *ptr = NULL;
		WL_CHECK(cudaMalloc(&ptr, 4096));
		WL_CHECK(cudaFree(ptr));
	}
	printf("event_flood: %ld allocations freed\n", pairs);
	return 0;
}
