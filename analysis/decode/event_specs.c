/*
 * The reader's event specs (event_specs.h), expanded from the tracer's field
 * lists: every field of every event the reader reads, with whether older
 * traces may lack it and what kind of CTF field it must be. Must never
 * name a field by hand that the lists already name.
 */
#include "analysis/decode/event_specs.h"

#define DT_CLASS_OF_INT      DT_CLASS_INTEGER
#define DT_CLASS_OF_HEX      DT_CLASS_INTEGER
#define DT_CLASS_OF_API      DT_CLASS_INTEGER
#define DT_CLASS_OF_LIB_API  DT_CLASS_INTEGER
#define DT_CLASS_OF_MEM_KIND DT_CLASS_INTEGER
#define DT_CLASS_OF_STRING   DT_CLASS_STRING
#define DT_CLASS_OF_SEQ      DT_CLASS_ARRAY
#define DT_CLASS_OF_SEQ_HEX  DT_CLASS_ARRAY
#define DT_CLASS_OF_ARRAY    DT_CLASS_ARRAY
#define DT_OPTIONAL_REQ      false
#define DT_OPTIONAL_OPT      true

#define DT_SPEC_FIELD_(need, kind, type, name, ...) \
	{ #name, DT_OPTIONAL_##need, DT_CLASS_OF_##kind },
#define DT_SPEC_EVENT_(provider, event, handler, extras)                                  \
	{ "dnntrace_" #provider ":" #event, handler,                                      \
	  { DNNTRACE_FIELDS_##provider##_##event(DT_SPEC_FIELD_) extras(DT_SPEC_FIELD_) } },

const struct dt_event_spec dt_event_specs[] = {
	DT_READER_EVENTS(DT_SPEC_EVENT_)
};

const size_t dt_event_spec_count = sizeof(dt_event_specs) / sizeof(dt_event_specs[0]);
