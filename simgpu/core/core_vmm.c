/*
 * Virtual memory management of the simulated device (in libcuda.so.1):
 * physical allocations (cuMemCreate) taken from device memory, virtual
 * ranges (cuMemAddressReserve) in a PROT_NONE host reservation of their own
 * at VMM_BASE_ADDRESS, mappings of physical memory into them (cuMemMap,
 * cuMemUnmap), access (cuMemSetAccess), and the host view of a mapped
 * address for copies and sets. Granularity 2 MiB. Physical memory is given
 * back when released and no longer mapped, as on a real driver. It must
 * never let a copy reach an unmapped or inaccessible virtual address.
 */
#include "simgpu/core/sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Above any device range, below the libraries, clear of ASan's heap. */
#define VMM_BASE_ADDRESS 0x700000000000ULL
#define VMM_SPAN (1ULL << 40)              /* 1 TiB of virtual ranges */
#define HANDLE_BASE 0x70000000ULL          /* handles: HANDLE_BASE + index */

struct physical {
	void *block;       /* its device block (sim_mem_alloc) */
	uint64_t size;
	int released;
	int mappings;
};
struct reservation {
	uint64_t va, size;
};
struct mapping {
	uint64_t va, size, offset; /* offset into the physical allocation */
	size_t physical;
	int accessible;
};

static uint8_t *vmm_base;
static struct physical *physicals;
static size_t n_physicals;
static struct reservation *reservations;
static size_t n_reservations;
static struct mapping *mappings;
static size_t n_mappings;

static int grow(void **array, size_t n, size_t elem)
{
	if (n & (n - 1) && n > 8)
		return 0; /* capacity doubles at powers of two */
	size_t cap = n < 8 ? 8 : n * 2;
	void *grown = realloc(*array, cap * elem);
	if (!grown)
		return -1;
	*array = grown;
	return 0;
}

static int reserve_host_range(void)
{
	if (vmm_base)
		return 0;
	void *want = (void *)(uintptr_t)VMM_BASE_ADDRESS;
	void *p = mmap(want, VMM_SPAN, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			       MAP_FIXED_NOREPLACE, -1, 0);
	if (p != MAP_FAILED && p != want) {
		munmap(p, VMM_SPAN);
		p = MAP_FAILED;
	}
	if (p == MAP_FAILED) {
		/* Still safe, only addresses are no longer the documented ones. */
		fprintf(stderr, "simgpu: fixed virtual address range taken; "
			"reserved ranges will not be deterministic\n");
		p = mmap(NULL, VMM_SPAN, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return -1;
	}
	vmm_base = p;
	return 0;
}

uint64_t sim_vmm_granularity(void)
{
	return 2ULL << 20;
}

cudaError_t sim_vmm_create(uint64_t size, uint64_t *handle)
{
	if (!size || size % sim_vmm_granularity())
		return cudaErrorInvalidValue;
	if (grow((void **)&physicals, n_physicals, sizeof(*physicals)))
		return cudaErrorMemoryAllocation;
	void *block;
	cudaError_t err = sim_mem_alloc(size, SIM_MEM_DEVICE, NULL, &block);
	if (err != cudaSuccess)
		return err;
	physicals[n_physicals] = (struct physical){ .block = block, .size = size };
	*handle = HANDLE_BASE + n_physicals++;
	return cudaSuccess;
}

static struct physical *physical_of(uint64_t handle, size_t *index)
{
	if (handle < HANDLE_BASE || handle - HANDLE_BASE >= n_physicals)
		return NULL;
	struct physical *p = &physicals[handle - HANDLE_BASE];
	if (p->released)
		return NULL;
	if (index)
		*index = handle - HANDLE_BASE;
	return p;
}

static void give_back_if_done(struct physical *p)
{
	if (p->released && !p->mappings && p->block) {
		sim_mem_free(p->block);
		p->block = NULL;
	}
}

cudaError_t sim_vmm_release(uint64_t handle)
{
	struct physical *p = physical_of(handle, NULL);
	if (!p)
		return cudaErrorInvalidValue;
	p->released = 1;
	give_back_if_done(p);
	return cudaSuccess;
}

/* First fit in the virtual span; addr is a hint (used when free). */
cudaError_t sim_vmm_reserve(uint64_t size, uint64_t alignment, uint64_t addr,
			    uint64_t *va)
{
	uint64_t g = sim_vmm_granularity();
	if (!size || size % g || (alignment & (alignment - 1)))
		return cudaErrorInvalidValue;
	if (reserve_host_range() != 0)
		return cudaErrorMemoryAllocation;
	if (alignment < g)
		alignment = g;
	if (grow((void **)&reservations, n_reservations, sizeof(*reservations)))
		return cudaErrorMemoryAllocation;
	uint64_t base = (uint64_t)(uintptr_t)vmm_base;
	uint64_t candidate = addr && addr % alignment == 0 ? addr : base;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n_reservations; i++) {
			const struct reservation *r = &reservations[i];
			if (candidate < r->va + r->size && r->va < candidate + size) {
				candidate = (r->va + r->size + alignment - 1) /
					    alignment * alignment;
				i = (size_t)-1; /* start over */
			}
		}
		if (candidate >= base && candidate + size <= base + VMM_SPAN)
			break;
		candidate = base; /* the hint was unusable */
	}
	if (candidate < base || candidate + size > base + VMM_SPAN)
		return cudaErrorMemoryAllocation;
	reservations[n_reservations++] = (struct reservation){ candidate, size };
	*va = candidate;
	return cudaSuccess;
}

cudaError_t sim_vmm_free(uint64_t va, uint64_t size)
{
	for (size_t i = 0; i < n_reservations; i++) {
		if (reservations[i].va == va && reservations[i].size == size) {
			for (size_t m = 0; m < n_mappings; m++)
				if (mappings[m].va >= va && mappings[m].va < va + size)
					return cudaErrorInvalidValue; /* still mapped */
			reservations[i] = reservations[--n_reservations];
			return cudaSuccess;
		}
	}
	return cudaErrorInvalidValue;
}

static int inside_reservation(uint64_t va, uint64_t size)
{
	for (size_t i = 0; i < n_reservations; i++)
		if (va >= reservations[i].va &&
		    va + size <= reservations[i].va + reservations[i].size)
			return 1;
	return 0;
}

cudaError_t sim_vmm_map(uint64_t va, uint64_t size, uint64_t offset,
			uint64_t handle)
{
	uint64_t g = sim_vmm_granularity();
	size_t index;
	struct physical *p = physical_of(handle, &index);
	if (!p || !size || va % g || size % g || offset % g ||
	    offset + size > p->size || !inside_reservation(va, size))
		return cudaErrorInvalidValue;
	for (size_t m = 0; m < n_mappings; m++)
		if (va < mappings[m].va + mappings[m].size &&
		    mappings[m].va < va + size)
			return cudaErrorInvalidValue; /* already mapped */
	if (grow((void **)&mappings, n_mappings, sizeof(*mappings)))
		return cudaErrorMemoryAllocation;
	mappings[n_mappings++] = (struct mapping){
		.va = va, .size = size, .offset = offset, .physical = index,
	};
	p->mappings++;
	return cudaSuccess;
}

/* Unmaps every mapping inside [va, va+size); the range must cover them. */
cudaError_t sim_vmm_unmap(uint64_t va, uint64_t size)
{
	int found = 0;
	for (size_t m = 0; m < n_mappings;) {
		struct mapping *mp = &mappings[m];
		int overlaps = va < mp->va + mp->size && mp->va < va + size;
		if (overlaps && (mp->va < va || mp->va + mp->size > va + size))
			return cudaErrorInvalidValue; /* would split a mapping */
		if (overlaps) {
			struct physical *p = &physicals[mp->physical];
			p->mappings--;
			give_back_if_done(p);
			*mp = mappings[--n_mappings];
			found = 1;
		} else {
			m++;
		}
	}
	return found ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t sim_vmm_set_access(uint64_t va, uint64_t size, int accessible)
{
	uint64_t covered = 0;
	for (size_t m = 0; m < n_mappings; m++) {
		struct mapping *mp = &mappings[m];
		if (mp->va >= va && mp->va + mp->size <= va + size) {
			mp->accessible = accessible;
			covered += mp->size;
		}
	}
	return covered == size ? cudaSuccess : cudaErrorInvalidValue;
}

int sim_vmm_in_range(const void *p)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)vmm_base;
	return vmm_base && a >= b && a - b < VMM_SPAN;
}

void *sim_vmm_view(const void *p, uint64_t extent)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	for (size_t m = 0; m < n_mappings; m++) {
		const struct mapping *mp = &mappings[m];
		if (a >= mp->va && a + extent <= mp->va + mp->size) {
			if (!mp->accessible)
				return NULL;
			const struct physical *ph = &physicals[mp->physical];
			return sim_mem_view((const uint8_t *)ph->block + mp->offset +
					    (a - mp->va));
		}
	}
	return NULL;
}
