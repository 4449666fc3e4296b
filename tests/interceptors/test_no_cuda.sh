#!/usr/bin/env bash
# Programs that never touch CUDA behave exactly as untraced under the
# preload and a recording session (same output, same status, nothing on
# stderr from the tracer, no dnntrace event): a shell pipeline, a program
# resolving symbols with dlsym (python3's ctypes, which dlsym()s libc
# functions through our wrapper), and a failing command keeps its status.
source "$DNNTRACE_ROOT/tests/interceptors/lib.sh"
require_built "$TRACER"

check_same() { # NAME CMD...
	local name=$1 want_rc got_rc
	shift
	"$@" >"$tmp/$name.plain" 2>"$tmp/$name.plain_err"
	want_rc=$?
	record_raw "$tmp/$name.trace" "$tmp/$name.out" "$tmp/$name.err" "" "$@"
	got_rc=$?
	[ "$got_rc" = "$want_rc" ] || fail "$name: status $got_rc traced, $want_rc untraced"
	cmp -s "$tmp/$name.plain" "$tmp/$name.out" || fail "$name: output differs when traced"
	cmp -s "$tmp/$name.plain_err" "$tmp/$name.err" || fail "$name: stderr differs when traced: $(head -n 2 "$tmp/$name.err")"
	[ -z "$(events "$tmp/$name.trace" | grep 'dnntrace_')" ] || fail "$name: dnntrace events from a program without CUDA"
}

check_same shell sh -c 'echo one; printf "%s\n" two | tr a-z A-Z; ls / >/dev/null'
check_same failing sh -c 'echo out; exit 3'
if command -v python3 >/dev/null; then
	check_same ctypes python3 -c 'import ctypes; libc = ctypes.CDLL(None); print(libc.abs(-7), libc.strlen(b"cuda"))'
fi
exit 0
