#!/usr/bin/env bash
# Snapshots and the replay hash against another revision, in the same run
# (docs/rollback.md): builds REV's library (its tree from git, release)
# with this tree's tests/bench_snapshot.c, then runs REV's program and this
# build's in turn, RUNS times each (A B A B ...: a drift of the machine's
# speed meets both alike), and prints each run's row, then per column the
# median over the runs and the ratio this / REV.
#
#   tests/bench_snapshot_vs.sh REV [BUILD_DIR] [RUNS] [N]
#     defaults: build/release 5 10000 (N's friction law)
# REV's build is kept in build/vs-<commit> for the next call.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: tests/bench_snapshot_vs.sh REV [BUILD_DIR] [RUNS] [N]}
build=${2:-build/release}
runs=${3:-5}
n=${4:-10000}
base=build/vs-$(git rev-parse --short "$rev")
if [ ! -x "$base/build/tests/bench_snapshot" ]; then
    rm -rf "$base"
    mkdir -p "$base/src"
    git archive "$rev" | tar -x -C "$base/src"
    cp tests/bench_snapshot.c "$base/src/tests/"
    meson setup "$base/build" "$base/src" --buildtype=release -Dsamples=disabled >/dev/null
    ninja -C "$base/build" tests/bench_snapshot >/dev/null
fi
ninja -C "$build" tests/bench_snapshot >/dev/null
rows=$(mktemp)
for ((k = 1; k <= runs; ++k)); do
    printf 'base %s\n' "$("$base/build/tests/bench_snapshot" --friction n "$n" | tail -n 1)" >>"$rows"
    printf 'this %s\n' "$("$build/tests/bench_snapshot" --friction n "$n" | tail -n 1)" >>"$rows"
done
echo "rain of $n after 600 steps, $runs runs each, in turn; ms (medians of 15 within a run)"
echo "     N model bytes B/body save restore step step* (s+r)/step hash-ms hash"
cat "$rows"
python3 - "$rows" "$rev" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cols = {"save": 5, "restore": 6, "save + restore": None, "step": 7, "ledge_world_hash": 10}
def med(side, c):
    v = [float(r[c]) if c else float(r[5]) + float(r[6]) for r in rows if r[0] == side]
    return statistics.median(v)
print("median over the runs: %s | this tree | this / %s" % (sys.argv[2], sys.argv[2]))
for name, c in cols.items():
    a, b = med("base", c), med("this", c)
    print("  %-16s %9.4f ms | %9.4f ms | %.2f" % (name, a, b, b / a))
PY
rm -f "$rows"
