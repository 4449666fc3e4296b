/*
 * The tensor rule (tracepoints/tensor_rule.h) for every memory kind: device,
 * managed, stream-ordered and VMM-mapped memory are tensors; pinned host
 * memory, a VMM physical allocation and a reserved range are not. The
 * tracer and the analyzer both read this rule, so a change to it must be a
 * deliberate change here too. Must never depend on anything but the header.
 */
#include <stdbool.h>
#include <stdio.h>

#include "tracepoints/tensor_rule.h"

int main(void)
{
	static const struct {
		enum dnntrace_mem_kind kind;
		const char *name;
		bool tensor;
	} expected[] = {
		{ DNNTRACE_MEM_DEVICE, "device", true },
		{ DNNTRACE_MEM_MANAGED, "managed", true },
		{ DNNTRACE_MEM_PINNED_HOST, "pinned_host", false },
		{ DNNTRACE_MEM_STREAM_ORDERED, "stream_ordered", true },
		{ DNNTRACE_MEM_VMM_MAPPED, "vmm_mapped", true },
		{ DNNTRACE_MEM_VMM_PHYSICAL, "vmm_physical", false },
		{ DNNTRACE_MEM_VMM_RESERVED, "vmm_reserved", false },
	};
	int failures = 0;

	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		if (dnntrace_mem_kind_is_tensor(expected[i].kind) != expected[i].tensor) {
			fprintf(stderr, "FAIL: %s is %sa tensor\n", expected[i].name,
				expected[i].tensor ? "not " : "");
			failures++;
		}
	}
	if (failures)
		return 1;
	printf("ok: %zu memory kinds\n", sizeof(expected) / sizeof(expected[0]));
	return 0;
}
