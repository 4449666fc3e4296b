/*
 * fake_dnntrace.c: a stand-in for libdnntrace.so in the Python helper's
 * tests, preloaded into python3. It exports dnntrace_tag and an NVTX 3
 * injection entry point (InitializeInjectionNvtx2, filling RangeStartA and
 * RangeEnd of the core module as NVTX's protocol says) and logs every call,
 * one line each, to the file named by FAKE_DNNTRACE_LOG:
 *   tag <pointer> <name> | start <id> <name> | end <id>
 * It must never trace anything nor touch CUDA: it only records what reached it.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

static void log_line(const char *line, int length)
{
	const char *path = getenv("FAKE_DNNTRACE_LOG");
	if (path == NULL || length <= 0)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return;
	/* One write per line with O_APPEND: lines never interleave. */
	if (write(fd, line, (size_t)length) < 0)
		perror("fake_dnntrace");
	close(fd);
}

__attribute__((visibility("default"))) void dnntrace_tag(const void *device_ptr, const char *name)
{
	char line[4096];
	int length = snprintf(line, sizeof(line), "tag %lu %s\n",
			      (unsigned long)(uintptr_t)device_ptr, name ? name : "(null)");
	log_line(line, length < (int)sizeof(line) ? length : (int)sizeof(line) - 1);
}

static uint64_t next_range_id = 1;

static nvtxRangeId_t fake_range_start(const char *name)
{
	char line[4096];
	uint64_t id = __atomic_fetch_add(&next_range_id, 1, __ATOMIC_RELAXED);
	int length = snprintf(line, sizeof(line), "start %lu %s\n", (unsigned long)id, name);
	log_line(line, length < (int)sizeof(line) ? length : (int)sizeof(line) - 1);
	return id;
}

static void fake_range_end(nvtxRangeId_t id)
{
	char line[64];
	int length = snprintf(line, sizeof(line), "end %lu\n", (unsigned long)id);
	log_line(line, length);
}

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
	const NvtxExportTableCallbacks *callbacks = get_export_table(NVTX_ETID_CALLBACKS);
	if (callbacks == NULL || callbacks->struct_size < sizeof(*callbacks))
		return 0;
	NvtxFunctionTable core = NULL;
	unsigned int size = 0;
	if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &size) ||
	    size < NVTX_CBID_CORE_SIZE)
		return 0;
	/* Every module the header-only client knows must answer, as NVTX's does. */
	for (int module = NVTX_CB_MODULE_CORE; module < NVTX_CB_MODULE_SIZE; module++) {
		NvtxFunctionTable table = NULL;
		unsigned int entries = 0;
		if (!callbacks->GetModuleFunctionTable((NvtxCallbackModule)module, &table, &entries) ||
		    table == NULL || entries == 0 || table[0] != NULL)
			return 0;
	}
	*core[NVTX_CBID_CORE_RangeStartA] = (NvtxFunctionPointer)fake_range_start;
	*core[NVTX_CBID_CORE_RangeEnd] = (NvtxFunctionPointer)fake_range_end;
	log_line("init\n", 5);
	return 1;
}
