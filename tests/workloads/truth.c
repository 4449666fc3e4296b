/*
 * truth: ground truth of a workload (see truth.h). The G10 rules applied
 * here are those of /work/shared/notes/g10-semantics.md, with the roles a
 * trace can know: the first kernel to touch a tensor writes it, every later
 * kernel reads and writes it. So Birth is the first use, and Death is the last
 * use + 1, or -1 for a tensor only one kernel touches. Workloads keep every
 * tensor that is filled by a copy (not a kernel) touched by two kernels or
 * more, so that a copy counted as a write or not gives the same answer.
 * Must never read a trace.
 */
#include "tests/workloads/truth.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct truth_tensor {
	uintptr_t base;
	uint64_t bytes;
	char *name;
	int global;
	int live;
	int64_t first_use;
	int64_t last_use;
	size_t n_uses;
};

struct truth_kernel {
	char *name;
	uint64_t duration_ns;
	uint64_t allocated_bytes; /* device bytes allocated when it was launched */
	int64_t *tensors;
	size_t n_tensors;
};

struct truth {
	uint64_t allocated_bytes, peak_allocated_bytes;
	struct truth_tensor *tensors;
	size_t n_tensors, cap_tensors;
	struct truth_kernel *kernels;
	size_t n_kernels, cap_kernels;
};

static void *xrealloc(void *ptr, size_t bytes)
{
	void *grown = realloc(ptr, bytes);
	if (!grown) {
		fprintf(stderr, "truth: out of memory\n");
		exit(1);
	}
	return grown;
}

static char *xstrdup(const char *text)
{
	char *copy = strdup(text ? text : "");
	if (!copy) {
		fprintf(stderr, "truth: out of memory\n");
		exit(1);
	}
	return copy;
}

struct truth *truth_new(void)
{
	struct truth *truth = calloc(1, sizeof(*truth));
	if (!truth) {
		fprintf(stderr, "truth: out of memory\n");
		exit(1);
	}
	return truth;
}

void truth_delete(struct truth *truth)
{
	if (!truth)
		return;
	for (size_t i = 0; i < truth->n_tensors; i++)
		free(truth->tensors[i].name);
	for (size_t k = 0; k < truth->n_kernels; k++) {
		free(truth->kernels[k].name);
		free(truth->kernels[k].tensors);
	}
	free(truth->tensors);
	free(truth->kernels);
	free(truth);
}

int64_t truth_alloc(struct truth *truth, const void *ptr, uint64_t bytes,
		    const char *name, int global)
{
	if (truth->n_tensors == truth->cap_tensors) {
		truth->cap_tensors = truth->cap_tensors ? 2 * truth->cap_tensors : 64;
		truth->tensors = xrealloc(truth->tensors,
					  truth->cap_tensors * sizeof(*truth->tensors));
	}
	truth->allocated_bytes += bytes;
	if (truth->allocated_bytes > truth->peak_allocated_bytes)
		truth->peak_allocated_bytes = truth->allocated_bytes;
	struct truth_tensor *tensor = &truth->tensors[truth->n_tensors];
	*tensor = (struct truth_tensor){
		.base = (uintptr_t)ptr, .bytes = bytes, .name = xstrdup(name),
		.global = global, .live = 1, .first_use = -1, .last_use = -1,
	};
	return (int64_t)truth->n_tensors++;
}

static int64_t live_tensor_containing(const struct truth *truth, const void *ptr)
{
	uintptr_t address = (uintptr_t)ptr;
	for (size_t i = truth->n_tensors; i-- > 0;) {
		const struct truth_tensor *tensor = &truth->tensors[i];
		if (tensor->live && address >= tensor->base &&
		    address - tensor->base < (tensor->bytes ? tensor->bytes : 1))
			return (int64_t)i;
	}
	return -1;
}

void truth_free(struct truth *truth, const void *ptr)
{
	int64_t id = live_tensor_containing(truth, ptr);
	if (id < 0 || truth->tensors[id].base != (uintptr_t)ptr) {
		fprintf(stderr, "truth: free of %p, which is no live tensor\n", ptr);
		exit(1);
	}
	truth->tensors[id].live = 0;
	truth->allocated_bytes -= truth->tensors[id].bytes;
}

void truth_kernel(struct truth *truth, const char *name,
		  const void *const *ptrs, size_t n_ptrs, uint64_t duration_ns)
{
	if (truth->n_kernels == truth->cap_kernels) {
		truth->cap_kernels = truth->cap_kernels ? 2 * truth->cap_kernels : 64;
		truth->kernels = xrealloc(truth->kernels,
					  truth->cap_kernels * sizeof(*truth->kernels));
	}
	int64_t index = (int64_t)truth->n_kernels;
	struct truth_kernel *kernel = &truth->kernels[truth->n_kernels++];
	uint64_t allocated = truth->allocated_bytes;
	*kernel = (struct truth_kernel){
		.name = xstrdup(name), .duration_ns = duration_ns,
		.allocated_bytes = allocated,
		.tensors = xrealloc(NULL, (n_ptrs ? n_ptrs : 1) * sizeof(int64_t)),
	};
	for (size_t p = 0; p < n_ptrs; p++) {
		int64_t id = live_tensor_containing(truth, ptrs[p]);
		if (id < 0) {
			fprintf(stderr, "truth: kernel %s uses %p, in no live tensor\n",
				name, ptrs[p]);
			exit(1);
		}
		int seen = 0;
		for (size_t q = 0; q < kernel->n_tensors; q++)
			seen |= kernel->tensors[q] == id;
		if (seen)
			continue;
		kernel->tensors[kernel->n_tensors++] = id;
		struct truth_tensor *tensor = &truth->tensors[id];
		if (tensor->first_use < 0)
			tensor->first_use = index;
		tensor->last_use = index;
		tensor->n_uses++;
	}
}

static int kernel_uses(const struct truth_kernel *kernel, int64_t id)
{
	for (size_t q = 0; q < kernel->n_tensors; q++)
		if (kernel->tensors[q] == id)
			return 1;
	return 0;
}

static int64_t death_of(const struct truth_tensor *tensor)
{
	return tensor->n_uses >= 2 ? tensor->last_use + 1 : -1;
}

/* T[k]: the start of kernel k when kernels run back to back (T[0] = 0). */
static uint64_t *start_times(const struct truth *truth)
{
	uint64_t *start = xrealloc(NULL, (truth->n_kernels + 1) * sizeof(uint64_t));
	start[0] = 0;
	for (size_t k = 0; k < truth->n_kernels; k++)
		start[k + 1] = start[k] + truth->kernels[k].duration_ns;
	return start;
}

struct period_writer {
	FILE *out;
	int64_t tensor;
	int count;
	const uint64_t *start;
	int64_t n_kernels;
};

static void write_period(struct period_writer *writer, int64_t from, int64_t to)
{
	int looped = to < from;
	uint64_t ns = looped
		? (writer->start[writer->n_kernels] - writer->start[from]) + writer->start[to]
		: writer->start[to] - writer->start[from];
	fprintf(writer->out, "%" PRId64 ",%d,%" PRId64 ",%" PRId64 ",%" PRIu64 ".%03u,%d\n",
		writer->tensor, writer->count++, from, to, ns / 1000,
		(unsigned)(ns % 1000), looped);
}

/* G10's inactive periods of one tensor (g10-semantics.md). */
static void write_periods_of(const struct truth *truth, int64_t id,
			     struct period_writer *writer)
{
	const struct truth_tensor *tensor = &truth->tensors[id];
	int64_t n = (int64_t)truth->n_kernels;
	int64_t open = -1;
	if (tensor->first_use < 0)
		return;
	if (!tensor->global) {
		int64_t birth = tensor->first_use, death = death_of(tensor);
		for (int64_t j = birth; death >= 0 && j < death; j++) {
			if (!kernel_uses(&truth->kernels[j], id))
				continue;
			if (open >= 0)
				write_period(writer, open, j);
			open = -1;
			if (j + 1 < death && !kernel_uses(&truth->kernels[j + 1], id))
				open = j + 1;
		}
		return;
	}
	int64_t u = tensor->first_use;
	for (int64_t j = u; j < n; j++) {
		if (!kernel_uses(&truth->kernels[j], id))
			continue;
		if (open >= 0)
			write_period(writer, open, j);
		open = -1;
		if (j + 1 < n && !kernel_uses(&truth->kernels[j + 1], id))
			open = j + 1;
		else if (j == n - 1 && !kernel_uses(&truth->kernels[0], id))
			open = 0;
	}
	for (int64_t j = 0; j <= u; j++) {
		if (!kernel_uses(&truth->kernels[j], id))
			continue;
		if (open >= 0)
			write_period(writer, open, j);
		open = -1;
		if (j + 1 < u && !kernel_uses(&truth->kernels[j + 1], id))
			open = j + 1;
	}
}

static FILE *open_in(const char *dir, const char *file)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *out = fopen(path, "w");
	if (!out)
		fprintf(stderr, "truth: cannot write %s: %s\n", path, strerror(errno));
	return out;
}

static int close_checked(FILE *out, const char *file)
{
	if (ferror(out) | (fclose(out) != 0)) {
		fprintf(stderr, "truth: error writing %s\n", file);
		return -1;
	}
	return 0;
}

static int write_kernels(const struct truth *truth, const char *dir)
{
	FILE *out = open_in(dir, "kernels.csv");
	if (!out)
		return -1;
	fprintf(out, "index,name,duration_ns,touched\n");
	for (size_t k = 0; k < truth->n_kernels; k++) {
		const struct truth_kernel *kernel = &truth->kernels[k];
		fprintf(out, "%zu,%s,%" PRIu64 ",", k, kernel->name, kernel->duration_ns);
		for (size_t q = 0; q < kernel->n_tensors; q++)
			fprintf(out, "%s%" PRId64, q ? " " : "", kernel->tensors[q]);
		fputc('\n', out);
	}
	return close_checked(out, "kernels.csv");
}

static int write_tensors(const struct truth *truth, const char *dir)
{
	FILE *out = open_in(dir, "tensors.csv");
	if (!out)
		return -1;
	fprintf(out, "id,name,bytes,first_use,last_use,global\n");
	for (size_t i = 0; i < truth->n_tensors; i++) {
		const struct truth_tensor *tensor = &truth->tensors[i];
		fprintf(out, "%zu,%s,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%d\n", i,
			tensor->name, tensor->bytes, tensor->first_use,
			tensor->last_use, tensor->global);
	}
	return close_checked(out, "tensors.csv");
}

static int write_liveness(const struct truth *truth, const char *dir)
{
	FILE *out = open_in(dir, "liveness.csv");
	if (!out)
		return -1;
	fprintf(out, "tensor,global,birth,death\n");
	for (size_t i = 0; i < truth->n_tensors; i++) {
		const struct truth_tensor *tensor = &truth->tensors[i];
		if (tensor->first_use < 0)
			continue;
		fprintf(out, "%zu,%d,%" PRId64 ",%" PRId64 "\n", i, tensor->global,
			tensor->first_use, death_of(tensor));
	}
	return close_checked(out, "liveness.csv");
}

static int write_all_periods(const struct truth *truth, const char *dir)
{
	FILE *out = open_in(dir, "periods.csv");
	if (!out)
		return -1;
	uint64_t *start = start_times(truth);
	fprintf(out, "tensor,period,start,end,estimated_us,looped\n");
	for (size_t i = 0; i < truth->n_tensors; i++) {
		struct period_writer writer = {
			.out = out, .tensor = (int64_t)i, .start = start,
			.n_kernels = (int64_t)truth->n_kernels,
		};
		write_periods_of(truth, (int64_t)i, &writer);
	}
	free(start);
	return close_checked(out, "periods.csv");
}

/*
 * Memory per kernel: live = device bytes allocated when kernel k was
 * launched (a last row "peak" gives the most ever allocated); active = the tensors kernel k touches; G10's total = every global
 * tensor plus the local tensors live at k (Birth <= k < Death, a Death of -1
 * counting as Birth + 1).
 */
static int write_memory(const struct truth *truth, const char *dir)
{
	FILE *out = open_in(dir, "memory.csv");
	if (!out)
		return -1;
	fprintf(out, "index,live_bytes,active_bytes,g10_total_bytes\n");
	for (size_t k = 0; k < truth->n_kernels; k++) {
		uint64_t total = 0, active = 0;
		for (size_t i = 0; i < truth->n_tensors; i++) {
			const struct truth_tensor *tensor = &truth->tensors[i];
			int64_t death = death_of(tensor);
			if (death < 0)
				death = tensor->first_use + 1;
			if (tensor->global ||
			    (tensor->first_use >= 0 && tensor->first_use <= (int64_t)k &&
			     (int64_t)k < death))
				total += tensor->bytes;
		}
		const struct truth_kernel *kernel = &truth->kernels[k];
		for (size_t q = 0; q < kernel->n_tensors; q++)
			active += truth->tensors[kernel->tensors[q]].bytes;
		fprintf(out, "%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", k,
			kernel->allocated_bytes, active, total);
	}
	fprintf(out, "peak,%" PRIu64 ",,\n", truth->peak_allocated_bytes);
	return close_checked(out, "memory.csv");
}

int truth_write(const struct truth *truth, const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "truth: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (write_kernels(truth, dir) || write_tensors(truth, dir) ||
	    write_liveness(truth, dir) || write_all_periods(truth, dir) ||
	    write_memory(truth, dir))
		return -1;
	return 0;
}
