/*
 * A small writer of Python pickles (protocol 4, no framing): dicts,
 * lists, integers, strings, floats, None and booleans, written straight
 * into an output buffer as they come, so a report of millions of events
 * is never built in memory. It writes the opcodes CPython's pickle module
 * writes for these types (checked with pickletools in the tests), and no
 * more than PyTorch's memory viewer (torch/utils/viz/MemoryViz.js) reads:
 * containers are filled in batches of 1000 as CPython does, since the
 * viewer spreads a batch onto its stack.
 * Must never write an opcode that runs code (GLOBAL, REDUCE ...): a
 * report is data.
 */
#ifndef DNNTRACE_ANALYSIS_PICKLE_WRITER_H
#define DNNTRACE_ANALYSIS_PICKLE_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/report/out_buffer.h"

#define DT_PICKLE_DEPTH 16

struct dt_pickle {
	struct dt_out *out;
	int depth;                           /* open containers */
	bool is_dict[DT_PICKLE_DEPTH];
	uint32_t batched[DT_PICKLE_DEPTH];   /* stack items since the MARK */
	bool overflow;                       /* nested deeper than DEPTH */
};

/* The protocol header; the caller's out stays the caller's. */
void dt_pickle_begin(struct dt_pickle *p, struct dt_out *out);
/* The STOP opcode: the pickle is complete. -1 when containers were left
 * open or nested too deep, else 0. */
int dt_pickle_end(struct dt_pickle *p);

void dt_pickle_dict_begin(struct dt_pickle *p);
void dt_pickle_dict_end(struct dt_pickle *p);
void dt_pickle_list_begin(struct dt_pickle *p);
void dt_pickle_list_end(struct dt_pickle *p);

/* In a dict, a key then its value, each by one of these calls. */
void dt_pickle_str(struct dt_pickle *p, const char *s);  /* NULL: None */
void dt_pickle_int(struct dt_pickle *p, int64_t v);
void dt_pickle_uint(struct dt_pickle *p, uint64_t v);
void dt_pickle_float(struct dt_pickle *p, double v);
void dt_pickle_bool(struct dt_pickle *p, bool v);
void dt_pickle_none(struct dt_pickle *p);

/* Shorthands for a dict's key: value pairs. */
void dt_pickle_key_str(struct dt_pickle *p, const char *key, const char *v);
void dt_pickle_key_int(struct dt_pickle *p, const char *key, int64_t v);
void dt_pickle_key_uint(struct dt_pickle *p, const char *key, uint64_t v);

#endif
