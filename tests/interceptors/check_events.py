#!/usr/bin/env python3
"""Checks a dnntrace trace (babeltrace2 --clock-cycles text on stdin) against
what the test program did (its stdout, one `name result errno [ptr]` line per
call). Used by tests/interceptors/test_*.sh; prints one reason per failed
check and exits 1. Must never pass a check it did not make.

  check_events.py calls OUT         every call in OUT has its event, in order
  check_events.py real-api OUT      + no-driver facts (CUPTI down, no tensors)
  check_events.py sim-api OUT       + tensor ids, nesting (one event per call)
  check_events.py kernels OUT       + launch tensors, GPU records and links
  check_events.py nvcc13 OUT        the kernels checks for nvcc 13's launches
                                    (__cudaLaunchKernel[_ptsz] through a handle)
  check_events.py threads N         + per-thread launch tensors, all linked
  check_events.py layers OUT        the sim-api checks, GPU durations by the
                                    simulator's cost model, and every API
                                    label of one level (runtime or driver)
  check_events.py driver_launch OUT the kernels checks for driver launches
                                    (CUfunction, kernelParams and extra)
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import catalogue  # noqa: E402  (the product's catalogue, read)

LINE = re.compile(r'^\[(\d+)\] \(\S+\) \S+ (\S+): \{ cpu_id = \d+ \}, \{ (.*?) \}, \{ (.*) \}$')
ENUM = re.compile(r'\( "([^"]*)" : container = -?\d+ \)')
FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|\[ (?:\[\d+\] = -?\d+(?:, )?)* ?\]|[^,]+)')

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


def parse_value(text):
    text = text.strip()
    if text.startswith('"'):
        return text[1:-1]
    if text.startswith('['):
        return [int(v) for v in re.findall(r'\[\d+\] = (-?\d+)', text)]
    try:
        return int(text, 0)
    except ValueError:
        return text


def parse_fields(text):
    return {m.group(1): parse_value(m.group(2)) for m in FIELD.finditer(ENUM.sub(r'"\1"', text))}


def parse_events(stream):
    events = []
    for line in stream:
        m = LINE.match(line.rstrip('\n'))
        if not m:
            check(False, 'unparsed trace line: ' + line[:120])
            continue
        event = parse_fields(m.group(4))
        event['_ts'] = int(m.group(1))
        event['_name'] = m.group(2)
        event['_ctx'] = parse_fields(m.group(3))
        events.append(event)
    name_launches(events)
    name_kernel_records(events)
    add_memory_kinds(events)
    return events


def name_launches(events):
    """Trace format 2 on: a launch carries its kernel's function_id; the
    dnntrace_api:function event with that id (same process) names it and
    gives its handle, and the tracer writes it before every launch of it
    (in time: the trace order). Each launch gets its 'name' and 'func'
    from it, as format 1 carried them."""
    functions = {}
    for e in events:
        key = (e['_ctx'].get('vpid'), e.get('function_id'))
        if e['_name'] == 'dnntrace_api:function':
            functions.setdefault(key, e)
        elif e['_name'] == 'dnntrace_api:launch' and 'name' not in e:
            if e['function_id'] == 0:
                e['name'] = ''
            elif check(key in functions, f'launch call {e["call_id"]}: function '
                                         f'{e["function_id"]} has no function event before it'):
                e['name'] = functions[key]['name']
                e['func'] = functions[key]['func']


def name_kernel_records(events):
    """Trace format 3: a GPU kernel record carries its name's name_id; the
    dnntrace_gpu:kernel_name event with that id (same process), written
    once before the first record naming it, gives the 'name'."""
    names = {}
    for e in events:
        key = (e['_ctx'].get('vpid'), e.get('name_id'))
        if e['_name'] == 'dnntrace_gpu:kernel_name':
            check(key not in names, f'kernel name {e["name_id"]} announced twice')
            names[key] = e['name']
        elif e['_name'] == 'dnntrace_gpu:kernel' and 'name' not in e:
            if e['name_id'] == 0:
                e['name'] = ''
            elif check(key in names, f'kernel record {e["correlation_id"]}: name '
                                     f'{e["name_id"]} has no kernel_name event before it'):
                e['name'] = names[key]


def add_memory_kinds(events):
    """Each alloc event gets its 'kind' from its api; a stream-ordered api's
    events must be alloc_async and free_async, every other api's alloc and
    free."""
    kinds = catalogue.memory_kinds()
    for e in events:
        if e['_name'] in ALLOCS + FREES:
            kind = kinds.get(e['api'])
            check(kind is not None, f'{e["api"]}: no kind of memory in the catalogue')
            check(e['_name'].endswith('_async') == (kind == 'stream_ordered'),
                  f'{e["api"]} traced as {e["_name"]}')
            if e['_name'] in ALLOCS:
                e['kind'] = kind


def parse_calls(path):
    calls = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].startswith(('cu', '__cuda')):
                calls.append({'name': parts[0], 'result': int(parts[1]),
                              'ptr': parts[3] if len(parts) > 3 else None})
    return calls


def named(events, name):
    return [e for e in events if e['_name'] == name]


UNTRACED = ('cudaGetLastError', '__cudaGetKernel', 'cudaGetFuncBySymbol', 'cudaStreamSynchronize',
            'cudaDeviceSynchronize', 'cuStreamSynchronize')

ALLOCS = ('dnntrace_api:alloc', 'dnntrace_api:alloc_async')
FREES = ('dnntrace_api:free', 'dnntrace_api:free_async')
API_EVENTS = ALLOCS + FREES + ('dnntrace_api:memcpy', 'dnntrace_api:memset', 'dnntrace_api:launch')


def check_calls(events, calls):
    """Each traced call has one API event, same api and result, same order."""
    # Not traced: calls that submit no GPU work and allocate nothing.
    expected = [c for c in calls if c['name'] not in UNTRACED and c['ptr'] not in ('(nil)', '0x0')]
    api_events = [e for e in events if e['_name'] in API_EVENTS]
    check(len(api_events) == len(expected),
          f'{len(api_events)} API events for {len(expected)} traced calls: '
          f'{[e["api"] for e in api_events]} vs {[c["name"] for c in expected]}')
    for event, call in zip(api_events, expected):
        check(event['api'] == call['name'] and event['result'] == call['result'],
              f'event {event["api"]} result {event["result"]} for call {call["name"]} '
              f'result {call["result"]}')
        if event['_name'] in FREES and call['ptr']:
            event['ptr'] = int(call['ptr'], 16)  # format 3's free event has no ptr
    ids = [e['call_id'] for e in api_events if 'call_id' in e]
    check(len(set(ids)) == len(ids) and ids == sorted(ids), f'call ids not unique/increasing: {ids}')
    return api_events


def check_status(events, ok):
    status = named(events, 'dnntrace_api:status')
    if check(len(status) == 1, f'{len(status)} status events, want 1'):
        check(status[0]['cupti_ok'] == ok, f'status cupti_ok={status[0]["cupti_ok"]}, want {ok}')
        check(status[0].get('format') == 8, f'status format={status[0].get("format")}, want 8')


def check_gpu_links(events, api_events):
    """Every copy/set/launch that succeeded has exactly one GPU record linked to it."""
    links = {e['correlation_id']: e['call_id'] for e in named(events, 'dnntrace_gpu:external_correlation')}
    gpu = {'dnntrace_api:launch': 'dnntrace_gpu:kernel', 'dnntrace_api:memcpy': 'dnntrace_gpu:memcpy',
           'dnntrace_api:memset': 'dnntrace_gpu:memset'}
    by_call = {}
    for kind in gpu.values():
        for record in named(events, kind):
            call_id = links.get(record['correlation_id'])
            check(call_id is not None, f'{kind} correlation {record["correlation_id"]} has no link')
            by_call.setdefault(call_id, []).append(record)
    for event in api_events:
        if event['_name'] not in gpu or event['result'] != 0:
            continue
        records = by_call.get(event['call_id'], [])
        if event['api'].startswith('cudaMemPrefetchAsync'):
            # A real GPU reports migrations as unified-memory counters, which
            # dnntrace does not read; simgpu's migrations take no time.
            check(not records, f'prefetch call {event["call_id"]} has GPU records {records}')
            continue
        if not check(len(records) == 1 and records[0]['_name'] == gpu[event['_name']],
                     f'call {event["call_id"]} ({event["api"]}) has {len(records)} GPU records'):
            continue
        record = records[0]
        # GPU times are CLOCK_MONOTONIC ns, like the LTTng timestamps.
        check(record['start'] <= record['end'], f'GPU record start > end: {record}')
        check(event['_ts'] - 50_000_000 <= record['start'] <= event['_ts'] + 5_000_000_000,
              f'GPU start {record["start"]} far from its call at {event["_ts"]}')
        if event['_name'] == 'dnntrace_api:launch':
            check(record['name'] == event['name'], f'kernel name {record["name"]} != {event["name"]}')
    check(not named(events, 'dnntrace_gpu:records_dropped'), 'CUPTI dropped records')


def main():
    mode = sys.argv[1]
    events = parse_events(sys.stdin)
    if mode == 'threads':
        check_threads(events, int(sys.argv[2]))
    else:
        calls = parse_calls(sys.argv[2])
        api_events = check_calls(events, calls)
        if mode == 'real-api':
            check_status(events, 0)
            check(all(e.get('tensor_id', -1) == -1 for e in api_events), 'tensor ids without a GPU')
            check(not [e for e in events if e['_name'].startswith('dnntrace_gpu:')],
                  'GPU records without a GPU')
        elif mode in ('sim-api', 'kernels', 'nvcc13', 'layers', 'driver_launch'):
            check_status(events, 1)
            check_tensor_ids(api_events)
            check_gpu_links(events, api_events)
        if mode == 'sim-api' and any(c['name'] == 'cudaMemcpyPeerAsync' for c in calls):
            check_peer_and_prefetch(api_events)
        if mode == 'kernels':
            check_kernel_scenario(events, api_events, sys.argv[2], ['cudaLaunchKernel'])
        elif mode == 'nvcc13':
            check_kernel_scenario(events, api_events, sys.argv[2],
                                  ['__cudaLaunchKernel', '__cudaLaunchKernel_ptsz'])
            check_handle_launches(api_events, sys.argv[2])
        elif mode == 'layers':
            check_one_level(api_events)
            check_gpu_durations(events)
        elif mode == 'driver_launch':
            check_kernel_scenario(events, api_events, sys.argv[2], ['cuLaunchKernel', 'cuLaunchKernel',
                                  'cuLaunchKernelEx', 'cuLaunchKernelEx',
                                  'cuLaunchCooperativeKernel'], with_copies=False)
            check_function_launches(api_events, sys.argv[2])
            check_gpu_durations(events)
    for failure in failures:
        print('FAIL:', failure)
    print(f'{len(events)} events checked, {len(failures)} failures')
    return 1 if failures else 0


def check_tensor_ids(api_events):
    """Successful device allocations get ids 0, 1, ...; pinned host -1."""
    next_id = 0
    live = {}
    for e in api_events:
        if e['_name'] in ALLOCS:
            # simgpu has one device, 0: every device-kind allocation names it, failed ones too.
            want_device = -1 if e['kind'] == 'pinned_host' else 0
            check(e['device'] == want_device,
                  f'{e["api"]} result {e["result"]} device {e["device"]}, want {want_device}')
            if e['result'] == 0 and e['kind'] != 'pinned_host' and e['ptr'] != 0:
                check(e['tensor_id'] == next_id, f'{e["api"]} tensor {e["tensor_id"]}, want {next_id}')
                live[e['ptr']] = e['tensor_id']
                next_id += 1
            else:
                check(e['tensor_id'] == -1, f'{e["api"]} result {e["result"]} got tensor {e["tensor_id"]}')
        elif e['_name'] in FREES:
            want = live.pop(e['ptr'], -1) if e['result'] == 0 else live.get(e['ptr'], -1)
            check(e['tensor_id'] == want, f'{e["api"]} of {e["ptr"]:#x}: tensor {e["tensor_id"]}, want {want}')


def check_peer_and_prefetch(api_events):
    """cuda_calls api's peer copy and prefetches (the end of api_calls):
    the tensors they name are the allocations they act on, and a prefetch
    names its one tensor as both sides, towards the device or the host."""
    allocs = [e for e in api_events if e['_name'] in ALLOCS and e['result'] == 0]
    managed, peer = allocs[-2], allocs[-1]
    check(managed['api'] == 'cudaMallocManaged' and peer['api'] == 'cudaMalloc',
          f'last allocations {managed["api"]}, {peer["api"]}')
    copies = [e for e in api_events if e['_name'] == 'dnntrace_api:memcpy']
    peer_copy, to_device, to_host, refused = copies[-4:]
    check(peer_copy['api'] == 'cudaMemcpyPeerAsync' and peer_copy['result'] == 0 and
          peer_copy['dst_tensor'] == peer['tensor_id'] and peer_copy['bytes'] == 16 and
          peer_copy['direction'] == 3, f'peer copy event {peer_copy}')
    for event, api, kind, size in ((to_device, 'cudaMemPrefetchAsync', 1, 8192),
                                   (to_host, 'cudaMemPrefetchAsync_ptsz', 2, 4096)):
        check(event['api'] == api and event['result'] == 0 and event['direction'] == kind and
              event['bytes'] == size and event['dst'] == event['src'] == managed['ptr'] and
              event['dst_tensor'] == event['src_tensor'] == managed['tensor_id'],
              f'{api} event {event}')
    check(refused['api'] == 'cudaMemPrefetchAsync' and refused['result'] == 1 and
          refused['dst_tensor'] == peer['tensor_id'], f'prefetch of device memory: {refused}')


def check_one_level(api_events):
    """All events of the runtime (cuda*) or all of the driver (cu*, not cuda*)."""
    levels = {e['api'].startswith('cuda') for e in api_events}
    check(len(levels) == 1, f'runtime and driver labels mixed: {[e["api"] for e in api_events]}')


def check_gpu_durations(events):
    """simgpu's cost model (README): kernel 2000 ns + 10 ns/block, host<->device
    copy 2000 ns + bytes/25, set 1000 ns + bytes/1000 (rounded up by at most 1 ns).
    Records decoded with the wrong layout give other times."""
    launches = {e['call_id']: e for e in named(events, 'dnntrace_api:launch')}
    links = {e['correlation_id']: e['call_id'] for e in named(events, 'dnntrace_gpu:external_correlation')}
    for record in named(events, 'dnntrace_gpu:kernel'):
        launch = launches.get(links.get(record['correlation_id']))
        if check(launch is not None, f'kernel record {record["correlation_id"]} links to no launch'):
            blocks = record['grid'][0] * record['grid'][1] * record['grid'][2]
            check(record['end'] - record['start'] == 2000 + 10 * blocks,
                  f'kernel {record["name"]} lasted {record["end"] - record["start"]} ns, '
                  f'want {2000 + 10 * blocks}')
    for record in named(events, 'dnntrace_gpu:memcpy'):
        want = 2000 + record['bytes'] / 25
        check(record['copy_kind'] in (1, 2) and want <= record['end'] - record['start'] <= want + 1,
              f'copy kind {record["copy_kind"]} of {record["bytes"]} bytes lasted '
              f'{record["end"] - record["start"]} ns, want {want}')
        # format 7: each end's memory kind (CUpti_ActivityMemoryKind), read
        # at the layout's offsets: the device end is device (3), the host
        # end pageable (1) or pinned (2)
        host, device = ((record['src_kind'], record['dst_kind']) if record['copy_kind'] == 1
                        else (record['dst_kind'], record['src_kind']))
        check(device == 3 and host in (1, 2),
              f'copy kind {record["copy_kind"]}: memory kinds {record["src_kind"]} -> '
              f'{record["dst_kind"]}, want host 1 or 2 and device 3')
    for record in named(events, 'dnntrace_gpu:memset'):
        want = 1000 + record['bytes'] / 1000
        check(want <= record['end'] - record['start'] <= want + 1,
              f'set of {record["bytes"]} bytes lasted {record["end"] - record["start"]} ns, want {want}')


def check_function_launches(api_events, out_path):
    """Driver launches carry the CUfunction cudaGetFuncBySymbol gave as func."""
    with open(out_path) as f:
        function = next(int(line.split()[1], 16) for line in f if line.startswith('function '))
    for launch in (e for e in api_events if e['_name'] == 'dnntrace_api:launch'):
        check(launch['func'] == function, f'{launch["api"]} func {launch["func"]:#x}, want {function:#x}')


def check_kernel_scenario(events, api_events, out_path, launch_apis, with_copies=True):
    with open(out_path) as f:
        ptrs = next(line.split()[1:] for line in f if line.startswith('tensor_ptrs'))
    t = [int(p, 16) for p in ptrs]
    launches = [e for e in api_events if e['_name'] == 'dnntrace_api:launch']
    check([e['api'] for e in launches] == launch_apis,
          f'launch apis {[e["api"] for e in launches]}, want {launch_apis}')
    # Format 3: a launch's grid and block are in its GPU kernel record.
    links = {e['correlation_id']: e['call_id'] for e in named(events, 'dnntrace_gpu:external_correlation')}
    records = {links.get(r['correlation_id']): r for r in named(events, 'dnntrace_gpu:kernel')}
    for launch in launches:
        check(launch['name'] == 'pair_kernel', f'{launch["api"]} name {launch["name"]}')
        check(launch['tensors'] == [0, 1, 2],
              f'{launch["api"]} tensors {launch["tensors"]}, want [0, 1, 2]')
        record = records.get(launch['call_id'], {})
        check((record.get('grid'), record.get('block'), record.get('shared_mem')) ==
              ([4, 1, 1], [128, 1, 1], 0), f'{launch["api"]} geometry {record}')
    if not with_copies:
        return
    copy = [e for e in api_events if e['_name'] == 'dnntrace_api:memcpy'][0]
    check(copy['src'] == t[1] + 16 and copy['src_tensor'] == 1 and copy['dst_tensor'] == -1,
          f'memcpy tensors {copy["src_tensor"]} {copy["dst_tensor"]}')
    memset = [e for e in api_events if e['_name'] == 'dnntrace_api:memset'][0]
    check(memset['tensor_id'] == 2 and memset['bytes'] == 128, 'memset tensor/bytes')


def check_handle_launches(api_events, out_path):
    """nvcc 13's launches carry the kernel handle, not the host stub, as func."""
    with open(out_path) as f:
        handle, stub = next([int(p, 16) for p in line.split()[1:]]
                            for line in f if line.startswith('kernel_handle'))
    check(handle not in (0, stub), f'handle {handle:#x} is no kernel handle (stub {stub:#x})')
    for launch in (e for e in api_events if e['_name'] == 'dnntrace_api:launch'):
        check(launch['func'] == handle, f'{launch["api"]} func {launch["func"]:#x}, want {handle:#x}')


def check_threads(events, n_threads):
    check_status(events, 1)
    per_thread = {}
    for e in events:
        if e['_name'] in API_EVENTS:
            per_thread.setdefault(e['_ctx']['vtid'], []).append(e)
    check(len(per_thread) == n_threads, f'{len(per_thread)} threads traced, want {n_threads}')
    all_api = []
    ids = []
    for tid, seq in per_thread.items():
        check(len(seq) == 250, f'thread {tid}: {len(seq)} events, want 250')
        for i in range(0, len(seq) - 4, 5):
            a, b, launch, fa, fb = seq[i:i + 5]
            ids += [a['tensor_id'], b['tensor_id']]
            check(launch['tensors'] == [a['tensor_id'], b['tensor_id']],
                  f'thread {tid}: launch tensors {launch["tensors"]} for {a["tensor_id"]}, {b["tensor_id"]}')
            check((fa['tensor_id'], fb['tensor_id']) == (a['tensor_id'], b['tensor_id']),
                  f'thread {tid}: frees {fa["tensor_id"]}, {fb["tensor_id"]}')
        all_api += seq
    check(sorted(ids) == list(range(len(ids))), 'tensor ids are not 0..n-1, each once')
    check_gpu_links(events, sorted(all_api, key=lambda e: e['_ts']))


if __name__ == '__main__':
    sys.exit(main())
