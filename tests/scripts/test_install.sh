#!/usr/bin/env bash
# `make install PREFIX=...` gives a layout the installed `dnntrace` finds its
# tracer, analyzer and helper scripts in, wherever it is run from.
. "$DNNTRACE_ROOT/tests/scripts/lib.sh"
[ -f "$DNNTRACE_BUILD/bin/dnntrace-analyze" ] || fail "missing dnntrace-analyze (build with make all)"
prefix="$scratch/prefix"
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$DNNTRACE_ROOT" install \
	PREFIX="$prefix" BUILD="$DNNTRACE_BUILD" >"$scratch/install.log" 2>&1 ||
	fail "make install failed: $(tail -n 2 "$scratch/install.log")"
for f in bin/dnntrace bin/dnntrace-analyze lib/dnntrace/libdnntrace.so include/dnntrace.h \
	share/dnntrace/scripts/lib/dnntrace-session.sh share/dnntrace/scripts/lib/dnntrace_plot.py \
	share/dnntrace/scripts/start_tracing.sh \
	share/dnntrace/scripts/stop_tracing.sh share/dnntrace/scripts/set_env.sh \
	share/dnntrace/scripts/post_process.sh share/dnntrace/python/dnntrace_torch/__init__.py \
	share/dnntrace/python/dnntrace_torch/shim/sitecustomize.py; do
	[ -e "$prefix/$f" ] || fail "not installed: $f"
done
exports=$(cd / && env -u DNNTRACE_BUILD -u LD_PRELOAD "$prefix/bin/dnntrace" env) || fail "installed dnntrace env failed"
ust_fork=$(find /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 \
	/usr/lib /usr/local/lib -maxdepth 1 -name liblttng-ust-fork.so.1 2>/dev/null | head -n 1)
echo "$exports" | grep -qxF "export LD_PRELOAD=$(printf %q "$prefix/lib/dnntrace/libdnntrace.so${ust_fork:+ $ust_fork}")" ||
	fail "installed dnntrace preloads the wrong library: $exports"
names=$(cd / && env -u DNNTRACE_BUILD -u PYTHONPATH "$prefix/bin/dnntrace" env --torch-names) ||
	fail "installed dnntrace env --torch-names failed"
echo "$names" | grep -qxF "export PYTHONPATH=$(printf %q "$prefix/share/dnntrace/python:$prefix/share/dnntrace/python/dnntrace_torch/shim")" ||
	fail "installed dnntrace puts the wrong Python path: $names"
ln -s "$prefix/bin/dnntrace" "$scratch/dnntrace-link"
(cd / && env -u DNNTRACE_BUILD "$scratch/dnntrace-link" env) | grep -q "$prefix/lib/dnntrace/libdnntrace.so" ||
	fail "dnntrace through a symlink does not find its library"
err=$(cd / && env -u DNNTRACE_BUILD "$prefix/bin/dnntrace" analyze "$scratch/none" -o "$scratch/out" 2>&1)
case "$err" in *"analyzer not found"*|"") fail "installed dnntrace analyze did not run the analyzer: $err" ;; esac
err=$(env -u DNNTRACE_BUILD "$prefix/share/dnntrace/scripts/set_env.sh")
echo "$err" | grep -q "$prefix/lib/dnntrace/libdnntrace.so" || fail "installed set_env.sh: $err"
exit 0
