#!/usr/bin/env python3
"""Checks the dnntrace_lib events of a cudnn_calls run (babeltrace2
--clock-cycles text on stdin) against what the program printed (OUT).
Used by tests/libs/test_cudnn_*.sh; prints one reason per failed check and
exits 1. Must never pass a check it did not make.

  cudnn_check.py expect OUT KERNELS   each `EXPECT {json}` line of OUT matches
      the next dnntrace_lib:call exactly (api, result, stream, every
      argument's name (the catalogue's), pointer, role, type, shape and
      tensor id, params and their names);
      `SETSTREAM h s r` lines match set_stream events; a successful call has
      exactly KERNELS GPU kernels linked to its call_id, a failed one none;
      no launch of a traced call is traced as the program's (nesting): only
      calls marked `UNTRACED name` (not wrapped) may leave launches
  cudnn_check.py null OUT             each traced call of OUT (`name status`)
      has one event, in order, with that status (NULL handle, no stream)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'interceptors'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import catalogue  # noqa: E402  (the product's catalogue, read)
import check_events  # noqa: E402  (the interceptor tests' parser)
from check_events import parse_events  # noqa: E402

ROLES = {'R': 0, 'W': 1, 'RW': 2, 'WS': 3, 'U': 4, '-': 5}
DTYPES = {'?': 0, 'f32': 1, 'f64': 2, 'f16': 3, 'bf16': 4, 'i8': 5, 'u8': 6, 'i32': 7, 'i64': 8}
TRACED_CALLS = {
    'cudnnConvolutionForward', 'cudnnConvolutionBackwardData', 'cudnnConvolutionBackwardFilter',
    'cudnnConvolutionBackwardBias', 'cudnnConvolutionBiasActivationForward',
    'cudnnBatchNormalizationForwardTraining', 'cudnnBatchNormalizationForwardTrainingEx',
    'cudnnBatchNormalizationForwardInference', 'cudnnBatchNormalizationBackward',
    'cudnnBatchNormalizationBackwardEx', 'cudnnActivationForward', 'cudnnActivationBackward',
    'cudnnPoolingForward', 'cudnnPoolingBackward', 'cudnnSoftmaxForward', 'cudnnSoftmaxBackward',
    'cudnnAddTensor', 'cudnnOpTensor', 'cudnnDropoutForward', 'cudnnDropoutBackward',
    'cudnnBackendExecute',
}

failures = check_events.failures  # one list: its parse errors count too


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


HEX_ARRAY = re.compile(r'(\w+) = \[ ((?:\[\d+\] = 0x[0-9A-Fa-f]+(?:, )?)*) ?\]')


def read_events(stream):
    """parse_events, plus the hex arrays (ptrs) its field pattern does not take."""
    lines = list(stream)
    events = parse_events(lines)
    parsed = [line for line in lines if check_events.LINE.match(line.rstrip('\n'))]
    for event, line in zip(events, parsed):
        for m in HEX_ARRAY.finditer(line):
            event[m.group(1)] = [int(v, 16) for v in re.findall(r'= (0x[0-9A-Fa-f]+)', m.group(2))]
    return events


def named(events, name):
    return [e for e in events if e['_name'] == name]


def tensor_of(allocs, ptr):
    """The tensor id of the live allocation holding ptr, as the analyzer would map it."""
    found = -1
    for a in allocs:
        if a['result'] == 0 and a['ptr'] <= ptr < a['ptr'] + max(a['bytes'], 1):
            found = a['tensor_id']
    return found


def check_call(event, want, allocs, where):
    check(event['api'] == want['api'], f'{where}: api {event["api"]} != {want["api"]}')
    # Format 3: the call event has no handle (the set_stream event has it).
    for key in ('result', 'stream'):
        check(event[key] == want[key], f'{where} {want["api"]}: {key} {event[key]} != {want[key]}')
    args = want['args']
    names = [a[0] for a in args]
    # the names are the catalogue's, for as many arguments as the event has
    got_names = catalogue.arg_names(event['api'], len(event['ptrs']))
    check(got_names == names and len(got_names) == len(event['ptrs']),
          f'{where} {want["api"]}: arguments {got_names} (catalogue) for '
          f'{len(event["ptrs"])} pointers, want {names}')
    check(event['ptrs'] == [a[1] for a in args], f'{where} {want["api"]}: ptrs differ')
    check(event['roles'] == [ROLES[a[2]] for a in args],
          f'{where} {want["api"]}: roles {event["roles"]} != {[a[2] for a in args]}')
    check(event['dtypes'] == [DTYPES[a[3]] for a in args],
          f'{where} {want["api"]}: dtypes {event["dtypes"]} != {[a[3] for a in args]}')
    check(event['ranks'] == [len(a[4]) for a in args],
          f'{where} {want["api"]}: ranks {event["ranks"]} != {[len(a[4]) for a in args]}')
    check(event['dims'] == [d for a in args for d in a[4]],
          f'{where} {want["api"]}: dims {event["dims"]} != {[a[4] for a in args]}')
    tensors = [tensor_of(allocs, a[1]) if a[1] and a[2] != '-' else -1 for a in args]
    check(event['tensors'] == tensors,
          f'{where} {want["api"]}: tensors {event["tensors"]} != {tensors}')
    check(-1 not in [t for t, a in zip(tensors, args) if a[1] and a[2] != '-'],
          f'{where} {want["api"]}: a pointer outside every allocation')
    params = want['params']
    got_params = catalogue.param_names(event['api'], len(event['params']))
    check(got_params == [p[0] for p in params],
          f'{where} {want["api"]}: param_names {got_params} != {[p[0] for p in params]}')
    check(event['params'] == [p[1] for p in params],
          f'{where} {want["api"]}: params {event["params"]} != {[p[1] for p in params]}')


def check_expect(events, out_path, kernels_per_call):
    calls = named(events, 'dnntrace_lib:call')
    streams = named(events, 'dnntrace_lib:set_stream')
    allocs = named(events, 'dnntrace_api:alloc')
    wants, want_streams, untraced = [], [], 0
    with open(out_path) as f:
        for line in f:
            if line.startswith('EXPECT '):
                wants.append(json.loads(line[len('EXPECT '):]))
            elif line.startswith('UNTRACED '):
                untraced += 1
            elif line.startswith('SETSTREAM '):
                want_streams.append([int(v) for v in line.split()[1:]])
    check(len(wants) > 0, 'the program expected no call')
    check(len(calls) == len(wants), f'{len(calls)} call events for {len(wants)} calls')
    for i, (event, want) in enumerate(zip(calls, wants)):
        check_call(event, want, allocs, f'call {i}')
    check(len(streams) == len(want_streams),
          f'{len(streams)} set_stream events for {len(want_streams)} cudnnSetStream calls')
    for event, (handle, stream, result) in zip(streams, want_streams):
        check(event['api'] == 'cudnnSetStream' and event['handle'] == handle and
              event['stream'] == stream and event['result'] == result,
              f'set_stream event {event} != {handle} {stream} {result}')
    call_ids = [e['call_id'] for e in calls]
    check(len(set(call_ids)) == len(call_ids), 'call ids repeat')
    links = {e['correlation_id']: e['call_id'] for e in named(events, 'dnntrace_gpu:external_correlation')}
    launches = named(events, 'dnntrace_api:launch')
    launch_ids = [e['call_id'] for e in launches]
    per_call = {}
    for k in named(events, 'dnntrace_gpu:kernel'):
        call_id = links.get(k['correlation_id'])
        check(call_id in call_ids or call_id in launch_ids,
              f'kernel {k["name"]} not linked to a cuDNN call nor to a launch')
        per_call.setdefault(call_id, []).append(k['name'])
    for event, spec in zip(calls, wants):
        got = len(per_call.get(event['call_id'], []))
        want = spec.get('kernels', kernels_per_call) if event['result'] == 0 else 0
        check(got == want, f'{event["api"]} (call {event["call_id"]}, result {event["result"]}): '
              f'{got} kernels linked, want {want}')
    # Only cuDNN calls that are not traced (cudnnSetDropoutDescriptor
    # initialises its states with a kernel) may leave launches of their own.
    check(len(launches) <= untraced,
          f'{len(launches)} launches traced as the program\'s, at most {untraced} expected: '
          'a kernel launched inside a traced cuDNN call was traced twice')


def check_null(events, out_path):
    calls = named(events, 'dnntrace_lib:call')
    streams = named(events, 'dnntrace_lib:set_stream')
    want = []
    want_stream = []
    with open(out_path) as f:
        for line in f:
            name, status = line.split()
            if name in TRACED_CALLS:
                want.append((name, int(status)))
            elif name == 'cudnnSetStream':
                want_stream.append(int(status))
    got = [(e['api'], e['result']) for e in calls]
    check(got == want, f'call events {got} != calls {want}')
    check(all(e['stream'] == 0 for e in calls), 'a NULL-handle call has a stream')
    check([e['result'] for e in streams] == want_stream,
          f'set_stream results {[e["result"] for e in streams]} != {want_stream}')


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('expect', 'null'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    events = read_events(sys.stdin)
    if sys.argv[1] == 'expect':
        check_expect(events, sys.argv[2], int(sys.argv[3]))
    else:
        check_null(events, sys.argv[2])
    for message in failures[:40]:
        print('FAIL:', message)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
