# tests/fuzz/: `make fuzz` mutates recorded traces and runs the ASan build of
# dnntrace-analyze on each (not part of `make test`; its short smoke,
# test_fuzz_smoke.sh, is). FUZZ_CASES, FUZZ_SEED, FUZZ_JOBS, FUZZ_KEEP,
# FUZZ_LOG: see run_fuzz.sh.

.PHONY: fuzz
fuzz: all
	$(MAKE) --no-print-directory SANITIZE=1 build-asan/bin/dnntrace-analyze
	tests/fuzz/run_fuzz.sh
