#!/usr/bin/env python3
"""check_event_fields.py SPECS METADATA: the reader's event specs (lines of
print_event_specs) against the CTF metadata text of a trace the tracer wrote
(babeltrace2 --output-format=ctf-metadata). For every dnntrace event the
trace declares: the reader has a spec; every field the tracepoint writes is
in the spec, in the same order and of the same kind (integer, string,
array); every spec field the trace lacks is optional (a field of an older
format). And every event the reader reads is declared by the tracer. Exits
1 with one line per disagreement. Must never accept a field by a name the
specs do not hold."""
import re
import sys


def metadata_events(text):
    """{event name: [(field, kind), ...]} of the dnntrace_* events."""
    events = {}
    for block in re.finditer(r'event \{\s*name = "([^"]+)";(.*?)\n\};', text, re.S):
        name, body = block.group(1), block.group(2)
        if not name.startswith('dnntrace_'):
            continue
        fields_at = body.find('fields := struct {')
        fields = []
        depth, line = 0, ''
        for ch in body[fields_at + len('fields := struct {'):]:
            if ch == '{':
                depth += 1
            elif ch == '}':
                if depth == 0:
                    break
                depth -= 1
            line += ch
            if ch == ';' and depth == 0:
                fields.append(line.strip())
                line = ''
        parsed = []
        for f in fields:
            m = re.search(r'(\w+)\s*(\[[^\]]*\])?\s*;$', f)
            field = m.group(1)
            if field.startswith('_'):   # LTTng's CTF 1.8 names
                field = field[1:]
            if field.startswith('_') and field.endswith('_length'):
                continue                # a sequence's length, not a field of ours
            if m.group(2):
                kind = 'array'
            elif f.startswith('string'):
                kind = 'string'
            else:
                kind = 'integer'
            parsed.append((field, kind))
        events[name] = parsed
    return events


def main():
    specs = {}
    with open(sys.argv[1]) as f:
        for line in f:
            words = line.split()
            specs[words[0]] = [(w.lstrip('?').split(':')[0], w.split(':')[1], w.startswith('?'))
                               for w in words[1:]]
    with open(sys.argv[2]) as f:
        events = metadata_events(f.read())
    problems = []
    for name, fields in sorted(events.items()):
        spec = specs.get(name)
        if spec is None:
            problems.append(f'{name}: written by the tracer, unknown to the reader')
            continue
        written = [f for f, _ in fields]
        order = [f for f, _, _ in spec if f in written]
        if order != written:
            problems.append(f'{name}: the tracer writes {written}, the reader knows {order}')
        kinds = dict(fields)
        for field, kind, optional in spec:
            if field not in kinds:
                if not optional:
                    problems.append(f'{name}: the reader requires {field}, the tracer does not write it')
            elif kinds[field] != kind:
                problems.append(f'{name}: {field} is {kinds[field]} in the trace, {kind} to the reader')
    for name in sorted(set(specs) - set(events)):
        problems.append(f'{name}: read by the reader, declared by no tracepoint')
    for p in problems:
        print('FAIL:', p)
    if problems:
        sys.exit(1)
    print(f'{len(events)} events: the reader\'s specs and the tracepoints agree field by field')


main()
