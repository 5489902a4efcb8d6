#!/usr/bin/env bash
# The instruction count of one rain step (docs/benchmarks.md, "The scenes")
# under valgrind's callgrind: stable on a noisy machine, so a change's cost
# can be compared before and after it. bench_peers steps the scene WARM
# times with instrumentation off, then measures one step between
# CALLGRIND_START_INSTRUMENTATION / STOP (valgrind/callgrind.h).
#
#   tests/bench_callgrind.sh [BUILD_DIR] [N] [WARM] [ENGINE]
#     defaults: build/release 10000 599 ledge  (the 600th step: the pile)
#     ENGINE: ledge, chipmunk or box2d (those found at build time)
#   KEEP=1 keeps callgrind.out.rain-ENGINE-N for callgrind_annotate.
#   FRICTION=coulomb runs ledge under Coulomb's friction law (default: N's).
set -euo pipefail
build=${1:-build/release}
n=${2:-10000}
warm=${3:-599}
engine=${4:-ledge}
prog="$build/tests/bench_peers"
command -v valgrind >/dev/null || { echo "bench_callgrind: install valgrind" >&2; exit 1; }
[ -x "$prog" ] || { echo "bench_callgrind: build $prog first" >&2; exit 1; }
out="callgrind.out.rain-$engine-$n"
valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
    --callgrind-out-file="$out" "$prog" ${FRICTION:+--$FRICTION} --callgrind "$n" "$warm" "$engine" \
    >/dev/null 2>"$out.log" || { cat "$out.log" >&2; exit 1; }
# "summary:" stays 0 when collection is toggled; "totals:" has the count.
ir=$(awk '/^totals:/ { print $2; exit }' "$out")
printf '%s rain N = %s, step %s: %s instructions (Ir)\n' "$engine" "$n" "$((warm + 1))" \
    "$(printf "%'d" "$ir" 2>/dev/null || echo "$ir")"
if [ "${KEEP:-0}" = 1 ]; then
    echo "kept $out (callgrind_annotate $out)"
else
    rm -f "$out" "$out.log"
fi
