#!/usr/bin/env bash
# cudnnBackendExecute recorded on the simulated GPU, graphs built the way
# cudnn-frontend builds them: every variant-pack pointer is listed as
# "uid<N>:<attribute>" with the role its graph gives it (conv+bias+relu with
# virtual intermediates and a plan from heuristics results; matmul output
# read by a pointwise op: READ_WRITE; conv backward data with beta != 0;
# an operation the tracer does not model: unknown roles, shapes kept; a uid
# in no graph), its shape and tensor id, the workspace, params, and the
# kernels the simulated library launches linked to the call; a failed
# execute is traced with its status. Statuses match the untraced run.
. "$DNNTRACE_ROOT/tests/libs/lib.sh"
check_cudnn_on_simgpu "$DNNTRACE_BUILD/tests/libs/cudnn_graph_calls" backend 5
exit 0
