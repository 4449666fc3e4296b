#!/usr/bin/env python3
"""Checks the dnntrace_nvtx events of a trace (babeltrace2 text on stdin)
against what tests/nvtx/nvtx_ranges did (its TRUTH file: one tab-separated
`tid kind domain name id` line per NVTX range call). Used by
tests/nvtx/test_*.sh; prints one reason per failed check and exits 1. Must
never pass a check it did not make.

  check_ranges.py exact TRUTH   each thread's events are exactly its calls,
                                in order, with names, domains and ids; push/pop
                                nest per (thread, domain); start/end ids match
                                across threads
  check_ranges.py none          the trace holds no dnntrace_nvtx event

The trace's naming rules (tracepoints/README.md): NVTX's default domain is
`<default>`; an empty name or message is `<unnamed>`.
"""
import re
import sys

LINE = re.compile(r'^\[[^\]]*\] \([^)]*\) \S+ (\S+): \{ cpu_id = \d+ \}, \{ (.*?) \}, \{ (.*) \}$')
FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|[^,]+)')
DEFAULT_DOMAIN = '<default>'
UNNAMED = '<unnamed>'

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


def parse_fields(text):
    fields = {}
    for m in FIELD.finditer(text):
        value = m.group(2).strip()
        if value.startswith('"'):
            fields[m.group(1)] = value[1:-1]
        else:
            fields[m.group(1)] = int(value, 0)
    return fields


def nvtx_events(stream):
    """(vtid, vpid, record) per dnntrace_nvtx event, in trace order."""
    events = []
    for line in stream:
        if not line.strip():
            continue
        m = LINE.match(line.rstrip('\n'))
        if not m:
            check(False, 'unparsed trace line: ' + line[:120])
            continue
        name = m.group(1)
        if not name.startswith('dnntrace_nvtx:'):
            continue
        context, payload = parse_fields(m.group(2)), parse_fields(m.group(3))
        kind = name.split(':', 1)[1]
        if kind == 'push':
            record = ('push', payload['domain'], payload['name'])
        elif kind == 'pop':
            record = ('pop', payload['domain'])
        elif kind == 'start':
            record = ('start', payload['id'], payload['domain'], payload['name'])
        elif kind == 'end':
            record = ('end', payload['id'])
        else:
            check(False, 'unknown event ' + name)
            continue
        events.append((context['vtid'], context['vpid'], record))
    return events


def truth_records(path):
    """{tid: [record, ...]} as the trace must show them."""
    per_thread = {}
    with open(path, encoding='utf-8') as truth:
        for line in truth:
            tid, kind, domain, name, range_id = line.rstrip('\n').split('\t')
            domain = domain or DEFAULT_DOMAIN
            name = name or UNNAMED
            range_id = int(range_id)
            record = {'push': ('push', domain, name), 'pop': ('pop', domain),
                      'start': ('start', range_id, domain, name),
                      'end': ('end', range_id)}[kind]
            per_thread.setdefault(int(tid), []).append(record)
    return per_thread


def check_exact(truth_path, events):
    expected = truth_records(truth_path)
    actual = {}
    for vtid, _, record in events:
        actual.setdefault(vtid, []).append(record)

    check(len({vpid for _, vpid, _ in events}) == 1, 'events from several processes')
    check(set(actual) == set(expected),
          'threads with events %s, threads that called NVTX %s' % (sorted(actual), sorted(expected)))
    for tid, records in expected.items():
        got = actual.get(tid, [])
        for index, (want, have) in enumerate(zip(records, got)):
            if not check(want == have, 'thread %d call %d: expected %r, trace has %r' % (tid, index, want, have)):
                break
        check(len(got) == len(records),
              'thread %d: %d calls, %d events' % (tid, len(records), len(got)))

    # Nesting, from the trace alone: every pop closes an open push of its
    # thread and domain; nothing is left open; start ids are unique, never 0,
    # and each end closes a range started earlier, on any thread.
    stacks, started, crossing = {}, {}, 0
    for vtid, _, record in events:
        kind = record[0]
        if kind == 'push':
            stacks.setdefault((vtid, record[1]), []).append(record[2])
        elif kind == 'pop':
            stack = stacks.get((vtid, record[1]), [])
            check(stack, 'thread %d pops %s with no range open' % (vtid, record[1]))
            if stack:
                stack.pop()
        elif kind == 'start':
            check(record[1] != 0 and record[1] not in started, 'start id %d reused or 0' % record[1])
            started[record[1]] = vtid
        else:
            check(record[1] in started, 'end of id %d never started' % record[1])
            crossing += started.pop(record[1], vtid) != vtid
    for (vtid, domain), stack in stacks.items():
        check(not stack, 'thread %d leaves %s open in %s' % (vtid, stack, domain))
    check(not started, 'ranges never ended: %s' % sorted(started))
    check(crossing == 2, '%d start/end ranges crossed threads, the program made 2' % crossing)
    return sum(len(records) for records in expected.values())


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'exact':
        count = check_exact(sys.argv[2], nvtx_events(sys.stdin))
        summary = '%d NVTX calls, each traced as made' % count
    elif len(sys.argv) == 2 and sys.argv[1] == 'none':
        events = nvtx_events(sys.stdin)
        check(not events, '%d dnntrace_nvtx events, expected none' % len(events))
        summary = 'no dnntrace_nvtx event'
    else:
        sys.exit('usage: check_ranges.py exact TRUTH | none  (trace text on stdin)')
    for message in failures[:20]:
        print('FAIL: ' + message)
    if failures:
        print('%d check(s) failed' % len(failures))
        sys.exit(1)
    print(summary)


if __name__ == '__main__':
    main()
