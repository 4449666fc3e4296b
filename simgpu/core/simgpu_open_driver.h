/*
 * How each simulated library that needs the simulated driver (libcudart,
 * libcupti, libnvidia-ml) loads libcuda.so.1, as the real ones do: by name
 * first (LD_LIBRARY_PATH, the library's RUNPATH, the system), then beside
 * the including library's real file, since a program may reach it through
 * a symlink in another directory. Static inline on purpose: dladdr must
 * see an address inside the including library. Must never be used by the
 * driver itself.
 */
#ifndef SIMGPU_OPEN_DRIVER_H
#define SIMGPU_OPEN_DRIVER_H

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *simgpu_open_driver(void)
{
	void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
	if (handle)
		return handle;
	Dl_info info;
	char real[PATH_MAX], path[PATH_MAX + 16];
	if (!dladdr((void *)simgpu_open_driver, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, real))
		return NULL;
	char *slash = strrchr(real, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/libcuda.so.1", real);
	return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

#endif
