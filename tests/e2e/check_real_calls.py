#!/usr/bin/env python3
"""check_real_calls.py: the trace of real_runtime_calls or real_driver_calls
(tests/workloads/) holds every traced call the program printed, in order,
with the result the program saw, and no tensor (every call failed).

  check_real_calls.py PROGRAM_OUTPUT TRACE_TEXT

PROGRAM_OUTPUT: the program's `name result` lines (`how:name result` for a
function reached through cuGetProcAddress or dlsym). TRACE_TEXT: babeltrace2
text of the recording. Prints one line per difference, exits 1 when any.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import parse_trace_text  # noqa: E402

# The calls the tracer records, and the event each becomes. Context setup,
# version queries, handle creation, entry-point lookups and VMM reservations
# are forwarded without an event (cudaFree(NULL) creates a context).
EVENT_OF_CALL = {
    "cudaMalloc": "dnntrace_api:alloc",
    "cudaMallocManaged": "dnntrace_api:alloc",
    "cudaMallocAsync": "dnntrace_api:alloc_async",
    "cudaMallocHost": "dnntrace_api:alloc",
    "cudaHostRegister": "dnntrace_api:alloc",
    "cudaHostUnregister": "dnntrace_api:free",
    "cudaMemcpy": "dnntrace_api:memcpy",
    "cudaMemset": "dnntrace_api:memset",
    "cudaLaunchKernel": "dnntrace_api:launch",
    "cublasSgemm_v2": "dnntrace_lib:call",
    "cublasSetStream_v2": "dnntrace_lib:set_stream",
    "cudnnConvolutionForward": "dnntrace_lib:call",
    "cudnnAddTensor": "dnntrace_lib:call",
    "cuMemAlloc_v2": "dnntrace_api:alloc",
    "cuMemAllocManaged": "dnntrace_api:alloc",
    "cuMemHostAlloc": "dnntrace_api:alloc",
    "cuMemHostRegister_v2": "dnntrace_api:alloc",
    "cuMemHostUnregister": "dnntrace_api:free",
    "cuLaunchKernel": "dnntrace_api:launch",
}


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    expected = {}  # (event, api) -> [results in call order]
    with open(argv[1]) as f:
        for line in f:
            words = line.split()
            if len(words) != 2 or not words[1].lstrip("-").isdigit():
                continue
            api = words[0].split(":")[-1]
            if api in EVENT_OF_CALL:
                expected.setdefault((EVENT_OF_CALL[api], api), []).append(int(words[1]))
    if not expected:
        problems.append("the program printed no traced call")

    printed = {}  # api -> [results] of every call the program printed
    with open(argv[1]) as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and words[1].lstrip("-").isdigit():
                printed.setdefault(words[0].split(":")[-1], []).append(int(words[1]))

    # Every api event the tracer wrote, by (event, api).
    traced = {}
    for e in parse_trace_text(argv[2]):
        if e["event"].split(":")[0] not in ("dnntrace_api", "dnntrace_lib") or "api" not in e:
            continue
        traced.setdefault((e["event"], e["api"]), []).append(e.get("result"))
        if e["event"] in ("dnntrace_api:alloc", "dnntrace_api:alloc_async") and e.get("tensor_id") != -1:
            problems.append(f"{e['api']}: failed allocation traced as tensor {e.get('tensor_id')}")
    for key, results in sorted(expected.items()):
        have = traced.get(key, [])
        if have != results:
            problems.append(f"{key[1]}: traced {key[0]} results {have}, the program saw {results}")
    # Calls traced beyond those required (e.g. cuMemCreate) must carry what
    # the program saw too; an event for a call it never made is wrong.
    for (event, api), results in sorted(traced.items(), key=str):
        if (event, api) in expected:
            continue
        if api not in printed:
            problems.append(f"{event} for {api}, which the program never called: {results}")
        elif api not in EVENT_OF_CALL and results != printed[api]:
            problems.append(f"{api}: traced {event} results {results}, the program saw {printed[api]}")
        elif api in EVENT_OF_CALL:
            problems.append(f"{api}: traced as {event}, expected {EVENT_OF_CALL[api]}")
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
