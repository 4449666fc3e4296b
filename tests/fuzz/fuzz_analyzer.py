#!/usr/bin/env python3
"""Fuzz driver for dnntrace-analyze: mutates recorded traces and runs the
analyzer (normally its ASan build) on each copy.

Mutations (seeded, deterministic: case i of seed S is always the same):
bit flips, byte overwrites, zeroed ranges, truncation (any file), metadata
text edits (re-packetized like LTTng writes them), packet header/context
edits, removed and duplicated stream files.

Each run is classified:
  crash     killed by a signal, a sanitizer error report, or an exit code
            other than 0, 1, 2
  hang      still running after --timeout seconds
  leak      a LeakSanitizer report
  messy     exit 1 or 2 without exactly one line on stderr, or exit 0 with
            anything on stderr
  rejected  exit 2 with one line (or 1: counted apart as usage)
  flagged   exit 0, output differs from the intact trace's, and the summary
            says the analysis is incomplete (damage or lost events)
  silent    exit 0, output differs, nothing says so
  same      exit 0, output identical to the intact trace's
Prints the counts, and the silent cases by mutation and by place (the file
region the mutation touched). Must never modify the input traces.
"""
import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

MD_MAGIC = 0x75D11D57
PKT_MAGIC = 0xC1FC1FC1
MD_HEADER = 37
PKT_HEAD = 84  # header 32 + context 52 (LTTng-UST, 64-bit, little-endian)

KINDS = ["bitflip", "overwrite", "zero", "truncate", "metadata_text",
         "packet_header", "remove_stream", "duplicate_stream"]


def trace_files(trace):
    """(relative path, role) of every file: metadata, stream, index."""
    out = []
    for root, _, files in os.walk(trace):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(root, f), trace)
            if f == "metadata":
                role = "metadata"
            elif os.sep + "index" + os.sep in os.sep + rel:
                role = "index"
            else:
                role = "stream"
            out.append((rel, role))
    return sorted(out)


def packets(data):
    """(offset, size) of the stream packets, following packet_size."""
    out, off = [], 0
    while off + PKT_HEAD <= len(data):
        size = struct.unpack_from("<Q", data, off + 56)[0] // 8
        if size < PKT_HEAD:
            break
        out.append((off, size))
        off += size
    return out


def unpacketize(data):
    text, off, hdr = b"", 0, None
    while off + MD_HEADER <= len(data):
        content, size = struct.unpack_from("<II", data, off + 24)
        hdr = hdr or data[off:off + MD_HEADER]
        text += data[off + MD_HEADER:off + content // 8]
        if size == 0:
            break
        off += size // 8
    return text, hdr


def packetize(text, hdr, packet=4096):
    out, chunk = b"", packet - MD_HEADER
    for i in range(0, max(len(text), 1), chunk):
        part = text[i:i + chunk]
        h = bytearray(hdr)
        struct.pack_into("<II", h, 24, (MD_HEADER + len(part)) * 8, packet * 8)
        out += bytes(h) + part + b"\0" * (chunk - len(part))
    return out


PLACE_ORDER = ["stream events", "stream packet header", "metadata", "index"]


def place_of(role, data, offsets):
    """The most telling region among the bytes a mutation changed: event
    payload first (a value the format cannot check), then packet headers."""
    if role != "stream":
        return role
    pk = packets(data)
    found = set()
    for o in offsets:
        for off, size in pk:
            if off <= o < off + size:
                content = struct.unpack_from("<Q", data, off + 48)[0] // 8
                found.add("stream packet header" if o - off < PKT_HEAD else
                          "stream events" if o - off < content else "stream padding")
                break
        else:
            found.add("stream (past packets)")
    for p in PLACE_ORDER:
        if p in found:
            return p
    return sorted(found)[0] if found else role


# Metadata edits that leave a valid description of the same byte layout
# change only what the payload's values mean: the format cannot check them
# any more than a flipped bit in an event. Two such places are told apart:
#   "metadata field order": two byte-aligned field declarations swapped,
#       either within one struct or of the same size (every struct's size
#       and every later offset unchanged);
#   "metadata clock values": a digit of the clock's freq, offset, offset_s
#       or precision (every timestamp scaled or shifted alike).
# Every other metadata edit is "metadata text".
FIELD_DECL = re.compile(rb"^\s*integer \{[^}]*\bsize = (\d+);[^}]*\balign = 8;[^}]*\} "
                        rb"_\w+(?:\[(\d+)\])?;\s*$")
CLOCK_VALUE = re.compile(rb"^\s*(freq|offset|offset_s|precision) = ")


def metadata_place(op, lines, i):
    if op == "digit" and CLOCK_VALUE.match(lines[i]):
        start = max((k for k in range(i) if lines[k].strip() == b"clock {"), default=None)
        if start is not None and all(lines[k].strip() != b"};" for k in range(start, i)):
            return "metadata clock values"
    return "metadata text"


def metadata_swap_place(lines, i, j):
    lo, hi = min(i, j), max(i, j)
    a, b = FIELD_DECL.match(lines[lo]), FIELD_DECL.match(lines[hi])
    if lo == hi or not a or not b:
        return "metadata text"
    bits = [int(m.group(1)) * int(m.group(2) or 1) for m in (a, b)]
    if bits[0] == bits[1] or all(FIELD_DECL.match(lines[k]) for k in range(lo, hi + 1)):
        return "metadata field order"
    return "metadata text"


def mutate(trace, rng):
    """Mutates the copy at trace; returns (kind, place, description)."""
    files = trace_files(trace)
    streams = [f for f, r in files if r == "stream"
               and os.path.getsize(os.path.join(trace, f)) > 0]
    kind = rng.choice(KINDS)
    if kind in ("metadata_text",):
        rel = rng.choice([f for f, r in files if r == "metadata"])
    elif kind in ("packet_header", "remove_stream", "duplicate_stream"):
        rel = rng.choice(streams)
    else:
        # streams and metadata most of the time, the index sometimes
        weighted = [(f, r) for f, r in files for _ in range(1 if r == "index" else 4)]
        rel = rng.choice(weighted)[0]
    role = dict(files)[rel]
    path = os.path.join(trace, rel)
    data = bytearray(open(path, "rb").read())
    desc = f"{kind} {rel}"
    place = role
    if kind == "bitflip" and data:
        n = rng.choice([1, 1, 1, 2, 4])
        offs = [rng.randrange(len(data)) for _ in range(n)]
        for o in offs:
            data[o] ^= 1 << rng.randrange(8)
        place = place_of(role, bytes(open(path, "rb").read()), offs)
        desc += f" bits at {offs}"
    elif kind == "overwrite" and data:
        o = rng.randrange(len(data))
        n = min(rng.choice([1, 2, 4, 8, 16, 64]), len(data) - o)
        data[o:o + n] = bytes(rng.randrange(256) for _ in range(n))
        place = place_of(role, bytes(open(path, "rb").read()), range(o, o + n))
        desc += f" {n} bytes at {o}"
    elif kind == "zero" and data:
        o = rng.randrange(len(data))
        n = min(rng.choice([1, 8, 64, 512, 4096]), len(data) - o)
        place = place_of(role, bytes(data), range(o, o + n))
        data[o:o + n] = b"\0" * n
        desc += f" {n} bytes at {o}"
    elif kind == "truncate":
        o = rng.randrange(len(data) + 1) if data else 0
        data = data[:o]
        desc += f" at {o}"
    elif kind == "metadata_text":
        text, hdr = unpacketize(bytes(data))
        lines = text.split(b"\n")
        op = rng.choice(["delete_chars", "delete_line", "dup_line", "digit",
                         "insert", "swap_lines", "cut_text"])
        i = rng.randrange(len(lines))
        place = metadata_place(op, lines, i)
        if op == "delete_chars" and lines[i]:
            a = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:a] + lines[i][a + rng.randint(1, 8):]
        elif op == "delete_line":
            del lines[i]
        elif op == "dup_line":
            lines.insert(i, lines[i])
        elif op == "digit":
            digits = [k for k, c in enumerate(lines[i]) if 48 <= c <= 57]
            if digits:
                k = rng.choice(digits)
                lines[i] = lines[i][:k] + bytes([48 + rng.randrange(10)]) + lines[i][k + 1:]
        elif op == "insert":
            a = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:a] + bytes([rng.choice(b"{};[]()=:\"x9 ")]) + lines[i][a:]
        elif op == "swap_lines":
            j = rng.randrange(len(lines))
            place = metadata_swap_place(lines, i, j)
            lines[i], lines[j] = lines[j], lines[i]
        text = b"\n".join(lines)
        if op == "cut_text":
            text = text[:rng.randrange(len(text))]
        data = bytearray(packetize(text, hdr) if hdr and data[:4] ==
                         struct.pack("<I", MD_MAGIC) else text)
        desc += f" {op} line {i}"
    elif kind == "packet_header":
        pk = packets(bytes(data)) or [(0, len(data))]
        off, _ = rng.choice(pk)
        fields = {"magic": (0, 4), "uuid": (4 + rng.randrange(16), 1),
                  "stream_id": (20, 4), "instance_id": (24, 8),
                  "ts_begin": (32, 8), "ts_end": (40, 8),
                  "content_size": (48, 8), "packet_size": (56, 8),
                  "seq_num": (64, 8), "events_discarded": (72, 8),
                  "cpu_id": (80, 4)}
        name = rng.choice(sorted(fields))
        fo, size = fields[name]
        if off + fo + size <= len(data):
            old = int.from_bytes(data[off + fo:off + fo + size], "little")
            new = rng.choice([0, old + 1, old - 1 if old else 1, old * 2,
                              rng.getrandbits(8 * size), (1 << (8 * size)) - 1,
                              old ^ (1 << rng.randrange(8 * size))])
            new &= (1 << (8 * size)) - 1
            data[off + fo:off + fo + size] = new.to_bytes(size, "little")
            desc += f" packet at {off} {name} {old} -> {new}"
        place = "stream packet header"
    elif kind == "remove_stream":
        os.remove(path)
        desc += " removed"
        return kind, "stream", desc
    elif kind == "duplicate_stream":
        how = rng.choice(["new_name", "over_other"])
        others = [s for s in streams if s != rel]
        if how == "over_other" and others:
            dst = rng.choice(others)
            shutil.copyfile(path, os.path.join(trace, dst))
            desc += f" copied over {dst}"
        else:
            shutil.copyfile(path, path + "_copy")
            desc += " copied as " + rel + "_copy"
        return kind, "stream", desc
    with open(path, "wb") as f:
        f.write(data)
    return kind, place, desc


def output_digest(out_dir):
    h = hashlib.sha256()
    for root, _, files in sorted(os.walk(out_dir)):
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(os.path.relpath(p, out_dir).encode() + b"\0")
            h.update(open(p, "rb").read())
    return h.hexdigest()


def summary_text(out_dir):
    text = ""
    for root, _, files in os.walk(out_dir):
        if "summary.txt" in files:
            text += open(os.path.join(root, "summary.txt"), errors="replace").read()
    return text


def run_analyzer(args, trace, out_dir):
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=1:halt_on_error=1:abort_on_error=0"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    cmd = [args.analyzer, trace, "-o", out_dir, "--watchdog-s", str(args.watchdog)]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=args.timeout, env=env)
        return p.returncode, p.stdout.decode(errors="replace"), \
            p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", ""


def classify(rc, stdout, stderr, out_dir, baseline):
    if rc is None:
        return "hang"
    if "LeakSanitizer" in stderr:
        return "leak"
    if rc < 0 or rc not in (0, 1, 2) or "ERROR: AddressSanitizer" in stderr \
            or "runtime error:" in stderr:
        return "crash"
    lines = [l for l in stderr.split("\n") if l]
    if rc != 0:
        if len(lines) != 1 or stderr.count("\n") != 1:
            return "messy"
        return "usage" if rc == 1 else "rejected"
    if stderr:
        return "messy"
    if output_digest(out_dir) == baseline:
        return "same"
    marked = "analysis incomplete" in summary_text(out_dir) + stdout
    return "flagged" if marked else "silent"


def one_case(args, traces, baselines, i):
    if args.deadline and time.monotonic() > args.deadline:
        return i, "", "", "", "", "not run", ""
    rng = random.Random(f"{args.seed}:{i}")
    name = traces[i % len(traces)]
    work = tempfile.mkdtemp(prefix=f"case{i}.", dir=args.work)
    try:
        trace = os.path.join(work, "trace")
        shutil.copytree(name, trace, symlinks=True)
        kind, place, desc = mutate(trace, rng)
        out_dir = os.path.join(work, "out")
        rc, stdout, stderr = run_analyzer(args, trace, out_dir)
        verdict = classify(rc, stdout, stderr, out_dir, baselines[name])
        if verdict in ("crash", "hang", "leak", "messy", "silent") and args.keep:
            dst = os.path.join(args.keep, f"{verdict}-{i}")
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(trace, os.path.join(dst, "trace"), symlinks=True)
            with open(os.path.join(dst, "what.txt"), "w") as f:
                f.write(f"{desc}\nrc={rc}\n--- stderr\n{stderr}\n--- stdout\n{stdout}\n")
        return i, os.path.basename(name), kind, place, desc, verdict, \
            stderr.strip().split("\n")[0][:200]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--analyzer", required=True)
    ap.add_argument("--cases", type=int, default=5000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--first", type=int, default=0, help="first case number")
    ap.add_argument("--only", default=None,
                    help="comma-separated case numbers to run (again)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--watchdog", type=int, default=5)
    ap.add_argument("--work", default=None)
    ap.add_argument("--keep", default=None, help="keep failing cases here")
    ap.add_argument("--log", default=None, help="one line per case")
    ap.add_argument("--budget-s", type=float, default=0,
                    help="start no case after this many seconds (0: none)")
    ap.add_argument("--min-cases", type=int, default=0,
                    help="fail when fewer cases ran (with --budget-s)")
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    args.work = args.work or tempfile.mkdtemp(prefix="dnntrace-fuzz.")
    os.makedirs(args.work, exist_ok=True)
    traces = [os.path.abspath(t) for t in args.traces]
    baselines = {}
    for t in traces:
        out_dir = tempfile.mkdtemp(dir=args.work)
        shutil.rmtree(out_dir)
        rc, _, stderr = run_analyzer(args, t, out_dir)
        if rc != 0 or stderr:
            sys.exit(f"fuzz: the intact trace {t} does not analyze cleanly "
                     f"(exit {rc}): {stderr[:500]}")
        baselines[t] = output_digest(out_dir)
        shutil.rmtree(out_dir)
    args.deadline = time.monotonic() + args.budget_s if args.budget_s else 0
    counts, silent, failures, silent_cases = {}, {}, [], []
    log = open(args.log, "w", buffering=1) if args.log else None
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        numbers = [int(n) for n in args.only.split(",")] if args.only else \
            range(args.first, args.first + args.cases)
        args.cases = len(numbers)
        futures = [pool.submit(one_case, args, traces, baselines, i)
                   for i in numbers]
        for fut in concurrent.futures.as_completed(futures):
            i, tname, kind, place, desc, verdict, line = fut.result()
            counts[verdict] = counts.get(verdict, 0) + 1
            if log:
                log.write(f"{i}\t{tname}\t{verdict}\t{desc}\t{line}\n")
            if verdict == "silent":
                key = (kind, place)
                silent[key] = silent.get(key, 0) + 1
                silent_cases.append((i, kind, place, desc))
            if verdict in ("crash", "hang", "leak", "messy"):
                failures.append((i, verdict, desc, line))
    if log:
        log.close()
    shutil.rmtree(args.work, ignore_errors=True)
    order = ["crash", "hang", "leak", "messy", "rejected", "usage", "flagged",
             "silent", "same"]
    ran = args.cases - counts.get("not run", 0)
    print(f"fuzz: {ran} of {args.cases} cases run (seed {args.seed}, "
          f"{len(traces)} traces)")
    print("  " + ", ".join(f"{k} {counts.get(k, 0)}" for k in order))
    for (kind, place), n in sorted(silent.items(), key=lambda kv: -kv[1]):
        print(f"  silent: {n} x {kind} in {place}")
    # each silent case named, so that a run elsewhere can be replayed with
    # --only (the mutation of case i is fixed by the seed; the traces are not)
    for i, kind, place, desc in sorted(silent_cases)[:40]:
        print(f"  silent case {i} ({kind} in {place}): {desc}")
    for i, verdict, desc, line in sorted(failures)[:20]:
        print(f"  {verdict} case {i}: {desc}: {line}")
    bad = sum(counts.get(k, 0) for k in ("crash", "hang", "leak", "messy"))
    if ran < args.min_cases:
        print(f"fuzz: only {ran} cases ran in {args.budget_s:g} s "
              f"(at least {args.min_cases} wanted)")
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
