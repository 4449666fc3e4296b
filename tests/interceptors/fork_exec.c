/*
 * Test program for a traced process that forks or execs. Prints one line
 * per CUDA call, `who name result errno [ptr]`, who being parent or child.
 *
 *   fork_exec fork           fork first; the child allocates, frees and
 *                            exits; then the parent does the same
 *   fork_exec after         the parent allocates and frees, sleeps 20 ms
 *                            (the tracer's power sampler, if on, runs),
 *                            then forks; the child allocates, frees and
 *                            exits; then the parent does the same again
 *   fork_exec exec PROGRAM ARGS...
 *                            one cudaMalloc/cudaFree, then fork and exec
 *                            PROGRAM in the child (it inherits LD_PRELOAD)
 *
 * Exits non-zero when a child fails. Must never depend on libdnntrace.so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

static void alloc_and_free(const char *who)
{
	void *dev = NULL;
	errno = 0;
	cudaError_t rc = cudaMalloc(&dev, 1 << 20);
	printf("%s cudaMalloc %d %d %p\n", who, (int)rc, errno, dev);
	errno = 0;
	rc = cudaFree(dev);
	printf("%s cudaFree %d %d %p\n", who, (int)rc, errno, dev);
	fflush(stdout);
}

static int wait_child(pid_t child)
{
	int status;
	if (child < 0 || waitpid(child, &status, 0) != child)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && argv[1][0] == 'f') {
		fflush(stdout);
		pid_t child = fork();
		if (child == 0) {
			alloc_and_free("child");
			return 0;
		}
		int child_status = wait_child(child);
		alloc_and_free("parent");
		return child_status;
	}
	if (argc >= 2 && argv[1][0] == 'a') {
		alloc_and_free("parent");
		usleep(20 * 1000);
		pid_t child = fork();
		if (child == 0) {
			alloc_and_free("child");
			exit(0);
		}
		int child_status = wait_child(child);
		alloc_and_free("parent");
		return child_status;
	}
	if (argc >= 3 && argv[1][0] == 'e') {
		alloc_and_free("parent");
		pid_t child = fork();
		if (child == 0) {
			execv(argv[2], &argv[2]);
			perror("fork_exec: execv");
			_exit(127);
		}
		return wait_child(child);
	}
	fprintf(stderr, "usage: fork_exec fork | after | exec PROGRAM ARGS...\n");
	return 2;
}
