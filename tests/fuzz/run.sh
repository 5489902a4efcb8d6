#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan+UBSan) and runs each one for a
# bounded time, starting from the seed corpus in tests/fuzz/corpus/<harness>
# (never written to: new inputs go to <build>/fuzz-corpus/<harness>, kept
# between runs so that coverage accumulates).
#
#   tests/fuzz/run.sh [SECONDS [BUILD_DIR [HARNESS...]]]
#
# SECONDS per harness (default 60), BUILD_DIR (default build/fuzz), the
# harnesses (default: collide tilemap world snapshot, and ldtk where
# ledge_ldtk is built). A harness's dictionary tests/fuzz/<harness>.dict is
# passed when it exists; the ldtk harness's inputs (JSON projects) may be
# 8 KB, the others' 4 KB. With LEDGE_FUZZ_RUNS=N set,
# each harness instead runs N inputs (the world harness N / 10) from the
# fixed seed 1, so that a run is repeatable (SECONDS then only caps it);
# `./run.sh test` does that. Prints one line per harness,
#   fuzz <harness>: ok|FAILED, <execs> executions, cov <n> ft <n>, corpus <n>
# and exits non-zero when one failed (crash, sanitizer report, broken
# invariant, timeout); the reproducer is then in <build>/fuzz-artifacts/.
# Docs: docs/robustness.md.
set -uo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-60}
build=${2:-build/fuzz}
shift 2 2>/dev/null || shift $#
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(collide tilemap world snapshot ldtk)

if ! command -v clang >/dev/null; then
    echo "fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
    exit 1
fi
if [ -f "$build/build.ninja" ]; then
    meson setup --reconfigure "$build" >/dev/null || exit 1
else
    CC=clang meson setup "$build" --buildtype=debugoptimized -Dfuzz=enabled \
        -Db_sanitize=address,undefined -Db_lundef=false -Dsamples=disabled >/dev/null || exit 1
fi
ninja -C "$build" >/dev/null || exit 1

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
status=0
for h in "${harnesses[@]}"; do
    work=$build/fuzz-corpus/$h
    art=$build/fuzz-artifacts/$h
    mkdir -p "$work" "$art"
    log=$build/fuzz-$h.log
    bound=()
    if [ ! -x "$build/tests/fuzz/fuzz_$h" ] && [ "$h" = ldtk ]; then
        echo "fuzz $h: skipped (ledge_ldtk is not built: jansson missing)"
        continue
    fi
    extra=(-max_len=4096)
    [ "$h" = ldtk ] && extra=(-max_len=8192)
    [ -f "tests/fuzz/$h.dict" ] && extra+=(-dict="tests/fuzz/$h.dict")
    # The kept reproducers run first in this (optimized, sanitized) build
    # too: some only misbehave with the optimizer's stack layout.
    crashes=()
    [ -d "tests/fuzz/crashes/$h" ] && crashes=("tests/fuzz/crashes/$h")
    if [ -n "${LEDGE_FUZZ_RUNS:-}" ]; then
        runs=$LEDGE_FUZZ_RUNS
        [ "$h" = world ] && runs=$((runs / 10))
        [ "$h" = snapshot ] && runs=$((runs / 10))
        [ "$h" = ldtk ] && runs=$((runs / 10))
        bound=(-runs="$runs" -seed=1)
    fi
    "$build/tests/fuzz/fuzz_$h" -max_total_time="$seconds" "${bound[@]}" -timeout=30 \
        -rss_limit_mb=2048 "${extra[@]}" -print_final_stats=1 -artifact_prefix="$art/" \
        "$work" "tests/fuzz/corpus/$h" "${crashes[@]}" >"$log" 2>&1
    rc=$?
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log")
    cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/cov \1 ft \2, corpus \3/p')
    if [ $rc -eq 0 ]; then
        echo "fuzz $h: ok, ${execs:-?} executions, ${cov:-no coverage line}"
    else
        echo "fuzz $h: FAILED (exit $rc), ${execs:-?} executions, ${cov:-no coverage line}; log $log"
        grep -E 'invariant failed|ERROR:|runtime error|SUMMARY' "$log" | head -n 5
        ls "$art" | head -n 3 | sed "s|^|    reproducer: $art/|"
        status=1
    fi
done
exit $status
