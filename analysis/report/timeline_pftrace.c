/*
 * timeline.pftrace writer (timeline_pftrace.h): Perfetto's Trace proto,
 * written with protobuf_writer.h. Field numbers are those of Perfetto's
 * published protos (github.com/google/perfetto, protos/perfetto/trace/:
 * trace.proto, trace_packet.proto, trace_packet_defaults.proto,
 * clock_snapshot.proto, track_event/track_event.proto,
 * track_event/track_descriptor.proto, track_event/process_descriptor.proto,
 * track_event/thread_descriptor.proto, track_event/counter_descriptor.proto,
 * track_event/debug_annotation.proto, interned_data/interned_data.proto;
 * all of them merged in perfetto_trace.proto, which
 * tests/analysis/test_timeline_pftrace.sh decodes the file against when
 * protoc and a copy of it are at hand).
 * Every packet is on sequence 1; the first clears the incremental state,
 * the others need it (names are interned: an InternedData in the packet
 * that first uses a name). A slice is a SLICE_BEGIN packet and its
 * SLICE_END packet, written together (Perfetto sorts by time). Times:
 * see set_clock.
 * Must never hold more than one packet, nor write a field number that
 * is not named below.
 */
#include "analysis/report/timeline_pftrace.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/out_buffer.h"
#include "analysis/report/protobuf_writer.h"
#include "analysis/util.h"

/* trace.proto: message Trace */
#define TRACE_PACKET 1
/* trace_packet.proto: message TracePacket */
#define PACKET_TIMESTAMP 8
#define PACKET_TRUSTED_SEQUENCE_ID 10
#define PACKET_TRACK_EVENT 11
#define PACKET_INTERNED_DATA 12
#define PACKET_SEQUENCE_FLAGS 13
#define PACKET_CLOCK_SNAPSHOT 6
#define PACKET_TIMESTAMP_CLOCK_ID 58
#define PACKET_DEFAULTS 59               /* TracePacketDefaults */
#define PACKET_TRACK_DESCRIPTOR 60
#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define SEQ_NEEDS_INCREMENTAL_STATE 2
/* trace_packet_defaults.proto: message TracePacketDefaults */
#define DEFAULTS_TIMESTAMP_CLOCK_ID 58
/* clock_snapshot.proto: message ClockSnapshot, its Clock, BuiltinClocks */
#define SNAPSHOT_CLOCKS 1
#define CLOCK_ID 1
#define CLOCK_TIMESTAMP 2
#define CLOCK_BOOTTIME 6
/* docs/concepts/clock-sync.md: 64..127 are clocks of one sequence */
#define CLOCK_SINCE_BASE 64
#define NS_PER_S 1000000000ull
/* track_event.proto: message TrackEvent */
#define EVENT_CATEGORY_IIDS 3
#define EVENT_DEBUG_ANNOTATIONS 4
#define EVENT_TYPE 9
#define EVENT_NAME_IID 10
#define EVENT_TRACK_UUID 11
#define EVENT_EXTRA_COUNTER_VALUES 12
#define EVENT_NAME 23                    /* inline, not interned */
#define EVENT_COUNTER_VALUE 30
#define EVENT_EXTRA_COUNTER_TRACK_UUIDS 31
#define EVENT_FLOW_IDS 47                /* fixed64 */
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2
#define TYPE_COUNTER 4
/* debug_annotation.proto: message DebugAnnotation */
#define ANNOTATION_NAME_IID 1
#define ANNOTATION_UINT_VALUE 3
#define ANNOTATION_INT_VALUE 4
#define ANNOTATION_STRING_VALUE 6
#define ANNOTATION_POINTER_VALUE 7
/* interned_data.proto: message InternedData; EventCategory, EventName,
 * DebugAnnotationName each {iid = 1, name = 2} */
#define INTERNED_EVENT_CATEGORIES 1
#define INTERNED_EVENT_NAMES 2
#define INTERNED_ANNOTATION_NAMES 3
#define INTERNED_IID 1
#define INTERNED_NAME 2
/* track_descriptor.proto: message TrackDescriptor */
#define TRACK_UUID 1
#define TRACK_NAME 2
#define TRACK_PROCESS 3
#define TRACK_THREAD 4
#define TRACK_PARENT_UUID 5
#define TRACK_COUNTER 8
/* process_descriptor.proto: message ProcessDescriptor */
#define PROCESS_PID 1
#define PROCESS_NAME 6
/* thread_descriptor.proto: message ThreadDescriptor */
#define THREAD_PID 1
#define THREAD_TID 2
#define THREAD_NAME 5
/* counter_descriptor.proto: message CounterDescriptor, enum Unit */
#define COUNTER_UNIT 3
#define UNIT_SIZE_BYTES 3

#define SEQUENCE_ID 1
#define PROCESS_TRACK_UUID 1

enum { NAMES, CATEGORIES, ANNOTATION_NAMES, INTERN_KINDS };
#define INTERN_RECENT 64                 /* a power of two */

/* A string first used by the packet being made: goes in its InternedData. */
struct new_string {
	int kind;
	uint64_t iid;
	const char *s;
};

struct dt_pftrace {
	struct dt_out out;
	struct dt_pb packet;
	int64_t vpid;
	uint64_t next_uuid;
	struct dt_strpool pool;          /* strings, one copy each */
	struct dt_u64map iids[INTERN_KINDS];    /* pooled pointer -> iid */
	uint64_t next_iid[INTERN_KINDS];
	struct new_string *fresh;
	size_t n_fresh, cap_fresh;
	/* the last strings interned, by the caller's pointer: most names
	 * come again and again from the same literal or pooled copy, and
	 * a hit needs no hash. A slice's name has its text compared all
	 * the same, so a caller's buffer reused for another name is never
	 * mistaken; categories and annotation names are literals or
	 * interned (timeline_pftrace.h), their address is enough */
	struct intern_hit {
		const char *caller, *pooled;
		uint64_t iid;
	} recent[INTERN_KINDS][INTERN_RECENT];
	bool first_packet;
	bool clock_set;                  /* the snapshot below is written */
	uint64_t base;                   /* the ns clock 64 counts from */
	struct lane_heap {               /* min-heap on the lanes' ends */
		struct lane { uint64_t end, uuid; } *lanes;
		size_t n, cap;
	} lane_sets[DT_PF_LANE_SETS];
};

static uint64_t intern(struct dt_pftrace *pf, int kind, const char *s)
{
	if (!s)
		s = "";
	uintptr_t key = (uintptr_t)s;
	struct intern_hit *hit = &pf->recent[kind]
		[(key >> 3 ^ key >> 11) & (INTERN_RECENT - 1)];
	if (hit->caller == s &&
	    (kind != NAMES || strcmp(hit->pooled, s) == 0))
		return hit->iid;
	const char *pooled = dt_strpool_intern(&pf->pool, s);
	uint64_t iid;
	if (!dt_u64map_get(&pf->iids[kind], (uint64_t)(uintptr_t)pooled,
			&iid)) {
		iid = ++pf->next_iid[kind];
		dt_u64map_put(&pf->iids[kind], (uint64_t)(uintptr_t)pooled,
				iid);
		*DT_PUSH_SLOT(pf->fresh, pf->n_fresh, pf->cap_fresh) =
			(struct new_string){kind, iid, pooled};
	}
	*hit = (struct intern_hit){s, pooled, iid};
	return iid;
}

static const uint32_t interned_field[INTERN_KINDS] = {
	[NAMES] = INTERNED_EVENT_NAMES,
	[CATEGORIES] = INTERNED_EVENT_CATEGORIES,
	[ANNOTATION_NAMES] = INTERNED_ANNOTATION_NAMES,
};

static void end_packet(struct dt_pftrace *pf, size_t at)
{
	dt_pb_close(&pf->packet, at);
	dt_out_mem(&pf->out, (const char *)pf->packet.buf, pf->packet.len);
}

/*
 * Times are written as ns since a base a whole second or more before the
 * first one (5 bytes a time instead of 7 for a monotonic clock's ns
 * after hours of uptime), on a clock of the sequence's own (64) that a
 * ClockSnapshot ties to the trace's clock: clock 64 at 0 is BOOTTIME
 * at base. The trace's times are the tracer's CLOCK_MONOTONIC ns (LTTng
 * UST's clock), given as BOOTTIME, the default trace clock, as a file
 * without a snapshot would have them read. A time before the base (a
 * late call's start) is written on BOOTTIME itself.
 */
static void set_clock(struct dt_pftrace *pf, uint64_t first_ts)
{
	pf->clock_set = true;
	pf->base = first_ts / NS_PER_S > 1 ? (first_ts / NS_PER_S - 1) * NS_PER_S : 0;
	struct dt_pb *b = &pf->packet;
	dt_pb_reset(b);
	size_t at = dt_pb_open(b, TRACE_PACKET);
	dt_pb_varint(b, PACKET_TRUSTED_SEQUENCE_ID, SEQUENCE_ID);
	size_t snapshot = dt_pb_open(b, PACKET_CLOCK_SNAPSHOT);
	size_t clock = dt_pb_open(b, SNAPSHOT_CLOCKS);
	dt_pb_varint(b, CLOCK_ID, CLOCK_SINCE_BASE);
	dt_pb_varint(b, CLOCK_TIMESTAMP, 0);
	dt_pb_close(b, clock);
	clock = dt_pb_open(b, SNAPSHOT_CLOCKS);
	dt_pb_varint(b, CLOCK_ID, CLOCK_BOOTTIME);
	dt_pb_varint(b, CLOCK_TIMESTAMP, pf->base);
	dt_pb_close(b, clock);
	dt_pb_close(b, snapshot);
	size_t defaults = dt_pb_open(b, PACKET_DEFAULTS);
	dt_pb_varint(b, DEFAULTS_TIMESTAMP_CLOCK_ID, CLOCK_SINCE_BASE);
	dt_pb_close(b, defaults);
	end_packet(pf, at);
}

/* Starts a packet: the Trace's packet field, its time and sequence, the
 * strings interned for it (intern() before, so they are known).
 * interned: it refers to interned strings (needs the sequence's state). */
static size_t begin_packet(struct dt_pftrace *pf, bool timed, uint64_t ts,
		bool interned)
{
	struct dt_pb *b = &pf->packet;
	if (timed && !pf->clock_set)
		set_clock(pf, ts);
	dt_pb_reset(b);
	size_t at = dt_pb_open(b, TRACE_PACKET);
	if (timed && ts >= pf->base) {
		dt_pb_varint(b, PACKET_TIMESTAMP, ts - pf->base);
	} else if (timed) {          /* before the base: the trace's clock */
		dt_pb_varint(b, PACKET_TIMESTAMP, ts);
		dt_pb_varint(b, PACKET_TIMESTAMP_CLOCK_ID, CLOCK_BOOTTIME);
	}
	dt_pb_varint(b, PACKET_TRUSTED_SEQUENCE_ID, SEQUENCE_ID);
	if (pf->first_packet)
		dt_pb_varint(b, PACKET_SEQUENCE_FLAGS,
				SEQ_INCREMENTAL_STATE_CLEARED);
	else if (interned)
		dt_pb_varint(b, PACKET_SEQUENCE_FLAGS,
				SEQ_NEEDS_INCREMENTAL_STATE);
	pf->first_packet = false;
	if (pf->n_fresh) {
		size_t data = dt_pb_open(b, PACKET_INTERNED_DATA);
		for (int kind = 0; kind < INTERN_KINDS; kind++)
			for (size_t i = 0; i < pf->n_fresh; i++) {
				if (pf->fresh[i].kind != kind)
					continue;
				size_t entry = dt_pb_open(b, interned_field[kind]);
				dt_pb_varint(b, INTERNED_IID, pf->fresh[i].iid);
				dt_pb_string(b, INTERNED_NAME, pf->fresh[i].s);
				dt_pb_close(b, entry);
			}
		dt_pb_close(b, data);
		pf->n_fresh = 0;
	}
	return at;
}


struct dt_pftrace *dt_pftrace_open(const char *path, bool threaded,
		int64_t vpid)
{
	struct dt_pftrace *pf = dt_xcalloc(1, sizeof(*pf));
	if (dt_out_open(&pf->out, path, threaded) != 0) {
		int saved = errno;
		free(pf);
		errno = saved;
		return NULL;
	}
	pf->vpid = vpid;
	pf->next_uuid = PROCESS_TRACK_UUID + 1;
	pf->first_packet = true;
	dt_pftrace_name_process(pf, NULL);
	return pf;
}

int dt_pftrace_close(struct dt_pftrace *pf)
{
	int rc = dt_out_close(&pf->out);
	int saved = errno;
	dt_pb_free(&pf->packet);
	dt_strpool_free(&pf->pool);
	for (int kind = 0; kind < INTERN_KINDS; kind++)
		dt_u64map_free(&pf->iids[kind]);
	free(pf->fresh);
	for (int set = 0; set < DT_PF_LANE_SETS; set++)
		free(pf->lane_sets[set].lanes);
	free(pf);
	errno = saved;
	return rc;
}

uint64_t dt_pftrace_process_track(const struct dt_pftrace *pf)
{
	(void)pf;
	return PROCESS_TRACK_UUID;
}

/* The process's track; written again when its name is known (Perfetto
 * keeps the last name given to a uuid). NULL: "process <vpid>". */
void dt_pftrace_name_process(struct dt_pftrace *pf, const char *name)
{
	struct dt_pb *b = &pf->packet;
	size_t at = begin_packet(pf, false, 0, false);
	size_t track = dt_pb_open(b, PACKET_TRACK_DESCRIPTOR);
	dt_pb_varint(b, TRACK_UUID, PROCESS_TRACK_UUID);
	size_t process = dt_pb_open(b, TRACK_PROCESS);
	dt_pb_int(b, PROCESS_PID, pf->vpid);
	if (name) {
		dt_pb_string(b, PROCESS_NAME, name);
	} else {
		char fallback[40];
		snprintf(fallback, sizeof(fallback), "process %lld",
				(long long)pf->vpid);
		dt_pb_string(b, PROCESS_NAME, fallback);
	}
	dt_pb_close(b, process);
	dt_pb_close(b, track);
	end_packet(pf, at);
}

uint64_t dt_pftrace_thread_track(struct dt_pftrace *pf, int64_t tid,
		const char *name)
{
	uint64_t uuid = pf->next_uuid++;
	struct dt_pb *b = &pf->packet;
	size_t at = begin_packet(pf, false, 0, false);
	size_t track = dt_pb_open(b, PACKET_TRACK_DESCRIPTOR);
	dt_pb_varint(b, TRACK_UUID, uuid);
	dt_pb_varint(b, TRACK_PARENT_UUID, PROCESS_TRACK_UUID);
	size_t thread = dt_pb_open(b, TRACK_THREAD);
	dt_pb_int(b, THREAD_PID, pf->vpid);
	dt_pb_int(b, THREAD_TID, tid);
	dt_pb_string(b, THREAD_NAME, name);
	dt_pb_close(b, thread);
	dt_pb_close(b, track);
	end_packet(pf, at);
	return uuid;
}

static uint64_t named_track(struct dt_pftrace *pf, uint64_t parent,
		const char *name, bool counter)
{
	uint64_t uuid = pf->next_uuid++;
	struct dt_pb *b = &pf->packet;
	size_t at = begin_packet(pf, false, 0, false);
	size_t track = dt_pb_open(b, PACKET_TRACK_DESCRIPTOR);
	dt_pb_varint(b, TRACK_UUID, uuid);
	if (parent)
		dt_pb_varint(b, TRACK_PARENT_UUID, parent);
	dt_pb_string(b, TRACK_NAME, name);
	if (counter) {
		size_t c = dt_pb_open(b, TRACK_COUNTER);
		dt_pb_varint(b, COUNTER_UNIT, UNIT_SIZE_BYTES);
		dt_pb_close(b, c);
	}
	dt_pb_close(b, track);
	end_packet(pf, at);
	return uuid;
}

uint64_t dt_pftrace_track(struct dt_pftrace *pf, uint64_t parent,
		const char *name)
{
	return named_track(pf, parent, name, false);
}

uint64_t dt_pftrace_counter_track(struct dt_pftrace *pf, uint64_t parent,
		const char *name)
{
	return named_track(pf, parent, name, true);
}

static void lane_sift_down(struct lane_heap *h, size_t i)
{
	for (;;) {
		size_t least = i, l = 2 * i + 1, r = l + 1;
		if (l < h->n && h->lanes[l].end < h->lanes[least].end)
			least = l;
		if (r < h->n && h->lanes[r].end < h->lanes[least].end)
			least = r;
		if (least == i)
			return;
		struct lane t = h->lanes[i];
		h->lanes[i] = h->lanes[least];
		h->lanes[least] = t;
		i = least;
	}
}

uint64_t dt_pftrace_lane(struct dt_pftrace *pf, int set, const char *name,
		uint64_t start, uint64_t end)
{
	struct lane_heap *h = &pf->lane_sets[set];
	if (end < start)
		end = start;
	if (h->n && h->lanes[0].end <= start) {
		/* the lane that ended first is free again */
		uint64_t uuid = h->lanes[0].uuid;
		h->lanes[0].end = end;
		lane_sift_down(h, 0);
		return uuid;
	}
	uint64_t uuid = named_track(pf, PROCESS_TRACK_UUID, name, false);
	size_t i = h->n;
	*DT_PUSH_SLOT(h->lanes, h->n, h->cap) = (struct lane){end, uuid};
	while (i && h->lanes[(i - 1) / 2].end > h->lanes[i].end) {
		struct lane t = h->lanes[i];
		h->lanes[i] = h->lanes[(i - 1) / 2];
		h->lanes[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	return uuid;
}

static void extra_counter(struct dt_pb *b, uint64_t track, int64_t value)
{
	if (!track)
		return;
	dt_pb_varint(b, EVENT_EXTRA_COUNTER_TRACK_UUIDS, track);
	dt_pb_int(b, EVENT_EXTRA_COUNTER_VALUES, value);
}

void dt_pftrace_slice(struct dt_pftrace *pf, const struct dt_pf_slice *s)
{
	uint64_t name_iid = s->name_unique ? 0 : intern(pf, NAMES, s->name);
	uint64_t category_iid = intern(pf, CATEGORIES, s->category);
	uint64_t arg_iids[16];
	size_t n_args = s->n_args > 16 ? 16 : s->n_args;
	for (size_t i = 0; i < n_args; i++)
		arg_iids[i] = intern(pf, ANNOTATION_NAMES, s->args[i].name);
	struct dt_pb *b = &pf->packet;
	size_t at = begin_packet(pf, true, s->start, true);
	size_t event = dt_pb_open(b, PACKET_TRACK_EVENT);
	dt_pb_varint(b, EVENT_TYPE, TYPE_SLICE_BEGIN);
	dt_pb_varint(b, EVENT_TRACK_UUID, s->track);
	if (s->name_unique)
		dt_pb_string(b, EVENT_NAME, s->name ? s->name : "");
	else
		dt_pb_varint(b, EVENT_NAME_IID, name_iid);
	dt_pb_varint(b, EVENT_CATEGORY_IIDS, category_iid);
	for (size_t i = 0; i < n_args; i++) {
		const struct dt_pf_arg *arg = &s->args[i];
		size_t a = dt_pb_open(b, EVENT_DEBUG_ANNOTATIONS);
		dt_pb_varint(b, ANNOTATION_NAME_IID, arg_iids[i]);
		switch (arg->kind) {
		case DT_PF_INT:
			dt_pb_int(b, ANNOTATION_INT_VALUE, (int64_t)arg->value);
			break;
		case DT_PF_UINT:
			dt_pb_varint(b, ANNOTATION_UINT_VALUE, arg->value);
			break;
		case DT_PF_POINTER:
			dt_pb_varint(b, ANNOTATION_POINTER_VALUE, arg->value);
			break;
		case DT_PF_STRING:
			dt_pb_string(b, ANNOTATION_STRING_VALUE, arg->string);
			break;
		}
		dt_pb_close(b, a);
	}
	if (s->flow_out)
		dt_pb_fixed64(b, EVENT_FLOW_IDS, s->flow_out);
	if (s->flow_in)
		dt_pb_fixed64(b, EVENT_FLOW_IDS, s->flow_in);
	extra_counter(b, s->begin_counter_track, s->begin_counter);
	dt_pb_close(b, event);
	end_packet(pf, at);

	at = begin_packet(pf, true, s->end < s->start ? s->start : s->end, false);
	event = dt_pb_open(b, PACKET_TRACK_EVENT);
	dt_pb_varint(b, EVENT_TYPE, TYPE_SLICE_END);
	dt_pb_varint(b, EVENT_TRACK_UUID, s->track);
	extra_counter(b, s->end_counter_track, s->end_counter);
	dt_pb_close(b, event);
	end_packet(pf, at);
}

void dt_pftrace_counter(struct dt_pftrace *pf, uint64_t track, uint64_t ts,
		int64_t value)
{
	struct dt_pb *b = &pf->packet;
	size_t at = begin_packet(pf, true, ts, false);
	size_t event = dt_pb_open(b, PACKET_TRACK_EVENT);
	dt_pb_varint(b, EVENT_TYPE, TYPE_COUNTER);
	dt_pb_varint(b, EVENT_TRACK_UUID, track);
	dt_pb_int(b, EVENT_COUNTER_VALUE, value);
	dt_pb_close(b, event);
	end_packet(pf, at);
}
