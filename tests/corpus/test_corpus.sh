#!/usr/bin/env bash
# The corpus (tests/corpus/run.sh) as a test: needs DNNTRACE_CORPUS, a
# directory with the user's cuda-samples and/or llm.c checkouts; skips (77)
# without it. Slow (nvcc builds, then two runs a program): run it by hand,
# e.g. DNNTRACE_CORPUS=/work/corpus TEST_FILTER=corpus TEST_TIMEOUT=3600.
set -u
[ -n "${DNNTRACE_CORPUS:-}" ] || { echo "SKIP: DNNTRACE_CORPUS not set (a directory with cuda-samples and/or llm.c)"; exit 77; }
exec "$(dirname "$0")/run.sh" "$DNNTRACE_CORPUS"
