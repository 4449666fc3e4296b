/*
 * Host program for the RTLD_LOCAL test: dlopen()s the plugin given on the
 * command line with RTLD_LOCAL, as Python imports extension modules, and
 * runs its plugin_run(). Must never link to any CUDA library itself.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: plugin_host PLUGIN.so\n");
		return 2;
	}
	void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!plugin) {
		fprintf(stderr, "plugin_host: %s\n", dlerror());
		return 1;
	}
	int (*run)(void) = (int (*)(void))dlsym(plugin, "plugin_run");
	if (!run) {
		fprintf(stderr, "plugin_host: no plugin_run in %s\n", argv[1]);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return run();
}
