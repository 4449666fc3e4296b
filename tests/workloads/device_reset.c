/*
 * device_reset: three 1 MiB tensors, a kernel on them, cudaDeviceReset (which
 * frees them all), three new 1 MiB tensors, a kernel on those, then frees.
 * At most 3 MiB is ever allocated: a trace that let the first three outlive
 * the reset would report 6 MiB.
 *
 *   device_reset
 *
 * Its stdout must not depend on whether it is traced. Any CUDA failure: exit 1.
 */
#include <stdio.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { TENSORS = 3, MIB = 1 << 20 };

static const char reset_kernel;

static void round_of(const char *kernel_name)
{
	void *tensors[TENSORS];
	for (int i = 0; i < TENSORS; i++)
		tensors[i] = wl_alloc(NULL, MIB, "reset.t", 0);
	void *args[1] = {&tensors[0]};
	wl_launch(NULL, &reset_kernel, kernel_name, args, 0, 1000,
		  (const void *const *)tensors, TENSORS);
	WL_CHECK(cudaDeviceSynchronize());
	if (kernel_name[0] == 'a')   /* the second round frees its own */
		for (int i = 0; i < TENSORS; i++)
			wl_free(NULL, tensors[i]);
}

int main(void)
{
	size_t sizes[1] = {sizeof(void *)};
	simgpu_define_kernel(&reset_kernel, "reset_kernel", 1, sizes);
	round_of("before_reset");
	WL_CHECK(cudaDeviceReset());
	simgpu_define_kernel(&reset_kernel, "reset_kernel", 1, sizes);
	round_of("after_reset");
	printf("device_reset: done\n");
	return 0;
}
