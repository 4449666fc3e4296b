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
#define DT_PICKLE_SHARED 128                 /* strings dt_pickle_str_shared keeps */
#define DT_PICKLE_NO_MEMO UINT32_MAX

struct dt_pickle {
	struct dt_out *out;
	int depth;                           /* open containers */
	bool is_dict[DT_PICKLE_DEPTH];
	uint32_t batched[DT_PICKLE_DEPTH];   /* stack items since the MARK */
	bool overflow;                       /* nested deeper than DEPTH */
	uint32_t memo_count;                 /* MEMOIZE opcodes written */
	const char *shared[DT_PICKLE_SHARED];        /* by address, hashed */
	uint32_t shared_memo[DT_PICKLE_SHARED];
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

/* The memo (MEMOIZE, BINGET, LONG_BINGET, as CPython writes them): an
 * object written once and referred to again, the same object for the
 * reader. Only for what a reader never changes (strings; lists of frames):
 * PyTorch's viewer edits every trace event it reads, so those stay apart.
 * A list kept in the memo: its index, for dt_pickle_memo_get. */
uint32_t dt_pickle_list_begin_memo(struct dt_pickle *p);
/* The object kept at index, once more (one item of the open container). */
void dt_pickle_memo_get(struct dt_pickle *p, uint32_t index);
/* A string that lives as long as the pickle and repeats (a key, a name
 * from a small set): written the first time, then read from the memo;
 * known by its address, so the text at that address must never change
 * while the pickle is written (DT_PICKLE_SHARED of them; more are written
 * out each time). */
void dt_pickle_str_shared(struct dt_pickle *p, const char *s);

/* Shorthands for a dict's key: value pairs. */
void dt_pickle_key_str(struct dt_pickle *p, const char *key, const char *v);
void dt_pickle_key_int(struct dt_pickle *p, const char *key, int64_t v);
void dt_pickle_key_uint(struct dt_pickle *p, const char *key, uint64_t v);

#endif
