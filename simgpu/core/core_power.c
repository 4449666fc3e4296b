/*
 * The simulated board's power model, in the simulated driver (it alone
 * knows when kernels run), read by the simulated NVML
 * (simgpu_power_private.h). README.md "Power" states the model:
 *
 *   P(t) = P_idle + sum of the power of every kernel running at t
 *   E(t) = E_0 + integral of P from the first read to t
 *
 * A kernel's power is what simgpu_next_kernel_power_mw set for the
 * thread's next launch, else SIMGPU_KERNEL_POWER_MW (default 100 W);
 * P_idle is SIMGPU_IDLE_POWER_MW (default 50 W). Energy is summed in
 * integer mW x ns, so it is exact; E_0 stands for the energy used since
 * the driver loaded (a reader must take differences).
 *
 * Kernels are recorded when the timeline places them (under sim_lock, as
 * reads are), and only once a reader has asked: a program without NVML
 * pays one atomic load per launch. A kernel starts no earlier than the
 * moment it is scheduled, so a kernel that ended before a read can never
 * be followed by one that starts before it: such kernels are folded into
 * the total and forgotten, and memory stays with the kernels in flight.
 * Must never change when kernels run or what any CUDA call returns.
 */
#include "simgpu/core/sim_internal.h"
#include "simgpu/simgpu.h"
#include "simgpu/core/simgpu_power_private.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_IDLE_MW 50000u
#define DEFAULT_KERNEL_MW 100000u
/* E_0, as if the driver had been loaded a while ago: 1 MJ. */
#define ENERGY_ORIGIN_MJ 1000000000ULL
#define MAX_POWER_MW 10000000u    /* 10 kW: far above any board */

struct kernel_interval {
	uint64_t start, end;
	unsigned int power_mw;
};

static atomic_bool tracking;
/* Under sim_lock from here on. */
static struct kernel_interval *in_flight;
static size_t n_in_flight, cap_in_flight;
static uint64_t origin_ns;
static unsigned __int128 folded_mw_ns;     /* kernels already ended */
static unsigned int idle_mw = DEFAULT_IDLE_MW;
static unsigned int kernel_mw = DEFAULT_KERNEL_MW;

static _Thread_local unsigned int next_power_mw;
static _Thread_local int next_power_set;

void simgpu_next_kernel_power_mw(unsigned int mw)
{
	next_power_mw = mw;
	next_power_set = 1;
}

static unsigned int env_mw(const char *name, unsigned int fallback)
{
	const char *text = getenv(name);
	if (!text || !*text)
		return fallback;
	char *end;
	unsigned long v = strtoul(text, &end, 10);
	if (*end || text[0] == '-' || v > MAX_POWER_MW) {
		fprintf(stderr, "simgpu: %s='%s' is not a power in mW "
			"(0..%u)\n", name, text, MAX_POWER_MW);
		exit(2);
	}
	return (unsigned int)v;
}

void sim_power_record_kernel(uint64_t start_ns, uint64_t end_ns)
{
	unsigned int mw = next_power_set ? next_power_mw : kernel_mw;
	next_power_set = 0;
	if (!atomic_load_explicit(&tracking, memory_order_acquire) ||
	    end_ns <= start_ns)
		return;
	if (n_in_flight == cap_in_flight) {
		size_t cap = cap_in_flight ? cap_in_flight * 2 : 64;
		struct kernel_interval *grown =
			realloc(in_flight, cap * sizeof(*grown));
		if (!grown) {
			fprintf(stderr, "simgpu: out of memory (power model)\n");
			abort();
		}
		in_flight = grown;
		cap_in_flight = cap;
	}
	in_flight[n_in_flight++] = (struct kernel_interval){
		start_ns, end_ns, mw };
}

static uint64_t overlap_ns(const struct kernel_interval *k, uint64_t from,
			   uint64_t to)
{
	uint64_t a = k->start > from ? k->start : from;
	uint64_t b = k->end < to ? k->end : to;
	return b > a ? b - a : 0;
}

int simgpu_internal_power_read(unsigned int version, uint64_t *now_ns,
			       unsigned int *power_mw,
			       unsigned long long *energy_mj);
int simgpu_internal_power_read(unsigned int version, uint64_t *now_ns,
			       unsigned int *power_mw,
			       unsigned long long *energy_mj)
{
	if (version != SIMGPU_POWER_PRIVATE_VERSION)
		return -1;
	sim_init();
	pthread_mutex_lock(&sim_lock);
	uint64_t now = sim_now_ns();
	if (!atomic_load_explicit(&tracking, memory_order_relaxed)) {
		idle_mw = env_mw("SIMGPU_IDLE_POWER_MW", DEFAULT_IDLE_MW);
		kernel_mw = env_mw("SIMGPU_KERNEL_POWER_MW", DEFAULT_KERNEL_MW);
		origin_ns = now;
		atomic_store_explicit(&tracking, true, memory_order_release);
	}
	unsigned long long power = idle_mw;
	unsigned __int128 running_mw_ns = 0;
	size_t kept = 0;
	for (size_t i = 0; i < n_in_flight; i++) {
		const struct kernel_interval *k = &in_flight[i];
		uint64_t part = overlap_ns(k, origin_ns, now);
		if (k->end <= now) {
			folded_mw_ns += (unsigned __int128)k->power_mw * part;
			continue;
		}
		running_mw_ns += (unsigned __int128)k->power_mw * part;
		if (k->start <= now)
			power += k->power_mw;
		in_flight[kept++] = *k;
	}
	n_in_flight = kept;
	unsigned __int128 total = folded_mw_ns + running_mw_ns +
		(unsigned __int128)idle_mw * (now - origin_ns);
	pthread_mutex_unlock(&sim_lock);
	*now_ns = now;
	*power_mw = power > UINT32_MAX ? UINT32_MAX : (unsigned int)power;
	/* mW x ns = 1e-12 J; mJ = 1e-3 J */
	*energy_mj = ENERGY_ORIGIN_MJ + (unsigned long long)(total / 1000000000u);
	return 0;
}
