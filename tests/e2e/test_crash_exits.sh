#!/usr/bin/env bash
# End-to-end: a traced program ending with _exit, exit() from a second thread,
# or return from main while threads still launch: status, no session left, no hang,
# exact event counts (see crash_modes_check.sh).
exec bash "$DNNTRACE_ROOT/tests/e2e/crash_modes_check.sh" _exit thread_exit main_return
