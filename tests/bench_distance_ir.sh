#!/usr/bin/env bash
# Instructions per ledge_shape_distance call (apart pairs) and per
# ledge_collide call over the same pairs, for each pair kind of
# bench_distance, counted by valgrind's callgrind: unlike nanoseconds, the
# count does not move when the machine is busy. "mispredicts" is
# callgrind's simulated count of mispredicted branches per distance call
# (--branch-sim=yes: a simple predictor, not the CPU's, but it tells a
# branchy change from a branch-free one, which the instruction count
# alone does not: each real misprediction costs some 15 to 20 cycles).
# "call Ir" is the same loop calling an empty function of the same
# signature (bench_distance's empty call): the loop's and the call's share
# of "distance Ir", which the query itself does not spend.
#
#   tests/bench_distance_ir.sh [BUILD_DIR]    (default build/rel)
set -euo pipefail
build=${1:-build/rel}
prog="$build/tests/bench_distance"
command -v valgrind >/dev/null || { echo "bench_distance_ir: install valgrind" >&2; exit 1; }
[ -x "$prog" ] || { echo "bench_distance_ir: build $prog first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-20s %14s %10s %14s %7s %12s\n' pair "distance Ir" "call Ir" "collide Ir" ratio \
    mispredicts
for kind in circle-circle circle-box box-box circle-polygon polygon-circle box-polygon \
    polygon-polygon polygon8-polygon8; do
    declare -A ir=()
    for f in ir_distance ir_collide ir_empty; do
        valgrind --tool=callgrind --branch-sim=yes --collect-atstart=no --toggle-collect="$f" \
            --callgrind-out-file="$tmp/out" "$prog" --ir "$kind" >"$tmp/n" 2>/dev/null
        ir[$f]=$(awk '/^totals:/ { print $2; exit }' "$tmp/out")
        # events: Ir Bc Bcm Bi Bim (mispredicted conditional and indirect)
        [ "$f" = ir_distance ] && miss=$(awk '/^totals:/ { print $4 + $6; exit }' "$tmp/out")
    done
    n=$(cat "$tmp/n")
    awk -v k="$kind" -v d="${ir[ir_distance]}" -v c="${ir[ir_collide]}" -v e="${ir[ir_empty]}" \
        -v n="$n" -v m="$miss" \
        'BEGIN { printf "%-20s %14.1f %10.1f %14.1f %7.2f %12.1f\n", k, d / n, e / n, c / n, d / c, m / n }'
done
# The floor probe: ledge_tilemap_distance of a 0.8 x 1.8 box, reach 2 tiles.
valgrind --tool=callgrind --collect-atstart=no --toggle-collect=ir_floor \
    --callgrind-out-file="$tmp/out" "$prog" --ir floor >"$tmp/n" 2>/dev/null
awk -v d="$(awk '/^totals:/ { print $2; exit }' "$tmp/out")" -v n="$(cat "$tmp/n")" \
    'BEGIN { printf "%-20s %14.1f\n", "tilemap floor probe", d / n }'

