/*
 * What the reader (trace_reader.c) reads of each dnntrace event: the payload
 * fields it looks up by name when it first meets an event class, and the
 * slot each lands in. Both are expanded from the tracer's own field lists
 * (tracepoints/event_fields.h), so the reader asks for exactly the fields
 * the tracepoints write; a few fields that only older trace formats had are
 * added here as optional extras (tracepoints/README.md, "Format versions").
 *
 * The reader reads a field by its generated slot name, DT_SLOT(event,
 * field): a field that is not in the event's list is a compile error, never
 * a wrong number. Must hold nothing but these descriptions.
 */
#ifndef DNNTRACE_ANALYSIS_EVENT_SPECS_H
#define DNNTRACE_ANALYSIS_EVENT_SPECS_H

#include <stdbool.h>
#include <stddef.h>

#include "tracepoints/event_fields.h"

/* What the reader does with an event. */
enum dt_handler {
	H_IGNORE,
	H_GPU_COPY,            /* dnntrace_gpu:memcpy / memset */
	H_ALLOC,
	H_FREE,
	H_MEMCPY,
	H_MEMSET,
	H_LAUNCH,
	H_FUNCTION,            /* format 2 on: a kernel's name, once */
	H_GRAPH_LAUNCH,
	H_TAG,
	H_STATUS,
	H_GPU_KERNEL,
	H_GPU_KERNEL_NAME,     /* format 3 on: a GPU kernel's name, once */
	H_EXTERNAL_CORRELATION,
	H_RECORDS_DROPPED,
	H_LIB_CALL,
	H_LIB_SET_STREAM,
	H_NVTX_PUSH,
	H_NVTX_POP,
	H_NVTX_START,
	H_NVTX_END,
	H_MEM_INFO,
	H_POWER,
	H_CAPTURED_NODE,       /* format 4 on: CUDA graph nodes */
	H_GRAPH_NODE,
	H_GRAPH_NODE_CLONE,
	H_GRAPH_EXEC_UPDATE,
	H_GRAPH_MEM_NODE,      /* format 5 on: graph memory nodes */
	H_GRAPH_NODE_ENABLE,   /* format 8 on: an exec's node disabled or enabled */
};

/*
 * Fields of older formats the reader still reads, in the lists' form (only
 * name and kind matter here): format 1's launches carried their kernel's
 * name; formats 1 and 2 had the stream in every alloc and free (format 3
 * only in alloc_async and free_async, where it comes at the very slot this
 * extra takes), the kind of memory in every alloc (format 3 takes it from
 * the api) and the kernel's name in every GPU kernel record.
 */
#define DT_EXTRAS_NONE(F)
#define DT_EXTRAS_api_launch(F) F(OPT, STRING, char, name, -)
#define DT_EXTRAS_api_alloc(F) F(OPT, HEX, uint64_t, stream, -) F(OPT, MEM_KIND, int, kind, -)
#define DT_EXTRAS_api_free(F) F(OPT, HEX, uint64_t, stream, -)
#define DT_EXTRAS_gpu_kernel(F) F(OPT, STRING, char, name, -)

/* Every event the reader reads: E(provider, event, handler, extras). */
#define DT_READER_EVENTS(E) \
	E(api,  alloc,                H_ALLOC,                DT_EXTRAS_api_alloc) \
	E(api,  alloc_async,          H_ALLOC,                DT_EXTRAS_NONE) \
	E(api,  free,                 H_FREE,                 DT_EXTRAS_api_free) \
	E(api,  free_async,           H_FREE,                 DT_EXTRAS_NONE) \
	E(api,  memcpy,               H_MEMCPY,               DT_EXTRAS_NONE) \
	E(api,  memset,               H_MEMSET,               DT_EXTRAS_NONE) \
	E(api,  graph_launch,         H_GRAPH_LAUNCH,         DT_EXTRAS_NONE) \
	E(api,  launch,               H_LAUNCH,               DT_EXTRAS_api_launch) \
	E(api,  function,             H_FUNCTION,             DT_EXTRAS_NONE) \
	E(api,  tag,                  H_TAG,                  DT_EXTRAS_NONE) \
	E(api,  status,               H_STATUS,               DT_EXTRAS_NONE) \
	E(api,  mem_info,             H_MEM_INFO,             DT_EXTRAS_NONE) \
	E(api,  captured_node,        H_CAPTURED_NODE,        DT_EXTRAS_NONE) \
	E(api,  graph_node,           H_GRAPH_NODE,           DT_EXTRAS_NONE) \
	E(api,  graph_node_clone,     H_GRAPH_NODE_CLONE,     DT_EXTRAS_NONE) \
	E(api,  graph_exec_update,    H_GRAPH_EXEC_UPDATE,    DT_EXTRAS_NONE) \
	E(api,  graph_mem_node,       H_GRAPH_MEM_NODE,       DT_EXTRAS_NONE) \
	E(api,  graph_node_enable,    H_GRAPH_NODE_ENABLE,    DT_EXTRAS_NONE) \
	E(gpu,  kernel,               H_GPU_KERNEL,           DT_EXTRAS_gpu_kernel) \
	E(gpu,  kernel_name,          H_GPU_KERNEL_NAME,      DT_EXTRAS_NONE) \
	E(gpu,  external_correlation, H_EXTERNAL_CORRELATION, DT_EXTRAS_NONE) \
	E(gpu,  records_dropped,      H_RECORDS_DROPPED,      DT_EXTRAS_NONE) \
	E(gpu,  memcpy,               H_GPU_COPY,             DT_EXTRAS_NONE) \
	E(gpu,  memset,               H_GPU_COPY,             DT_EXTRAS_NONE) \
	E(gpu,  power,                H_POWER,                DT_EXTRAS_NONE) \
	E(lib,  call,                 H_LIB_CALL,             DT_EXTRAS_NONE) \
	E(lib,  set_stream,           H_LIB_SET_STREAM,       DT_EXTRAS_NONE) \
	E(nvtx, push,                 H_NVTX_PUSH,            DT_EXTRAS_NONE) \
	E(nvtx, pop,                  H_NVTX_POP,             DT_EXTRAS_NONE) \
	E(nvtx, start,                H_NVTX_START,           DT_EXTRAS_NONE) \
	E(nvtx, end,                  H_NVTX_END,             DT_EXTRAS_NONE)

enum { DT_MAX_FIELDS = 16 };

/*
 * The slots: one char member per field, so a member's offset is its slot.
 * DT_SLOT(api_launch, tensors) is the slot of dnntrace_api:launch's tensors.
 */
#define DT_SLOT_MEMBER_(need, kind, type, name, ...) char name;
#define DT_SLOTS_STRUCT_(provider, event, handler, extras)                            \
	struct dt_slots_##provider##_##event {                                        \
		DNNTRACE_FIELDS_##provider##_##event(DT_SLOT_MEMBER_)                 \
		extras(DT_SLOT_MEMBER_)                                               \
	};                                                                            \
	_Static_assert(sizeof(struct dt_slots_##provider##_##event) <= DT_MAX_FIELDS, \
		       "dnntrace_" #provider ":" #event " has more than DT_MAX_FIELDS fields");
DT_READER_EVENTS(DT_SLOTS_STRUCT_)

#define DT_SLOT(event, field) ((int)offsetof(struct dt_slots_##event, field))

/* What kind of CTF field a field must be (anything else is damaged metadata). */
enum dt_field_class { DT_CLASS_INTEGER, DT_CLASS_STRING, DT_CLASS_ARRAY };

struct dt_field_spec {
	const char *name;           /* NULL: past the last field */
	bool optional;              /* absent: read as 0 or "" */
	enum dt_field_class field_class;
};

struct dt_event_spec {
	const char *event;          /* provider:event */
	enum dt_handler handler;
	struct dt_field_spec fields[DT_MAX_FIELDS];
};

extern const struct dt_event_spec dt_event_specs[];
extern const size_t dt_event_spec_count;

#endif
