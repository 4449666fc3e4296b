#!/usr/bin/env bash
# End-to-end: a traced program SIGKILLed from outside while 4 threads launch:
# every launch that had returned is in the trace, unless the kill landed
# inside an event, which record must then report (see crash_modes_check.sh).
exec bash "$DNNTRACE_ROOT/tests/e2e/crash_modes_check.sh" kill_busy
