/*
 * The babeltrace2 side of the analyzer (trace_reader.h). Each event class is
 * resolved once (handler + payload member indices, cached by class pointer),
 * so the per-event path does no string compare and no lookup by name.
 * Timestamps: the event's default clock snapshot VALUE (LTTng's monotonic
 * clock counts CLOCK_MONOTONIC ns), the same domain as the GPU start/end
 * fields, never ns_from_origin (which adds the clock class offset).
 * Two threads share the pass: the one running the babeltrace2 graph only
 * copies each event's fields into a record (capture_event); the records
 * go, in order, through an event pipe (event_pipe.h) to the analysis
 * thread, which decodes each record once into a struct dt_event
 * (fill_event: model/event.h) and hands it to the model
 * (dt_model_on_event), then to the pass hooks (dt_pass_hooks_on_event), so
 * decoding and analysis overlap on two cores and the result is the same
 * as in one thread. With several decoders (stream_split.h) each graph
 * runs on a thread of its own over its share of the stream files, its
 * records keyed by time from the clock's origin and stream, and the
 * analysis thread merges them (merge) in the order one graph's muxer
 * would give.
 * Must never print: failures come back as one line for run.c.
 */
#include "analysis/decode/trace_reader.h"
#include "analysis/decode/record_status.h"

#include "analysis/decode/damage.h"
#include "analysis/decode/event_pipe.h"
#include "analysis/decode/event_specs.h"
#include "analysis/decode/stream_split.h"
#include "analysis/decode/trace_finder.h"
#include "analysis/model/event.h"
#include "analysis/supervisor.h"
#include "tracepoints/memory_kinds.h"

#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

enum field_kind { F_SIGNED, F_UNSIGNED, F_STRING, F_SIGNED_ARRAY,
	F_UNSIGNED_ARRAY, F_ABSENT };

struct class_info {
	const bt_event_class *event_class;
	enum dt_handler handler;
	uint64_t index[DT_MAX_FIELDS];
	enum field_kind kind[DT_MAX_FIELDS];
	bool corrupt;                /* ours by its name, not by its fields */
	bool has_clock;              /* its stream class has a default clock */
	uint64_t clock_frequency;
	int64_t vpid_index;          /* in the common context, -1: absent */
	bool vpid_signed;
	int64_t vtid_index;          /* likewise; read only by events that need it */
	bool vtid_signed;
	int64_t procname_index;      /* the context's procname, -1: absent */
	bool gpu_set;                /* dnntrace_gpu:memset (H_GPU_COPY) */
	uint8_t n_fields;            /* slots the handler reads */
	bool integers_only;          /* no string or array among them: the
	                              * record's size is known, one pass */
	char damage[200];            /* corrupt: what is wrong, for damage.h */
};

/* The stream of a record, as babeltrace2's muxer orders messages of equal
 * time from different streams: trace UUID, stream class id, stream id.
 * Allocated apart and kept to the end: records point to them. */
struct stream_key {
	const bt_stream *stream;     /* the decoder's, while its graph lives */
	bool has_uuid;
	uint8_t uuid[16];
	uint64_t class_id, id;
	uint32_t slice;              /* its file's slice (stream_split.h), 0:
	                              * the first or the whole file */
	const struct dt_slice_head *head;   /* a slice starting inside its
	                                     * file: what its first packet says */
	bool packet_seen;            /* the decoding thread's: past the first
	                              * packet's beginning */
};
/*
 * One event as the decoding thread hands it to the analysis thread: its
 * class, context, time and every slot its handler reads (info->n_fields
 * values). Strings (NUL ended) and arrays (their element count, then the
 * elements as int64_t, whatever their signedness) follow, copied:
 * babeltrace2 reuses its fields once the message is put back. A record
 * without a class is a discarded-events message (two values: whether
 * the count is known, the count). Only the slots the class has are
 * stored: a record is about 100 bytes, written and read once. With
 * several decoders a record also carries what merges them in the order
 * one graph's muxer gives: its time from the clock's origin and its stream.
 */
struct record {
	const struct class_info *info;   /* immutable once resolved */
	size_t size;                     /* bytes, data included, 8-aligned */
	int64_t vpid, vtid;              /* 0 when the context lacks them */
	uint64_t ts;
	uint32_t procname_at;            /* the thread's name (its first
	                                  * record only), 0: none */
	int64_t order_ns;                /* several decoders: the merge key */
	const struct stream_key *stream; /* likewise; NULL with one */
	uint64_t value[];                /* integers; for strings and arrays,
	                                  * their data's offset in the record */
};

#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

struct reader {
	struct dt_model *model;
	const struct dt_pass_hooks *hooks;   /* NULL: none */
	bt_message_iterator *iterator;
	struct dt_event_pipe *pipe;
	/* the decoding thread's: */
	struct class_info **classes;         /* each allocated apart: records
	                                      * point to them while the array
	                                      * grows */
	size_t n_classes, cap_classes;
	size_t last_class;
	struct dt_u64map named_threads;      /* vtids whose procname was sent
	                                      * (only when hooks listen) */
	struct dt_u64map names_passed;       /* the analysis thread's: vtids
	                                      * whose name went to the model
	                                      * (several decoders each send it) */
	int64_t last_named_vtid;
	bool named_any;
	bool want_names;                     /* send each thread's procname
	                                      * (the pass has listeners) */
	bool keyed;                          /* several decoders: fill
	                                      * order_ns and stream */
	int64_t last_order_ns;
	struct stream_key **streams;         /* each allocated apart */
	size_t n_streams, cap_streams;
	struct stream_key *last_stream;      /* the last one found (events
	                                      * come in runs of one stream) */
	const struct dt_slice_head *heads;   /* its slices that start inside
	                                      * their file */
	size_t n_heads;
	/* the analysis thread's: one library call's arrays
	 * (dnntrace_lib:call), reused */
	int64_t *lib_tensors, *lib_dims;
	uint64_t *lib_ptrs;
	uint8_t *lib_roles, *lib_dtypes, *lib_ranks;
	size_t lib_args_cap, lib_dims_cap;
};

/* ---- resolving an event class once ------------------------------------ */

static bool find_member(const bt_field_class *structure, const char *name,
		uint64_t *index, const bt_field_class **member_class)
{
	if (!structure || !bt_field_class_type_is(
			bt_field_class_get_type(structure),
			BT_FIELD_CLASS_TYPE_STRUCTURE))
		return false;
	uint64_t n = bt_field_class_structure_get_member_count(structure);
	for (uint64_t i = 0; i < n; i++) {
		const bt_field_class_structure_member *member =
			bt_field_class_structure_borrow_member_by_index_const(
					structure, i);
		const char *member_name = bt_field_class_structure_member_get_name(
				member);
		/* CTF 1.8 traces may keep LTTng's leading underscore */
		if (strcmp(member_name, name) == 0 ||
		    (member_name[0] == '_' && strcmp(member_name + 1, name) == 0)) {
			*index = i;
			*member_class = bt_field_class_structure_member_borrow_field_class_const(
					member);
			return true;
		}
	}
	return false;
}

static bool classify_field(const bt_field_class *fc, enum field_kind *kind)
{
	bt_field_class_type type = bt_field_class_get_type(fc);
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		*kind = F_SIGNED;
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		*kind = F_UNSIGNED;
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_STRING))
		*kind = F_STRING;
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
		bt_field_class_type element = bt_field_class_get_type(
			bt_field_class_array_borrow_element_field_class_const(fc));
		if (bt_field_class_type_is(element, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
			*kind = F_SIGNED_ARRAY;
		else if (bt_field_class_type_is(element,
				BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
			*kind = F_UNSIGNED_ARRAY;
		else
			return false;
	} else {
		return false;
	}
	return true;
}

/* The kind of CTF field a classified field is (event_specs.h). */
static enum dt_field_class field_class_of(enum field_kind kind)
{
	switch (kind) {
	case F_STRING:
		return DT_CLASS_STRING;
	case F_SIGNED_ARRAY:
	case F_UNSIGNED_ARRAY:
		return DT_CLASS_ARRAY;
	default:
		return DT_CLASS_INTEGER;
	}
}

/* An integer member of the common context (vpid, vtid): its index, or -1. */
static void find_context_integer(const bt_field_class *context,
		const char *name, int64_t *index, bool *is_signed)
{
	uint64_t i;
	const bt_field_class *fc;
	enum field_kind kind;
	if (find_member(context, name, &i, &fc) && classify_field(fc, &kind) &&
	    (kind == F_SIGNED || kind == F_UNSIGNED)) {
		*index = (int64_t)i;
		*is_signed = kind == F_SIGNED;
	}
}

/* provider:event, each [A-Za-z_][A-Za-z0-9_]*: what LTTng-UST can define. */
static bool is_tracepoint_name(const char *name)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
	const char *colon = strchr(name, ':');

	if (!colon || !strchr(first, name[0]) || !colon[1] || !strchr(first, colon[1]))
		return false;
	return strspn(name, rest) == (size_t)(colon - name) && strspn(colon + 1, rest) == strlen(colon + 1);
}

static void resolve_class(struct class_info *info, const bt_event_class *ec)
{
	memset(info, 0, sizeof(*info));
	for (int i = 0; i < DT_MAX_FIELDS; i++)
		info->kind[i] = F_ABSENT;  /* a slot past this event's fields reads 0 */
	info->event_class = ec;
	info->handler = H_IGNORE;
	info->vpid_index = -1;
	info->vtid_index = -1;
	info->procname_index = -1;
	/* every class's, a corrupt one's too: its records are merged by
	 * their time (capture_event) */
	const bt_clock_class *clock = bt_stream_class_borrow_default_clock_class_const(
			bt_event_class_borrow_stream_class_const(ec));
	info->has_clock = clock != NULL;
	info->clock_frequency = clock ? bt_clock_class_get_frequency(clock) : 0;
	const char *name = bt_event_class_get_name(ec);
	if (!name)
		return;
	const struct dt_event_spec *spec = NULL;
	for (size_t i = 0; i < dt_event_spec_count && !spec; i++)
		if (strcmp(dt_event_specs[i].event, name) == 0)
			spec = &dt_event_specs[i];
	if (!spec) {
		/* LTTng-UST names are provider:event, both C identifiers
		 * (they name C symbols); any other name is a damaged metadata
		 * text, whosever event it was (a flipped bit can take a name
		 * out of our provider: "dnntrac._api:launch"). A valid name we
		 * do not know (another provider, a newer event of ours) is
		 * simply not read. */
		if (!is_tracepoint_name(name)) {
			info->corrupt = true;
			snprintf(info->damage, sizeof(info->damage), "event class "
					"\"%.80s\": not a tracepoint name", name);
		}
		return;
	}

	const bt_field_class *payload =
		bt_event_class_borrow_payload_field_class_const(ec);
	for (int i = 0; i < DT_MAX_FIELDS && spec->fields[i].name; i++) {
		const struct dt_field_spec *field = &spec->fields[i];
		const bt_field_class *fc;
		bool found = find_member(payload, field->name, &info->index[i], &fc);
		if (!found && field->optional) {
			info->kind[i] = F_ABSENT;
			continue;
		}
		if (found && classify_field(fc, &info->kind[i]) &&
		    field_class_of(info->kind[i]) == field->field_class)
			continue;
		/* our event without a field we read, or with one of another
		 * kind: a damaged metadata text (or a reader older than the
		 * tracer): its events are ignored, and counted */
		info->corrupt = true;
		snprintf(info->damage, sizeof(info->damage), "event class %s: "
				"no usable field %s", name, field->name);
		return;
	}
	while (info->n_fields < DT_MAX_FIELDS && spec->fields[info->n_fields].name)
		info->n_fields++;
	info->integers_only = true;
	for (int i = 0; i < info->n_fields; i++)
		if (info->kind[i] != F_SIGNED && info->kind[i] != F_UNSIGNED &&
		    info->kind[i] != F_ABSENT)
			info->integers_only = false;
	info->gpu_set = strcmp(name, "dnntrace_gpu:memset") == 0;
	const bt_stream_class *sc = bt_event_class_borrow_stream_class_const(ec);
	const bt_field_class *context =
		bt_stream_class_borrow_event_common_context_field_class_const(sc);
	find_context_integer(context, "vpid", &info->vpid_index,
			&info->vpid_signed);
	find_context_integer(context, "vtid", &info->vtid_index,
			&info->vtid_signed);
	uint64_t procname;
	const bt_field_class *procname_class;
	enum field_kind procname_kind;
	if (find_member(context, "procname", &procname, &procname_class) &&
	    classify_field(procname_class, &procname_kind) &&
	    procname_kind == F_STRING)
		info->procname_index = (int64_t)procname;
	info->handler = spec->handler;
}

static const struct class_info *class_of(struct reader *r,
		const bt_event_class *ec)
{
	if (r->last_class < r->n_classes &&
	    r->classes[r->last_class]->event_class == ec)
		return r->classes[r->last_class];
	for (size_t i = 0; i < r->n_classes; i++) {
		if (r->classes[i]->event_class == ec) {
			r->last_class = i;
			return r->classes[i];
		}
	}
	struct class_info *info = dt_xmalloc(sizeof(*info));
	resolve_class(info, ec);
	*DT_PUSH_SLOT(r->classes, r->n_classes, r->cap_classes) = info;
	r->last_class = r->n_classes - 1;
	return info;
}

/* ---- per event, on the decoding thread: the record ----------------------- */

static inline const bt_field *member(const bt_field *payload,
		const struct class_info *info, int slot)
{
	return bt_field_structure_borrow_member_field_by_index_const(payload,
			info->index[slot]);
}

static uint64_t event_time(const bt_message *msg, const struct class_info *info)
{
	if (!info->has_clock)
		return 0;
	uint64_t value = bt_clock_snapshot_get_value(
			bt_message_event_borrow_default_clock_snapshot_const(msg));
	if (info->clock_frequency == 1000000000ULL || info->clock_frequency == 0)
		return value;
	return (uint64_t)((unsigned __int128)value * 1000000000ULL /
			info->clock_frequency);
}

/* Element i of an integer array field, whatever its signedness. */
static inline int64_t array_element(const bt_field *array, enum field_kind kind,
		uint64_t i)
{
	const bt_field *f =
		bt_field_array_borrow_element_field_by_index_const(array, i);
	return kind == F_SIGNED_ARRAY ? bt_field_integer_signed_get_value(f) :
		(int64_t)bt_field_integer_unsigned_get_value(f);
}

/* A common context integer (vpid, vtid) of the event; 0 when absent (one
 * process, one thread). */
static inline int64_t context_integer(const bt_event *event, int64_t index,
		bool is_signed)
{
	if (index < 0)
		return 0;
	const bt_field *f = bt_field_structure_borrow_member_field_by_index_const(
			bt_event_borrow_common_context_field_const(event),
			(uint64_t)index);
	return is_signed ? bt_field_integer_signed_get_value(f) :
		(int64_t)bt_field_integer_unsigned_get_value(f);
}

/*
 * Babeltrace 2.0.x reuses string fields between events and, for an empty
 * string, sets the length to 0 without clearing the text: get_value then
 * returns the previous event's string (babeltrace review 4528; seen here
 * with NVTX's empty default domain). The length is right, so trust it.
 */
static inline uint64_t string_length(const bt_field *f)
{
	return bt_field_string_get_length(f);
}

/* Copies one of ours into a record in the pipe (or counts a damaged
 * class): two passes over the slots, sizes first. */
/* The key of a stream (keyed readers): found by pointer, made once. */
static struct stream_key *stream_key_of(struct reader *r,
		const bt_stream *stream)
{
	if (!stream)
		return NULL;
	if (r->last_stream && r->last_stream->stream == stream)
		return r->last_stream;
	for (size_t i = r->n_streams; i-- > 0;)
		if (r->streams[i]->stream == stream)
			return r->last_stream = r->streams[i];
	struct stream_key *k = dt_xcalloc(1, sizeof(*k));
	k->stream = stream;
	k->id = bt_stream_get_id(stream);
	k->class_id = bt_stream_class_get_id(bt_stream_borrow_class_const(stream));
	bt_uuid uuid = bt_trace_get_uuid(bt_stream_borrow_trace_const(stream));
	if (uuid) {
		k->has_uuid = true;
		memcpy(k->uuid, uuid, sizeof(k->uuid));
	}
	for (size_t i = 0; i < r->n_heads && k->has_uuid; i++) {
		const struct dt_slice_head *h = &r->heads[i];
		if (h->class_id == k->class_id && h->stream_id == k->id &&
		    memcmp(h->uuid, k->uuid, sizeof(k->uuid)) == 0) {
			k->head = h;
			k->slice = h->slice;
		}
	}
	*DT_PUSH_SLOT(r->streams, r->n_streams, r->cap_streams) = k;
	return r->last_stream = k;
}

/* A keyed record's merge key: its time from the clock's origin, as the
 * muxer compares them (the previous one's when it has none, so that
 * each decoder's records stay in order), and its stream. */
static void stamp(struct reader *r, struct record *rec,
		const bt_clock_snapshot *snapshot, const bt_stream *stream)
{
	int64_t ns;
	if (snapshot && bt_clock_snapshot_get_ns_from_origin(snapshot, &ns) ==
			BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
		r->last_order_ns = ns;
	rec->order_ns = r->last_order_ns;
	rec->stream = stream_key_of(r, stream);
}

static void capture_event(struct reader *r, const bt_message *msg)
{
	const bt_event *event = bt_message_event_borrow_event_const(msg);
	const struct class_info *info = class_of(r, bt_event_borrow_class_const(event));
	/* a corrupt class's events go on as bare records, counted as damage
	 * where the analysis takes them (in trace order) */
	if (info->handler == H_IGNORE && !info->corrupt)
		return;
	const bt_field *payload = bt_event_borrow_payload_field_const(event);
	const bt_field *fields[DT_MAX_FIELDS];
	uint64_t lengths[DT_MAX_FIELDS];
	size_t size = sizeof(struct record) + info->n_fields * sizeof(uint64_t);
	for (int i = 0; !info->integers_only && i < info->n_fields; i++) {
		fields[i] = NULL;
		lengths[i] = 0;
		if (info->kind[i] == F_ABSENT)
			continue;
		fields[i] = member(payload, info, i);
		if (info->kind[i] == F_STRING) {
			lengths[i] = string_length(fields[i]);
			size += ALIGN8(lengths[i] + 1);
		} else if (info->kind[i] == F_SIGNED_ARRAY ||
				info->kind[i] == F_UNSIGNED_ARRAY) {
			lengths[i] = bt_field_array_get_length(fields[i]);
			if (lengths[i] > UINT32_MAX)
				lengths[i] = UINT32_MAX;
			size += (1 + lengths[i]) * sizeof(int64_t);
		}
	}
	/* The thread's name, with its first record only (the timeline names
	 * its tracks with it): one lookup per change of thread. */
	int64_t vtid = context_integer(event, info->vtid_index, info->vtid_signed);
	const bt_field *procname = NULL;
	uint64_t procname_length = 0;
	if (r->want_names && info->procname_index >= 0 &&
	    (vtid != r->last_named_vtid || !r->named_any) &&
	    (uint64_t)vtid != DT_MAP_EMPTY) {
		uint64_t seen;
		if (!dt_u64map_get(&r->named_threads, (uint64_t)vtid, &seen)) {
			dt_u64map_put(&r->named_threads, (uint64_t)vtid, 1);
			procname = bt_field_structure_borrow_member_field_by_index_const(
					bt_event_borrow_common_context_field_const(event),
					(uint64_t)info->procname_index);
			procname_length = string_length(procname);
			size += ALIGN8(procname_length + 1);
		}
		r->last_named_vtid = vtid;
		r->named_any = true;
	}
	struct record *rec = (struct record *)dt_event_pipe_reserve(r->pipe, size);
	rec->info = info;
	rec->size = size;
	/* no vpid context: one process */
	rec->vpid = context_integer(event, info->vpid_index, info->vpid_signed);
	rec->vtid = vtid;
	rec->procname_at = 0;
	rec->ts = event_time(msg, info);
	rec->order_ns = 0;
	rec->stream = NULL;
	if (r->keyed) {
		const bt_stream *stream = bt_event_borrow_stream_const(event);
		/* the event's stream class has a default clock: has_clock */
		stamp(r, rec, info->has_clock ?
				bt_message_event_borrow_default_clock_snapshot_const(msg) :
				NULL, stream);
	}
	size_t at = sizeof(struct record) + info->n_fields * sizeof(uint64_t);
	/* most events: integers only, each read where it is stored */
	for (int i = 0; info->integers_only && i < info->n_fields; i++) {
		enum field_kind kind = info->kind[i];
		rec->value[i] = kind == F_SIGNED ? (uint64_t)
			bt_field_integer_signed_get_value(member(payload, info, i)) :
			kind == F_UNSIGNED ? bt_field_integer_unsigned_get_value(
				member(payload, info, i)) : 0;
	}
	for (int i = 0; !info->integers_only && i < info->n_fields; i++) {
		const bt_field *f = fields[i];
		rec->value[i] = 0;
		switch (info->kind[i]) {
		case F_SIGNED:
			rec->value[i] = (uint64_t)bt_field_integer_signed_get_value(f);
			break;
		case F_UNSIGNED:
			rec->value[i] = bt_field_integer_unsigned_get_value(f);
			break;
		case F_STRING: {
			char *text = (char *)rec + at;
			if (lengths[i])
				memcpy(text, bt_field_string_get_value(f), lengths[i]);
			text[lengths[i]] = '\0';
			rec->value[i] = at;
			at += ALIGN8(lengths[i] + 1);
			break;
		}
		case F_SIGNED_ARRAY:
		case F_UNSIGNED_ARRAY: {
			int64_t *values = (int64_t *)((char *)rec + at);
			values[0] = (int64_t)lengths[i];
			for (uint64_t e = 0; e < lengths[i]; e++)
				values[1 + e] = array_element(f, info->kind[i], e);
			rec->value[i] = at;
			at += (1 + lengths[i]) * sizeof(int64_t);
			break;
		}
		case F_ABSENT:
			break;
		}
	}
	if (procname) {
		char *text = (char *)rec + at;
		if (procname_length)
			memcpy(text, bt_field_string_get_value(procname),
					procname_length);
		text[procname_length] = '\0';
		rec->procname_at = (uint32_t)at;
	}
	dt_event_pipe_commit(r->pipe, size);
}

/* A discarded-events or discarded-packets message, in its place. */
static void capture_discarded(struct reader *r, bool count_known,
		uint64_t count, const bt_stream *stream)
{
	size_t size = sizeof(struct record) + 2 * sizeof(uint64_t);
	struct record *rec = (struct record *)dt_event_pipe_reserve(r->pipe,
			size);
	memset(rec, 0, size);
	rec->size = size;
	if (r->keyed)
		stamp(r, rec, NULL, stream);
	rec->value[0] = count_known;
	rec->value[1] = count;
	dt_event_pipe_commit(r->pipe, size);
}

/* ---- per event, on the analysis thread: the record's fields -------------- */

static inline int64_t get_signed(const struct record *payload,
		const struct class_info *info, int slot)
{
	return info->kind[slot] == F_ABSENT ? 0 : (int64_t)payload->value[slot];
}

static inline uint64_t get_unsigned(const struct record *payload,
		const struct class_info *info, int slot)
{
	return info->kind[slot] == F_ABSENT ? 0 : payload->value[slot];
}

static inline const char *get_string(const struct record *payload,
		const struct class_info *info, int slot)
{
	if (info->kind[slot] == F_ABSENT)
		return "";
	return (const char *)payload + payload->value[slot];
}

/* An array slot's elements (as int64_t) and their count; an absent slot
 * (one past the event's own, or an optional one) has none. */
static inline const int64_t *array_values(const struct record *payload,
		const struct class_info *info, int slot)
{
	static const int64_t none[1];
	if (info->kind[slot] == F_ABSENT)
		return none;
	return (const int64_t *)((const char *)payload + payload->value[slot]) + 1;
}

static inline uint64_t array_length(const struct record *payload,
		const struct class_info *info, int slot)
{
	return info->kind[slot] == F_ABSENT ? 0 :
		*(const uint64_t *)((const char *)payload + payload->value[slot]);
}

/* A payload field by its slot name (event_specs.h), in handlers where
 * `payload` and `info` are the event's. */
#define SIGNED(event, field) get_signed(payload, info, DT_SLOT(event, field))
#define UNSIGNED(event, field) get_unsigned(payload, info, DT_SLOT(event, field))
#define STRING(event, field) get_string(payload, info, DT_SLOT(event, field))

/* dnntrace_gpu:memcpy and :memset share H_GPU_COPY: what it reads has one
 * slot in both. */
#define DT_GPU_COPY_SLOT(field)                                                     \
	_Static_assert(DT_SLOT(gpu_memcpy, field) == DT_SLOT(gpu_memset, field),    \
		       "gpu memcpy and memset disagree on " #field)
DT_GPU_COPY_SLOT(correlation_id);
DT_GPU_COPY_SLOT(device);
DT_GPU_COPY_SLOT(stream);
DT_GPU_COPY_SLOT(start);
DT_GPU_COPY_SLOT(end);
DT_GPU_COPY_SLOT(bytes);

/* alloc_async and free_async are alloc and free, then the stream: one
 * handler each reads both (formats 1 and 2 had the stream in alloc and free
 * at that slot too). */
#define DT_ASYNC_SLOT(event, field)                                                 \
	_Static_assert(DT_SLOT(event, field) == DT_SLOT(event##_async, field),      \
		       #event " and " #event "_async disagree on " #field)
DT_ASYNC_SLOT(api_alloc, api);
DT_ASYNC_SLOT(api_alloc, device);
DT_ASYNC_SLOT(api_alloc, ptr);
DT_ASYNC_SLOT(api_alloc, bytes);
DT_ASYNC_SLOT(api_alloc, tensor_id);
DT_ASYNC_SLOT(api_alloc, result);
DT_ASYNC_SLOT(api_alloc, stream);
DT_ASYNC_SLOT(api_free, api);
DT_ASYNC_SLOT(api_free, tensor_id);
DT_ASYNC_SLOT(api_free, result);
DT_ASYNC_SLOT(api_free, stream);

/* An alloc's kind of memory: the event's (formats 1 and 2), else its
 * entry point's (format 3: memory_kinds.h, the catalogue's). */
static int alloc_kind(const struct record *payload, const struct class_info *info)
{
	if (info->kind[DT_SLOT(api_alloc, kind)] != F_ABSENT)
		return (int)SIGNED(api_alloc, kind);
	return dnntrace_api_mem_kind((int)SIGNED(api_alloc, api));
}

/* A GPU kernel's name: format 1 and 2's name field, or format 3's name id
 * resolved through the kernel_name events read so far; NULL when that
 * event is yet to come (*name_id says which). */
static const char *gpu_kernel_name(const struct reader *r, const struct record *payload,
		const struct class_info *info, int64_t vpid, uint32_t *name_id)
{
	*name_id = 0;
	if (info->kind[DT_SLOT(gpu_kernel, name)] != F_ABSENT)
		return STRING(gpu_kernel, name);
	*name_id = (uint32_t)UNSIGNED(gpu_kernel, name_id);
	return dt_model_kernel_name(r->model, vpid, *name_id);
}

/* The launch's kernel name: format 1's name field, or format 2's function
 * id resolved through the function events read so far; NULL when that
 * function's event is yet to come (*function_id says which). */
static const char *launch_name(const struct reader *r, const struct record *payload,
		const struct class_info *info, int64_t vpid, uint64_t *function_id)
{
	*function_id = 0;
	if (info->kind[DT_SLOT(api_launch, name)] != F_ABSENT)
		return get_string(payload, info, DT_SLOT(api_launch, name));
	if (info->kind[DT_SLOT(api_launch, function_id)] == F_ABSENT)
		return "";
	*function_id = get_unsigned(payload, info, DT_SLOT(api_launch, function_id));
	return dt_model_function_name(r->model, vpid, *function_id);
}

/* A launch: its kernel's name now, or "" and name_later while its
 * function event is yet to come (named once the whole trace is read; the
 * streaming timeline keeps ""). */
static void fill_launch(const struct reader *r, const struct record *payload,
		const struct class_info *info, struct dt_event *e)
{
	e->call_id = UNSIGNED(api_launch, call_id);
	e->api = (int)SIGNED(api_launch, api);
	e->name = launch_name(r, payload, info, e->vpid, &e->name_id);
	e->name_later = e->name == NULL;
	if (!e->name)
		e->name = "";
	e->stream = UNSIGNED(api_launch, stream);
	e->tensors = array_values(payload, info, DT_SLOT(api_launch, tensors));
	e->n_tensors = (uint32_t)array_length(payload, info,
			DT_SLOT(api_launch, tensors));
	e->result = (int)SIGNED(api_launch, result);
	e->start_ns = UNSIGNED(api_launch, start_ns);
}

static void grow_buffer(void **buffer, size_t n, size_t size)
{
	*buffer = dt_xrealloc(*buffer, n * size);
}

/* dnntrace_lib:call: its arrays copied into reused buffers. The per-
 * argument arrays have one length each in CTF; a corrupt event with
 * unequal lengths is read as far as all of them go. */
static void fill_lib_call(struct reader *r, const struct record *payload,
		const struct class_info *info, struct dt_event *e)
{
	enum { TENSORS = DT_SLOT(lib_call, tensors), PTRS = DT_SLOT(lib_call, ptrs),
		ROLES = DT_SLOT(lib_call, roles), DTYPES = DT_SLOT(lib_call, dtypes),
		RANKS = DT_SLOT(lib_call, ranks), DIMS = DT_SLOT(lib_call, dims) };
	static const int per_argument[] = { TENSORS, PTRS, ROLES, DTYPES, RANKS };
	uint64_t n_args = UINT32_MAX;
	for (size_t i = 0; i < sizeof(per_argument) / sizeof(per_argument[0]); i++) {
		uint64_t length = array_length(payload, info, per_argument[i]);
		if (length < n_args)
			n_args = length;
	}
	const int64_t *dims = array_values(payload, info, DIMS);
	uint64_t n_dims = array_length(payload, info, DIMS);
	if (n_args > r->lib_args_cap) {
		r->lib_args_cap = n_args;
		grow_buffer((void **)&r->lib_tensors, n_args, sizeof(int64_t));
		grow_buffer((void **)&r->lib_ptrs, n_args, sizeof(uint64_t));
		grow_buffer((void **)&r->lib_roles, n_args, 1);
		grow_buffer((void **)&r->lib_dtypes, n_args, 1);
		grow_buffer((void **)&r->lib_ranks, n_args, 1);
	}
	if (n_dims > r->lib_dims_cap) {
		r->lib_dims_cap = n_dims;
		grow_buffer((void **)&r->lib_dims, n_dims, sizeof(int64_t));
	}
	const int64_t *tensors = array_values(payload, info, TENSORS);
	const int64_t *ptrs = array_values(payload, info, PTRS);
	const int64_t *roles = array_values(payload, info, ROLES);
	const int64_t *dtypes = array_values(payload, info, DTYPES);
	const int64_t *ranks = array_values(payload, info, RANKS);
	/* Format 3 lists every argument the catalogue names for the entry
	 * point; one the call left unused is no argument of the analysis: it
	 * is dropped here with its dimensions, so the model and the hooks see
	 * what formats 1 and 2 listed. */
	uint64_t kept = 0, at = 0, kept_dims = 0;
	for (uint64_t i = 0; i < n_args; i++) {
		uint8_t role = (uint8_t)roles[i];
		uint8_t rank = (uint8_t)ranks[i];
		if (role == DNNTRACE_ROLE_UNUSED) {
			at += rank;
			continue;
		}
		r->lib_tensors[kept] = tensors[i];
		r->lib_ptrs[kept] = (uint64_t)ptrs[i];
		r->lib_roles[kept] = role;
		r->lib_dtypes[kept] = (uint8_t)dtypes[i];
		r->lib_ranks[kept] = rank;
		kept++;
		for (uint64_t d = at; d < at + rank && d < n_dims; d++)
			r->lib_dims[kept_dims++] = dims[d];
		at += rank;
	}
	e->call_id = UNSIGNED(lib_call, call_id);
	e->api = (int)SIGNED(lib_call, api);
	e->stream = UNSIGNED(lib_call, stream);
	e->n_tensors = (uint32_t)kept;
	e->tensors = r->lib_tensors;
	e->ptrs = r->lib_ptrs;
	e->roles = r->lib_roles;
	e->dtypes = r->lib_dtypes;
	e->ranks = r->lib_ranks;
	e->n_dims = (uint32_t)kept_dims;
	e->dims = r->lib_dims;
	e->result = (int)SIGNED(lib_call, result);
	e->start_ns = UNSIGNED(lib_call, start_ns);
}

/* The one decoding of a record: its event, every field the model and the
 * pass's listeners read. False for a handler that makes no event. */
static bool fill_event(struct reader *r, const struct record *rec,
		struct dt_event *e)
{
	const struct class_info *info = rec->info;
	const struct record *payload = rec;
	*e = (struct dt_event){.vpid = rec->vpid, .vtid = rec->vtid,
		.ts = rec->ts, .tensor = -1, .src_tensor = -1,
		.procname = rec->procname_at ?
			(const char *)rec + rec->procname_at : NULL};
	switch (info->handler) {
	case H_ALLOC:
		e->kind = DT_EVENT_ALLOC;
		e->api = (int)SIGNED(api_alloc, api);
		e->mem_kind = alloc_kind(payload, info);
		e->device = (int32_t)SIGNED(api_alloc, device);
		e->stream = UNSIGNED(api_alloc, stream);
		e->ptr = UNSIGNED(api_alloc, ptr);
		e->bytes = UNSIGNED(api_alloc, bytes);
		e->tensor = SIGNED(api_alloc, tensor_id);
		e->result = (int)SIGNED(api_alloc, result);
		break;
	case H_FREE:
		e->kind = DT_EVENT_FREE;
		e->api = (int)SIGNED(api_free, api);
		e->stream = UNSIGNED(api_free, stream);
		e->tensor = SIGNED(api_free, tensor_id);
		e->result = (int)SIGNED(api_free, result);
		break;
	case H_MEMCPY:
		e->kind = DT_EVENT_MEMCPY;
		e->call_id = UNSIGNED(api_memcpy, call_id);
		e->api = (int)SIGNED(api_memcpy, api);
		e->tensor = SIGNED(api_memcpy, dst_tensor);
		if (info->kind[DT_SLOT(api_memcpy, src_tensor)] != F_ABSENT)
			e->src_tensor = SIGNED(api_memcpy, src_tensor);
		e->bytes = UNSIGNED(api_memcpy, bytes);
		e->stream = UNSIGNED(api_memcpy, stream);
		e->result = (int)SIGNED(api_memcpy, result);
		e->start_ns = UNSIGNED(api_memcpy, start_ns);
		break;
	case H_MEMSET:
		e->kind = DT_EVENT_MEMSET;
		e->call_id = UNSIGNED(api_memset, call_id);
		e->api = (int)SIGNED(api_memset, api);
		e->tensor = SIGNED(api_memset, tensor_id);
		e->bytes = UNSIGNED(api_memset, bytes);
		e->stream = UNSIGNED(api_memset, stream);
		e->result = (int)SIGNED(api_memset, result);
		e->start_ns = UNSIGNED(api_memset, start_ns);
		break;
	case H_GPU_COPY:
		e->kind = info->gpu_set ? DT_EVENT_GPU_MEMSET : DT_EVENT_GPU_MEMCPY;
		e->correlation_id = (uint32_t)UNSIGNED(gpu_memcpy, correlation_id);
		e->gpu_device = (uint32_t)UNSIGNED(gpu_memcpy, device);
		e->gpu_stream = (uint32_t)UNSIGNED(gpu_memcpy, stream);
		e->gpu_start = UNSIGNED(gpu_memcpy, start);
		e->gpu_end = UNSIGNED(gpu_memcpy, end);
		e->bytes = UNSIGNED(gpu_memcpy, bytes);
		e->copy_kind = info->gpu_set ? 0 :
			(uint32_t)UNSIGNED(gpu_memcpy, copy_kind);
		e->src_mem_kind = info->gpu_set ? 0 :
			(uint8_t)UNSIGNED(gpu_memcpy, src_kind);
		e->dst_mem_kind = info->gpu_set ? 0 :
			(uint8_t)UNSIGNED(gpu_memcpy, dst_kind);
		break;
	case H_LAUNCH:
		e->kind = DT_EVENT_LAUNCH;
		fill_launch(r, payload, info, e);
		break;
	case H_GRAPH_LAUNCH:
		e->kind = DT_EVENT_GRAPH_LAUNCH;
		e->call_id = UNSIGNED(api_graph_launch, call_id);
		e->api = (int)SIGNED(api_graph_launch, api);
		e->stream = UNSIGNED(api_graph_launch, stream);
		e->result = (int)SIGNED(api_graph_launch, result);
		e->start_ns = UNSIGNED(api_graph_launch, start_ns);
		e->graph_exec = UNSIGNED(api_graph_launch, graph_exec);
		break;
	case H_CAPTURED_NODE:
		e->kind = DT_EVENT_CAPTURED_NODE;
		e->call_id = UNSIGNED(api_captured_node, call_id);
		e->node_id = UNSIGNED(api_captured_node, node_id);
		break;
	case H_GRAPH_NODE:
		e->kind = DT_EVENT_GRAPH_NODE;
		e->call_id = UNSIGNED(api_graph_node, call_id);
		e->api = (int)SIGNED(api_graph_node, api);
		e->graph_exec = UNSIGNED(api_graph_node, graph_exec);
		e->node_id = UNSIGNED(api_graph_node, node_id);
		e->name_id = UNSIGNED(api_graph_node, function_id);
		e->tensors = array_values(payload, info, DT_SLOT(api_graph_node, tensors));
		e->n_tensors = (uint32_t)array_length(payload, info,
				DT_SLOT(api_graph_node, tensors));
		e->result = (int)SIGNED(api_graph_node, result);
		e->start_ns = UNSIGNED(api_graph_node, start_ns);
		break;
	case H_GRAPH_NODE_CLONE:
		e->kind = DT_EVENT_GRAPH_NODE_CLONE;
		e->node_id = UNSIGNED(api_graph_node_clone, node_id);
		e->original_node_id = UNSIGNED(api_graph_node_clone, original_node_id);
		e->graph_exec = UNSIGNED(api_graph_node_clone, graph_exec);
		break;
	case H_GRAPH_EXEC_UPDATE:
		e->kind = DT_EVENT_GRAPH_EXEC_UPDATE;
		e->call_id = UNSIGNED(api_graph_exec_update, call_id);
		e->api = (int)SIGNED(api_graph_exec_update, api);
		e->graph_exec = UNSIGNED(api_graph_exec_update, graph_exec);
		e->tensors = array_values(payload, info, DT_SLOT(api_graph_exec_update, node_ids));
		e->n_tensors = (uint32_t)array_length(payload, info,
				DT_SLOT(api_graph_exec_update, node_ids));
		e->result = (int)SIGNED(api_graph_exec_update, result);
		e->start_ns = UNSIGNED(api_graph_exec_update, start_ns);
		break;
	case H_GRAPH_MEM_NODE:
		e->kind = DT_EVENT_GRAPH_MEM_NODE;
		e->call_id = UNSIGNED(api_graph_mem_node, call_id);
		e->api = (int)SIGNED(api_graph_mem_node, api);
		e->node_id = UNSIGNED(api_graph_mem_node, node_id);
		e->ptr = UNSIGNED(api_graph_mem_node, ptr);
		e->bytes = UNSIGNED(api_graph_mem_node, bytes);
		e->tensor = SIGNED(api_graph_mem_node, tensor_id);
		e->is_free = SIGNED(api_graph_mem_node, is_free) != 0;
		e->result = (int)SIGNED(api_graph_mem_node, result);
		e->start_ns = UNSIGNED(api_graph_mem_node, start_ns);
		break;
	case H_GRAPH_NODE_ENABLE:
		e->kind = DT_EVENT_GRAPH_NODE_ENABLE;
		e->call_id = UNSIGNED(api_graph_node_enable, call_id);
		e->api = (int)SIGNED(api_graph_node_enable, api);
		e->graph_exec = UNSIGNED(api_graph_node_enable, graph_exec);
		e->node_id = UNSIGNED(api_graph_node_enable, node_id);
		e->enabled = SIGNED(api_graph_node_enable, enabled) != 0;
		e->result = (int)SIGNED(api_graph_node_enable, result);
		e->start_ns = UNSIGNED(api_graph_node_enable, start_ns);
		break;
	case H_LIB_CALL:
		e->kind = DT_EVENT_LIB_CALL;
		fill_lib_call(r, payload, info, e);
		break;
	case H_GPU_KERNEL:
		e->kind = DT_EVENT_GPU_KERNEL;
		e->correlation_id = (uint32_t)UNSIGNED(gpu_kernel, correlation_id);
		e->gpu_device = (uint32_t)UNSIGNED(gpu_kernel, device);
		e->gpu_stream = (uint32_t)UNSIGNED(gpu_kernel, stream);
		e->gpu_start = UNSIGNED(gpu_kernel, start);
		e->gpu_end = UNSIGNED(gpu_kernel, end);
		/* "" and name_later while its kernel_name event is yet to come
		 * (only a lossy channel makes one late) */
		uint32_t name_id;
		e->name = gpu_kernel_name(r, payload, info, e->vpid, &name_id);
		e->name_id = name_id;
		e->name_later = e->name == NULL;
		if (!e->name)
			e->name = "";
		if (info->kind[DT_SLOT(gpu_kernel, graph_node_id)] != F_ABSENT)
			e->node_id = UNSIGNED(gpu_kernel, graph_node_id);
		break;
	case H_GPU_KERNEL_NAME:
		e->kind = DT_EVENT_KERNEL_NAME;
		e->id = (uint32_t)UNSIGNED(gpu_kernel_name, name_id);
		e->name = STRING(gpu_kernel_name, name);
		break;
	case H_EXTERNAL_CORRELATION:
		e->kind = DT_EVENT_EXTERNAL_CORRELATION;
		e->correlation_id = (uint32_t)UNSIGNED(gpu_external_correlation, correlation_id);
		e->call_id = UNSIGNED(gpu_external_correlation, call_id);
		break;
	case H_RECORDS_DROPPED:
		e->kind = DT_EVENT_RECORDS_DROPPED;
		e->count = UNSIGNED(gpu_records_dropped, count);
		break;
	case H_TAG:
		e->kind = DT_EVENT_TAG;
		e->tensor = SIGNED(api_tag, tensor_id);
		e->name = STRING(api_tag, name);
		break;
	case H_MEM_INFO:
		e->kind = DT_EVENT_MEM_INFO;
		e->device = (int32_t)SIGNED(api_mem_info, device);
		e->free_bytes = UNSIGNED(api_mem_info, free_bytes);
		e->total_bytes = UNSIGNED(api_mem_info, total_bytes);
		break;
	case H_STATUS:
		e->kind = DT_EVENT_STATUS;
		e->cupti_ok = (int)SIGNED(api_status, cupti_ok);
		e->name = STRING(api_status, message);
		e->has_format = info->kind[DT_SLOT(api_status, format)] != F_ABSENT;
		e->format = (int)SIGNED(api_status, format);
		e->rank = info->kind[DT_SLOT(api_status, rank)] != F_ABSENT ?
			(int)SIGNED(api_status, rank) : -1;
		break;
	case H_FUNCTION:
		e->kind = DT_EVENT_FUNCTION;
		e->id = UNSIGNED(api_function, function_id);
		e->name = STRING(api_function, name);
		break;
	case H_LIB_SET_STREAM:
		e->kind = DT_EVENT_LIB_SET_STREAM;
		break;
	case H_NVTX_PUSH:
		e->kind = DT_EVENT_NVTX_PUSH;
		e->domain = STRING(nvtx_push, domain);
		e->name = STRING(nvtx_push, name);
		break;
	case H_NVTX_POP:
		e->kind = DT_EVENT_NVTX_POP;
		e->domain = STRING(nvtx_pop, domain);
		break;
	case H_NVTX_START:
		e->kind = DT_EVENT_NVTX_START;
		e->id = UNSIGNED(nvtx_start, id);
		e->domain = STRING(nvtx_start, domain);
		e->name = STRING(nvtx_start, name);
		break;
	case H_NVTX_END:
		e->kind = DT_EVENT_NVTX_END;
		e->id = UNSIGNED(nvtx_end, id);
		break;
	case H_POWER:
		e->kind = DT_EVENT_POWER;
		e->gpu_device = (uint32_t)UNSIGNED(gpu_power, device);
		e->sample_ns = UNSIGNED(gpu_power, sample_ns);
		e->read_ns = (uint32_t)UNSIGNED(gpu_power, read_ns);
		e->power_mw = (uint32_t)UNSIGNED(gpu_power, power_mw);
		e->power_ok = UNSIGNED(gpu_power, power_ok) != 0;
		e->energy_mj = UNSIGNED(gpu_power, energy_mj);
		e->energy_ok = UNSIGNED(gpu_power, energy_ok) != 0;
		break;
	case H_IGNORE:
		return false;
	}
	return true;
}

/* The analysis thread: one record, decoded once and handed to the model,
 * then to the pass's listeners; an event of a corrupt class is damage. */
static void take_record(struct reader *r, const struct record *rec)
{
	struct dt_event e;
	/* every event of ours the trace holds, against what the tracer
	 * handed LTTng (record_status.h) */
	if (rec->info)
		dt_record_status_on_event(rec->vpid);
	if (rec->info && rec->info->corrupt) {
		/* counted each, named by the first (damage.h) */
		dt_damage_note(DT_DAMAGE_EVENT_CLASS, 1, "%s", rec->info->damage);
		return;
	}
	if (!rec->info)
		e = (struct dt_event){.kind = DT_EVENT_DISCARDED,
			.count_known = rec->value[0] != 0,
			.count = rec->value[1], .tensor = -1, .src_tensor = -1};
	else if (!fill_event(r, rec, &e))
		return;
	/* a thread's name with its first event only, whichever decoder sent
	 * it: the reports must not depend on how the streams were shared */
	uint64_t seen;
	if (e.procname && dt_u64map_get(&r->names_passed, (uint64_t)e.vtid, &seen))
		e.procname = NULL;
	else if (e.procname)
		dt_u64map_put(&r->names_passed, (uint64_t)e.vtid, 1);
	/* a record the model left out as impossible stays out of the
	 * timeline and the overheads too */
	if (dt_model_on_event(r->model, &e) && r->hooks)
		dt_pass_hooks_on_event(r->hooks, r->model, &e);
}

/* One chunk of records from the pipe, in order. */
static void consume_records(void *ctx, const char *data, size_t len)
{
	for (size_t at = 0; at < len;) {
		const struct record *rec = (const struct record *)(data + at);
		take_record(ctx, rec);
		at += rec->size;
	}
}

/* A slice that starts inside its stream file (stream_split.h): before its
 * first packet, babeltrace2 sees no packet before it and reports its first
 * packet's whole discarded-events counter as lost; one graph reading the
 * whole file reports the counter's growth since the packet before (and
 * a gap in the packets' sequence numbers). That message is dropped... */
static bool before_slice_start(struct reader *r, const bt_stream *stream)
{
	if (r->n_heads == 0)
		return false;
	const struct stream_key *k = stream_key_of(r, stream);
	return k && k->head && !k->packet_seen;
}

/* ...and at the first packet's beginning, the loss one graph reports there,
 * from the packet scan: the events first, then the packets, as
 * babeltrace2 2.0 orders them. */
static void slice_start(struct reader *r, const bt_stream *stream)
{
	struct stream_key *k = stream_key_of(r, stream);
	if (!k || !k->head || k->packet_seen)
		return;
	k->packet_seen = true;
	if (k->head->lost_events > 0)
		capture_discarded(r, true, k->head->lost_events, stream);
	if (k->head->lost_packets)
		capture_discarded(r, false, 0, stream);
}

/* The decoding thread: one message into the pipe. */
static void handle_message(struct reader *r, const bt_message *msg)
{
	uint64_t count = 0;
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		capture_event(r, msg);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		if (before_slice_start(r, bt_message_discarded_events_borrow_stream_const(
				msg)))
			break;
		if (bt_message_discarded_events_get_count(msg, &count) ==
				BT_PROPERTY_AVAILABILITY_AVAILABLE)
			capture_discarded(r, true, count,
					bt_message_discarded_events_borrow_stream_const(msg));
		else
			capture_discarded(r, false, 0,
					bt_message_discarded_events_borrow_stream_const(msg));
		break;
	case BT_MESSAGE_TYPE_STREAM_END:
		/* its object may be reused: its key is no longer found by it */
		for (size_t i = 0; r->keyed && i < r->n_streams; i++)
			if (r->streams[i]->stream ==
			    bt_message_stream_end_borrow_stream_const(msg))
				r->streams[i]->stream = NULL;
		break;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		if (before_slice_start(r, bt_message_discarded_packets_borrow_stream_const(
				msg)))
			break;
		/* whole packets: the number of events in them is unknown */
		capture_discarded(r, false, 0,
				bt_message_discarded_packets_borrow_stream_const(msg));
		break;
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		if (r->n_heads > 0)
			slice_start(r, bt_packet_borrow_stream_const(
					bt_message_packet_beginning_borrow_packet_const(
						msg)));
		break;
	default:
		break;
	}
}

/*
 * libbabeltrace2 2.0's ctf plugin leaks a few blocks (glib allocations) when
 * it cannot parse a trace's metadata and when it meets some corrupt event
 * data (its error paths; the plugin is unloaded before LSan looks, so they
 * cannot even be named). In sanitizer builds, libbabeltrace2's own work is
 * kept out of leak checking with LSan's interface (weak: absent in normal
 * builds): creating the source component and running the graph, except
 * while our sink handles messages, where our allocations are made. Our
 * own code, error paths included, stays checked.
 */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

static void lsan_disable(void)
{
	if (__lsan_disable)
		__lsan_disable();
}

static void lsan_enable(void)
{
	if (__lsan_enable)
		__lsan_enable();
}

/* ---- the sink --------------------------------------------------------- */

static bt_graph_simple_sink_component_initialize_func_status sink_initialize(
		bt_message_iterator *iterator, void *user_data)
{
	((struct reader *)user_data)->iterator = iterator;
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_INITIALIZE_FUNC_STATUS_OK;
}

static bt_graph_simple_sink_component_consume_func_status sink_consume(
		bt_message_iterator *iterator, void *user_data)
{
	struct reader *r = user_data;
	bt_message_array_const messages;
	uint64_t count;
	switch (bt_message_iterator_next(iterator, &messages, &count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	dt_progress_tick();
	lsan_enable();
	uint64_t events = 0;
	for (uint64_t i = 0; i < count; i++) {
		events += bt_message_get_type(messages[i]) == BT_MESSAGE_TYPE_EVENT;
		handle_message(r, messages[i]);
		bt_message_put_ref(messages[i]);
	}
	dt_progress_events(events);
	lsan_disable();
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* ---- the graph ---------------------------------------------------------- */

/* The root babeltrace2 error cause (index 0), flattened to one short line. */
static void take_error_cause(char *out, size_t size)
{
	out[0] = '\0';
	const bt_error *error = bt_current_thread_take_error();
	if (!error)
		return;
	uint64_t n = bt_error_get_cause_count(error);
	if (n > 0) {
		const char *msg = bt_error_cause_get_message(
				bt_error_borrow_cause_by_index(error, 0));
		snprintf(out, size, "%s", msg ? msg : "");
		for (char *c = out; *c; c++)
			if (*c == '\n' || *c == '\r' || *c == '\t')
				*c = ' ';
	}
	bt_error_release(error);
}

static int fail(char *error, size_t size, const char *what, const char *dir)
{
	char cause[200];
	take_error_cause(cause, sizeof(cause));
	if (cause[0])
		snprintf(error, size, "%s: %s (%s)", dir, what, cause);
	else
		snprintf(error, size, "%s: %s", dir, what);
	return -1;
}

static int connect_graph(bt_graph *graph, const bt_component_source *source,
		const bt_component_filter *muxer, const bt_component_sink *sink)
{
	uint64_t n_out = bt_component_source_get_output_port_count(source);
	for (uint64_t i = 0; i < n_out; i++) {
		const bt_port_input *free_port = NULL;
		uint64_t n_in = bt_component_filter_get_input_port_count(muxer);
		for (uint64_t j = 0; j < n_in && !free_port; j++) {
			const bt_port_input *port =
				bt_component_filter_borrow_input_port_by_index_const(
					muxer, j);
			if (!bt_port_is_connected(bt_port_input_as_port_const(port)))
				free_port = port;
		}
		if (!free_port || bt_graph_connect_ports(graph,
				bt_component_source_borrow_output_port_by_index_const(
					source, i), free_port, NULL) !=
				BT_GRAPH_CONNECT_PORTS_STATUS_OK)
			return -1;
	}
	if (bt_graph_connect_ports(graph,
			bt_component_filter_borrow_output_port_by_index_const(muxer, 0),
			bt_component_sink_borrow_input_port_by_index_const(sink, 0),
			NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
		return -1;
	return 0;
}

/* Several decoders build and tear down their graphs one at a time (plugin
 * loading and component creation touch libbabeltrace2's shared state);
 * the graphs, each one thread's alone, run at once. */
static pthread_mutex_t graph_setup_lock = PTHREAD_MUTEX_INITIALIZER;

static int run_graph(const char *trace_dir, bt_value *params, struct reader *r,
		char *error, size_t size)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	bt_graph *graph = NULL;
	int rc = -1;
	bool running = false;
	pthread_mutex_lock(&graph_setup_lock);
	if (bt_plugin_find("ctf", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE,
			&ctf) != BT_PLUGIN_FIND_STATUS_OK ||
	    bt_plugin_find("utils", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE,
			&utils) != BT_PLUGIN_FIND_STATUS_OK) {
		fail(error, size, "babeltrace2 plugins ctf/utils not found",
				trace_dir);
		goto out;
	}
	const bt_component_class_source *fs_class =
		bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs");
	const bt_component_class_filter *muxer_class =
		bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer");
	if (!fs_class || !muxer_class) {
		fail(error, size, "babeltrace2 components source.ctf.fs / "
				"filter.utils.muxer missing", trace_dir);
		goto out;
	}
	graph = bt_graph_create(0);
	const bt_component_source *source;
	const bt_component_filter *muxer;
	const bt_component_sink *sink;
	if (!graph) {
		fail(error, size, "cannot create a babeltrace2 graph", trace_dir);
		goto out;
	}
	lsan_disable();
	bt_graph_add_component_status added = bt_graph_add_source_component(
			graph, fs_class, "source", params, BT_LOGGING_LEVEL_NONE,
			&source);
	lsan_enable();
	if (added != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		fail(error, size, "corrupt trace: cannot read its metadata or "
				"stream files", trace_dir);
		goto out;
	}
	if (bt_graph_add_filter_component(graph, muxer_class, "muxer", NULL,
			BT_LOGGING_LEVEL_NONE, &muxer) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_simple_sink_component(graph, "dnntrace", sink_initialize,
			sink_consume, NULL, r, &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    connect_graph(graph, source, muxer, sink) != 0) {
		fail(error, size, "cannot build the babeltrace2 graph", trace_dir);
		goto out;
	}
	pthread_mutex_unlock(&graph_setup_lock);
	running = true;
	for (;;) {
		lsan_disable();
		bt_graph_run_status status = bt_graph_run(graph);
		lsan_enable();
		if (status == BT_GRAPH_RUN_STATUS_OK)
			break;
		if (status == BT_GRAPH_RUN_STATUS_AGAIN)
			continue;
		fail(error, size, "truncated or corrupt trace", trace_dir);
		goto out;
	}
	rc = 0;
out:
	if (running)
		pthread_mutex_lock(&graph_setup_lock);
	bt_graph_put_ref(graph);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	pthread_mutex_unlock(&graph_setup_lock);
	return rc;
}

static void reader_free(struct reader *r)
{
	for (size_t i = 0; i < r->n_classes; i++)
		free(r->classes[i]);
	free(r->classes);
	for (size_t i = 0; i < r->n_streams; i++)
		free(r->streams[i]);
	free(r->streams);
	dt_u64map_free(&r->named_threads);
	dt_u64map_free(&r->names_passed);
	free(r->lib_tensors);
	free(r->lib_ptrs);
	free(r->lib_roles);
	free(r->lib_dtypes);
	free(r->lib_ranks);
	free(r->lib_dims);
}

/* ---- several decoders, merged -------------------------------------------- */

/* One of several graphs, on a thread of its own, over its share of the
 * stream files; its records wait in its pipe for the merge. */
struct decoder {
	struct reader r;             /* its graph side, keyed */
	const char *trace_dir;       /* for messages */
	bt_value *params;
	char error[1024];
	int rc;
	pthread_t thread;
	bool started;
	const char *at, *end;        /* the merge's place in its records */
	bool done;
	int spill_fd;                /* its records far ahead of the merge */
};

/* A file for a decoder's records that run far ahead of the merge (a
 * later slice of a file: all its records come after the earlier
 * slice's), in the split's scratch directory and unlinked at once: the
 * records never outlive the process. -1: none (the decoder waits). */
static int spill_file(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/spill.XXXXXX", dir) >=
			(int)sizeof(path))
		return -1;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

static void *decoder_run(void *arg)
{
	struct decoder *d = arg;
	d->rc = run_graph(d->trace_dir, d->params, &d->r, d->error,
			sizeof(d->error));
	bt_current_thread_clear_error();
	dt_event_pipe_close(d->r.pipe);
	return NULL;
}

/* The decoder's next record in d->at, waiting for it; false when the
 * decoder has no more. */
static bool next_record(struct decoder *d)
{
	while (!d->done && d->at >= d->end) {
		size_t len;
		if (!dt_event_pipe_pull(d->r.pipe, &d->at, &len))
			d->done = true;
		else
			d->end = d->at + len;
	}
	return !d->done;
}

/* Which of two decoders' next records one graph's muxer would give first
 * (babeltrace2 2.0's muxer: time from the clock's origin, then trace UUID,
 * stream class id, stream id; two decoders share a stream only as slices
 * of its file, which go in file order). */
static bool goes_first(const struct record *a, size_t da,
		const struct record *b, size_t db)
{
	if (a->order_ns != b->order_ns)
		return a->order_ns < b->order_ns;
	const struct stream_key *x = a->stream, *y = b->stream;
	if (x && y) {
		if (x->has_uuid != y->has_uuid)
			return x->has_uuid;
		int c = x->has_uuid ? memcmp(x->uuid, y->uuid, sizeof(x->uuid)) : 0;
		if (c != 0)
			return c < 0;
		if (x->class_id != y->class_id)
			return x->class_id < y->class_id;
		if (x->id != y->id)
			return x->id < y->id;
		/* one stream's slices: in file order */
		if (x->slice != y->slice)
			return x->slice < y->slice;
	}
	return da < db;
}

/* The decoders' records into the model and hooks, in timestamp order:
 * at each step the head that goes first. */
static void merge(struct reader *an, struct decoder *dec, size_t n)
{
	for (size_t i = 0; i < n; i++)
		next_record(&dec[i]);
	for (;;) {
		size_t best = n;
		for (size_t i = 0; i < n; i++) {
			if (dec[i].done)
				continue;
			if (best == n || goes_first((const struct record *)dec[i].at,
					i, (const struct record *)dec[best].at, best))
				best = i;
		}
		if (best == n)
			return;
		const struct record *rec = (const struct record *)dec[best].at;
		take_record(an, rec);
		dec[best].at += rec->size;
		next_record(&dec[best]);
	}
}

static bt_value *inputs_params(char **dirs, size_t n_dirs)
{
	bt_value *params = bt_value_map_create();
	bt_value *inputs = NULL;
	if (!params || bt_value_map_insert_empty_array_entry(params, "inputs",
			&inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
		bt_value_put_ref(params);
		return NULL;
	}
	for (size_t i = 0; i < n_dirs; i++)
		bt_value_array_append_string_element(inputs, dirs[i]);
	return params;
}

/* Decodes split->n_decoders shares at once; 0, or -1 with the first
 * failing decoder's line in error. */
static int read_split(const char *trace_dir, const struct dt_stream_split *split,
		struct reader *an, char *error, size_t error_size)
{
	size_t n = split->n_decoders;
	struct decoder *dec = dt_xcalloc(n, sizeof(*dec));
	bool sliced = false;
	for (size_t i = 0; i < n; i++)
		sliced = sliced || split->n_heads[i] > 0;
	/* what is left of the scratch room once the slices were copied */
	uint64_t spill_room = sliced ? dt_scratch_room(split->root) : 0;
	for (size_t i = 0; i < n; i++) {
		dec[i].trace_dir = trace_dir;
		dec[i].r.keyed = true;
		dec[i].r.want_names = an->want_names;
		dec[i].r.pipe = dt_event_pipe_new_pulled();
		dec[i].r.heads = split->heads[i];
		dec[i].r.n_heads = split->n_heads[i];
		dec[i].spill_fd = -1;
		if (sliced)
			dec[i].spill_fd = spill_file(split->root);
		if (dec[i].spill_fd >= 0)
			dt_event_pipe_spill(dec[i].r.pipe, dec[i].spill_fd,
					spill_room / n);
		dec[i].params = inputs_params(split->inputs[i], split->n_inputs[i]);
		if (!dec[i].params) {
			snprintf(dec[i].error, sizeof(dec[i].error), "out of memory");
			dec[i].rc = -1;
		} else {
			dec[i].started = pthread_create(&dec[i].thread, NULL,
					decoder_run, &dec[i]) == 0;
			if (!dec[i].started) {
				snprintf(dec[i].error, sizeof(dec[i].error),
						"%s: cannot start a decoding thread",
						trace_dir);
				dec[i].rc = -1;
			}
		}
		if (!dec[i].started)
			dt_event_pipe_close(dec[i].r.pipe);
	}
	merge(an, dec, n);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		if (dec[i].started)
			pthread_join(dec[i].thread, NULL);
		if (dec[i].rc != 0 && rc == 0) {
			snprintf(error, error_size, "%s", dec[i].error);
			rc = -1;
		}
	}
	unsigned long long spilled = 0;
	for (size_t i = 0; i < n; i++) {
		spilled += dt_event_pipe_spilled(dec[i].r.pipe);
		dt_event_pipe_free(dec[i].r.pipe);
		if (dec[i].spill_fd >= 0)
			close(dec[i].spill_fd);
		bt_value_put_ref(dec[i].params);
		reader_free(&dec[i].r);
	}
	free(dec);
	/* DNNTRACE_SPLIT_PLAN (stream_split.h) also says what was spilled */
	const char *plan = getenv("DNNTRACE_SPLIT_PLAN");
	FILE *f = plan && plan[0] ? fopen(plan, "a") : NULL;
	if (f) {
		fprintf(f, "records spilled %llu bytes\n", spilled);
		fclose(f);
	}
	return rc;
}

int dt_read_trace(const char *trace_dir, struct dt_model *m, char *error,
		size_t error_size)
{
	return dt_read_trace_hooked(trace_dir, m, NULL, 1, error, error_size);
}

int dt_read_trace_hooked(const char *trace_dir, struct dt_model *m,
		const struct dt_pass_hooks *hooks, size_t decoders, char *error,
		size_t error_size)
{
	struct stat st;
	if (stat(trace_dir, &st) != 0) {
		snprintf(error, error_size, "%s: %s", trace_dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(error, error_size, "%s: not a directory (expected an "
				"LTTng trace directory)", trace_dir);
		return -1;
	}
	bt_value *params = bt_value_map_create();
	bt_value *inputs = NULL;
	if (!params || bt_value_map_insert_empty_array_entry(params, "inputs",
			&inputs) != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
		bt_value_put_ref(params);
		snprintf(error, error_size, "out of memory");
		return -1;
	}
	char **dirs;
	size_t n_dirs;
	int walk = dt_find_trace_dirs(trace_dir, &dirs, &n_dirs);
	for (size_t i = 0; i < n_dirs; i++)
		bt_value_array_append_string_element(inputs, dirs[i]);
	dt_trace_dirs_free(dirs, n_dirs);
	if (walk != 0 || bt_value_array_get_length(inputs) == 0) {
		bt_value_put_ref(params);
		snprintf(error, error_size, "%s: not an LTTng trace (no CTF "
				"metadata file found under it)", trace_dir);
		return -1;
	}
	struct reader r = {.model = m, .hooks = hooks, .want_names = hooks != NULL};
	struct dt_stream_split split;
	dt_stream_split(trace_dir, decoders, &split);
	dt_progress_enter(DT_PHASE_DECODING);
	int rc;
	if (split.n_decoders > 1) {
		/* the stream files decoded by several graphs at once, merged
		 * here, on the calling thread */
		rc = read_split(trace_dir, &split, &r, error, error_size);
	} else {
		r.pipe = dt_event_pipe_new(consume_records, &r, true);
		rc = run_graph(trace_dir, params, &r, error, error_size);
		/* the analysis thread has every record once this returns */
		dt_event_pipe_finish(r.pipe);
	}
	dt_stream_split_free(&split);
	bt_value_put_ref(params);
	reader_free(&r);
	bt_current_thread_clear_error();
	if (rc == 0)
		dt_model_finish(m);
	/* dnntrace record's status proves the program was traced: it simply
	 * made no traced call (the report says so) */
	/* a trace dnntrace record made: an empty one is a report too (nothing
	 * traced, or everything lost: the summary says which) */
	if (rc == 0 && m->dnntrace_events == 0 && !dt_record_status.present) {
		snprintf(error, error_size, "%s: trace has no dnntrace events "
				"(was the program traced with dnntrace record?)",
				trace_dir);
		return -1;
	}
	return rc;
}
