#!/usr/bin/env bash
# Builds the web page into OUT (default build/web): the page's module
# (src/bindings/js/build.sh demo), the binding, index.html and main.mjs.
# Serve OUT with any static server (./run.sh web does).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/web}
"$root/src/bindings/js/build.sh" demo "$out"
cp "$root/src/bindings/js/ledge.mjs" "$root/src/bindings/js/tiled.mjs" "$root/src/bindings/js/ldtk.mjs" "$root/samples/web/index.html" "$root/samples/web/main.mjs" \
    "$root/samples/web/bench.html" "$root/samples/web/bench.mjs" "$root/tests/web/rain.mjs" "$out/"
