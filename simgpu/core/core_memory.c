/*
 * Simulated device memory. Device addresses live in a PROT_NONE reservation
 * at a fixed address, so a host bug that dereferences one crashes at once
 * (SIGSEGV), as on a real GPU. The bytes live in a memfd that the simulator
 * maps a second time, read-write, for itself: copies and sets really move
 * data. Managed allocations map the same memfd pages at their device address
 * too, so the host can use them. Allocation is first-fit in address order,
 * hence deterministic. Also pinned host memory (ordinary host pages).
 * This file must never hand the host a readable view of plain device memory.
 */
#include "simgpu/core/sim_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Where device addresses start: far from the heap, libraries and ASan. */
#define DEVICE_BASE_ADDRESS 0x200000000000ULL
#define DEVICE_ALIGNMENT 256ULL
#define PAGE 4096ULL

static uint64_t capacity;
static uint64_t used_bytes;
static uint8_t *device_base;   /* PROT_NONE, except managed blocks */
static uint8_t *sim_view_base; /* the simulator's RW view of the same bytes */
static int memfd = -1;

static struct sim_alloc *allocs; /* sorted by offset */
static size_t n_allocs, cap_allocs;

struct pinned_block {
	void *base;
	size_t size;
	size_t mapped;
};
static struct pinned_block *pinned;
static size_t n_pinned, cap_pinned;

static void die(const char *what)
{
	fprintf(stderr, "simgpu: cannot set up simulated device memory: %s: %m\n",
		what);
	exit(2);
}

/* context_bytes: in use from the start (the simulated CUDA context), taken
 * from the capacity but from no address range. */
void sim_mem_init(uint64_t bytes, uint64_t context_bytes);
void sim_mem_init(uint64_t bytes, uint64_t context_bytes)
{
	capacity = bytes;
	used_bytes = context_bytes;
	uint64_t span = (bytes + PAGE - 1) & ~(PAGE - 1);
	memfd = memfd_create("simgpu-device-memory", MFD_CLOEXEC);
	if (memfd < 0)
		die("memfd_create");
	if (ftruncate(memfd, (off_t)span) != 0)
		die("ftruncate");
	void *want = (void *)(uintptr_t)DEVICE_BASE_ADDRESS;
	void *base = mmap(want, span, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
				  MAP_FIXED_NOREPLACE, -1, 0);
	if (base == MAP_FAILED || base != want) {
		/* Still safe, only addresses are no longer the documented ones. */
		if (base != MAP_FAILED)
			munmap(base, span);
		fprintf(stderr, "simgpu: fixed device address range taken; "
			"device addresses will not be deterministic\n");
		base = mmap(NULL, span, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (base == MAP_FAILED)
			die("reserve device range");
	}
	device_base = base;
	void *view = mmap(NULL, span, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_NORESERVE, memfd, 0);
	if (view == MAP_FAILED)
		die("map device bytes");
	sim_view_base = view;
}

uint64_t sim_mem_capacity(void)
{
	return capacity;
}

uint64_t sim_mem_used(void)
{
	return used_bytes;
}

int sim_mem_in_device_range(const void *p)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)device_base;
	return device_base && a >= b && a - b < capacity;
}

void *sim_mem_view(const void *p)
{
	return sim_view_base + ((const uint8_t *)p - device_base);
}

void *sim_mem_base(const struct sim_alloc *a)
{
	return device_base + a->offset;
}

/* Index of the first allocation whose offset is > off. */
static size_t upper_bound(uint64_t off)
{
	size_t lo = 0, hi = n_allocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (allocs[mid].offset <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct sim_alloc *sim_mem_find(const void *p)
{
	if (!sim_mem_in_device_range(p))
		return NULL;
	uint64_t off = (uint64_t)((const uint8_t *)p - device_base);
	size_t i = upper_bound(off);
	if (i == 0)
		return NULL;
	const struct sim_alloc *a = &allocs[i - 1];
	/* The whole rounded block is valid, as it is on a real GPU. */
	return off - a->offset < a->size ? a : NULL;
}

/*
 * Blocks at least this big give their pages back when freed, so that
 * workloads cycling through gigabytes stay small in host memory. Smaller
 * ones keep theirs: a cudaFree of a small block makes no system call.
 */
#define RELEASE_PAGES_MIN_BYTES (1ULL << 20)

/* Gives the pages fully inside [off, off+size) back to the system. */
static void release_pages(uint64_t off, uint64_t size)
{
	if (size < RELEASE_PAGES_MIN_BYTES)
		return;
	uint64_t first = (off + PAGE - 1) & ~(PAGE - 1);
	uint64_t last = (off + size) & ~(PAGE - 1);
	if (last > first)
		fallocate(memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			  (off_t)first, (off_t)(last - first));
}

cudaError_t sim_mem_alloc(size_t size, enum sim_mem_kind kind,
			  const void *pool, void **dev)
{
	/* Managed blocks get whole pages: the host maps them. */
	uint64_t align = kind == SIM_MEM_MANAGED ? PAGE : DEVICE_ALIGNMENT;
	if (size > capacity)
		return cudaErrorMemoryAllocation;
	uint64_t rounded = ((uint64_t)size + align - 1) & ~(align - 1);
	if (rounded == 0)
		rounded = align;
	if (rounded > capacity - used_bytes)
		return cudaErrorMemoryAllocation;
	if (n_allocs == cap_allocs) {
		size_t n = cap_allocs ? cap_allocs * 2 : 64;
		struct sim_alloc *grown = realloc(allocs, n * sizeof(*grown));
		if (!grown)
			return cudaErrorMemoryAllocation;
		allocs = grown;
		cap_allocs = n;
	}
	uint64_t candidate = 0;
	size_t slot = 0;
	for (; slot <= n_allocs; slot++) {
		uint64_t gap_end = slot < n_allocs ? allocs[slot].offset : capacity;
		candidate = (candidate + align - 1) & ~(align - 1);
		if (candidate <= gap_end && gap_end - candidate >= rounded)
			break;
		if (slot < n_allocs)
			candidate = allocs[slot].offset + allocs[slot].size;
	}
	if (slot > n_allocs)
		return cudaErrorMemoryAllocation; /* fragmented */
	if (kind == SIM_MEM_MANAGED) {
		void *at = mmap(device_base + candidate, rounded,
				PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
				memfd, (off_t)candidate);
		if (at == MAP_FAILED)
			return cudaErrorMemoryAllocation;
	}
	memmove(&allocs[slot + 1], &allocs[slot],
		(n_allocs - slot) * sizeof(*allocs));
	allocs[slot] = (struct sim_alloc){
		.offset = candidate, .size = rounded, .requested = size,
		.kind = kind, .pool = pool,
		.context = kind == SIM_MEM_STREAM_ORDERED ? SIM_NO_CONTEXT
							  : sim_current_context(),
		.device = sim_current_device(),
	};
	n_allocs++;
	used_bytes += rounded;
	*dev = device_base + candidate;
	return cudaSuccess;
}

static void forget(size_t i)
{
	struct sim_alloc a = allocs[i];
	if (a.kind == SIM_MEM_MANAGED)
		mmap(device_base + a.offset, a.size, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
		     -1, 0);
	release_pages(a.offset, a.size);
	used_bytes -= a.size;
	memmove(&allocs[i], &allocs[i + 1], (n_allocs - i - 1) * sizeof(*allocs));
	n_allocs--;
}

cudaError_t sim_mem_free(const void *dev)
{
	if (!sim_mem_in_device_range(dev))
		return cudaErrorInvalidValue;
	uint64_t off = (uint64_t)((const uint8_t *)dev - device_base);
	size_t i = upper_bound(off);
	if (i == 0 || allocs[i - 1].offset != off)
		return cudaErrorInvalidValue;
	forget(i - 1);
	return cudaSuccess;
}

void sim_mem_free_context(int context, int device)
{
	for (size_t i = n_allocs; i-- > 0;) {
		const struct sim_alloc *a = &allocs[i];
		if ((context != SIM_NO_CONTEXT && a->context == context) ||
		    (device >= 0 && a->kind == SIM_MEM_STREAM_ORDERED && a->device == device))
			forget(i);
	}
}

void sim_mem_disown(const void *dev)
{
	if (!sim_mem_in_device_range(dev))
		return;
	uint64_t off = (uint64_t)((const uint8_t *)dev - device_base);
	size_t i = upper_bound(off);
	if (i > 0 && allocs[i - 1].offset == off)
		allocs[i - 1].context = SIM_NO_CONTEXT;
}

cudaError_t sim_host_alloc(size_t size, unsigned int flags, void **out)
{
	(void)flags;
	size_t mapped = (size + PAGE - 1) & ~(PAGE - 1);
	if (n_pinned == cap_pinned) {
		size_t n = cap_pinned ? cap_pinned * 2 : 16;
		struct pinned_block *grown = realloc(pinned, n * sizeof(*grown));
		if (!grown)
			return cudaErrorMemoryAllocation;
		pinned = grown;
		cap_pinned = n;
	}
	void *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return cudaErrorMemoryAllocation;
	pinned[n_pinned++] = (struct pinned_block){ p, size, mapped };
	*out = p;
	return cudaSuccess;
}

cudaError_t sim_host_free(void *p)
{
	for (size_t i = 0; i < n_pinned; i++) {
		if (pinned[i].base == p) {
			munmap(p, pinned[i].mapped);
			pinned[i] = pinned[--n_pinned];
			return cudaSuccess;
		}
	}
	return cudaErrorInvalidValue;
}

/* Registered host ranges (cuMemHostRegister): the program's own pages,
 * pinned for copies (CUPTI's srcKind/dstKind PINNED: assumed from CUDA's
 * documentation of page-locked memory, not seen on a GPU), never freed
 * here. */
struct registered_range {
	uint8_t *start;
	size_t size;
	struct registered_range *next;
};
static struct registered_range *registered;

int sim_host_register(void *p, size_t size)
{
	uint8_t *start = p;
	for (struct registered_range *h = registered; h; h = h->next)
		if (start < h->start + h->size && h->start < start + size)
			return 1;
	struct registered_range *h = malloc(sizeof(*h));
	if (!h)
		return -1;
	*h = (struct registered_range){ start, size, registered };
	registered = h;
	return 0;
}

int sim_host_unregister(const void *p)
{
	for (struct registered_range **hp = &registered; *hp; hp = &(*hp)->next) {
		if ((*hp)->start == p) {
			struct registered_range *h = *hp;
			*hp = h->next;
			free(h);
			return 0;
		}
	}
	return 1;
}

int sim_host_find(const void *p, void **base, size_t *size)
{
	for (struct registered_range *h = registered; h; h = h->next) {
		if ((const uint8_t *)p >= h->start && (const uint8_t *)p < h->start + h->size) {
			if (base)
				*base = h->start;
			if (size)
				*size = h->size;
			return 1;
		}
	}
	for (size_t i = 0; i < n_pinned; i++) {
		const uint8_t *b = pinned[i].base;
		if ((const uint8_t *)p >= b &&
		    (const uint8_t *)p < b + (pinned[i].size ? pinned[i].size : 1)) {
			if (base)
				*base = pinned[i].base;
			if (size)
				*size = pinned[i].size;
			return 1;
		}
	}
	return 0;
}
