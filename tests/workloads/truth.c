/*
 * truth: ground truth of a workload (see truth.h). The G10 rules applied
 * here are those of /work/shared/notes/g10-semantics.md: Birth is a tensor's
 * first use (input or output), Death its last use as an input + 1, or -1 when
 * no kernel reads it. A library call says how it uses each argument; a
 * launch does not, so (as the analyzer does, analysis/DECISIONS.md) its use of a
 * tensor is an input and an output, except the first use of a tensor nothing
 * wrote before, which is an output only. Workloads that do not declare their
 * host writes (truth_exact_roles) keep every tensor filled by a copy touched
 * by two kernels or more, so that a copy counted as a write or not gives the
 * same Birth and Death. Must never read a trace.
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
	int written; /* by a declared host write or any kernel so far */
};

/* One tensor a kernel uses: input, output or both, with its shape. */
struct truth_use {
	int64_t tensor;
	int input, output;
	char *dims; /* NULL: unknown */
};

struct truth_kernel {
	char *name;
	const char *api;   /* static string */
	int64_t op;        /* the operation (library call or launch) it belongs to */
	uint64_t duration_ns;
	uint64_t allocated_bytes; /* device bytes allocated when it was launched */
	int library_named; /* a library call chose it: its name is the library's */
	struct truth_use *uses;
	size_t n_uses;
};

struct truth {
	uint64_t allocated_bytes, peak_allocated_bytes;
	int exact_roles;
	int64_t n_ops;
	struct truth_tensor *tensors;
	size_t n_tensors, cap_tensors;
	struct truth_kernel *kernels;
	size_t n_kernels, cap_kernels;
};

/* Per-tensor facts derived from a kernel list when the truth is written. */
struct tensor_uses {
	int64_t first_use, last_use, last_input;
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

static void free_kernels(struct truth_kernel *kernels, size_t n_kernels)
{
	for (size_t k = 0; k < n_kernels; k++) {
		free(kernels[k].name);
		for (size_t u = 0; u < kernels[k].n_uses; u++)
			free(kernels[k].uses[u].dims);
		free(kernels[k].uses);
	}
	free(kernels);
}

void truth_delete(struct truth *truth)
{
	if (!truth)
		return;
	for (size_t i = 0; i < truth->n_tensors; i++)
		free(truth->tensors[i].name);
	free(truth->tensors);
	free_kernels(truth->kernels, truth->n_kernels);
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
		.global = global, .live = 1,
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

static int64_t required_tensor(const struct truth *truth, const void *ptr,
			       const char *user)
{
	int64_t id = live_tensor_containing(truth, ptr);
	if (id < 0) {
		fprintf(stderr, "truth: %s uses %p, in no live tensor\n", user, ptr);
		exit(1);
	}
	return id;
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

void truth_exact_roles(struct truth *truth)
{
	truth->exact_roles = 1;
}

void truth_host_write(struct truth *truth, const void *ptr)
{
	truth->tensors[required_tensor(truth, ptr, "a host write")].written = 1;
}

static struct truth_kernel *new_kernel(struct truth *truth, const char *name,
				       const char *api, int64_t op,
				       uint64_t duration_ns, size_t max_uses)
{
	if (truth->n_kernels == truth->cap_kernels) {
		truth->cap_kernels = truth->cap_kernels ? 2 * truth->cap_kernels : 64;
		truth->kernels = xrealloc(truth->kernels,
					  truth->cap_kernels * sizeof(*truth->kernels));
	}
	struct truth_kernel *kernel = &truth->kernels[truth->n_kernels++];
	*kernel = (struct truth_kernel){
		.name = xstrdup(name), .api = api, .op = op,
		.duration_ns = duration_ns,
		.allocated_bytes = truth->allocated_bytes,
		.uses = xrealloc(NULL, (max_uses ? max_uses : 1) * sizeof(struct truth_use)),
	};
	return kernel;
}

/* The kernel's use of tensor id, added (neither input nor output) if new. */
static struct truth_use *use_of(struct truth_kernel *kernel, int64_t id, int *added)
{
	for (size_t u = 0; u < kernel->n_uses; u++)
		if (kernel->uses[u].tensor == id) {
			*added = 0;
			return &kernel->uses[u];
		}
	*added = 1;
	struct truth_use *use = &kernel->uses[kernel->n_uses++];
	*use = (struct truth_use){ .tensor = id };
	return use;
}

void truth_kernel(struct truth *truth, const char *name,
		  const void *const *ptrs, size_t n_ptrs, uint64_t duration_ns)
{
	truth_kernel_api(truth, "cudaLaunchKernel", name, ptrs, n_ptrs, duration_ns);
}

void truth_kernel_api(struct truth *truth, const char *api, const char *name,
		      const void *const *ptrs, size_t n_ptrs, uint64_t duration_ns)
{
	struct truth_kernel *kernel = new_kernel(truth, name, api,
						 truth->n_ops++, duration_ns, n_ptrs);
	for (size_t p = 0; p < n_ptrs; p++) {
		int added;
		struct truth_use *use = use_of(kernel, required_tensor(truth, ptrs[p], name), &added);
		if (!added)
			continue;
		use->output = 1;
		use->input = truth->tensors[use->tensor].written;
	}
	for (size_t u = 0; u < kernel->n_uses; u++)
		truth->tensors[kernel->uses[u].tensor].written = 1;
}

void truth_library_call(struct truth *truth, const char *api,
			const char *const *kernel_names,
			const uint64_t *durations_ns, size_t n_kernels,
			const struct truth_arg *args, size_t n_args)
{
	int64_t op = truth->n_ops++;
	for (size_t k = 0; k < n_kernels; k++) {
		struct truth_kernel *kernel = new_kernel(truth, kernel_names[k], api, op,
							 durations_ns[k], n_args);
		kernel->library_named = 1;
		for (size_t a = 0; a < n_args; a++) {
			if (!args[a].ptr)
				continue;
			int added;
			struct truth_use *use = use_of(kernel,
				required_tensor(truth, args[a].ptr, api), &added);
			use->input |= args[a].role == TRUTH_READ ||
				      args[a].role == TRUTH_READ_WRITE;
			use->output |= args[a].role != TRUTH_READ;
			if (added && args[a].dims)
				use->dims = xstrdup(args[a].dims);
		}
		for (size_t u = 0; u < kernel->n_uses; u++)
			truth->tensors[kernel->uses[u].tensor].written = 1;
	}
}

void truth_graph_launch(struct truth *truth, const char *api,
			const struct truth_graph_kernel *kernels, size_t n_kernels)
{
	int64_t op = truth->n_ops++;
	for (size_t k = 0; k < n_kernels; k++) {
		const struct truth_graph_kernel *gk = &kernels[k];
		struct truth_kernel *kernel = new_kernel(truth, gk->name, api, op,
							 gk->duration_ns,
							 gk->n_ptrs + gk->n_args);
		kernel->library_named = gk->n_args > 0; /* a captured library call's */
		for (size_t p = 0; p < gk->n_ptrs; p++) {
			int added;
			struct truth_use *use = use_of(kernel,
				required_tensor(truth, gk->ptrs[p], gk->name), &added);
			if (!added)
				continue;
			use->output = 1;
			use->input = truth->tensors[use->tensor].written;
		}
		for (size_t a = 0; a < gk->n_args; a++) {
			if (!gk->args[a].ptr)
				continue;
			int added;
			struct truth_use *use = use_of(kernel,
				required_tensor(truth, gk->args[a].ptr, api), &added);
			use->input |= gk->args[a].role == TRUTH_READ ||
				      gk->args[a].role == TRUTH_READ_WRITE;
			use->output |= gk->args[a].role != TRUTH_READ;
			if (added && gk->args[a].dims)
				use->dims = xstrdup(gk->args[a].dims);
		}
		for (size_t u = 0; u < kernel->n_uses; u++)
			truth->tensors[kernel->uses[u].tensor].written = 1;
	}
}

/* ---- derived facts -------------------------------------------------------- */

static struct tensor_uses *uses_of_tensors(const struct truth *truth,
					   const struct truth_kernel *kernels,
					   size_t n_kernels)
{
	struct tensor_uses *uses = xrealloc(NULL, (truth->n_tensors + 1) * sizeof(*uses));
	for (size_t i = 0; i < truth->n_tensors; i++)
		uses[i] = (struct tensor_uses){ -1, -1, -1 };
	for (size_t k = 0; k < n_kernels; k++)
		for (size_t u = 0; u < kernels[k].n_uses; u++) {
			struct tensor_uses *t = &uses[kernels[k].uses[u].tensor];
			if (t->first_use < 0)
				t->first_use = (int64_t)k;
			t->last_use = (int64_t)k;
			if (kernels[k].uses[u].input)
				t->last_input = (int64_t)k;
		}
	return uses;
}

static int kernel_uses(const struct truth_kernel *kernel, int64_t id)
{
	for (size_t u = 0; u < kernel->n_uses; u++)
		if (kernel->uses[u].tensor == id)
			return 1;
	return 0;
}

static int64_t death_of(const struct tensor_uses *uses)
{
	return uses->last_input >= 0 ? uses->last_input + 1 : -1;
}

/* A view of the truth at one granularity: kernels or operations. */
struct truth_view {
	const struct truth *truth;
	const struct truth_kernel *kernels;
	size_t n_kernels;
	struct tensor_uses *uses;
	int exact_roles;
};

/* T[k]: the start of kernel k when kernels run back to back (T[0] = 0). */
static uint64_t *start_times(const struct truth_view *view)
{
	uint64_t *start = xrealloc(NULL, (view->n_kernels + 1) * sizeof(uint64_t));
	start[0] = 0;
	for (size_t k = 0; k < view->n_kernels; k++)
		start[k + 1] = start[k] + view->kernels[k].duration_ns;
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
static void write_periods_of(const struct truth_view *view, int64_t id,
			     struct period_writer *writer)
{
	const struct truth_kernel *kernels = view->kernels;
	const struct tensor_uses *uses = &view->uses[id];
	int64_t n = (int64_t)view->n_kernels;
	int64_t open = -1;
	if (uses->first_use < 0)
		return;
	if (!view->truth->tensors[id].global) {
		int64_t birth = uses->first_use, death = death_of(uses);
		for (int64_t j = birth; death >= 0 && j < death; j++) {
			if (!kernel_uses(&kernels[j], id))
				continue;
			if (open >= 0)
				write_period(writer, open, j);
			open = -1;
			if (j + 1 < death && !kernel_uses(&kernels[j + 1], id))
				open = j + 1;
		}
		return;
	}
	int64_t u = uses->first_use;
	for (int64_t j = u; j < n; j++) {
		if (!kernel_uses(&kernels[j], id))
			continue;
		if (open >= 0)
			write_period(writer, open, j);
		open = -1;
		if (j + 1 < n && !kernel_uses(&kernels[j + 1], id))
			open = j + 1;
		else if (j == n - 1 && !kernel_uses(&kernels[0], id))
			open = 0;
	}
	for (int64_t j = 0; j <= u; j++) {
		if (!kernel_uses(&kernels[j], id))
			continue;
		if (open >= 0)
			write_period(writer, open, j);
		open = -1;
		if (j + 1 < u && !kernel_uses(&kernels[j + 1], id))
			open = j + 1;
	}
}

/* ---- files ----------------------------------------------------------------- */

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

/* Space-separated ids of the kernel's tensors: all, inputs or outputs. */
static void write_ids(FILE *out, const struct truth_kernel *kernel, int which)
{
	int first = 1;
	for (size_t u = 0; u < kernel->n_uses; u++) {
		const struct truth_use *use = &kernel->uses[u];
		if ((which == 1 && !use->input) || (which == 2 && !use->output))
			continue;
		fprintf(out, "%s%" PRId64, first ? "" : " ", use->tensor);
		first = 0;
	}
}

enum { ALL_USES, INPUTS, OUTPUTS };

static int write_kernels(const struct truth_view *view, const char *dir)
{
	FILE *out = open_in(dir, "kernels.csv");
	if (!out)
		return -1;
	fprintf(out, "index,name,duration_ns,touched%s\n",
		view->exact_roles ? ",api,inputs,outputs,library_named" : "");
	for (size_t k = 0; k < view->n_kernels; k++) {
		const struct truth_kernel *kernel = &view->kernels[k];
		fprintf(out, "%zu,%s,%" PRIu64 ",", k, kernel->name, kernel->duration_ns);
		write_ids(out, kernel, ALL_USES);
		if (view->exact_roles) {
			fprintf(out, ",%s,", kernel->api);
			write_ids(out, kernel, INPUTS);
			fputc(',', out);
			write_ids(out, kernel, OUTPUTS);
			fprintf(out, ",%d", kernel->library_named);
		}
		fputc('\n', out);
	}
	return close_checked(out, "kernels.csv");
}

/* Each input and output of each kernel with its shape, as kernels.config lists them. */
static int write_kernel_tensors(const struct truth_view *view, const char *dir)
{
	FILE *out = open_in(dir, "kernel_tensors.csv");
	if (!out)
		return -1;
	fprintf(out, "index,direction,tensor,dimensions\n");
	for (size_t k = 0; k < view->n_kernels; k++) {
		const struct truth_kernel *kernel = &view->kernels[k];
		for (int direction = INPUTS; direction <= OUTPUTS; direction++)
			for (size_t u = 0; u < kernel->n_uses; u++) {
				const struct truth_use *use = &kernel->uses[u];
				if (direction == INPUTS ? !use->input : !use->output)
					continue;
				fprintf(out, "%zu,%s,%" PRId64 ",\"%s\"\n", k,
					direction == INPUTS ? "input" : "output",
					use->tensor, use->dims ? use->dims : "");
			}
	}
	return close_checked(out, "kernel_tensors.csv");
}

static int write_tensors(const struct truth_view *view, const char *dir)
{
	FILE *out = open_in(dir, "tensors.csv");
	if (!out)
		return -1;
	fprintf(out, "id,name,bytes,first_use,last_use,global\n");
	for (size_t i = 0; i < view->truth->n_tensors; i++) {
		const struct truth_tensor *tensor = &view->truth->tensors[i];
		fprintf(out, "%zu,%s,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%d\n", i,
			tensor->name, tensor->bytes, view->uses[i].first_use,
			view->uses[i].last_use, tensor->global);
	}
	return close_checked(out, "tensors.csv");
}

static int write_liveness(const struct truth_view *view, const char *dir)
{
	FILE *out = open_in(dir, "liveness.csv");
	if (!out)
		return -1;
	fprintf(out, "tensor,global,birth,death\n");
	for (size_t i = 0; i < view->truth->n_tensors; i++) {
		if (view->uses[i].first_use < 0)
			continue;
		fprintf(out, "%zu,%d,%" PRId64 ",%" PRId64 "\n", i,
			view->truth->tensors[i].global, view->uses[i].first_use,
			death_of(&view->uses[i]));
	}
	return close_checked(out, "liveness.csv");
}

static int write_all_periods(const struct truth_view *view, const char *dir)
{
	FILE *out = open_in(dir, "periods.csv");
	if (!out)
		return -1;
	uint64_t *start = start_times(view);
	fprintf(out, "tensor,period,start,end,estimated_us,looped\n");
	for (size_t i = 0; i < view->truth->n_tensors; i++) {
		struct period_writer writer = {
			.out = out, .tensor = (int64_t)i, .start = start,
			.n_kernels = (int64_t)view->n_kernels,
		};
		write_periods_of(view, (int64_t)i, &writer);
	}
	free(start);
	return close_checked(out, "periods.csv");
}

/*
 * Memory per kernel: live = device bytes allocated when kernel k was
 * launched (a last row "peak" gives the most ever allocated); active = the
 * tensors kernel k touches; G10's total = every global tensor plus the local
 * tensors live at k (Birth <= k < Death, a Death of -1 counting as Birth + 1).
 */
static int write_memory(const struct truth_view *view, const char *dir)
{
	const struct truth *truth = view->truth;
	FILE *out = open_in(dir, "memory.csv");
	if (!out)
		return -1;
	fprintf(out, "index,live_bytes,active_bytes,g10_total_bytes\n");
	for (size_t k = 0; k < view->n_kernels; k++) {
		uint64_t total = 0, active = 0;
		for (size_t i = 0; i < truth->n_tensors; i++) {
			const struct tensor_uses *uses = &view->uses[i];
			int64_t death = death_of(uses);
			if (death < 0)
				death = uses->first_use + 1;
			if (truth->tensors[i].global ||
			    (uses->first_use >= 0 && uses->first_use <= (int64_t)k &&
			     (int64_t)k < death))
				total += truth->tensors[i].bytes;
		}
		const struct truth_kernel *kernel = &view->kernels[k];
		for (size_t u = 0; u < kernel->n_uses; u++)
			active += truth->tensors[kernel->uses[u].tensor].bytes;
		fprintf(out, "%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", k,
			kernel->allocated_bytes, active, total);
	}
	fprintf(out, "peak,%" PRIu64 ",,\n", truth->peak_allocated_bytes);
	return close_checked(out, "memory.csv");
}

static int write_view(const struct truth_view *view, const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "truth: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (write_kernels(view, dir) || write_tensors(view, dir) ||
	    write_liveness(view, dir) || write_all_periods(view, dir) ||
	    write_memory(view, dir) ||
	    (view->exact_roles && write_kernel_tensors(view, dir)))
		return -1;
	return 0;
}

/*
 * The operations: one per library call (its kernels merged: duration the
 * sum of theirs, which is also last end - first start as a call's kernels
 * run back to back on its stream; uses the union, roles merged; name its
 * kernels' names joined by "; ", as the analyzer names a merged op) or per
 * launch (the kernel itself).
 */
static struct truth_kernel *merge_into_ops(const struct truth *truth, size_t *n_ops)
{
	struct truth_kernel *ops = xrealloc(NULL, (truth->n_kernels + 1) * sizeof(*ops));
	size_t n = 0;
	for (size_t k = 0; k < truth->n_kernels; k++) {
		const struct truth_kernel *kernel = &truth->kernels[k];
		struct truth_kernel *op = n ? &ops[n - 1] : NULL;
		if (!op || op->op != kernel->op) {
			op = &ops[n++];
			*op = (struct truth_kernel){
				.name = xstrdup(kernel->name),
				.api = kernel->api, .op = kernel->op,
				.allocated_bytes = kernel->allocated_bytes,
				.uses = xrealloc(NULL, (kernel->n_uses + 1) * sizeof(struct truth_use)),
			};
		} else {
			op->uses = xrealloc(op->uses, (op->n_uses + kernel->n_uses + 1) *
						      sizeof(struct truth_use));
			size_t length = strlen(op->name) + strlen(kernel->name) + 3;
			op->name = xrealloc(op->name, length);
			strcat(strcat(op->name, "; "), kernel->name);
		}
		op->duration_ns += kernel->duration_ns;
		for (size_t u = 0; u < kernel->n_uses; u++) {
			int added;
			struct truth_use *use = use_of(op, kernel->uses[u].tensor, &added);
			use->input |= kernel->uses[u].input;
			use->output |= kernel->uses[u].output;
			if (added && kernel->uses[u].dims)
				use->dims = xstrdup(kernel->uses[u].dims);
		}
	}
	*n_ops = n;
	return ops;
}

int truth_write(const struct truth *truth, const char *dir)
{
	struct truth_view kernels = {
		.truth = truth, .kernels = truth->kernels, .n_kernels = truth->n_kernels,
		.uses = uses_of_tensors(truth, truth->kernels, truth->n_kernels),
		.exact_roles = truth->exact_roles,
	};
	int result = write_view(&kernels, dir);
	free(kernels.uses);
	if (result != 0 || !truth->exact_roles)
		return result;

	char op_dir[4096];
	snprintf(op_dir, sizeof(op_dir), "%s/op", dir);
	struct truth_view ops = { .truth = truth, .exact_roles = 1 };
	struct truth_kernel *merged = merge_into_ops(truth, &ops.n_kernels);
	ops.kernels = merged;
	ops.uses = uses_of_tensors(truth, merged, ops.n_kernels);
	result = write_view(&ops, op_dir);
	free(ops.uses);
	free_kernels(merged, ops.n_kernels);
	return result;
}
