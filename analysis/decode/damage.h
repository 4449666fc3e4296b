/*
 * What the checks found wrong with the trace files (damage.c): packets
 * dropped or missing, stream files cut short, missing or duplicated,
 * packets out of order, traces skipped. One record per analyzer run (one
 * trace directory), filled before decoding, printed in every summary.
 * Must never be silent: any damage marks the analysis incomplete.
 */
#ifndef DNNTRACE_ANALYSIS_DAMAGE_H
#define DNNTRACE_ANALYSIS_DAMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum dt_damage_kind {
	DT_DAMAGE_PACKET_DROPPED,    /* corrupt packet header/context: skipped */
	DT_DAMAGE_PACKET_GAP,        /* packets missing (sequence-number gaps) */
	DT_DAMAGE_STREAM_CUT,        /* file shorter than its packet headers say */
	DT_DAMAGE_STREAM_SHORT,      /* fewer packets than its index lists */
	DT_DAMAGE_STREAM_MISSING,    /* a stream file its index or number implies */
	DT_DAMAGE_STREAM_DUPLICATE,  /* two files hold the same stream */
	DT_DAMAGE_OUT_OF_ORDER,      /* packets going back in time: skipped */
	DT_DAMAGE_TRACE_SKIPPED,     /* unusable metadata: its streams unread */
	DT_DAMAGE_EVENT_CLASS,       /* events of a dnntrace class the metadata
	                                declares wrongly: ignored */
	DT_DAMAGE_KINDS
};

struct dt_damage {
	uint64_t count[DT_DAMAGE_KINDS];
	char first[240];             /* the first damage found, named */
};

/* The run's record (one trace directory per run). */
extern struct dt_damage dt_damage;

void dt_damage_note(enum dt_damage_kind kind, uint64_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool dt_damage_any(void);
void dt_damage_reset(void);

/* "trace damage: ..." and "analysis incomplete: ..." lines; nothing when
 * the trace is intact. */
void dt_damage_write_summary(FILE *f);

#endif
