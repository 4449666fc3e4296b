#!/usr/bin/env python3
"""check_pftrace.py: checks a timeline.pftrace (dnntrace-analyze) with a
protobuf reader of its own (Python's standard library only: no protoc,
no Perfetto) and compares it with the timeline.json of the same trace.

  check_pftrace.py PFTRACE JSON

The file (Perfetto's Trace proto; field numbers as in
analysis/report/timeline_pftrace.c, from Perfetto's published protos):
  - parses as a Trace: length-delimited packets, nothing left over;
  - the slices of a lane track (tensors, NVTX ranges) never overlap;
  - one packet sequence: every packet has trusted_packet_sequence_id 1,
    the first clears the incremental state, every later one that uses an
    interned name says it needs it;
  - every slice has one name, interned (name_iid) or inline (name: a
    tensor's own "tensor N");
  - every interned name, category and annotation name a TrackEvent uses
    was defined in its own packet or an earlier one, never twice;
  - every track a TrackEvent names has a TrackDescriptor;
  - times on a clock of the sequence (64) are resolved through its
    ClockSnapshot (against BOOTTIME) and TracePacketDefaults;
  - slices are rebuilt as Perfetto's importer does: the events sorted by
    time (stable), a SLICE_END ends the innermost open slice of its track;
    none is left open, no END comes without a BEGIN.
Against the JSON (its ts and dur in whole us, rounded from the ns that the
pftrace keeps: a pftrace slice [s, e] must give round(s) and
round(e) - round(s)):
  - the same slices: (track, category, name, ts, dur), as multisets; a
    track is a host thread (tid), a GPU stream (device, stream: "stream S"
    under "GPU D"), or the tensor or NVTX range lanes (JSON async b/e);
  - the same counters: (name, ts, value) as multisets (a value is a
    COUNTER event or rides on a slice's packet: extra_counter_values);
  - the same flows: each JSON arrow (s at a call's slice, f at a GPU
    slice) is a flow id in the pftrace whose first slice is that call's
    and which reaches that GPU slice (Perfetto's flows are chains: a call
    with several GPU slices reaches the later ones through the earlier);
    as many (id, GPU slice) links as the JSON has arrows;
  - the process and its threads named as in the JSON.
Prints a line per problem (and one of counts), exits 1 if there is any.
"""
import json
import sys
from collections import Counter, defaultdict


def varint(buf, i):
    v = shift = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return v, i


def fields(buf):
    """(field, wire type, value) of a message: ints, or bytes for LEN."""
    i, out = 0, []
    while i < len(buf):
        key, i = varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i)
        elif wire == 1:
            v = int.from_bytes(buf[i:i + 8], 'little')
            i += 8
        elif wire == 2:
            n, i = varint(buf, i)
            v = bytes(buf[i:i + n])
            if len(v) != n:
                raise ValueError('truncated field %d' % field)
            i += n
        elif wire == 5:
            v = int.from_bytes(buf[i:i + 4], 'little')
            i += 4
        else:
            raise ValueError('wire type %d' % wire)
        out.append((field, wire, v))
    if i != len(buf):
        raise ValueError('message overruns its length')
    return out


def one(fs, field, default=None):
    vals = [v for f, _, v in fs if f == field]
    return vals[-1] if vals else default


def many(fs, field):
    return [v for f, _, v in fs if f == field]


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def us(ns):
    return ns // 1000 + (1 if ns % 1000 >= 500 else 0)


problems = []


def problem(msg):
    if len(problems) < 40:
        print(msg)
    problems.append(msg)


def read_pftrace(path):
    data = open(path, 'rb').read()
    interned = {1: {}, 2: {}, 3: {}}   # categories, names, annotation names
    tracks = {}                        # uuid -> descriptor dict
    events = []                        # (ts, order, te fields)
    process_name = None
    default_clock, clocks = 6, {6: 0}    # clock id -> ns to add (BOOTTIME)
    for n, (field, wire, packet) in enumerate(fields(data)):
        if field != 1 or wire != 2:
            problem('top-level field %d is not a packet' % field)
            continue
        p = fields(packet)
        if one(p, 10) != 1:
            problem('packet %d: sequence id %r' % (n, one(p, 10)))
        snapshot = one(p, 6)
        if snapshot is not None:
            stamps = {one(fields(c), 1): one(fields(c), 2, 0)
                      for c in many(fields(snapshot), 1)}
            if 6 not in stamps:
                problem('packet %d: clock snapshot without BOOTTIME' % n)
            for cid, stamp in stamps.items():
                if cid != 6:
                    clocks[cid] = stamps.get(6, 0) - stamp
        defaults = one(p, 59)
        if defaults is not None:
            default_clock = one(fields(defaults), 58, 6)
        clock = one(p, 58, default_clock)
        ts = one(p, 8)
        if ts is not None:
            if clock not in clocks:
                problem('packet %d: clock %d not in a snapshot' % (n, clock))
            ts += clocks.get(clock, 0)
        flags = one(p, 13, 0)
        te = one(p, 11)
        uses_interned = te is not None and one(fields(te), 10) is not None
        if n == 0 and flags != 1:
            problem('first packet: sequence flags %d' % flags)
        elif n and uses_interned and flags != 2:
            problem('packet %d uses interned names, flags %d' % (n, flags))
        elif n and flags not in (0, 2):
            problem('packet %d: sequence flags %d' % (n, flags))
        for data_msg in many(p, 12):
            for kind, _, entry in fields(data_msg):
                if kind not in interned:
                    problem('packet %d: interned field %d' % (n, kind))
                    continue
                e = fields(entry)
                iid, name = one(e, 1), one(e, 2, b'').decode('utf-8')
                if iid in interned[kind]:
                    problem('packet %d: iid %d of kind %d defined twice'
                            % (n, iid, kind))
                interned[kind][iid] = name
        desc = one(p, 60)
        if desc is not None:
            d = fields(desc)
            t = {'uuid': one(d, 1), 'parent': one(d, 5),
                 'name': one(d, 2, b'').decode('utf-8'),
                 'counter': one(d, 8) is not None}
            proc, thread = one(d, 3), one(d, 4)
            if proc is not None:
                pf = fields(proc)
                t['pid'] = one(pf, 1)
                process_name = one(pf, 6, b'').decode('utf-8')
            if thread is not None:
                tf = fields(thread)
                t['tid'] = one(tf, 2)
                t['name'] = one(tf, 5, b'').decode('utf-8')
            tracks[t['uuid']] = t
        if te is not None:
            f = fields(te)
            ev = {'type': one(f, 9), 'track': one(f, 11),
                  'ts': ts, 'flows': many(f, 47),
                  'extra': list(zip(many(f, 31),
                                    [signed(v) for v in many(f, 12)]))}
            if len(many(f, 31)) != len(many(f, 12)):
                problem('packet %d: extra counter tracks and values differ'
                        % n)
            for uuid, _ in ev['extra']:
                if not tracks.get(uuid, {}).get('counter'):
                    problem('packet %d: extra counter on track %r, not a '
                            'counter track' % (n, uuid))
            if ev['track'] not in tracks:
                problem('packet %d: track %r not described before'
                        % (n, ev['track']))
            if ev['type'] == 1:
                ni, inline, cats = one(f, 10), one(f, 23), many(f, 3)
                if (ni is None) == (inline is None):
                    problem('packet %d: a slice needs one name: interned '
                            '(10) or inline (23)' % n)
                if (inline is None and ni not in interned[2]) or any(
                        c not in interned[1] for c in cats):
                    problem('packet %d: name or category not interned' % n)
                ev['name'] = (inline.decode('utf-8') if inline is not None
                              else interned[2].get(ni, '?'))
                ev['cat'] = interned[1].get(cats[0], '?') if cats else ''
                args = {}
                for a in many(f, 4):
                    af = fields(a)
                    an = one(af, 1)
                    if an not in interned[3]:
                        problem('packet %d: annotation name not interned'
                                % n)
                    args[interned[3].get(an, '?')] = af[-1][2]
                ev['args'] = args
            elif ev['type'] == 4:
                ev['value'] = signed(one(f, 30, 0))
            events.append(ev)
    return tracks, events, process_name


def track_key(tracks, uuid):
    t = tracks.get(uuid, {})
    if 'tid' in t:
        return ('thread', t['tid'])
    name = t.get('name', '')
    parent = tracks.get(t.get('parent'), {})
    if name.startswith('stream ') and parent.get('name', '').startswith('GPU '):
        return ('stream', int(parent['name'][4:]), int(name[7:]))
    return ('lane', name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        tracks, events, process_name = read_pftrace(sys.argv[1])
    except (ValueError, IndexError, UnicodeDecodeError) as e:
        print('not a readable Trace: %s' % e)
        return 1
    order = sorted(range(len(events)), key=lambda i: events[i]['ts'])
    open_slices = defaultdict(list)
    slices = []
    counters = Counter()
    for i in order:
        ev = events[i]
        for uuid, value in ev['extra']:
            counters[(tracks[uuid]['name'], us(ev['ts']), value)] += 1
        if ev['type'] == 1:
            open_slices[ev['track']].append(ev)
        elif ev['type'] == 2:
            if not open_slices[ev['track']]:
                problem('SLICE_END at %d without a slice open' % ev['ts'])
                continue
            b = open_slices[ev['track']].pop()
            b['end'] = ev['ts']
            slices.append(b)
        elif ev['type'] == 4:
            counters[(tracks[ev['track']]['name'], us(ev['ts']),
                      ev['value'])] += 1
    lanes = defaultdict(list)
    for s in slices:
        if track_key(tracks, s['track'])[0] == 'lane':
            lanes[s['track']].append((s['ts'], s['end']))
    for track, spans in lanes.items():
        spans.sort()
        for (s0, e0), (s1, e1) in zip(spans, spans[1:]):
            if s1 < e0:
                problem('lane %d: [%d, %d] overlaps [%d, %d]'
                        % (track, s0, e0, s1, e1))
                break
    for track, left in open_slices.items():
        if left:
            problem('%d slices left open on track %d' % (len(left), track))
    pf_slices = Counter()
    for s in slices:
        pf_slices[(track_key(tracks, s['track']), s['cat'], s['name'],
                   us(s['ts']), us(s['end']) - us(s['ts']))] += 1

    doc = json.load(open(sys.argv[2]))
    js_slices, js_counters = Counter(), Counter()
    asyncs = {}
    flow_s, flow_f = {}, {}
    names = {}
    vpid = doc.get('otherData', {}).get('pid')
    for e in doc['traceEvents']:
        ph = e['ph']
        if ph == 'X':
            key = (('thread', e['tid']) if e['pid'] == vpid else
                   ('stream', e['pid'], e['tid']))
            js_slices[(key, e.get('cat', ''), e['name'], e['ts'],
                       e['dur'])] += 1
        elif ph in 'be':
            k = (e['cat'], e['id'])
            if ph == 'b':
                asyncs[k] = e
            else:
                b = asyncs.pop(k)
                lane = 'tensors' if e['cat'] == 'tensor' else 'NVTX ranges'
                js_slices[(('lane', lane), b['cat'], b['name'], b['ts'],
                           e['ts'] - b['ts'])] += 1
        elif ph == 'C':
            js_counters[(e['name'], e['ts'], e['args']['bytes'])] += 1
        elif ph == 's':
            flow_s[e['id']] = (e['tid'], e['ts'])
        elif ph == 'f':
            flow_f[e['id']] = (e['pid'], e['tid'], e['ts'])
        elif ph == 'M' and e['name'] == 'process_name' and e['pid'] == vpid:
            names['process'] = e['args']['name']
        elif ph == 'M' and e['name'] == 'thread_name' and e['pid'] == vpid:
            names[e['tid']] = e['args']['name']

    for what, js, pf in (('slice', js_slices, pf_slices),
                         ('counter', js_counters, counters)):
        for k in sorted((js - pf).keys(), key=repr)[:10]:
            problem('%s in the JSON, not in the pftrace: %r' % (what, k))
        for k in sorted((pf - js).keys(), key=repr)[:10]:
            problem('%s in the pftrace, not in the JSON: %r' % (what, k))

    # flows: id -> its slices in time order (Perfetto chains them)
    chains = defaultdict(list)
    for s in sorted(slices, key=lambda s: s['ts']):
        for fid in s['flows']:
            chains[fid].append(s)
    reach = {}          # (device, stream, ts_us, ) -> (source tid, ts)
    links = 0
    for fid, chain in chains.items():
        src = chain[0]
        key = track_key(tracks, src['track'])
        if key[0] != 'thread':
            if len(chain) > 1:
                problem('flow %d starts on %r, not a thread' % (fid, key))
            continue
        for dst in chain[1:]:
            dk = track_key(tracks, dst['track'])
            reach[(dk[1], dk[2], us(dst['ts']))] = (key[1], us(src['ts']))
            links += 1
    for fid, (tid, ts) in flow_s.items():
        dst = flow_f.get(fid)
        if dst is None:
            problem('JSON flow %r has no end' % fid)
            continue
        if reach.get(dst) != (tid, ts):
            problem('JSON flow from thread %d at %d us to %r: pftrace has %r'
                    % (tid, ts, dst, reach.get(dst)))
    if links != len(flow_s):
        problem('pftrace has %d flow links, the JSON %d arrows'
                % (links, len(flow_s)))

    if names.get('process') != process_name:
        problem('process named %r in the pftrace, %r in the JSON'
                % (process_name, names.get('process')))
    for t in tracks.values():
        if 'tid' in t and names.get(t['tid']) != t['name']:
            problem('thread %d named %r in the pftrace, %r in the JSON'
                    % (t['tid'], t['name'], names.get(t['tid'])))
    print('check_pftrace: %d slices, %d counter values, %d flows, %d tracks'
          % (sum(pf_slices.values()), sum(counters.values()), links,
             len(tracks)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
