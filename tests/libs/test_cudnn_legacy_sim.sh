#!/usr/bin/env bash
# Every wrapped cuDNN legacy call recorded on the simulated GPU: each call's
# event matches what the program passed (argument names, pointers, roles -
# READ_WRITE when beta != 0, z only when alpha2 != 0, ... - types, shapes
# from tensor and filter descriptors, set, reset, destroyed and re-created,
# or derived; tensor ids, a pointer inside an allocation included; params;
# handle and stream; status, failures included); the one kernel the
# simulated library launches per call is linked to the call's call_id, and
# is not traced again as a launch of the program; results are the same
# untraced and traced.
. "$DNNTRACE_ROOT/tests/libs/lib.sh"
check_cudnn_on_simgpu "$DNNTRACE_BUILD/tests/libs/cudnn_calls" legacy 25
exit 0
