#!/usr/bin/env bash
# run_fuzz.sh: what `make fuzz` runs. Records the input traces once
# (record_traces.sh, normal build), then mutates them FUZZ_CASES times
# (seeded: FUZZ_SEED) and runs the ASan analyzer on each
# (fuzz_analyzer.py), printing the counts. Exit 1 when any run crashed,
# hung, leaked or failed without one clean line.
#   FUZZ_CASES (5000) FUZZ_SEED (1) FUZZ_JOBS (2) FUZZ_ANALYZER (the ASan
#   build's dnntrace-analyze) FUZZ_KEEP (dir for failing
#   cases, none) FUZZ_LOG (one line per case, none)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd -P)
analyzer="${FUZZ_ANALYZER:-$root/build-asan/bin/dnntrace-analyze}"
[ -x "$analyzer" ] || { echo "run_fuzz: $analyzer missing (make SANITIZE=1)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/dnntrace-fuzz-traces.XXXXXX")
trap 'rm -rf "$work"' EXIT
mapfile -t traces < <("$root/tests/fuzz/record_traces.sh" "$root/build" "$work/traces" full)
[ "${#traces[@]}" = 4 ] || { echo "run_fuzz: recording the input traces failed" >&2; exit 1; }
extra=()
[ -n "${FUZZ_KEEP:-}" ] && extra+=(--keep "$FUZZ_KEEP")
[ -n "${FUZZ_LOG:-}" ] && extra+=(--log "$FUZZ_LOG")
python3 "$root/tests/fuzz/fuzz_analyzer.py" --analyzer "$analyzer" \
	--cases "${FUZZ_CASES:-5000}" --seed "${FUZZ_SEED:-1}" \
	--jobs "${FUZZ_JOBS:-2}" --watchdog 10 --work "$work/cases" "${extra[@]}" "${traces[@]}"
