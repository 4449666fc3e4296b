/*
 * The tracer's dlsym: TensorFlow-style programs dlopen() libcudart/libcuda
 * and resolve every function with dlsym(handle, name), which an LD_PRELOAD
 * definition alone never sees. See dlsym_wrapper.c.
 *
 * Every lookup the tracer itself makes must go through dnntrace_real_dlsym,
 * never through dlsym (which is our wrapper once we are preloaded).
 */
#ifndef DNNTRACE_DLSYM_WRAPPER_H
#define DNNTRACE_DLSYM_WRAPPER_H

/* glibc's dlsym (dlvsym GLIBC_2.34, else GLIBC_2.2.5); NULL if neither. */
void *dnntrace_real_dlsym(void *handle, const char *name);

/*
 * Our exported wrapper of a wrapped function (real_functions.h id), or
 * NULL when libdnntrace.so exports none by that name.
 */
#include "interceptors/core/real_functions.h"
void *dnntrace_our_wrapper(enum real_function_id id);

#endif
