/*
 * g10_replay: replays G10's published ResNet-50 training iteration
 * (kernels.config of HieronZhang/G10-Artifact's tensor liveness tool) on the
 * simulated GPU, so the analyzer's G10 outputs can be compared with G10's
 * own. Every op becomes one kernel named like the op (e.g.
 * torch.ops.aten.convolution.default) whose parameters are the pointers of its
 * input and output tensors; global tensors are allocated up front in G10 id
 * order and never freed; a local tensor is allocated right before the first
 * kernel that uses it and freed right after the last. Every tensor is tagged
 * with its G10 name, read from tensors.config beside kernels.config (a line
 * of kernels.config may name a view of the tensor, e.g. unsqueeze_3 for
 * primals_3, with the tensor's id). Kernel k runs for g10_kernel_ns(k).
 *
 *   g10_replay KERNELS_CONFIG TRUTH_DIR    exits 77 when KERNELS_CONFIG is absent
 *
 * It must never invent a tensor or a use that G10's file does not list.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgpu/simgpu.h"
#include "tests/workloads/workload.h"

enum { MAX_TENSORS_PER_KERNEL = 64 };

struct g10_tensor {
	char *name;
	uint64_t bytes;
	int global;
	int seen;
	long first_use, last_use;
	void *ptr;
};

struct g10_kernel {
	char *op;
	long tensors[MAX_TENSORS_PER_KERNEL];
	int n_tensors;
};

struct g10_model {
	struct g10_tensor *tensors;
	long n_tensors;
	struct g10_kernel *kernels;
	long n_kernels;
};

/* 100 us to about 200 us, different from kernel to kernel, reproducible. */
static uint64_t g10_kernel_ns(long k)
{
	return 100000 + 100 * (uint64_t)((k * 7919) % 997);
}

static void *grow(void *array, long *capacity, long needed, size_t element)
{
	if (needed <= *capacity)
		return array;
	long wanted = *capacity ? *capacity : 256;
	while (wanted < needed)
		wanted *= 2;
	char *grown = realloc(array, (size_t)wanted * element);
	if (!grown) {
		fprintf(stderr, "g10_replay: out of memory\n");
		exit(1);
	}
	memset(grown + (size_t)*capacity * element, 0,
	       (size_t)(wanted - *capacity) * element);
	*capacity = wanted;
	return grown;
}

static void parse_error(const char *path, long line, const char *what)
{
	fprintf(stderr, "g10_replay: %s:%ld: %s\n", path, line, what);
	exit(1);
}

static char *copy_span(const char *start, size_t length)
{
	char *copy = strndup(start, length);
	if (!copy) {
		fprintf(stderr, "g10_replay: out of memory\n");
		exit(1);
	}
	return copy;
}

/* Reads "Kernel ID:" blocks and their "tensorN, Name: ..., Is global?: G:
 * Size in byte: B, " lines (g10-semantics.md). */
static void parse_kernels_config(FILE *in, const char *path, struct g10_model *model)
{
	long tensor_capacity = 0, kernel_capacity = 0, line_number = 0;
	char *line = NULL;
	size_t line_capacity = 0;
	struct g10_kernel *kernel = NULL;
	while (getline(&line, &line_capacity, in) > 0) {
		line_number++;
		long id;
		int global, consumed = 0;
		uint64_t bytes;
		char *name_start;
		if (sscanf(line, "Kernel ID: %ld, Name: %n", &id, &consumed) == 1 && consumed) {
			if (id != model->n_kernels)
				parse_error(path, line_number, "kernel ids not consecutive");
			model->kernels = grow(model->kernels, &kernel_capacity,
					      model->n_kernels + 1, sizeof(*model->kernels));
			kernel = &model->kernels[model->n_kernels++];
			name_start = line + consumed;
			kernel->op = copy_span(name_start, strcspn(name_start, "(\n"));
			continue;
		}
		if (strncmp(line, "tensor", 6) != 0)
			continue;
		if (!kernel)
			parse_error(path, line_number, "tensor line before any kernel");
		name_start = strstr(line, ", Name: ");
		char *global_start = strstr(line, ", Is global?: ");
		if (sscanf(line, "tensor%ld,", &id) != 1 || id < 0 || !name_start ||
		    !global_start || global_start < name_start ||
		    sscanf(global_start, ", Is global?: %d: Size in byte: %" SCNu64, &global, &bytes) != 2)
			parse_error(path, line_number, "malformed tensor line");
		model->tensors = grow(model->tensors, &tensor_capacity, id + 1,
				      sizeof(*model->tensors));
		if (id + 1 > model->n_tensors)
			model->n_tensors = id + 1;
		struct g10_tensor *tensor = &model->tensors[id];
		if (!tensor->seen) {
			name_start += strlen(", Name: ");
			*tensor = (struct g10_tensor){
				.name = copy_span(name_start, (size_t)(global_start - name_start)),
				.bytes = bytes, .global = global, .seen = 1,
				.first_use = model->n_kernels - 1,
			};
		}
		tensor->last_use = model->n_kernels - 1;
		int listed = 0;
		for (int i = 0; i < kernel->n_tensors; i++)
			listed |= kernel->tensors[i] == id;
		if (listed)
			continue;
		if (kernel->n_tensors == MAX_TENSORS_PER_KERNEL)
			parse_error(path, line_number, "too many tensors in one kernel");
		kernel->tensors[kernel->n_tensors++] = id;
	}
	free(line);
	if (model->n_kernels == 0)
		parse_error(path, line_number, "no kernels");
}

/* Takes each tensor's own name from tensors.config (same line format). */
static void read_tensor_names(const char *kernels_path, struct g10_model *model)
{
	char path[4096];
	const char *slash = strrchr(kernels_path, '/');
	int dir_length = slash ? (int)(slash - kernels_path) : 1;
	snprintf(path, sizeof(path), "%.*s/tensors.config", dir_length,
		 slash ? kernels_path : ".");
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "g10_replay: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	char *line = NULL;
	size_t line_capacity = 0;
	long line_number = 0;
	while (getline(&line, &line_capacity, in) > 0) {
		line_number++;
		long id;
		char *name_start = strstr(line, ", Name: ");
		char *global_start = strstr(line, ", Is global?: ");
		if (sscanf(line, "tensor%ld,", &id) != 1 || !name_start ||
		    !global_start || global_start < name_start)
			parse_error(path, line_number, "malformed tensor line");
		if (id < 0 || id >= model->n_tensors || !model->tensors[id].seen)
			continue; /* used by no kernel: nothing to replay */
		name_start += strlen(", Name: ");
		free(model->tensors[id].name);
		model->tensors[id].name =
			copy_span(name_start, (size_t)(global_start - name_start));
	}
	free(line);
	fclose(in);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: g10_replay KERNELS_CONFIG TRUTH_DIR\n");
		return 2;
	}
	FILE *in = fopen(argv[1], "r");
	if (!in) {
		fprintf(stderr, "g10_replay: %s: %s\n", argv[1], strerror(errno));
		return errno == ENOENT ? 77 : 1;
	}
	struct g10_model model = {0};
	parse_kernels_config(in, argv[1], &model);
	fclose(in);
	read_tensor_names(argv[1], &model);

	struct truth *truth = truth_new();
	char *handles = calloc((size_t)model.n_kernels, 1);
	if (!handles) {
		fprintf(stderr, "g10_replay: out of memory\n");
		return 1;
	}
	size_t pointer_sizes[MAX_TENSORS_PER_KERNEL];
	for (int i = 0; i < MAX_TENSORS_PER_KERNEL; i++)
		pointer_sizes[i] = sizeof(void *);
	for (long k = 0; k < model.n_kernels; k++)
		simgpu_define_kernel(&handles[k], model.kernels[k].op,
				     (size_t)model.kernels[k].n_tensors, pointer_sizes);

	for (long id = 0; id < model.n_tensors; id++) {
		struct g10_tensor *tensor = &model.tensors[id];
		if (tensor->seen && tensor->global)
			tensor->ptr = wl_alloc(truth, tensor->bytes, tensor->name, 1);
	}
	for (long k = 0; k < model.n_kernels; k++) {
		struct g10_kernel *kernel = &model.kernels[k];
		void *pointers[MAX_TENSORS_PER_KERNEL];
		void *args[MAX_TENSORS_PER_KERNEL];
		for (int i = 0; i < kernel->n_tensors; i++) {
			struct g10_tensor *tensor = &model.tensors[kernel->tensors[i]];
			if (!tensor->global && tensor->first_use == k)
				tensor->ptr = wl_alloc(truth, tensor->bytes, tensor->name, 0);
			pointers[i] = tensor->ptr;
			args[i] = &pointers[i];
		}
		wl_launch(truth, &handles[k], kernel->op, args, 0, g10_kernel_ns(k),
			  (const void *const *)pointers, (size_t)kernel->n_tensors);
		for (int i = 0; i < kernel->n_tensors; i++) {
			struct g10_tensor *tensor = &model.tensors[kernel->tensors[i]];
			if (!tensor->global && tensor->last_use == k) {
				wl_free(truth, tensor->ptr);
				tensor->ptr = NULL;
			}
		}
	}
	WL_CHECK(cudaDeviceSynchronize());
	wl_write_truth(truth, argv[2]);
	printf("g10_replay: %ld kernels, %ld tensors\n", model.n_kernels, model.n_tensors);

	truth_delete(truth);
	for (long id = 0; id < model.n_tensors; id++)
		free(model.tensors[id].name);
	for (long k = 0; k < model.n_kernels; k++)
		free(model.kernels[k].op);
	free(model.tensors);
	free(model.kernels);
	free(handles);
	return 0;
}
