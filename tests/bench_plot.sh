#!/usr/bin/env bash
# Runs the rain benchmark against the peers (tests/bench_peers.c) and draws
# docs/bench-rain.png: ms/step against N, log-log, one line per engine and
# the integrate-only floor. Needs gnuplot (Debian gnuplot-nox).
#
#   tests/bench_plot.sh [BUILD_DIR] [bench_peers args...]
#     e.g. tests/bench_plot.sh build/release --big --peers-max 100000
#   CSV=FILE   plot an existing bench_peers --csv FILE instead of running
# The table goes to stdout and, beside the plot, to docs/bench-rain.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
[ $# -gt 0 ] && shift
command -v gnuplot >/dev/null || { echo "bench_plot: install gnuplot-nox" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=${CSV:-}
if [ -z "$csv" ]; then
    csv="$tmp/rain.csv"
    "$build/tests/bench_peers" --csv "$csv" "$@" | tee docs/bench-rain.txt
    cp "$csv" docs/bench-rain.csv
fi

# One data file per engine, in the order they first appear.
engines=$(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$csv")
plot=""
for e in $engines; do
    awk -F, -v e="$e" 'NR > 1 && $1 == e { print $2, $3, $4 }' "$csv" >"$tmp/$e.dat"
    title=$e
    [ "$e" = floor ] && title="integrate-only floor"
    plot+="${plot:+, }'$tmp/$e.dat' using 1:2 with linespoints lw 2 pt 7 ps 1.2 title '$title'"
done
gnuplot <<GP
set terminal pngcairo size 900,600 font "DejaVu Sans,12"
set output 'docs/bench-rain.png'
set title "rain scene: ms per step (mean of 600 steps, median of runs), single-threaded"
set xlabel "N (circles)"
set ylabel "ms per step"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set grid xtics ytics mxtics mytics
set key top left
plot $plot
GP
echo "wrote docs/bench-rain.png"
