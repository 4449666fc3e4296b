/*
 * plugin_host: the host program of the framework-style workloads (tf_style,
 * vmm_segments: one program built under each name). Like a Python
 * interpreter importing a framework, it links no CUDA library: it dlopen()s
 * the plugin named after itself (NAME_plugin.so beside the executable)
 * RTLD_LOCAL and calls its workload_main.
 *
 *   NAME TRUTH_DIR     runs the workload, writes its ground truth there
 *
 * Must never call CUDA itself: every CUDA call comes from inside the plugin.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char exe[PATH_MAX], plugin_path[PATH_MAX + 16];
	ssize_t length = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (length <= 0) {
		fprintf(stderr, "plugin_host: cannot find its own path\n");
		return 1;
	}
	exe[length] = '\0';
	const char *name = strrchr(exe, '/') + 1;
	if (argc != 2) {
		fprintf(stderr, "usage: %s TRUTH_DIR\n", name);
		return 2;
	}
	snprintf(plugin_path, sizeof(plugin_path), "%s_plugin.so", exe);

	void *plugin = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
	if (!plugin) {
		fprintf(stderr, "%s: %s\n", name, dlerror());
		return 1;
	}
	int (*workload_main)(const char *truth_dir);
	*(void **)&workload_main = dlsym(plugin, "workload_main");
	if (!workload_main) {
		fprintf(stderr, "%s: %s has no workload_main\n", name, plugin_path);
		return 1;
	}
	return workload_main(argv[1]);
}
