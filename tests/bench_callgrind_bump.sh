#!/usr/bin/env bash
# The instruction count of ledge_bump_move in the scene "bump crowd"
# (issue 19) under valgrind's callgrind: stable on a noisy machine, so a
# change's cost can be compared before and after it. bench_bump runs 59
# frames untimed, then the 60th with callgrind's instrumentation on.
#
#   tests/bench_callgrind_bump.sh [BUILD_DIR] [N...]   defaults: build/release 100 1000 10000
#   KEEP=1 keeps callgrind.out.bump-N for callgrind_annotate.
set -euo pipefail
build=${1:-build/release}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000 10000)
prog="$build/tests/bench_bump"
command -v valgrind >/dev/null || { echo "bench_callgrind_bump: install valgrind" >&2; exit 1; }
[ -x "$prog" ] || { echo "bench_callgrind_bump: build $prog first" >&2; exit 1; }
for n in "${sizes[@]}"; do
    out="callgrind.out.bump-$n"
    valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
        --callgrind-out-file="$out" "$prog" --callgrind "$n" \
        >/dev/null 2>"$out.log" || { cat "$out.log" >&2; exit 1; }
    # "summary:" stays 0 when collection is toggled; "totals:" has the count.
    ir=$(awk '/^totals:/ { print $2; exit }' "$out")
    printf 'bump crowd N = %s, one frame of ledge_bump_move: %s instructions (%s per move)\n' \
        "$n" "$ir" "$((ir / n))"
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept $out (callgrind_annotate $out)"
    else
        rm -f "$out" "$out.log"
    fi
done
