/*
 * stress_threads: 8 threads, each allocating, launching on its own stream and
 * freeing device memory concurrently, to show that the tracer numbers and
 * attributes every tensor right under contention. Tensor ids across threads
 * are not known in advance, so each thread writes what it did, by pointer:
 *
 *   stress_threads TRUTH_DIR   writes TRUTH_DIR/threads.csv, one line per action:
 *     tid,seq,action,ptrs,bytes
 *   action alloc (ptrs = the new pointer, bytes its size), launch (ptrs = the
 *   tensors' base pointers, space-separated) or free (ptrs = the pointer);
 *   seq numbers each thread's actions in program order.
 *
 * Its stdout must not depend on whether it is traced. It must never share a
 * tensor between threads: each launch touches only its own thread's tensors.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { THREADS = 8, ROUNDS = 40 };

static const char stress_kernel;
static FILE *truth_file;
static pthread_mutex_t truth_lock = PTHREAD_MUTEX_INITIALIZER;

struct pair_args {
	void *first;
	void *second;
};

static void note(pid_t tid, int *seq, const char *action, const void *a,
		 const void *b, size_t bytes)
{
	pthread_mutex_lock(&truth_lock);
	fprintf(truth_file, "%d,%d,%s,%" PRIuPTR, (int)tid, (*seq)++, action, (uintptr_t)a);
	if (b)
		fprintf(truth_file, " %" PRIuPTR, (uintptr_t)b);
	fprintf(truth_file, ",%zu\n", bytes);
	pthread_mutex_unlock(&truth_lock);
}

static void *worker(void *arg)
{
	int index = (int)(intptr_t)arg;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int seq = 0;
	cudaStream_t stream;
	WL_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	for (int round = 0; round < ROUNDS; round++) {
		/* Sizes differ per thread and round, so a mix-up shows. */
		size_t bytes_a = 4096 * (size_t)(1 + index) + 256 * (size_t)round;
		size_t bytes_b = 512 + 64 * (size_t)(index * ROUNDS + round);
		void *a = wl_alloc(NULL, bytes_a, "stress.a", 0);
		note(tid, &seq, "alloc", a, NULL, bytes_a);
		void *b = wl_alloc(NULL, bytes_b, "stress.b", 0);
		note(tid, &seq, "alloc", b, NULL, bytes_b);
		/* Interior pointers: the tracer must map them to their tensors. */
		struct pair_args pair = {(char *)a + 64, (char *)b + 8};
		void *args[1] = {&pair};
		const void *ptrs[2] = {a, b};
		wl_launch(NULL, &stress_kernel, "stress_kernel", args, stream,
			  1000, ptrs, 2);
		note(tid, &seq, "launch", a, b, 0);
		WL_CHECK(cudaStreamSynchronize(stream));
		wl_free(NULL, a);
		note(tid, &seq, "free", a, NULL, 0);
		wl_free(NULL, b);
		note(tid, &seq, "free", b, NULL, 0);
	}
	WL_CHECK(cudaStreamDestroy(stream));
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: stress_threads TRUTH_DIR\n");
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/threads.csv", argv[1]);
	if (mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	truth_file = fopen(path, "w");
	if (!truth_file) {
		perror(path);
		return 1;
	}
	fprintf(truth_file, "tid,seq,action,ptrs,bytes\n");
	size_t sizes[1] = {sizeof(struct pair_args)};
	simgpu_define_kernel(&stress_kernel, "stress_kernel", 1, sizes);

	pthread_t threads[THREADS];
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i) != 0) {
			fprintf(stderr, "stress_threads: pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	if (fclose(truth_file) != 0) {
		perror(path);
		return 1;
	}
	printf("stress_threads: %d threads x %d rounds done\n", THREADS, ROUNDS);
	return 0;
}
