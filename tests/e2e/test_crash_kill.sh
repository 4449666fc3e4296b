#!/usr/bin/env bash
# End-to-end: a traced program SIGKILLed from outside while idle, or ended by
# a SIGTERM left at its default action: status, no session left, no hang,
# exact event counts (see crash_modes_check.sh).
exec bash "$DNNTRACE_ROOT/tests/e2e/crash_modes_check.sh" kill sigterm
