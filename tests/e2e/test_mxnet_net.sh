#!/usr/bin/env bash
# End-to-end: trace the MXNet-style network (legacy cuDNN API, cublasSgemm_v2,
# MXNet's own kernels; NaiveEngine order, Naive allocation) on the simulated
# GPU and check the analyzer's reports against the workload's ground truth
# exactly: kernel order and names, the api of each kernel, its input and
# output tensors (roles) with their Dimensions, Birth/Death, periods and
# estimated times, memory; at kernel and at op granularity. Tracing must not
# change the program's output or status.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/mxnet_net"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudnn.so.9" \
	"$SIMGPU_LIB/libcublas.so.13"
check_library_workload "$workload"
