/*
 * Reads dnntrace-status (written by scripts/dnntrace record, format in
 * scripts/lib/dnntrace-record.sh) and turns it, with the per-process event
 * counts of this analysis, into the summary's loss line. See
 * record_status.h. Must never fail the analysis: what it cannot read it
 * says it could not read.
 */
#include "analysis/decode/record_status.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util.h"

struct dt_record_status dt_record_status = {.command_status = -1};

void dt_record_status_reset(void)
{
	free(dt_record_status.processes);
	memset(&dt_record_status, 0, sizeof(dt_record_status));
	dt_record_status.command_status = -1;
}

static struct dt_record_process *process_of(int64_t pid)
{
	struct dt_record_status *s = &dt_record_status;
	if (s->last < s->n_processes && s->processes[s->last].pid == pid)
		return &s->processes[s->last];
	for (size_t i = 0; i < s->n_processes; i++)
		if (s->processes[i].pid == pid) {
			s->last = i;
			return &s->processes[i];
		}
	dt_grow((void **)&s->processes, s->n_processes + 1, &s->cap_processes,
			sizeof(*s->processes));
	s->last = s->n_processes++;
	struct dt_record_process *p = &s->processes[s->last];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

void dt_record_status_on_event(int64_t vpid)
{
	process_of(vpid)->seen++;
}

static bool parse_u64(const char *s, uint64_t *value)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || (*end != '\0' && *end != ' '))
		return false;
	*value = v;
	return true;
}

static void parse_line(struct dt_record_status *s, const char *line)
{
	uint64_t v, emitted, untraced, late = 0;
	long long pid;
	const char *value = strchr(line, ' ');
	value = value ? value + 1 : "";
	if (*line == '\0')
		return;
	if (strncmp(line, "dnntrace-status ", 16) == 0)
		return;
	if (strcmp(line, "state complete") == 0) {
		s->ended = true;
	} else if (strcmp(line, "state recording") == 0) {
		s->ended = false;
	} else if (strncmp(line, "command_status ", 15) == 0 && parse_u64(value, &v) && v < 256) {
		s->command_status = (int)v;
	} else if (strncmp(line, "isolated ", 9) == 0) {
		/* informative */
	} else if (strncmp(line, "lossy ", 6) == 0) {
		s->lossy = strcmp(value, "1") == 0;
	} else if (strncmp(line, "teardown ", 9) == 0) {
		s->teardown_timed_out = strcmp(value, "timed-out") == 0;
		s->teardown_failed = strcmp(value, "failed") == 0;
	} else if (strncmp(line, "discarded_events ", 17) == 0) {
		s->discarded_known = parse_u64(value, &s->discarded);
	} else if (strncmp(line, "write_errors ", 13) == 0) {
		snprintf(s->write_errors, sizeof(s->write_errors), "%s", value);
	} else if (sscanf(line, "process %lld %" SCNu64 " %" SCNu64 " %" SCNu64, &pid,
			&emitted, &untraced, &late) >= 3 && pid > 0) {
		struct dt_record_process *p = process_of(pid);
		p->emitted += emitted;
		p->untraced += untraced;
		p->untraced_late += late;
	} else {
		s->malformed = true;
	}
}

void dt_record_status_parse(const char *text)
{
	struct dt_record_status *s = &dt_record_status;
	s->present = true;
	while (*text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char line[256];
		if (len >= sizeof(line)) {
			s->malformed = true;
		} else {
			memcpy(line, text, len);
			line[len] = '\0';
			parse_line(s, line);
		}
		text += len + (end ? 1 : 0);
	}
}

void dt_record_status_read(const char *trace_dir)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/%s", trace_dir, DT_RECORD_STATUS_FILE) >=
			(int)sizeof(path))
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	/* the file is a reserved block: text, then blank lines */
	size_t cap = 1 << 16, len = 0;
	char *text = dt_xmalloc(cap + 1);
	size_t got;
	while ((got = fread(text + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			if (cap >= (size_t)1 << 26)
				break;
			cap *= 2;
			text = dt_xrealloc(text, cap + 1);
		}
	}
	fclose(f);
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		dt_record_status.present = true;
		dt_record_status.malformed = true;
	} else {
		dt_record_status_parse(text);
	}
	free(text);
}

bool dt_record_status_nothing_traced(void)
{
	const struct dt_record_status *s = &dt_record_status;
	if (!s->present || !s->ended)
		return false;
	for (size_t i = 0; i < s->n_processes; i++)
		if (s->processes[i].emitted || s->processes[i].untraced ||
		    s->processes[i].untraced_late)
			return false;
	return true;
}

bool dt_record_status_killed(void)
{
	const struct dt_record_status *s = &dt_record_status;
	return s->present && s->command_status == 128 + 9;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Events the tracer handed to LTTng that the trace lacks. */
static uint64_t not_written(void)
{
	uint64_t lost = 0;
	for (size_t i = 0; i < dt_record_status.n_processes; i++) {
		const struct dt_record_process *p = &dt_record_status.processes[i];
		if (p->emitted > p->seen)
			lost = add_sat(lost, p->emitted - p->seen);
	}
	return lost;
}

static uint64_t late_calls(void)
{
	uint64_t calls = 0;
	for (size_t i = 0; i < dt_record_status.n_processes; i++)
		calls = add_sat(calls, dt_record_status.processes[i].untraced_late);
	return calls;
}

static uint64_t untraced_calls(size_t *processes)
{
	uint64_t calls = 0;
	*processes = 0;
	for (size_t i = 0; i < dt_record_status.n_processes; i++)
		if (dt_record_status.processes[i].untraced) {
			calls = add_sat(calls, dt_record_status.processes[i].untraced);
			++*processes;
		}
	return calls;
}

uint64_t dt_record_status_lost(bool *at_least)
{
	size_t processes;
	uint64_t untraced = untraced_calls(&processes);
	const struct dt_record_status *s = &dt_record_status;
	/* A call not recorded is at least one event; a record that never
	 * ended wrote no counts. The counts themselves are exact: the tracer
	 * counts an event before writing it, so one cut short counts as lost. */
	uint64_t late = late_calls();
	*at_least = untraced > 0 || late > 0 || !s->ended || s->malformed;
	return add_sat(add_sat(not_written(), untraced), late);
}

void dt_record_status_write_summary(FILE *f)
{
	const struct dt_record_status *s = &dt_record_status;
	if (!s->present)
		return;
	if (!s->ended) {
		fputs("incomplete: an unknown number of events lost (the recording did "
				"not end: dnntrace record was stopped before writing its "
				"status)\n", f);
		return;
	}
	size_t untraced_processes;
	uint64_t untraced = untraced_calls(&untraced_processes);
	uint64_t missing = not_written();
	uint64_t discarded = s->discarded_known ? s->discarded : 0;
	if (discarded > missing)
		discarded = missing;   /* the trace holds some after all */
	uint64_t other = missing - discarded;
	bool broken = s->teardown_timed_out || s->teardown_failed || s->write_errors[0];
	uint64_t late = late_calls();
	if (missing == 0 && untraced == 0 && late == 0 && !broken && !s->malformed)
		return;
	bool at_least;
	uint64_t lost = dt_record_status_lost(&at_least);
	fprintf(f, "incomplete: %s%" PRIu64 " events lost (", at_least ? "at least " : "", lost);
	const char *sep = "";
	if (discarded) {
		fprintf(f, "%" PRIu64 " discarded by LTTng%s", discarded,
				s->lossy ? ": --lossy and its buffers were full" : "");
		sep = "; ";
	}
	if (other || broken) {
		fprintf(f, "%s%" PRIu64 " never written: ", sep, other);
		if (s->write_errors[0])
			fprintf(f, "LTTng could not write the trace (%s)", s->write_errors);
		else if (s->teardown_timed_out)
			fputs("a traced process was killed while writing an event and "
					"LTTng never completed its buffers", f);
		else if (s->teardown_failed)
			fputs("the LTTng session could not be torn down", f);
		else if (s->command_status > 128)
			fprintf(f, "the traced command was killed by signal %d "
					"before they were written", s->command_status - 128);
		else
			fputs("LTTng lost them, cause unknown", f);
		sep = "; ";
	}
	if (untraced) {
		fprintf(f, "%s%" PRIu64 " calls of %zu process%s made before %s "
				"registered with LTTng", sep, untraced, untraced_processes,
				untraced_processes == 1 ? "" : "es",
				untraced_processes == 1 ? "it" : "they");
		sep = "; ";
	}
	if (late) {
		fprintf(f, "%s%" PRIu64 " calls made while their process exited, "
				"after tracing had ended for it", sep, late);
		sep = "; ";
	}
	if (s->malformed)
		fprintf(f, "%sthe recording's status file is partly unreadable", sep);
	fputs(")\n", f);
}
