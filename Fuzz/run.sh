#!/usr/bin/env bash
# Fuzz Sandnet's decoders with libFuzzer.
#
#   Fuzz/run.sh TARGET SECONDS [--asan] [-- LIBFUZZER_FLAGS...]   fuzz one target (Fuzz/run.sh list shows them)
#   Fuzz/run.sh all SECONDS [--asan] [-- LIBFUZZER_FLAGS...]      every target in turn, SECONDS each (0: no limit)
#   FUZZ_RUNS=N Fuzz/run.sh TARGET|all 0 ...                       a fixed number of executions instead of a time
#   Fuzz/run.sh build [--asan]                                   only build the fuzzing binary
#   Fuzz/run.sh list                                             targets, -max_len, properties checked
#
# Builds one release binary for all targets (`--sanitize=fuzzer`, plus `--sanitize=address` with --asan) in
# Fuzz/.build-fuzz (Fuzz/.build-fuzz-asan), seeds each corpus from the synthetic seeds, the official vectors (when
# found: $SANDNET_VECTORS, Vectors/official, ../shared/vectors) and the project's scenarios, and keeps the
# growing corpus in Fuzz/corpus-work/TARGET. Crashes, leaks, timeouts and OOMs go to Fuzz/Crashes/TARGET/. Prints
# one line per target: executions, exec/s, coverage, corpus size, result. Exit status 1 if any target failed.
set -euo pipefail

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$FUZZ_DIR/.." && pwd)"
cd "$FUZZ_DIR"

usage() { sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[ $# -ge 1 ] || usage
COMMAND="$1"; shift
SECONDS_PER_TARGET=""
if [ "$COMMAND" != build ] && [ "$COMMAND" != list ]; then
    [ $# -ge 1 ] || usage
    SECONDS_PER_TARGET="$1"; shift
    [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || { echo "Error: SECONDS must be a whole number" >&2; exit 2; }
fi
ASAN=0
EXTRA=()
while [ $# -gt 0 ]; do
    case "$1" in
        --asan) ASAN=1 ;;
        --) shift; EXTRA=("$@"); break ;;
        *) echo "Error: unknown option $1" >&2; usage ;;
    esac
    shift
done

SANITIZERS=(--sanitize=fuzzer)
SCRATCH=.build-fuzz
# SwiftPM passes `-sanitize=fuzzer -sanitize=address` to swiftc as two flags, and swiftc keeps only the last one:
# the Swift code then has ASan but no coverage counters (libFuzzer sees only the C code and cannot make progress).
# Passing the combined list last restores both (checked: 135,994 counters instead of 3,935).
if [ "$ASAN" = 1 ]; then
    SANITIZERS+=(--sanitize=address -Xswiftc -sanitize=fuzzer,address)
    SCRATCH=.build-fuzz-asan
fi
BIN="$FUZZ_DIR/$SCRATCH/release/SandnetFuzz"
# Swift's runtime keeps metadata caches that LeakSanitizer reports as leaks; Swift 6.3's backtracer must be off
# or it takes the trap before libFuzzer and no crash file is written (toolchain.md §4).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export SWIFT_BACKTRACE=enable=no
# The main package declares its SandnetFuzzHarnesses product only for this build (Package.swift, fuzzing block).
export SANDNET_FUZZ_HARNESSES=1

build() {
    local start=$SECONDS
    echo "==> building SandnetFuzz (${SANITIZERS[*]}) in Fuzz/$SCRATCH"
    if ! swift build -c release --product SandnetFuzz --scratch-path "$SCRATCH" "${SANITIZERS[@]}" \
        -Xswiftc -DFUZZING >"$FUZZ_DIR/$SCRATCH.log" 2>&1; then
        tail -40 "$FUZZ_DIR/$SCRATCH.log" >&2
        echo "Error: the fuzzing build failed (full log: Fuzz/$SCRATCH.log)" >&2
        exit 1
    fi
    echo "==> built in $((SECONDS - start)) s"
}

build
[ "$COMMAND" = build ] && exit 0
if [ "$COMMAND" = list ]; then "$BIN" --list; exit 0; fi

# Official vectors, searched like `sandnet vectors` does (never committed; only read for seeds).
VECTORS=""
for candidate in "${SANDNET_VECTORS:-}" "$ROOT/Vectors/official" "$ROOT/../shared/vectors"; do
    if [ -n "$candidate" ] && [ -d "$candidate" ]; then VECTORS="$(cd "$candidate" && pwd)"; break; fi
done
[ -n "$VECTORS" ] || echo "note: no official vectors found; seeding from synthetic seeds and scenarios only"

if [ "$COMMAND" = all ]; then
    mapfile -t TARGETS < <("$BIN" --list | cut -f1)
else
    "$BIN" --list | cut -f1 | grep -qx "$COMMAND" || { echo "Error: unknown target $COMMAND" >&2; "$BIN" --list >&2; exit 2; }
    TARGETS=("$COMMAND")
fi

# FUZZ_RUNS: executions per target; a target slower per execution gets fewer (scaled to about the same time on the
# 2-core machine: the scenario and rpc targets run whole documents or call sequences per input).
runs_for() {
    case "$1" in
        rpc) echo $((FUZZ_RUNS / 40)) ;;
        scenario) echo $((FUZZ_RUNS / 10)) ;;
        mnemonic | jsonrpc) echo $((FUZZ_RUNS / 2)) ;;
        *) echo "$FUZZ_RUNS" ;;
    esac
}

WORK="${FUZZ_WORK:-$FUZZ_DIR/corpus-work}"
mkdir -p "$WORK/logs"
FAILED=0
SUMMARY=()
for target in "${TARGETS[@]}"; do
    max_len="$("$BIN" --list | awk -F'\t' -v t="$target" '$1 == t { print $2 }')"
    corpus="$WORK/$target"
    seeds="$WORK/seeds/$target"
    crashes="$FUZZ_DIR/Crashes/$target"
    rm -rf "$seeds"
    mkdir -p "$corpus" "$crashes" "$FUZZ_DIR/Reproducers/$target"
    seed_args=(--target="$target" --write-seeds="$seeds" --scenarios="$ROOT/Scenarios")
    [ -n "$VECTORS" ] && seed_args+=(--vectors="$VECTORS")
    "$BIN" "${seed_args[@]}" >/dev/null
    dict_args=()
    [ -f "$FUZZ_DIR/Dictionaries/$target.dict" ] && dict_args=(-dict="$FUZZ_DIR/Dictionaries/$target.dict")
    log="$WORK/logs/$target.log"
    echo "==> $target: ${SECONDS_PER_TARGET}s, -max_len=$max_len, $(ls "$seeds" | wc -l) seeds, $(ls "$corpus" | wc -l) corpus entries"
    start=$(date +%s.%N)
    set +e
    limit_args=(-max_total_time="$SECONDS_PER_TARGET")
    [ -n "${FUZZ_RUNS:-}" ] && limit_args+=(-runs="$(runs_for "$target")")
    "$BIN" --target="$target" \
        "${limit_args[@]}" -max_len="$max_len" -timeout="${FUZZ_INPUT_TIMEOUT:-10}" -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "${dict_args[@]}" ${EXTRA[@]+"${EXTRA[@]}"} \
        "$corpus" "$seeds" "$FUZZ_DIR/Reproducers/$target" >"$log" 2>&1
    rc=$?
    set -e
    elapsed=$(echo "$(date +%s.%N) - $start" | bc)
    # libFuzzer's final stats (-print_final_stats=1), else the last status line (`#N DONE` / `#N pulse`).
    execs=$( (grep -o 'stat::number_of_executed_units: [0-9]*' "$log" || true) | tail -1 | awk '{print $2}')
    [ -n "$execs" ] || execs=$( (grep -oE '^#[0-9]+' "$log" || true) | tail -1 | tr -d '#')
    execs=${execs:-0}
    cov=$( (grep -oE 'cov: [0-9]+' "$log" || true) | tail -1 | awk '{print $2}')
    per_second=$(echo "$execs / $elapsed" | bc)
    if [ $rc -eq 0 ]; then
        result=ok
    else
        result="FAILED (exit $rc): $(ls -t "$crashes" | head -1 || true) — see Fuzz/corpus-work/logs/$target.log"
        FAILED=1
        grep -E 'fuzz property violated|Fatal error|ERROR: (libFuzzer|AddressSanitizer)|SUMMARY' "$log" | head -5 >&2 || true
    fi
    line=$(printf '%-13s %12s execs %9s exec/s  cov %-6s corpus %-6s %s' "$target" "$execs" "$per_second" \
        "${cov:-?}" "$(ls "$corpus" | wc -l)" "$result")
    echo "$line"
    SUMMARY+=("$line")
done

echo
echo "==> summary (${SECONDS_PER_TARGET}s per target$([ "$ASAN" = 1 ] && echo ", ASan"))"
printf '%s\n' "${SUMMARY[@]}"
exit $FAILED
