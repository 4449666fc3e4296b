#!/usr/bin/env bash
# --gpu-records=work (the default) and kernels on library kernels and
# stream-ordered memory: cnn_train (cuDNN and cuBLAS/cuBLASLt launch their
# kernels through the driver inside the library calls we link) and
# torch_async_alloc (cudaMallocAsync/cudaFreeAsync on two streams, with
# copies). The reports equal each workload's ground truth at kernel and op
# granularity, as --gpu-records=full's do (test_cnn_train.sh,
# test_torch_async_alloc.sh), so every kernel is linked to its call with
# no CUPTI API record, and the summary names the mode.
. "$DNNTRACE_ROOT/tests/e2e/lib.sh"
. "$DNNTRACE_ROOT/tests/e2e/gpu_records_modes.sh"
require_built "$WORKLOADS/cnn_train" "$WORKLOADS/torch_async_alloc" "$DNNTRACE_BUILD/lib/libdnntrace.so" \
	"$DNNTRACE_BUILD/bin/dnntrace-analyze" "$SIMGPU_LIB/libcudnn.so.9" "$SIMGPU_LIB/libcublasLt.so.13"

for mode in work kernels; do
	for workload in cnn_train torch_async_alloc; do
		record_mode "$mode" "$WORKLOADS/$workload"
		dir=$e2e_tmp/$workload.$mode
		compare truth "$dir/truth" "$dir/report" >"$dir/compare.out" ||
			fail "$workload, $mode: reports differ from ground truth: $(head -n 3 "$dir/compare.out")"
		if [ -d "$dir/truth/op" ]; then
			compare truth "$dir/truth/op" "$dir/report-op" >"$dir/compare-op.out" ||
				fail "$workload, $mode: op reports differ from ground truth: $(head -n 3 "$dir/compare-op.out")"
		fi
	done
done
exit 0
