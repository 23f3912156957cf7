#!/usr/bin/env bash
# The CI fuzzing step: build the libFuzzer binary once and run every target for a fixed amount of work, the same on
# every machine: ${FUZZ_RUNS:-400000} executions per target (a tenth for the slow scenario target, a fortieth for rpc,
# half for mnemonic and jsonrpc), a fixed seed (-seed=1), Swift's deterministic hashing, and a fresh corpus seeded only from
# committed seeds, the official vectors and the reproducers. So a machine's speed or load changes how long the step
# takes, never how much it explores (libFuzzer's exploration is close to, not exactly, reproducible run to run). Fails if any target finds a crash, a violated round-trip property or
# an OOM (> 2 GiB); the per-input timeout is only a hang guard (300 s). The input is then in Fuzz/Crashes/TARGET/
# (commit it under Fuzz/Reproducers/TARGET/ once the bug is fixed). Figures: Fuzz/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
start=$SECONDS
status=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SWIFT_DETERMINISTIC_HASHING=1
FUZZ_WORK="$work" FUZZ_RUNS="${FUZZ_RUNS:-400000}" FUZZ_INPUT_TIMEOUT=300 ./run.sh all 0 -- -seed=1 || status=$?
echo "==> fuzzing step took $((SECONDS - start)) s (build included)"
exit $status
