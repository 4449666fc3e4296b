#!/usr/bin/env bash
# End-to-end: a traced program killed by SIGSEGV (with and without its own
# handler) or abort(): status, no session left, no hang,
# exact event counts (see crash_modes_check.sh).
exec bash "$DNNTRACE_ROOT/tests/e2e/crash_modes_check.sh" segv segv_handler abort
