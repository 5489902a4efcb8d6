#!/usr/bin/env bash
# Builds ledge for the browser with Debian's emscripten (emcc 3.1.x), no
# ports, nothing downloaded (docs/web.md):
#   build.sh package OUT  the binding's module: OUT/ledge_wasm.mjs + .wasm
#   build.sh demo OUT     the page's module, the same plus the testbed
#                         (samples/scenes, samples/web/web_testbed.c):
#                         OUT/ledge_demo.mjs + .wasm
#   build.sh test OUT     the replay module of tests/web/hash.test.mjs (the
#                         testbed's scenes, tests/scenes.c, tests/web/replay*.c)
# The library's sources are the `ledge_modules` of meson.build, compiled
# with the native build's floating-point flags (-ffp-contract=off, no
# fast-math), so that the wasm build replays native runs bit for bit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
what=${1:?usage: build.sh package|demo|test OUT}
out=${2:?usage: build.sh package|demo|test OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# emscripten's JS tools need acorn, which Debian keeps in /usr/share/nodejs.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

# cglm and xxHash (src/hash.c) are used header-only; emcc must see their
# headers but not the rest of /usr/include.
inc=$out/.include
mkdir -p "$inc"
ln -sfn /usr/include/cglm "$inc/cglm"
ln -sfn /usr/include/xxhash.h "$inc/xxhash.h"
# tiled_flip.c (Tiled's flip flags) includes jansson.h for its types only.
ln -sfn /usr/include/jansson.h "$inc/jansson.h"
ln -sfn /usr/include/jansson_config.h "$inc/jansson_config.h"

mapfile -t modules < <(sed -n "/^ledge_modules = \[/,/^\]/p" "$root/meson.build" |
    grep -o "^  '[a-z_]*'" | tr -d " '")
sources=()
for m in "${modules[@]}"; do sources+=("$root/src/$m.c"); done
sources+=("$root/src/tiled_flip.c")
for f in "$root"/src/bindings/js/ledge_js*.c; do sources+=("$f"); done
# The testbed's scenes (and the sample game they play), as samples/scenes/meson.build
# lists them; the Tiled map's scene is left out (ledge_tiled needs jansson).
mapfile -t scene_files < <(sed -n "/^scene_sources = files(/,/^)/p" "$root/samples/scenes/meson.build" |
    grep -o "^  '[a-z_./]*\.c'" | tr -d " '")
scenes=()
for f in "${scene_files[@]}"; do scenes+=("$root/samples/scenes/$f"); done

# LEDGE_EMCC_EXTRA: more compiler flags, for trying options (e.g. -msimd128).
# -mbulk-memory: memcpy and memset are WebAssembly's memory.copy and
# memory.fill, not calls out to JavaScript (which allocated on the JS heap
# for every large copy: a step, a character's state, a body's contacts).
cflags=(-std=c11 -O3 -flto -mbulk-memory ${LEDGE_EMCC_EXTRA:-} -ffp-contract=off -fno-fast-math -Wall -Wextra -Werror
    -I"$root/include" -I"$root/src" -I"$inc")
ldflags=(-mbulk-memory -sMODULARIZE=1 -sEXPORT_ES6=1 -sALLOW_MEMORY_GROWTH=1 -sFILESYSTEM=0
    -sENVIRONMENT=web,worker -sEXPORTED_FUNCTIONS=_malloc,_free
    -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8)

case "$what" in
package)
    name=ledge_wasm
    ;;
demo)
    name=ledge_demo
    sources+=("${scenes[@]}" "$root/samples/web/web_testbed.c")
    ;;
test)
    name=ledge_replay
    sources+=("${scenes[@]}" "$root/tests/scenes.c" "$root/tests/web/replay.c"
        "$root/tests/web/replay_scenes.c")
    ;;
*)
    echo "build.sh: unknown target $what" >&2
    exit 2
    ;;
esac
factory=create_${name#ledge_}
emcc "${cflags[@]}" "${sources[@]}" "${ldflags[@]}" -sEXPORT_NAME="$factory" \
    -o "$out/$name.mjs"
echo "built $out/$name.mjs and $name.wasm ($(gzip -9c "$out/$name.wasm" | wc -c) bytes gzip)"
