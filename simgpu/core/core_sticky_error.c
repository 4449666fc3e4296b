/*
 * The sticky error of a faulted simulated device (in libcuda.so.1): a
 * kernel armed by simgpu_fail_next_kernel breaks the device once it has
 * completed, and from then on every runtime and driver call returns that
 * error, never cleared, as after a real device fault. It must never clear
 * or replace a sticky error once set.
 */
#include "simgpu/core/sim_internal.h"

#include <stdatomic.h>

static _Atomic int sticky_error = cudaSuccess;
/* A faulting kernel not yet finished: its error and when it ends (stored
 * before the error is armed, so a reader that sees the error sees them). */
static _Atomic int armed_error = cudaSuccess;
static _Atomic uint64_t armed_at_v, armed_at_trace;

void sim_arm_sticky_error(cudaError_t err, struct sim_instant t)
{
	int none = cudaSuccess;
	atomic_store(&armed_at_v, t.v);
	atomic_store(&armed_at_trace, t.trace);
	atomic_compare_exchange_strong(&armed_error, &none, (int)err);
}

static cudaError_t current_sticky_error(void)
{
	int armed = atomic_load(&armed_error);
	if (armed != cudaSuccess &&
	    sim_device_time_reached((struct sim_instant){
		    atomic_load(&armed_at_v), atomic_load(&armed_at_trace) })) {
		int none = cudaSuccess;
		atomic_compare_exchange_strong(&sticky_error, &none, armed);
	}
	return (cudaError_t)atomic_load(&sticky_error);
}

cudaError_t sim_enter(void)
{
	sim_init();
	return current_sticky_error();
}
