#!/usr/bin/env bash
# Command line: a tensor name holding a comma, a newline and a backslash
# (the scripted emitter's "names": tagged "a,b<newline>c\d") stays one entry
# in every format: G10's tensors.config and kernels.config escape it
# (\x2c, \n, \\), tensors.csv quotes it (RFC 4180).
. "$DNNTRACE_ROOT/tests/analysis/lib.sh"
record "$work/trace" "$emit" names >/dev/null || fail "could not record the names scenario"
"$analyze" "$work/trace" -o "$work/report" >/dev/null 2>"$work/err" ||
	fail "analyze failed: $(cat "$work/err")"
# shellcheck disable=SC1003 # a literal backslash
grep -qxF 'tensor0, Name: a\x2cb\nc\\d, Is global?: 1: Size in byte: 4096, ' "$work/report/tensors.config" ||
	fail "tensors.config: $(cat "$work/report/tensors.config")"
[ "$(wc -l <"$work/report/tensors.config")" = 1 ] || fail "tensors.config is not one line: $(cat "$work/report/tensors.config")"
grep -qF 'names_k(a\x2cb\nc\\d)' "$work/report/kernels.config" ||
	fail "kernels.config: $(cat "$work/report/kernels.config")"
python3 - "$work/report/tensors.csv" <<'PY' || fail "tensors.csv does not hold the name as one field"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
names = [v for row in rows[1:] for v in row if "a,b" in v]
sys.exit(0 if names == ["a,b\nc\\d"] and len(rows) == 2 else 1)
PY
exit 0
