/*
 * memory_snapshot.pickle: a group's tensors in PyTorch's memory snapshot
 * format (torch.cuda.memory._snapshot(), read by torch.cuda._memory_viz
 * and its viewer, torch/utils/viz/MemoryViz.js, e.g. the Active Memory
 * Timeline), so the memory of any traced program opens where PyTorch
 * users look at memory.
 * Must never analyze: it writes what the group holds.
 */
#ifndef DNNTRACE_ANALYSIS_MEMORY_SNAPSHOT_H
#define DNNTRACE_ANALYSIS_MEMORY_SNAPSHOT_H

#include "analysis/derive/group.h"

/* dir/memory_snapshot.pickle of analyzed group g, its device trace the
 * last max_events events (0: all), as PyTorch's recording keeps the last
 * max_entries: a tensor whose alloc fell before them shows as allocated
 * before the trace began. 0, or -1 with errno. */
int dt_memory_snapshot_write(const struct dt_group *g, const char *dir,
		size_t max_events);

/* How many events the device trace of g holds in all (summary.c says
 * when fewer were kept). */
size_t dt_memory_snapshot_events(const struct dt_group *g);

#endif
