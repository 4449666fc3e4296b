/*
 * crash_modes: makes a known number of CUDA calls, writes how many, then
 * ends abnormally in one of the ways a real program can, so that the tests
 * can check a crash loses nothing that was traced before it.
 *
 *   crash_modes MODE TRUTH_DIR
 *
 * Before the end it writes TRUTH_DIR/counts, one "name value" per line:
 *   allocs N     cudaMalloc calls that returned (all succeeded)
 *   launches N   cudaLaunchKernel calls that returned (all succeeded)
 *   status N     the exit status a shell reports for this mode
 *   workers N    threads main_return and kill_busy start
 * and for main_return also
 *   worker_launches_min N  launches the workers had completed when main
 *                          returned (they go on launching after that)
 *
 * MODE:
 *   segv          a real invalid write (SIGSEGV, status 139)
 *   segv_handler  its own SIGSEGV handler, installed before the first CUDA
 *                 call, writes TRUTH_DIR/handler ("power_sampler_threads
 *                 N": the tracer's power sampler threads still there when
 *                 it ran, see segv_handler), prints "segv handler ran" and
 *                 _exit(42)s
 *   abort         abort() (SIGABRT, 134)
 *   kill          writes TRUTH_DIR/pid and waits to be SIGKILLed (137)
 *   _exit         _exit(3), no exit handlers
 *   thread_exit   a second thread makes the calls, then exit(4) while main
 *                 waits in pthread_join
 *   main_return   main makes its calls and returns 0 while 4 threads are
 *                 still launching
 *   sigterm       as kill, but waits for a SIGTERM (default action, 143)
 *   kill_busy     main makes its calls, then 4 threads launch 4000 times,
 *                 each counting its returned launches in TRUTH_DIR/progress
 *                 (4 uint64, a shared mapping: the counts survive the
 *                 process); TRUTH_DIR/pid is written once each has made
 *                 100, and the test SIGKILLs it at any point after that
 *
 * Its stdout must not depend on whether it is traced. It must never end in a
 * way other than MODE says (any CUDA failure: exit 1 before the counts).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { ALLOCS = 5, LAUNCHES = 12, WORKERS = 4, BUSY_LAUNCHES = 4000 };

static const char crash_kernel;
static const char *truth_dir;
static const char *mode;

static atomic_long worker_launches;
/* Unmapped; volatile, so the compiler cannot see the fault coming. */
static volatile uintptr_t bad_address = 8;

/* Writes TRUTH_DIR/NAME with text, or exits 1. */
static void write_file(const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", truth_dir, name);
	FILE *file = fopen(path, "w");
	if (!file || fputs(text, file) < 0 || fclose(file) != 0) {
		perror(path);
		exit(1);
	}
}

static void write_counts(int status, long worker_min)
{
	char text[256];
	int n = snprintf(text, sizeof(text), "allocs %d\nlaunches %d\nstatus %d\nworkers %d\n",
			 ALLOCS, LAUNCHES, status, WORKERS);
	if (worker_min >= 0)
		snprintf(text + n, sizeof(text) - (size_t)n, "worker_launches_min %ld\n",
			 worker_min);
	write_file("counts", text);
}

static void launch_one(void)
{
	dim3 grid = {1, 1, 1}, block = {32, 1, 1};
	simgpu_next_kernel_ns(2000);
	WL_CHECK(cudaLaunchKernel(&crash_kernel, grid, block, NULL, 0, 0));
}

/* The calls the counts promise, on the calling thread; synchronised. */
static void make_calls(void)
{
	for (int i = 0; i < ALLOCS; i++) {
		void *ptr = NULL;
		WL_CHECK(cudaMalloc(&ptr, 4096 * (size_t)(i + 1)));
	}
	for (int i = 0; i < LAUNCHES; i++)
		launch_one();
	WL_CHECK(cudaDeviceSynchronize());
}

/* segv_handler's TRUTH_DIR/handler, opened before the fault. */
static int handler_fd = -1;

/* Whether /proc/self/task/TID/comm is the tracer's power sampler. Async-signal-safe. */
static bool is_power_sampler(const char *tid)
{
	static const char name[] = "dnntrace-power\n";
	char path[64] = "/proc/self/task/", comm[32];
	size_t at = strlen(path), length = strlen(tid);
	if (at + length + sizeof("/comm") > sizeof(path))
		return false;
	memcpy(path + at, tid, length);
	memcpy(path + at + length, "/comm", sizeof("/comm"));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false; /* it has just ended */
	ssize_t n = read(fd, comm, sizeof(comm));
	close(fd);
	return n == (ssize_t)sizeof(name) - 1 && memcmp(comm, name, (size_t)n) == 0;
}

/* How many threads of this process are the tracer's power sampler. Async-signal-safe. */
static int power_samplers(void)
{
	int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC), found = 0;
	_Alignas(struct dirent64) char entries[4096];
	long n;
	if (dir < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, dir, entries, sizeof(entries))) > 0) {
		for (long at = 0; at < n;) {
			const struct dirent64 *entry = (const struct dirent64 *)(entries + at);
			if (entry->d_name[0] != '.' && is_power_sampler(entry->d_name))
				found++;
			at += entry->d_reclen;
		}
	}
	close(dir);
	return n < 0 ? -1 : found;
}

static void segv_handler(int sig)
{
	static const char text[] = "segv handler ran\n";
	(void)sig;
	/*
	 * The tracer's crash flush ran before this handler: it must have
	 * stopped the power sampler, whose events are written on a thread of
	 * its own, so that none is half written when the process dies (LTTng
	 * would never complete that buffer). A thread that has just been
	 * joined may stay listed a moment: look again for up to 2 s.
	 */
	int samplers = power_samplers();
	for (int i = 0; i < 200 && samplers > 0; i++) {
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
		samplers = power_samplers();
	}
	char line[64] = "power_sampler_threads ";
	size_t at = strlen(line);
	if (samplers < 0) {
		memcpy(line + at, "unknown\n", sizeof("unknown\n"));
	} else {
		line[at++] = (char)('0' + (samplers > 9 ? 9 : samplers));
		memcpy(line + at, "\n", sizeof("\n"));
	}
	ssize_t ignored = write(handler_fd, line, strlen(line));
	ignored = write(STDOUT_FILENO, text, sizeof(text) - 1);
	(void)ignored;
	_exit(42);
}

static void *exiting_thread(void *arg)
{
	(void)arg;
	make_calls();
	write_counts(4, -1);
	fflush(stdout);
	exit(4);
}

static void *launching_worker(void *arg)
{
	(void)arg;
	for (;;) {
		launch_one();
		atomic_fetch_add(&worker_launches, 1);
	}
	return NULL;
}

/* kill_busy's per-thread counts of returned launches, in a shared file mapping. */
static _Atomic uint64_t *progress;

static void *counting_worker(void *arg)
{
	_Atomic uint64_t *mine = &progress[(intptr_t)arg];
	/* Bounded, so a slow kill cannot make a huge trace; then idle. */
	for (int i = 0; i < BUSY_LAUNCHES; i++) {
		launch_one();
		/* Only after the call returned: its event is in the trace by then. */
		atomic_fetch_add(mine, 1);
	}
	for (;;)
		pause();
	return NULL;
}

static void kill_busy(void)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/progress", truth_dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, WORKERS * sizeof(uint64_t)) != 0) {
		perror(path);
		exit(1);
	}
	progress = mmap(NULL, WORKERS * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (progress == MAP_FAILED) {
		perror(path);
		exit(1);
	}
	close(fd);
	make_calls();
	write_counts(128 + SIGKILL, -1);
	pthread_t workers[WORKERS];
	for (intptr_t i = 0; i < WORKERS; i++)
		if (pthread_create(&workers[i], NULL, counting_worker, (void *)i) != 0)
			exit(1);
	for (int i = 0; i < WORKERS; i++)
		while (atomic_load(&progress[i]) < 100)
			usleep(1000);
	char pid[32];
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	write_file("pid", pid);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: crash_modes MODE TRUTH_DIR\n");
		return 2;
	}
	mode = argv[1];
	truth_dir = argv[2];
	simgpu_define_kernel(&crash_kernel, "crash_kernel", 0, NULL);
	setvbuf(stdout, NULL, _IONBF, 0); /* nothing held in stdio when we die */

	if (strcmp(mode, "segv") == 0) {
		make_calls();
		write_counts(128 + SIGSEGV, -1);
		*(volatile int *)bad_address = 1;
	} else if (strcmp(mode, "segv_handler") == 0) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/handler", truth_dir);
		handler_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (handler_fd < 0) {
			perror(path);
			return 1;
		}
		struct sigaction action = {.sa_handler = segv_handler};
		sigemptyset(&action.sa_mask);
		if (sigaction(SIGSEGV, &action, NULL) != 0)
			return 1;
		make_calls();
		write_counts(42, -1);
		*(volatile int *)bad_address = 1;
	} else if (strcmp(mode, "abort") == 0) {
		make_calls();
		write_counts(128 + SIGABRT, -1);
		abort();
	} else if (strcmp(mode, "kill") == 0 || strcmp(mode, "sigterm") == 0) {
		make_calls();
		write_counts(128 + (strcmp(mode, "kill") == 0 ? SIGKILL : SIGTERM), -1);
		char pid[32];
		snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		write_file("pid", pid);
		for (;;)
			pause();
	} else if (strcmp(mode, "kill_busy") == 0) {
		kill_busy();
	} else if (strcmp(mode, "_exit") == 0) {
		make_calls();
		write_counts(3, -1);
		_exit(3);
	} else if (strcmp(mode, "thread_exit") == 0) {
		pthread_t thread;
		if (pthread_create(&thread, NULL, exiting_thread, NULL) != 0)
			return 1;
		pthread_join(thread, NULL);
		return 1; /* not reached: the thread exits the process */
	} else if (strcmp(mode, "main_return") == 0) {
		pthread_t workers[WORKERS];
		make_calls();
		for (int i = 0; i < WORKERS; i++)
			if (pthread_create(&workers[i], NULL, launching_worker, NULL) != 0)
				return 1;
		/* Let every worker get going, then leave in the middle of their work. */
		while (atomic_load(&worker_launches) < 4 * WORKERS)
			usleep(1000);
		write_counts(0, atomic_load(&worker_launches));
		return 0;
	}
	fprintf(stderr, "crash_modes: unknown mode %s\n", mode);
	return 2;
}
