# tests/gpu/module.mk: `make gpu-check`, dnntrace checked on this machine's
# real NVIDIA GPU (tests/gpu/README.md) with the build in $(BUILD). Never
# part of `make test` (CI has no GPU; tests/run_tests.sh runs only
# tests/*/test_*.sh, and nothing here is named so). Builds nothing into
# $(BUILD): the check compiles its programs in its own scratch directory.
# DNNTRACE_GPU_CHECK_SIMGPU=1 make gpu-check runs it on simgpu instead.

.PHONY: gpu-check
gpu-check: all
	@bash tests/gpu/run_gpu_check.sh $(BUILD)
