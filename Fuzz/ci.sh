#!/usr/bin/env bash
# The CI fuzzing step: build the libFuzzer binary once and run every target for ${FUZZ_SECONDS:-30} seconds.
# Fails if any target finds a crash, a violated round-trip property, a timeout (> 10 s) or an OOM (> 2 GiB);
# the input is then in Fuzz/Crashes/TARGET/ (commit it under Fuzz/Reproducers/TARGET/ once the bug is fixed).
# Measured on the shared 2-core machine: see Fuzz/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
start=$SECONDS
status=0
./run.sh all "${FUZZ_SECONDS:-30}" || status=$?
echo "==> fuzzing step took $((SECONDS - start)) s (build included)"
exit $status
