#!/usr/bin/env bash
# Builds ledge for the browser with Debian's emscripten (emcc 3.1.x), no
# ports, nothing downloaded (docs/web.md):
#   build.sh package OUT  the binding's module: OUT/ledge_wasm.mjs + .wasm
#   build.sh demo OUT     the page's module, the same plus the testbed
#                         (samples/scenes, samples/web/web_testbed.c):
#                         OUT/ledge_demo.mjs + .wasm
#   build.sh test OUT     the replay module of tests/web/hash.test.mjs (the
#                         testbed's scenes, tests/scenes.c, tests/web/replay*.c)
# The library's sources are the `ledge_modules` and the `ldtk_sources` (the
# LDtk loader) of meson.build, compiled with the native build's
# floating-point flags (-ffp-contract=off, no fast-math), so that the wasm
# build replays native runs bit for bit. The LDtk loader's JSON parser,
# jansson, is compiled from its source in subprojects/jansson (native
# builds use the system's).
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
rm -f "$inc/jansson.h" "$inc/jansson_config.h" # jansson's headers are subprojects/jansson's
jansson=$root/subprojects/jansson

mapfile -t modules < <(sed -n "/^ledge_modules = \[/,/^\]/p" "$root/meson.build" |
    grep -o "^  '[a-z_]*'" | tr -d " '")
sources=()
for m in "${modules[@]}"; do sources+=("$root/src/$m.c"); done
mapfile -t ldtk < <(sed -n "/^  ldtk_sources = files(/,/^  )/p" "$root/meson.build" |
    grep -o "^    'src/[a-z_]*\.c'" | tr -d " '")
[ ${#ldtk[@]} -gt 0 ] || { echo "build.sh: no ldtk_sources in meson.build" >&2; exit 1; }
for f in "${ldtk[@]}"; do sources+=("$root/$f"); done
sources+=("$root/src/tiled_flip.c")
for f in "$root"/src/bindings/js/ledge_js*.c; do sources+=("$f"); done
# The testbed's scenes (and the sample game they play), as samples/scenes/meson.build
# lists them, and the LDtk project's scene with the project compiled in (the
# module has no file system); the Tiled map's scene is left out (ledge_tiled
# reads its map from a file).
mapfile -t scene_files < <(sed -n "/^scene_sources = files(/,/^)/p" "$root/samples/scenes/meson.build" |
    grep -o "^  '[a-z_./]*\.c'" | tr -d " '")
scenes=()
for f in "${scene_files[@]}"; do scenes+=("$root/samples/scenes/$f"); done
level=$out/.ldtk_level.c
{
    echo "// samples/level.ldtk's bytes, for the scene ldtk (written by build.sh)."
    echo "const unsigned char scenes_ldtk_level[] = {"
    od -An -v -tx1 "$root/samples/level.ldtk" | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'
    echo "};"
    echo "const unsigned long scenes_ldtk_level_size = sizeof scenes_ldtk_level;"
} >"$level"
scenes+=("$root/samples/scenes/ldtk.c" "$level")
scene_flags=(-DSCENES_HAVE_LDTK -DSCENES_LDTK_EMBEDDED)

# LEDGE_EMCC_EXTRA: more compiler flags, for trying options (e.g. -msimd128).
# -mbulk-memory: memcpy and memset are WebAssembly's memory.copy and
# memory.fill, not calls out to JavaScript (which allocated on the JS heap
# for every large copy: a step, a character's state, a body's contacts).
cflags=(-std=c11 -O3 -flto -mbulk-memory ${LEDGE_EMCC_EXTRA:-} -ffp-contract=off -fno-fast-math -Wall -Wextra -Werror
    -I"$root/include" -I"$root/src" -I"$inc" -I"$jansson/src" -I"$jansson/config")
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
    cflags+=("${scene_flags[@]}")
    ;;
test)
    name=ledge_replay
    sources+=("${scenes[@]}" "$root/tests/scenes.c" "$root/tests/web/replay.c"
        "$root/tests/web/replay_scenes.c")
    cflags+=("${scene_flags[@]}")
    ;;
*)
    echo "build.sh: unknown target $what" >&2
    exit 2
    ;;
esac
# jansson as its CMake build compiles it (HAVE_CONFIG_H, its config headers
# in subprojects/jansson/config), with the same optimisation, as objects the
# link takes in; not under -Werror (hashtable_seed.c has a function only
# /dev/urandom's seeding uses).
objs=$out/.jansson
mkdir -p "$objs"
jansson_objs=()
for f in "$jansson"/src/*.c; do
    o=$objs/$(basename "$f" .c).o
    emcc -std=c11 -O3 -flto -mbulk-memory -ffp-contract=off -fno-fast-math -Wall -Wextra \
        -Wno-unused-function -DHAVE_CONFIG_H -I"$jansson/config" -I"$jansson/src" -c "$f" -o "$o"
    jansson_objs+=("$o")
done
factory=create_${name#ledge_}
emcc "${cflags[@]}" "${sources[@]}" "${jansson_objs[@]}" "${ldflags[@]}" -sEXPORT_NAME="$factory" \
    -o "$out/$name.mjs"
echo "built $out/$name.mjs and $name.wasm ($(gzip -9c "$out/$name.wasm" | wc -c) bytes gzip)"
