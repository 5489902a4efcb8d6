#!/usr/bin/env bash
# Builds the Phaser sample into OUT (default build/web/phaser): Phaser 4 and
# Phaser 3 from this folder's npm packages (npm ci, from the lock file),
# the ledge-physics package (src/bindings/js, built when dist/ is missing),
# the ledge-phaser plugin and the page. Nothing is fetched at run time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build/web/phaser}
mkdir -p "$out/dist"
if [ ! -f "$here/node_modules/phaser/dist/phaser.min.js" ] || [ ! -f "$here/node_modules/phaser3/dist/phaser.min.js" ]; then
    (cd "$here" && npm ci --no-audit --no-fund --prefer-offline >/dev/null)
fi
if [ ! -f "$root/src/bindings/js/dist/ledge_wasm.wasm" ]; then
    "$root/src/bindings/js/build.sh" package "$root/src/bindings/js/dist"
fi
cp "$here/node_modules/phaser/dist/phaser.min.js" "$out/phaser.min.js"
cp "$here/node_modules/phaser3/dist/phaser.min.js" "$out/phaser3.min.js"
cp "$root/src/bindings/js/ledge.mjs" "$root/src/bindings/js/tiled.mjs" "$root/src/bindings/js/ldtk.mjs" "$out/"
cp "$root/src/bindings/js/dist/ledge_wasm.mjs" "$root/src/bindings/js/dist/ledge_wasm.wasm" "$out/dist/"
cp "$root/src/bindings/js/phaser/ledge-phaser.mjs" "$out/"
cp "$here/index.html" "$here/game.mjs" "$here/level.tmj" "$out/"
echo "built $out (Phaser $(node -p "require('$here/node_modules/phaser/package.json').version") and $(node -p "require('$here/node_modules/phaser3/package.json').version"))"
