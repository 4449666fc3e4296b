/*
 * timeline.pftrace: the timeline in Perfetto's own protobuf trace format
 * (a Trace: a stream of TracePackets on one packet sequence), for traces
 * whose timeline.json would be too large to load: track descriptors
 * (the process and its threads, GPU streams, counters, tensor and range
 * lanes), TrackEvent slices as begin/end pairs with interned names,
 * categories and debug annotation names, counters, flows.
 * timeline_json.c decides what goes in (the same slices as its JSON);
 * this file only says it in Perfetto's messages, packet by packet.
 * Must never buffer more than one packet: each goes out as it is made.
 */
#ifndef DNNTRACE_ANALYSIS_TIMELINE_PFTRACE_H
#define DNNTRACE_ANALYSIS_TIMELINE_PFTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt_pftrace;

/* An annotation of a slice (the JSON's args). */
enum dt_pf_arg_kind { DT_PF_INT, DT_PF_UINT, DT_PF_STRING, DT_PF_POINTER };
struct dt_pf_arg {
	/* a literal or an interned string: unchanged while the writer is
	 * open (it knows a name it has seen by its address) */
	const char *name;
	enum dt_pf_arg_kind kind;
	uint64_t value;              /* INT: an int64 cast */
	const char *string;
};

/* Creates path; the process track (pid vpid) is its first packet.
 * NULL with errno on failure. */
struct dt_pftrace *dt_pftrace_open(const char *path, bool threaded,
		int64_t vpid);
/* 0, or -1 with errno of the first write failure; frees pf. */
int dt_pftrace_close(struct dt_pftrace *pf);

/* Tracks, by uuid. The process's own track: */
uint64_t dt_pftrace_process_track(const struct dt_pftrace *pf);
void dt_pftrace_name_process(struct dt_pftrace *pf, const char *name);
uint64_t dt_pftrace_thread_track(struct dt_pftrace *pf, int64_t tid,
		const char *name);
/* A track named name under parent (0: top level). */
uint64_t dt_pftrace_track(struct dt_pftrace *pf, uint64_t parent,
		const char *name);
uint64_t dt_pftrace_counter_track(struct dt_pftrace *pf, uint64_t parent,
		const char *name);

/* A track of lanes named name (under the process) for slices that
 * overlap without nesting (tensor lifetimes, NVTX start/end ranges): a
 * lane of the set whose slices all ended by start, else a new one.
 * set: DT_PF_TENSOR_LANES or DT_PF_RANGE_LANES. */
enum { DT_PF_TENSOR_LANES, DT_PF_RANGE_LANES, DT_PF_LANE_SETS };
uint64_t dt_pftrace_lane(struct dt_pftrace *pf, int set, const char *name,
		uint64_t start, uint64_t end);

/* A slice [start, end] ns on track. */
struct dt_pf_slice {
	uint64_t track, start, end;
	/* category: as an arg's name, unchanged while the writer is open */
	const char *category, *name;
	/* name_unique: no other slice has this name (a tensor's "tensor N"):
	 * written inline in its TrackEvent (name, field 23) instead of
	 * interned, so the writer keeps no copy of a million such names */
	bool name_unique;
	const struct dt_pf_arg *args;
	size_t n_args;                   /* at most 16 */
	/* flow_out: a flow that starts at it, flow_in: one that arrives
	 * at it and goes on from it (0: none) */
	uint64_t flow_out, flow_in;
	/* a counter's value set at its begin, at its end (track 0: none):
	 * carried by the slice's own packets */
	uint64_t begin_counter_track, end_counter_track;
	int64_t begin_counter, end_counter;
};
void dt_pftrace_slice(struct dt_pftrace *pf, const struct dt_pf_slice *s);
/* A counter's value alone at ts (one packet). */
void dt_pftrace_counter(struct dt_pftrace *pf, uint64_t track, uint64_t ts,
		int64_t value);

#endif
