/*
 * The damage record and its summary lines (damage.h). Must never compute
 * anything from the trace: the checks (trace_check.c) fill it.
 */
#include "analysis/decode/damage.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

struct dt_damage dt_damage;

static const char *const kind_names[DT_DAMAGE_KINDS][2] = {
	[DT_DAMAGE_PACKET_DROPPED] = {"corrupt packet skipped",
		"corrupt packets skipped"},
	[DT_DAMAGE_PACKET_GAP] = {"packet missing (sequence gap)",
		"packets missing (sequence gaps)"},
	[DT_DAMAGE_STREAM_CUT] = {"stream file shorter than its packet headers say",
		"stream files shorter than their packet headers say"},
	[DT_DAMAGE_STREAM_SHORT] = {"stream file ending early (its index lists more)",
		"stream files ending early (their index lists more)"},
	[DT_DAMAGE_STREAM_MISSING] = {"stream file missing",
		"stream files missing"},
	[DT_DAMAGE_STREAM_DUPLICATE] = {"duplicated stream file skipped",
		"duplicated stream files skipped"},
	[DT_DAMAGE_OUT_OF_ORDER] = {"packet out of order skipped",
		"packets out of order skipped"},
	[DT_DAMAGE_TRACE_SKIPPED] = {"trace skipped (unusable metadata)",
		"traces skipped (unusable metadata)"},
	[DT_DAMAGE_EVENT_CLASS] = {"event of a corrupt event class ignored",
		"events of corrupt event classes ignored"},
};

void dt_damage_note(enum dt_damage_kind kind, uint64_t n, const char *fmt, ...)
{
	dt_damage.count[kind] += n;
	if (dt_damage.first[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(dt_damage.first, sizeof(dt_damage.first), fmt, ap);
	va_end(ap);
	for (char *c = dt_damage.first; *c; c++)
		if (*c == '\n' || *c == '\r' || *c == '\t')
			*c = ' ';
}

bool dt_damage_any(void)
{
	for (int k = 0; k < DT_DAMAGE_KINDS; k++)
		if (dt_damage.count[k])
			return true;
	return false;
}

void dt_damage_reset(void)
{
	memset(&dt_damage, 0, sizeof(dt_damage));
}

void dt_damage_write_summary(FILE *f)
{
	if (!dt_damage_any())
		return;
	fputs("trace damage:", f);
	const char *sep = " ";
	for (int k = 0; k < DT_DAMAGE_KINDS; k++) {
		uint64_t n = dt_damage.count[k];
		if (!n)
			continue;
		fprintf(f, "%s%" PRIu64 " %s", sep, n, kind_names[k][n != 1]);
		sep = ", ";
	}
	fputc('\n', f);
	if (dt_damage.first[0])
		fprintf(f, "first damage: %s\n", dt_damage.first);
	fputs("analysis incomplete: the trace is damaged\n", f);
}
