#!/usr/bin/env bash
# Instructions and simulated cache misses per move of the Lua loops of
# tests/lua/bench_bump.lua (issue 19, scene "bump crowd") under valgrind's
# callgrind: exact counts where the machine's wall clock is noisy. Each
# loop runs twice in a whole luajit process, 10 and 30 frames; the
# difference is 20 frames of moves (setup, compilation and the first
# frames cancel). "L2" is a simulated 512 KB cache (--LL=524288,8,64), the
# size of one core's L2 on the development machine.
#
#   tests/bench_callgrind_bump_lua.sh LIBLEDGE_SO [LOOP...]   loops: ffi raw module normal
#   BUMP_N=1000 tests/bench_callgrind_bump_lua.sh build/rel/libledge.so module
set -euo pipefail
lib=${1:?usage: tests/bench_callgrind_bump_lua.sh LIBLEDGE_SO [ffi|raw|module|normal ...]}
shift
loops=("$@")
[ ${#loops[@]} -gt 0 ] || loops=(ffi raw module)
n=${BUMP_N:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "bench_callgrind_bump_lua: install valgrind" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# totals of one run: Ir D1mr DLmr (callgrind's event order: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw)
run() {
    BUMP_ONLY=$1 BUMP_RUNS=1 BUMP_SIZES=$n BUMP_FRAMES=$2 LEDGE_LIB=$lib \
        valgrind --tool=callgrind --cache-sim=yes --LL=524288,8,64 \
        --callgrind-out-file="$tmp/out" luajit "$root/tests/lua/bench_bump.lua" \
        >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
    awk '/^(summary|totals):/ { print $2, $6, $9; exit }' "$tmp/out"
}
for loop in "${loops[@]}"; do
    read -r i1 d1 l1 < <(run "$loop" 10)
    read -r i2 d2 l2 < <(run "$loop" 30)
    moves=$((20 * n))
    awk -v l="$loop" -v n="$n" -v m="$moves" -v i="$((i2 - i1))" -v d="$((d2 - d1))" -v c="$((l2 - l1))" \
        'BEGIN { printf "bump crowd Lua (%s) N=%d, frames 11-30: %.0f instructions, %.2f D1 read misses, %.2f L2 (512 KB) read misses per move\n", l, n, i / m, d / m, c / m }'
done
