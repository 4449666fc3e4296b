#!/usr/bin/env python3
"""Checks a trace of tests/libs/cublas_calls (babeltrace2 text on stdin)
against the program's own `expect` lines (its stdout, path in argv[1]).
Used by tests/libs/test_cublas_calls.sh; prints one line per failed check
and exits 1. Must never pass a check it did not make.

Checked: every dnntrace_lib:call in order (api, status, argument names,
tensor ids, roles, dtypes, dims, params and their names: the names are the
catalogue's, tracepoints/entry_points.h, for as many arguments and params
as the event has, so the event must list exactly the catalogue's); the kernels
linked to each call through dnntrace_gpu:external_correlation (count, and
no kernel linked elsewhere); no dnntrace_api:launch (the library's own
launches are nested); the set_stream event and the stream of later calls.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import catalogue  # noqa: E402  (the product's catalogue, read)

LINE = re.compile(r'^\[[^\]]*\] \([^)]*\) \S+ (\S+): \{[^}]*\}, \{[^}]*\}, \{ (.*) \}$')
FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|\[ (?:\[\d+\] = [^,\]]+(?:, )?)* ?\]|\( "[^"]*" : container = -?\d+ \)|[^,]+)')

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)


def value(text):
    text = text.strip()
    if text.startswith('"'):
        return text[1:-1]
    if text.startswith('( "'):
        return text.split('"')[1]
    if text.startswith('['):
        return [int(v, 0) for v in re.findall(r'\[\d+\] = (-?(?:0x[0-9A-Fa-f]+|\d+))', text)]
    return int(text, 0)


def events(stream):
    out = []
    for line in stream:
        m = LINE.match(line.rstrip('\n'))
        if not m:
            check(False, 'unparsed line: ' + line[:100])
            continue
        fields = {f.group(1): value(f.group(2)) for f in FIELD.finditer(m.group(2))}
        fields['_name'] = m.group(1)
        out.append(fields)
    return out


def dims_text(ranks, dims):
    parts, at = [], 0
    for r in ranks:
        parts.append('x'.join(str(d) for d in dims[at:at + r]) if r else '?')
        at += r
    return ','.join(parts)


def main():
    expected, set_stream = [], []
    with open(sys.argv[1]) as f:
        for line in f:
            w = line.split()
            if w[0] == 'expect':
                expected.append(w[1:])
            elif w[0] == 'expect_set_stream':
                set_stream.append(int(w[1]))
    evs = events(sys.stdin)
    calls = [e for e in evs if e['_name'] == 'dnntrace_lib:call']
    links = {e['correlation_id']: e['call_id'] for e in evs
             if e['_name'] == 'dnntrace_gpu:external_correlation'}
    kernels = [e for e in evs if e['_name'] == 'dnntrace_gpu:kernel']
    check(not any(e['_name'] == 'dnntrace_api:launch' for e in evs),
          'a launch made inside a library call was traced')

    streams = [e for e in evs if e['_name'] == 'dnntrace_lib:set_stream']
    check([s['result'] for s in streams] == set_stream, 'set_stream events %s, want results %s'
          % ([s['result'] for s in streams], set_stream))
    if streams and calls:
        check(streams[0]['stream'] != 0 and calls[0]['stream'] == streams[0]['stream'],
              'first GEMM not on the stream set by cublasSetStream_v2')

    check(len(calls) == len(expected), '%d call events, want %d' % (len(calls), len(expected)))
    per_call = {}
    for k in kernels:
        call_id = links.get(k['correlation_id'])
        check(call_id is not None, 'kernel record %d not linked to any call' % k['correlation_id'])
        per_call[call_id] = per_call.get(call_id, 0) + 1
    linked_ids = {c['call_id'] for c in calls}
    check(set(per_call) <= linked_ids, 'kernels linked to calls without events: %s'
          % sorted(set(per_call) - linked_ids))
    for i, (c, want) in enumerate(zip(calls, expected)):
        api, status, n_kernels, names, tensors, roles, dtypes, dims, params, param_names = want
        got = [c['api'], str(c['result']), str(per_call.get(c['call_id'], 0)),
               ','.join(catalogue.arg_names(c['api'], len(c['tensors']))),
               ','.join(map(str, c['tensors'])), ','.join(map(str, c['roles'])),
               ','.join(map(str, c['dtypes'])), dims_text(c['ranks'], c['dims']),
               ','.join(map(str, c['params'])),
               ','.join(catalogue.param_names(c['api'], len(c['params'])))]
        labels = ['api', 'status', 'kernels', 'arg_names', 'tensors', 'roles', 'dtypes', 'dims',
                  'params', 'param_names']
        check(len(catalogue.arg_names(c['api'], len(c['tensors']))) == len(c['tensors']) and
              len(catalogue.param_names(c['api'], len(c['params']))) == len(c['params']),
              'call #%d (%s): %d arguments and %d params, not the catalogue\'s'
              % (i, api, len(c['tensors']), len(c['params'])))
        for label, g, w in zip(labels, got, want):
            check(g == w, 'call #%d (%s): %s = %s, want %s' % (i, api, label, g, w))
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
