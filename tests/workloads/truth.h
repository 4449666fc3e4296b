/*
 * truth: the ground truth a workload writes about itself, by construction,
 * for the end-to-end tests to compare the analyzer's reports against. The
 * workload declares each device allocation and each kernel as it makes them;
 * truth numbers tensors like the tracer (0, 1, 2, ... per successful device
 * allocation) and derives the G10 liveness, inactive periods and memory from
 * the kernel order, each kernel's inputs and outputs and the exact durations
 * the workload chose. It must never look at a trace or the analyzer: it knows
 * only what the workload did.
 */
#ifndef TRUTH_H
#define TRUTH_H

#include <stddef.h>
#include <stdint.h>

struct truth;

struct truth *truth_new(void);
void truth_delete(struct truth *truth);

/* A successful device allocation at ptr; returns its tensor id. */
int64_t truth_alloc(struct truth *truth, const void *ptr, uint64_t bytes,
		    const char *name, int global);

/* The tensor at ptr was freed (its id is never reused). */
void truth_free(struct truth *truth, const void *ptr);

/*
 * A kernel launched by the program itself (cudaLaunchKernel), declared in GPU
 * start order, touching the live tensors that contain each of ptrs (each
 * tensor once, in the order given), running for exactly duration_ns. A
 * launch does not say what it reads or writes, so each use is an input and
 * an output, except the first use of a tensor nothing wrote before (no
 * declared host write, no earlier kernel): that one is an output only.
 */
void truth_kernel(struct truth *truth, const char *name,
		  const void *const *ptrs, size_t n_ptrs, uint64_t duration_ns);
/* The same, launched through api (a static string: "__cudaLaunchKernel"
 * for nvcc's <<<>>>). */
void truth_kernel_api(struct truth *truth, const char *api, const char *name,
		      const void *const *ptrs, size_t n_ptrs, uint64_t duration_ns);

/*
 * Declares that the workload reports every copy or memset into device memory
 * with truth_host_write, so the inputs and outputs of every kernel are known
 * exactly: truth_write then also writes them (kernels.csv inputs/outputs,
 * kernel_tensors.csv) and the operation-level truth (op/).
 */
void truth_exact_roles(struct truth *truth);

/* A copy or memset wrote (part of) the tensor containing ptr. */
void truth_host_write(struct truth *truth, const void *ptr);

/* How a library call uses one of its data arguments. */
enum truth_role {
	TRUTH_READ,       /* input */
	TRUTH_WRITE,      /* output */
	TRUTH_READ_WRITE, /* input and output */
	TRUTH_WORKSPACE,  /* scratch: written first, so an output */
};

struct truth_arg {
	const void *ptr;   /* anywhere inside a live tensor; NULL: no argument */
	enum truth_role role;
	const char *dims;  /* as kernels.config prints it, "f32[8, 3, 8, 8]"; NULL: unknown */
};

/*
 * A library call (api, e.g. "cudnnConvolutionForward") that launched
 * n_kernels kernels in this order, named kernel_names[i], running for
 * durations_ns[i]: every one of them takes the call's arguments with their
 * roles. The call is one operation at --granularity op.
 */
void truth_library_call(struct truth *truth, const char *api,
			const char *const *kernel_names,
			const uint64_t *durations_ns, size_t n_kernels,
			const struct truth_arg *args, size_t n_args);

/*
 * One kernel a graph launch ran: the tensors its node pointed into at that
 * launch, roles unknown as a launch's (ptrs), or, for a node a library
 * call made during stream capture, that call's arguments with their roles
 * (args; ptrs NULL).
 */
struct truth_graph_kernel {
	const char *name;
	uint64_t duration_ns;
	const void *const *ptrs;
	size_t n_ptrs;
	const struct truth_arg *args;
	size_t n_args;
};

/* A graph launch (api, e.g. "cudaGraphLaunch") that ran these kernels in
 * this order: one operation at --granularity op. */
void truth_graph_launch(struct truth *truth, const char *api,
			const struct truth_graph_kernel *kernels, size_t n_kernels);

/*
 * Writes kernels.csv, kernel_tensors.csv, tensors.csv, liveness.csv,
 * periods.csv and memory.csv into dir (created if absent), and with exact
 * roles the same files for operations into dir/op. Returns 0, or -1 with a
 * message on stderr.
 */
int truth_write(const struct truth *truth, const char *dir);

#endif
