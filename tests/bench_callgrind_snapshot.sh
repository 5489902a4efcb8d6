#!/usr/bin/env bash
# The instructions of one snapshot save, one restore and one step of the
# rain of 10,000 after 600 steps (docs/rollback.md, "Sizes and times")
# under valgrind's callgrind: stable on a shared machine. bench_snapshot
# --callgrind runs everything else with instrumentation off.
#
#   tests/bench_callgrind_snapshot.sh [BUILD_DIR] [N] [MODEL]
#     defaults: build/release 10000 n   (MODEL: n or coulomb)
#   KEEP=1 keeps callgrind.out.snapshot-WHAT for callgrind_annotate.
set -euo pipefail
build=${1:-build/release}
n=${2:-10000}
model=${3:-n}
prog="$build/tests/bench_snapshot"
command -v valgrind >/dev/null || { echo "bench_callgrind_snapshot: install valgrind" >&2; exit 1; }
[ -x "$prog" ] || { echo "bench_callgrind_snapshot: build $prog first" >&2; exit 1; }
declare -A ir
for what in save restore step; do
    out="callgrind.out.snapshot-$what"
    valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
        --callgrind-out-file="$out" "$prog" --friction "$model" --callgrind "$what" "$n" \
        >/dev/null 2>"$out.log" || { cat "$out.log" >&2; exit 1; }
    ir[$what]=$(awk '/^totals:/ { print $2; exit }' "$out")
    printf '%-8s %12s instructions (Ir)\n' "$what" "$(printf "%'d" "${ir[$what]}" 2>/dev/null || echo "${ir[$what]}")"
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $out"; else rm -f "$out" "$out.log"; fi
done
awk -v s="${ir[save]}" -v r="${ir[restore]}" -v t="${ir[step]}" \
    'BEGIN { printf "(save + restore) / step = %.2f\n", (s + r) / t }'
