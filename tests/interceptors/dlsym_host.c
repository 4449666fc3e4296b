/*
 * Test program for the tracer's dlsym wrapper. Prints one line per check:
 *
 *   next_from_a WHICH       dlsym(RTLD_NEXT) made in libdlsym_probe_a: "b"
 *   default WHICH           dlsym(RTLD_DEFAULT) from the program: "a"
 *   lookup NAME OBJECT      dlsym(handle, NAME) on the runtime given as
 *                           argv[1] (dlopen RTLD_LOCAL): the file name of
 *                           the object the answer lives in
 *   cudaMalloc RESULT ERRNO PTR / cudaFree RESULT ERRNO PTR
 *                           called through the pointers dlsym returned
 *
 * Names: cudaMalloc and cudaFree (wrapped), cudaMallocArray and
 * cudaMalloc3DArray (not wrapped, and cudaMalloc is a prefix of them),
 * cudaGetDeviceCount (not wrapped). Links to no CUDA library.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *probe_which(void);
const char *probe_next_which(void);

static const char *object_of(const void *fn)
{
	Dl_info info;

	if (!fn)
		return "NULL";
	if (!dladdr(fn, &info) || !info.dli_fname)
		return "unknown";
	const char *slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("next_from_a %s\n", probe_next_which());
	const char *(*first)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "probe_which");
	printf("default %s\n", first ? first() : "none");
	if (argc < 2)
		return 0;

	void *runtime = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!runtime) {
		fprintf(stderr, "dlsym_host: %s\n", dlerror());
		return 1;
	}
	static const char *const names[] = {
		"cudaMalloc", "cudaFree", "cudaMallocArray", "cudaMalloc3DArray",
		"cudaGetDeviceCount",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		printf("lookup %s %s\n", names[i], object_of(dlsym(runtime, names[i])));

	int (*malloc_fn)(void **, size_t) = (int (*)(void **, size_t))dlsym(runtime, "cudaMalloc");
	int (*free_fn)(void *) = (int (*)(void *))dlsym(runtime, "cudaFree");
	if (!malloc_fn || !free_fn)
		return 1;
	void *dev = NULL;
	errno = 0;
	int rc = malloc_fn(&dev, 4096);
	printf("cudaMalloc %d %d %p\n", rc, errno, dev);
	errno = 0;
	rc = free_fn(dev);
	printf("cudaFree %d %d %p\n", rc, errno, dev);
	return 0;
}
