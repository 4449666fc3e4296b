/*
 * dnntrace public API for traced programs. Everything here is optional: a
 * program needs none of it to be traced. Exported by libdnntrace.so, so a
 * program or a Python helper can reach it with dlsym/ctypes without linking.
 */
#ifndef DNNTRACE_H
#define DNNTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Names the tensor (live device allocation) that contains device_ptr. Emits a
 * dnntrace_api:tag event; the analyzer uses the last name given to a tensor.
 * Safe to call with any pointer: one that is in no tensor is traced with
 * tensor id -1. Does nothing when no tracing session listens.
 */
void dnntrace_tag(const void *device_ptr, const char *name);

#ifdef __cplusplus
}
#endif

#endif
