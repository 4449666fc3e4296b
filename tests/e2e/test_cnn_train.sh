#!/usr/bin/env bash
# End-to-end: trace the PyTorch-2-style CNN training step (convolutions
# through cudnnBackendExecute, batch norm through the legacy Ex calls, the
# linear layer through cublasLtMatmul, PyTorch's own kernels, two streams,
# no-caching allocation, a view into the batch buffer) on the simulated GPU
# and check the analyzer's reports against the workload's ground truth
# exactly: kernel order and names, api, inputs and outputs with their
# Dimensions, Birth/Death, periods and estimated times, memory; at kernel
# and at op granularity. Tracing must not change the program's output.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
workload="$WORKLOADS/cnn_train"
require_built "$workload" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudnn.so.9" \
	"$SIMGPU_LIB/libcublasLt.so.13"
check_library_workload "$workload"
