#!/usr/bin/env bash
# The instruction counts of the character mover (issue 15) under valgrind's
# callgrind: stable on a noisy machine, so a change's cost can be compared
# before and after it. bench_crowd runs the case untimed first, then with
# callgrind's instrumentation on for the measured part alone:
#   flat   1,000 moves of one character walking on a FULL floor (per move)
#   crowd  one frame of 1,000 characters in a 512 x 128 map, a move and a
#          ray each (per frame and per character)
#
#   tests/bench_callgrind_move.sh [BUILD_DIR]     default build/release
#   KEEP=1 keeps callgrind.out.move-CASE for callgrind_annotate.
set -euo pipefail
build=${1:-build/release}
prog="$build/tests/bench_crowd"
command -v valgrind >/dev/null || { echo "bench_callgrind_move: install valgrind" >&2; exit 1; }
[ -x "$prog" ] || { echo "bench_callgrind_move: build $prog first" >&2; exit 1; }
for what in flat crowd; do
    out="callgrind.out.move-$what"
    valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
        --callgrind-out-file="$out" "$prog" --callgrind "$what" \
        >/dev/null 2>"$out.log" || { cat "$out.log" >&2; exit 1; }
    # "summary:" stays 0 when collection is toggled; "totals:" has the count.
    ir=$(awk '/^totals:/ { print $2; exit }' "$out")
    if [ "$what" = flat ]; then
        printf 'one move on flat ground: %s instructions (Ir, mean of 1,000)\n' "$((ir / 1000))"
    else
        printf '1,000 characters, one frame: %s instructions (%s per character)\n' "$ir" \
            "$((ir / 1000))"
    fi
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept $out (callgrind_annotate $out)"
    else
        rm -f "$out" "$out.log"
    fi
done
