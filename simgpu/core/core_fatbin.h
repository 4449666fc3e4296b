/*
 * The simulated driver's reader of the device code nvcc embeds in a program
 * (core_fatbin.c): a fatbin (magic 0xBA55ED50) or a bare cubin (an ELF of
 * machine EM_CUDA), reduced to what the simulator needs: each kernel's name
 * and parameter layout, and each device variable's name, size and initial
 * bytes. The format facts it relies on are in README.md ("Fatbins"). It is
 * a pure function of the bytes it is given: no simulator state, no device
 * code executed, and it must never read outside the bounds the image
 * itself declares (or len, when the caller knows it).
 */
#ifndef SIMGPU_CORE_FATBIN_H
#define SIMGPU_CORE_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/* The simulated device's SM: the cubin a real H100 would pick. */
#define SIM_FATBIN_SM 90

#define SIM_FATBIN_MAGIC 0xBA55ED50U
#define SIM_FATBIN_WRAPPER_MAGIC 0x466243B1U /* fatbinary_section.h */

struct sim_fatbin_kernel {
	char *name;        /* mangled, as in the cubin's symbol table */
	size_t nparams;
	size_t *offsets;   /* from EIATTR_KPARAM_INFO, by ordinal */
	size_t *sizes;
};

struct sim_fatbin_var {
	char *name;
	uint64_t size;
	unsigned char *init; /* size bytes from the cubin, or NULL: zeros */
};

struct sim_fatbin_module {
	unsigned int arch;   /* SM of the cubin used (SIM_FATBIN_SM) */
	size_t nkernels;
	struct sim_fatbin_kernel *kernels;
	size_t nvars;
	struct sim_fatbin_var *vars;
};

/*
 * Reads image: a fatbin or a cubin. len: how many bytes are known to be
 * readable at image, or SIZE_MAX when unknown (cuModuleLoadData, a
 * program's registration: the image's own headers bound it, as for a real
 * driver). On success fills *out (free with sim_fatbin_free). Errors, with
 * one line of why in why[why_len]: CUDA_ERROR_INVALID_IMAGE (not a fatbin
 * or cubin, truncated, inconsistent, compressed but undecodable),
 * CUDA_ERROR_NO_BINARY_FOR_GPU (no sm_90 cubin in the fatbin),
 * CUDA_ERROR_OUT_OF_MEMORY.
 */
CUresult sim_fatbin_parse(const void *image, size_t len,
			  struct sim_fatbin_module *out, char *why,
			  size_t why_len);
void sim_fatbin_free(struct sim_fatbin_module *m);

/* The kernel or variable of that name in m, or NULL. */
const struct sim_fatbin_kernel *sim_fatbin_kernel(const struct sim_fatbin_module *m,
						  const char *name);
const struct sim_fatbin_var *sim_fatbin_var(const struct sim_fatbin_module *m,
					    const char *name);

#endif
