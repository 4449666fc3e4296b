#!/usr/bin/env bash
# dnntrace_torch names the right tensors through dnntrace_tag, activated by
# the record shim in an unmodified program: every parameter, buffer,
# gradient, optimizer state and fresh module output with its own data
# pointer, each training step one NVTX range (check_naming.py, against a fake
# libdnntrace preloaded). Without the library the helper installs nothing;
# the sitecustomize it shadows still runs; programs not using torch never
# import it.
. "$DNNTRACE_ROOT/tests/python/lib.sh"
require_torch
cuda_home=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda_home/include/nvtx3/nvToolsExt.h" ] || fail "no NVTX 3 headers in $cuda_home/include"

fake="$scratch/fake_dnntrace.so"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -fPIC -shared -D_GNU_SOURCE -I"$cuda_home/include" \
	-o "$fake" "$TESTS_PYTHON/fake_dnntrace.c" 2>"$scratch/cc.log" ||
	fail "building fake_dnntrace.so failed: $(head -n 3 "$scratch/cc.log")"
# A sanitizer runtime preloaded by the test runner would have to come first.
with_fake() { env -u LD_PRELOAD FAKE_DNNTRACE_LOG="$scratch/tags.log" LD_PRELOAD="$fake" "$@"; }

out=$(with_fake PYTHONPATH="$SHIM_PYTHONPATH" "$python" "$TESTS_PYTHON/check_naming.py" "$scratch/tags.log" 2>&1) ||
	fail "$(echo "$out" | tail -n 1)"

# Without dnntrace_tag in the process: nothing installed, nothing logged.
inactive='
import sys, torch, dnntrace_torch
from torch.nn.modules import module
assert dnntrace_torch.active_namer() is None, "active without the library"
assert dnntrace_torch.activate() is False, "activate() without the library"
assert not module._global_forward_pre_hooks and not module._global_forward_hooks, "hooks installed"
assert not hasattr(torch.optim.Adam.step, "_dnntrace_wrapped"), "optimizer wrapped"
assert torch.optim.Optimizer.__init__.__module__ == "torch.optim.optimizer", "Optimizer.__init__ patched"
m = torch.nn.Linear(2, 2); o = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward(); o.step()
print("inactive ok")'
out=$(env -u LD_PRELOAD PYTHONPATH="$SHIM_PYTHONPATH" "$python" -c "$inactive" 2>&1)
[ "$out" = "inactive ok" ] || fail "without the library: $out"

# A failing dnntrace_tag never reaches the program: naming stops, one line
# says so, and the program computes and prints what it would have.
failing='
import sys, torch, dnntrace_torch
def broken_tag(pointer, name):
    raise OSError("tag failed")
if sys.argv[1] == "named":
    assert dnntrace_torch.activate(tag_function=broken_tag, nvtx=None)
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
o = torch.optim.SGD(m.parameters(), lr=0.5)
for _ in range(2):
    o.zero_grad(); m(torch.ones(4, 3)).sum().backward(); o.step()
print("%.6f" % m(torch.ones(1, 3)).sum().item())'
plain=$(env -u LD_PRELOAD PYTHONPATH="$PYTHON_DIR" "$python" -c "$failing" plain 2>&1)
out=$(env -u LD_PRELOAD PYTHONPATH="$PYTHON_DIR" "$python" -c "$failing" named 2>"$scratch/failing.err") || fail "a failing tag broke the program: $(tail -n 1 "$scratch/failing.err")"
[ "$out" = "$plain" ] || fail "a failing tag changed the output: $out vs $plain"
[ "$(grep -c 'naming disabled after an error' "$scratch/failing.err")" = 1 ] ||
	fail "a failing tag must be reported once: $(cat "$scratch/failing.err")"

# The user's own sitecustomize (later on the path) still runs, with and
# without the library; a program that never imports torch does not get it.
mkdir -p "$scratch/user"
echo 'print("user sitecustomize ran")' >"$scratch/user/sitecustomize.py"
no_torch='import sys; print("torch imported" if "torch" in sys.modules else "no torch")'
for runner in "env -u LD_PRELOAD" with_fake; do
	out=$($runner PYTHONPATH="$SHIM_PYTHONPATH:$scratch/user" "$python" -c "$no_torch" 2>&1)
	[ "$out" = "user sitecustomize ran
no torch" ] || fail "shim with $runner: user's sitecustomize or torch import wrong: $out"
done
exit 0
