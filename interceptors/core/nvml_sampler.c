/*
 * NVML power sampling (nvml_sampler.h): dlopen of libnvidia-ml.so.1, one
 * sampler thread, dnntrace_gpu:power events.
 *
 * Each sample reads, per device, the energy counter (when the device has
 * one) and the power draw between two CLOCK_MONOTONIC readings, so the
 * event says when the reads began (sample_ns) and how long both took
 * (read_ns): the values were read somewhere in that window. Sampling keeps absolute deadlines: a late wake-up shifts
 * no later sample, missed periods are skipped, not caught up.
 *
 * Assumed, not tested on a real GPU: NVML numbers devices in PCI bus
 * order, which is CUDA's order under CUDA_DEVICE_ORDER=PCI_BUS_ID and with
 * all devices visible (one GPU: always); the analyzer matches the `device`
 * field to the CUDA device by that index. On recent GPUs
 * nvmlDeviceGetPowerUsage is an average over up to a second and the energy
 * counter advances every 20-100 ms, so per-kernel figures need kernels (or
 * repeated ops) longer than that.
 *
 * Must never run while no session listens to dnntrace_gpu:power (the
 * thread still runs, but reads nothing), never hold its lock while calling
 * NVML or LTTng, and never call exit or any CUDA function.
 */
#include "interceptors/core/nvml_sampler.h"
#include "interceptors/core/event_count.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "interceptors/core/dlsym_wrapper.h"
#include "interceptors/core/nvml_api.h"
#include "interceptors/core/tracer.h"
#include "tracepoints/dnntrace_gpu.h"

#define NVML_LIBRARY "libnvidia-ml.so.1"
#define MAX_DEVICES 64
#define MAX_PERIOD_MS 3600000UL
/* How long exit waits for the thread (it is then left to the exit). */
#define JOIN_TIMEOUT_S 2

static struct {
	nvmlReturn_t (*init)(void);
	nvmlReturn_t (*shutdown)(void);
	const char *(*error_string)(nvmlReturn_t);
	nvmlReturn_t (*count)(unsigned int *);
	nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t *);
	nvmlReturn_t (*power)(nvmlDevice_t, unsigned int *);
	nvmlReturn_t (*energy)(nvmlDevice_t, unsigned long long *);
} nvml;

static nvmlDevice_t devices[MAX_DEVICES];
static bool has_energy[MAX_DEVICES];
static unsigned int n_devices;
static uint64_t period_ns;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/*
 * Held while a sample is taken, and by fork() (pthread_atfork) around the
 * fork: a child is never forked while the sampler is inside NVML or LTTng,
 * so it never inherits a lock of theirs held by a thread it does not have.
 */
static pthread_mutex_t sampling = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static bool stop_requested;   /* under lock */
static pthread_t thread;
static pid_t owner_pid;
static atomic_bool running;

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* DNNTRACE_POWER_MS: 0 when sampling is off; a bad value warns once. */
static uint64_t period_from_env(void)
{
	const char *text = getenv("DNNTRACE_POWER_MS");
	if (!text || !*text)
		return 0;
	char *end;
	errno = 0;
	unsigned long ms = strtoul(text, &end, 10);
	if (errno || *end || text[0] == '-' || ms > MAX_PERIOD_MS) {
		fprintf(stderr, "dnntrace: DNNTRACE_POWER_MS='%s' is not a number "
				"of milliseconds 0..%lu: no power samples\n", text,
				MAX_PERIOD_MS);
		return 0;
	}
	return (uint64_t)ms * 1000000ULL;
}

static const char *nvml_error(nvmlReturn_t rc)
{
	const char *s = nvml.error_string ? nvml.error_string(rc) : NULL;
	return s ? s : "unknown error";
}

static void sample_all(void)
{
	if (!lttng_ust_tracepoint_enabled(dnntrace_gpu, power))
		return;
	pthread_mutex_lock(&sampling);
	for (unsigned int i = 0; i < n_devices; i++) {
		unsigned long long energy = 0;
		unsigned int power = 0;
		uint64_t before = monotonic_ns();
		bool energy_ok = has_energy[i] &&
			nvml.energy(devices[i], &energy) == NVML_SUCCESS;
		bool power_ok = nvml.power(devices[i], &power) == NVML_SUCCESS;
		uint64_t read = monotonic_ns() - before;
		DNNTRACE_EMIT(dnntrace_gpu, power, i, before,
				read > UINT32_MAX ? UINT32_MAX : (uint32_t)read,
				power_ok ? power : 0, power_ok,
				energy_ok ? (uint64_t)energy : 0, energy_ok);
	}
	pthread_mutex_unlock(&sampling);
}

static void before_fork(void)
{
	pthread_mutex_lock(&sampling);
}

static void after_fork(void)
{
	pthread_mutex_unlock(&sampling);
}

static void *sampler_main(void *arg)
{
	(void)arg;
	/* Whatever NVML calls on this thread is never traced. */
	tracer_nesting = 1;
	pthread_setname_np(pthread_self(), "dnntrace-power");
	uint64_t next = monotonic_ns();
	for (;;) {
		sample_all();
		uint64_t now = monotonic_ns();
		next += period_ns;
		if (next <= now)  /* late: skip what was missed */
			next = now + period_ns;
		struct timespec deadline = {
			.tv_sec = (time_t)(next / 1000000000ULL),
			.tv_nsec = (long)(next % 1000000000ULL),
		};
		pthread_mutex_lock(&lock);
		while (!stop_requested &&
		       pthread_cond_timedwait(&wake, &lock, &deadline) != ETIMEDOUT)
			;
		bool stop = stop_requested;
		pthread_mutex_unlock(&lock);
		if (stop)
			break;
	}
	sample_all(); /* the end of the run: the last kernels' energy */
	return NULL;
}

static bool load_nvml(void)
{
	void *lib = dlopen(NVML_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		fprintf(stderr, "dnntrace: NVML unavailable (%s): no power "
				"samples\n", why ? why : NVML_LIBRARY " not found");
		return false;
	}
#define LOAD(field, symbol)                                                  \
	if (!(*(void **)&nvml.field = dnntrace_real_dlsym(lib, symbol))) {   \
		fprintf(stderr, "dnntrace: NVML unavailable (" NVML_LIBRARY  \
				" has no " symbol "): no power samples\n");  \
		return false;                                                \
	}
	LOAD(init, "nvmlInit_v2")
	LOAD(shutdown, "nvmlShutdown")
	LOAD(count, "nvmlDeviceGetCount_v2")
	LOAD(handle, "nvmlDeviceGetHandleByIndex_v2")
	LOAD(power, "nvmlDeviceGetPowerUsage")
	LOAD(energy, "nvmlDeviceGetTotalEnergyConsumption")
#undef LOAD
	*(void **)&nvml.error_string = dnntrace_real_dlsym(lib, "nvmlErrorString");
	return true;
}

static bool open_devices(void)
{
	nvmlReturn_t rc = nvml.init();
	if (rc != NVML_SUCCESS) {
		fprintf(stderr, "dnntrace: NVML unavailable (nvmlInit_v2: %s): "
				"no power samples\n", nvml_error(rc));
		return false;
	}
	unsigned int count = 0;
	rc = nvml.count(&count);
	if (rc == NVML_SUCCESS && count > MAX_DEVICES)
		count = MAX_DEVICES;
	for (unsigned int i = 0; rc == NVML_SUCCESS && i < count; i++) {
		rc = nvml.handle(i, &devices[i]);
		unsigned long long energy;
		has_energy[i] = rc == NVML_SUCCESS &&
			nvml.energy(devices[i], &energy) == NVML_SUCCESS;
	}
	if (rc != NVML_SUCCESS || count == 0) {
		fprintf(stderr, "dnntrace: NVML unavailable (%s): no power "
				"samples\n", rc != NVML_SUCCESS ? nvml_error(rc) :
				"no device");
		nvml.shutdown();
		return false;
	}
	n_devices = count;
	return true;
}

void nvml_sampler_start(void)
{
	period_ns = period_from_env();
	if (period_ns == 0 || !load_nvml() || !open_devices())
		return;
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wake, &attr);
	pthread_condattr_destroy(&attr);
	/* The thread inherits a full mask: the program's signals never land on it. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&thread, NULL, sampler_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		fprintf(stderr, "dnntrace: cannot start the power sampler (%s): "
				"no power samples\n", strerror(rc));
		nvml.shutdown();
		return;
	}
	owner_pid = getpid();
	atomic_store(&running, true);
	pthread_atfork(before_fork, after_fork, after_fork);
}

/* Stops and joins the thread, bounded; whether it ended. */
static bool end_thread(void)
{
	if (!atomic_exchange(&running, false) || getpid() != owner_pid ||
	    pthread_equal(pthread_self(), thread))
		return false;
	pthread_mutex_lock(&lock);
	stop_requested = true;
	pthread_cond_signal(&wake);
	pthread_mutex_unlock(&lock);
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += JOIN_TIMEOUT_S;
	/* Stuck in NVML or a full blocking channel: left to the exit. */
	return pthread_timedjoin_np(thread, NULL, &deadline) == 0;
}

void nvml_sampler_stop(void)
{
	if (end_thread())
		nvml.shutdown();
}

void nvml_sampler_halt(void)
{
	/* NVML stays open: the crashed thread may hold its lock. */
	end_thread();
}

bool nvml_sampler_running(void)
{
	return atomic_load(&running);
}

void nvml_sampler_forget(void)
{
	atomic_store(&running, false);
}
