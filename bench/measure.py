#!/usr/bin/env python3
"""Runs a command ROUNDS times and prints its best wall time (s) and the peak
resident set (KiB) of its slowest-memory run: `measure.py ROUNDS CMD...`.
Used by run_bench.sh for benchmark (d); stdout of CMD is discarded."""
import os
import resource
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: measure.py ROUNDS CMD [ARGS...]")
    rounds = int(sys.argv[1])
    best = None
    peak_kib = 0
    for _ in range(rounds):
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            try:
                os.execvp(sys.argv[2], sys.argv[2:])
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - start
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"measure.py: {sys.argv[2]} failed (status {status})")
        best = wall if best is None else min(best, wall)
        peak_kib = max(peak_kib, usage.ru_maxrss)
    print(f"{best:.3f} {peak_kib}")


if __name__ == "__main__":
    main()
